"""Runs uploaded verifiers in child processes: `python -m fleet_tui.local.verifier_worker`.

The process is a pool (see `serve`): it imports fleet-python once and forks one child per
job. A job is a JSON file naming the bundle's `verifier.py`, the function, the cloudpickled
arguments the SDK sent, the instance's SQLite files and where to write the outcome. The
verifier receives a fleet-python env (local mode) whose `db("current")` and `db("seed")`
are that instance's databases, like a verifier running on Fleet. What it prints goes to
`stdout.txt` beside the job, cut after MAX_OUTPUT bytes; the outcome (`success`, `result`,
`error`) to the result file. Each job's child supervises the verifier (`process_tree`): on
SIGTERM, or when the verifier ends, it kills every process the verifier started.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import inspect
import json
import os
import re
import select
import signal
import string
import sys
import traceback
from pathlib import Path
from typing import Any

from fleet_tui.capped import result_value
from fleet_tui.process_tree import kill_group, supervise

MAX_OUTPUT = 256 * 1024
"""Bytes of a verifier's stdout (and of its stderr) kept in the job's files."""

# Lines the SDK's own executors strip: on Fleet the decorator and its import are provided.
_STRIP = [
    re.compile(r"@verifier\([^)]*\)\s*\n"),
    re.compile(r"^from fleet\.verifiers.*import.*verifier.*$\n?", re.MULTILINE),
    re.compile(r"^from fleet import verifier.*$\n?", re.MULTILINE),
    re.compile(r"^import fleet\.verifiers.*$\n?", re.MULTILINE),
    re.compile(r"^import fleet$\n?", re.MULTILINE),
]


def _namespace() -> dict[str, Any]:
    """The globals a Fleet verifier may use without importing them."""
    from fleet.verifiers import local_executor as helpers
    from fleet.verifiers.code import TASK_FAILED_SCORE, TASK_SUCCESSFUL_SCORE
    from fleet.verifiers.db import DatabaseSnapshot, IgnoreConfig, SnapshotDiff

    return {
        "__name__": "verifier",
        "TASK_SUCCESSFUL_SCORE": TASK_SUCCESSFUL_SCORE,
        "TASK_FAILED_SCORE": TASK_FAILED_SCORE,
        "normalized_contains": helpers.normalized_contains,
        "normalized_string_comparison": helpers.normalized_string_comparison,
        "extract_numbers": helpers.extract_numbers,
        "contains_number": helpers.contains_number,
        "DatabaseSnapshot": DatabaseSnapshot,
        "IgnoreConfig": IgnoreConfig,
        "SnapshotDiff": SnapshotDiff,
        "Environment": object,
        "json": json,
        "re": re,
        "string": string,
    }


@functools.cache
def _template_env():
    """A fleet-python env in local mode; built once (its httpx clients are slow to make)."""
    from fleet.client import Fleet

    return Fleet(api_key="local", base_url="http://127.0.0.1:1").instance(
        {"current": ":memory:", "seed": ":memory:"}
    )


def _env(job: dict[str, Any]):
    """The template env pointed at this job's instance databases."""
    env = _template_env()
    databases = env.instance._resources_state["sqlite"]
    for name in ("current", "seed"):
        databases[name] = {**databases[name], "db_path": job[f"{name}_db"], "is_memory": False}
    env.instance_id = job["instance_id"]
    env.env_key = job["env_key"]
    return env


def _arguments(encoded: str | None) -> tuple[list[Any], dict[str, Any]]:
    """The SDK sends `(None, *args, {"env": instance_id})`: keep only the caller's args."""
    if not encoded:
        return [], {}
    import cloudpickle

    payload = cloudpickle.loads(base64.b64decode(encoded))
    args = list(payload.get("args") or ())
    if args and args[0] is None:
        args = args[1:]
    if args and isinstance(args[-1], dict) and set(args[-1]) == {"env"}:
        args = args[:-1]
    return args, dict(payload.get("kwargs") or {})


def execute(job: dict[str, Any]) -> dict[str, Any]:
    try:
        source = Path(job["verifier_path"]).read_text()
        for pattern in _STRIP:
            source = pattern.sub("", source)
        namespace = _namespace()
        exec(compile(source, "verifier.py", "exec"), namespace)
        name = job["function_name"]
        function = namespace.get(name)
        if not inspect.isfunction(function):
            raise LookupError(f"verifier.py defines no function named {name!r}")
        args, kwargs = _arguments(job.get("args"))
        result = function(_env(job), *args, **kwargs)
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
        return {"success": True, "result": result_value(result), "error": None}
    except BaseException as error:
        return {
            "success": False,
            "result": None,
            "error": {
                "type": type(error).__name__,
                "message": str(error) or type(error).__name__,
                "traceback": traceback.format_exc(),
            },
        }


def run_job(job_path: str) -> int:
    """Execute one job file and write its outcome where the job says."""
    job = json.loads(Path(job_path).read_text())
    outcome = execute(job)
    sys.stdout.flush()
    Path(job["result_path"]).write_text(json.dumps(outcome))
    return 0


def _run_child(job_path: str, protocol: int) -> None:
    """In a forked child: own session, stdout/stderr to files beside the job, the verifier
    supervised (it and all it starts are killed when it ends or this child gets SIGTERM)."""
    os.close(protocol)
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    scratch = Path(job_path).parent
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, name in ((1, "stdout.txt"), (2, "stderr.txt")):
        target = os.open(scratch / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    code = 1
    try:
        code = supervise(functools.partial(run_job, job_path), MAX_OUTPUT)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def preload() -> None:
    """Import and make what every job's child needs (a warm process that forks the pool calls
    it too, so the pool starts with it made)."""
    import cloudpickle  # noqa: F401  (preloaded for the children)

    _namespace()
    _template_env()


def serve() -> None:
    """The pool: read `{"id", "job"}` lines on stdin, fork one child per job, and report
    `{"id", "pid"}` when it starts and `{"id", "exit"}` when it ends. fleet-python is
    imported once here, so each verifier starts in milliseconds."""
    preload()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    protocol = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    children: dict[int, str] = {}
    pending = b""

    def report(message: dict[str, Any]) -> None:
        os.write(protocol, (json.dumps(message) + "\n").encode())

    while True:
        ready, _, _ = select.select([0], [], [], 0.02)
        if ready:
            chunk = os.read(0, 65536)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    _run_child(request["job"], protocol)
                children[pid] = request["id"]
                report({"id": request["id"], "pid": pid})
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            kill_group(pid)  # what is left of the job's session (where there is no /proc)
            report({"id": children.pop(pid), "exit": os.waitstatus_to_exitcode(status)})
    for pid in children:
        kill_group(pid)


def main(argv: list[str]) -> int:
    """`python -m fleet_tui.local.verifier_worker LOG`: serve, writing stderr to LOG."""
    log = os.open(argv[0], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 2)
    os.close(log)
    serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
