"""`fleet-tui warm list|stop`: the warm sessions `--keep-warm` left running, and ending them.
(`fleet-tui warm serve` is the daemon itself, started by `--keep-warm`.)"""

from __future__ import annotations

import argparse
import os

KEEP_WARM_S = 300.0
KEEP_WARM_VARIABLE = "FLEET_TUI_KEEP_WARM"


def add_keep_warm_argument(parser: argparse.ArgumentParser) -> None:
    """`--keep-warm [SECONDS]` (default from $FLEET_TUI_KEEP_WARM)."""
    parser.add_argument(
        "--keep-warm",
        metavar="SECONDS",
        nargs="?",
        type=seconds,
        const=KEEP_WARM_S,
        default=keep_warm_default(),
        help="leave the session open in the background for the next call or tools on the same "
        f"--mcp endpoints from this directory, until unused for SECONDS (default "
        f"{KEEP_WARM_S:g}; also ${KEEP_WARM_VARIABLE}); fleet-tui warm stop ends it",
    )


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"expected seconds (up to a week), got {text!r}")
    return value


def keep_warm_default() -> float | None:
    text = os.environ.get(KEEP_WARM_VARIABLE)
    if not text:
        return None
    try:
        return seconds(text)
    except argparse.ArgumentTypeError:
        return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action", choices=["list", "stop", "serve"], help="list or stop the warm sessions"
    )


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.output import out
    from fleet_tui.warm.start import ask, daemons

    if args.action == "serve":
        return serve()
    if args.action == "stop":
        stopped = sum(ask(path, {"stop": True}) is not None for path in daemons())
        out(f"stopped {stopped} warm session{'' if stopped == 1 else 's'}")
        return 0
    for path in daemons():
        status = ask(path, {"status": True})
        if status is not None:
            out(
                f"{', '.join(status['urls'])}  from {status['cwd']}  ({status['served']} served, "
                f"unused for {status['unused_s']:g}s of {status['idle_s']:g}s)"
            )
    return 0


def serve() -> int:
    """The daemon: its target and idle time come on stdin (JSON), never on the command line."""
    import asyncio
    import json
    import sys

    from fleet_tui.commands.warm_daemon import WarmDaemon, take_lock
    from fleet_tui.envs.targets import McpTarget
    from fleet_tui.text import remember_secret_values
    from fleet_tui.warm.place import runtime_dir, socket_path, target_key

    settings = json.loads(sys.stdin.read())
    target = McpTarget(urls=settings["urls"], headers=settings["headers"])
    remember_secret_values(list(target.headers.values()))
    folder = runtime_dir(create=True)
    if folder is None:
        return 1
    key = target_key(os.getcwd(), target.urls)
    lock = take_lock(folder / f"{key}.lock")
    if lock is None:
        return 0  # another daemon serves this target already
    daemon = WarmDaemon(target, os.getcwd(), settings["idle_s"], socket_path(folder, key), lock)
    return asyncio.run(daemon.run())
