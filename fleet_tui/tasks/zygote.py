"""The verifier zygote: `python -m fleet_tui.tasks.zygote`, a warm process that forks verifier
children, so each one starts without importing fleet-python again (see `child_launch`).

It imports what the verifier children need once, then waits on its control socket (its stdin,
a socketpair end only the fleet-tui process that started it holds). Each request there is one
byte carrying four file descriptors: the child's stdin, stdout and stderr, and a socket of its
own (the request's channel). For each, the zygote forks a child, which reads the request from
the channel (JSON `{module, args, env, cwd}`, up to the channel's end), leaves for a session of
its own (`os.setsid()`), writes its pid on the channel and runs `module.main(args)`. When the
child exits, the zygote writes `exit CODE` on the channel. When the control socket closes (the
fleet-tui process ended), the zygote kills the children still running and exits.

The zygote is a fresh, single-threaded process: forking it is safe where forking the app (with
its threads) would not be.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import sys
import traceback

from fleet_tui.local import verifier_worker
from fleet_tui.process_tree import kill_group
from fleet_tui.tasks import remote_child, verifier_child

STREAMS = 3
"""The child's stdin, stdout and stderr, sent with each request before its channel."""
PRELOADED = (
    "fleet",
    "fleet.verifiers.local_executor",
    "fleet._async.tasks",
    "fleet_tui.tasks.remote_child",
    "fleet_tui.tasks.remote",
)
"""The slow imports every verifier child would otherwise repeat."""
REQUEST_LIMIT = 16 * 1024 * 1024
"""Bytes of one request (its environment is most of it)."""


def serve(control: socket.socket) -> None:
    """Fork a child for each request on `control` until it closes."""
    for module in PRELOADED:
        importlib.import_module(module)
    verifier_child.local_fleet()
    remote_child.sdk_http_client()
    verifier_worker.preload()  # for a local host's verifier pool, forked from here too
    gc.collect()
    gc.freeze()  # children's collections skip what is here: fewer copy-on-write page faults
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_write)
    channels: dict[int, socket.socket] = {}
    while True:
        ready, _, _ = select.select([control.fileno(), wake_read], [], [])
        if wake_read in ready:
            os.read(wake_read, 256)
            report_exits(channels)
        if control.fileno() in ready:
            try:
                message, fds, _, _ = socket.recv_fds(control, 1, STREAMS + 1)
            except OSError:
                break
            if not message:
                break
            if len(fds) != STREAMS + 1:  # not a request: nothing to answer on
                for fd in fds:
                    os.close(fd)
                continue
            keep = [
                control.fileno(),
                wake_read,
                wake_write,
                *(c.fileno() for c in channels.values()),
            ]
            pid = fork_child(fds, closing=keep)
            for fd in fds[:STREAMS]:
                os.close(fd)
            channels[pid] = socket.socket(fileno=fds[STREAMS])
    for pid in channels:  # the fleet-tui process is gone: no one waits for them
        kill_group(pid)


def report_exits(channels: dict[int, socket.socket]) -> None:
    """Reap the children that exited and write each one's `exit CODE` on its channel."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        channel = channels.pop(pid, None)
        if channel is not None:
            with contextlib.suppress(OSError):  # no one is listening any more
                channel.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
            channel.close()


def fork_child(fds: list[int], closing: list[int]) -> int:
    """Fork the child for one request; in the child, never return."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        for fd in closing:
            os.close(fd)
        code = run_request(fds)
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(OSError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def run_request(fds: list[int]) -> int:
    """In the child: its own session and streams, then the request's module run."""
    os.setsid()
    for target, fd in enumerate(fds[:STREAMS]):
        os.dup2(fd, target)
        os.close(fd)
    with socket.socket(fileno=fds[STREAMS]) as channel:
        request = json.loads(read_to_end(channel))
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        sys.argv = [request["module"], *request["args"]]
        channel.sendall(f"{os.getpid()}\n".encode())
    try:
        return int(importlib.import_module(request["module"]).main(request["args"]) or 0)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 1


def read_to_end(channel: socket.socket) -> bytes:
    data = b""
    while chunk := channel.recv(65536):
        data += chunk
        if len(data) > REQUEST_LIMIT:
            raise ValueError("the request is too large")
    return data


def main() -> int:
    control = socket.socket(fileno=os.dup(0))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    serve(control)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
