"""Local verifier mode: run a verifier on this machine, in a child process with a timeout,
against SQLite files written from snapshots of the env's resources.

Children start in a session of their own. At the timeout (or a cancel) the child is asked to
stop (SIGTERM: a supervising child then kills every process the verifier started, see
`process_tree`), and its process group is killed if it has not ended within STOP_GRACE_S.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from fleet_tui.envs.base import Verdict
from fleet_tui.process_tree import kill_group
from fleet_tui.tasks.child_launch import ChildProcess, start_child
from fleet_tui.tasks.snapshot import DbSnapshot, write_sqlite
from fleet_tui.tasks.verifier_child import READY

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 30.0
STARTUP_TIMEOUT_S = 120.0
"""How long the child may take to start Python and import the SDK."""
STOP_GRACE_S = 5.0
"""How long a child asked to stop may take to kill what it started and end."""
PASSING_SCORE = 1.0
"""Fleet's TASK_SUCCESSFUL_SCORE: a verifier returning this (or more) means the task passed."""


def score_of(result: Any) -> float | None:
    """A verifier's return value as a score: numbers and bools, or a dict's `score`."""
    if isinstance(result, dict):
        result = result.get("score")
    if isinstance(result, bool):
        return 1.0 if result else 0.0
    if isinstance(result, int | float):
        return float(result)
    return None


def verdict_from_outcome(
    outcome: dict[str, Any], *, task_key: str | None, elapsed_ms: float, mode: str
) -> Verdict:
    """A Verdict from the child's (or a Fleet execute response's) outcome fields."""
    score = score_of(outcome.get("result")) if outcome.get("success") else None
    return Verdict(
        task_key=task_key,
        success=bool(outcome.get("success")),
        score=score,
        passed=bool(outcome.get("success")) and score is not None and score >= PASSING_SCORE,
        stdout=outcome.get("stdout") or "",
        error_type=outcome.get("error_type"),
        error_message=outcome.get("error_message"),
        traceback=outcome.get("traceback"),
        execution_time_ms=elapsed_ms,
        mode=mode,
    )


async def stop(process: ChildProcess) -> None:
    """Ask the child to stop (SIGTERM) unless it has ended, give it STOP_GRACE_S, then kill
    what is left of its process group."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(process.wait()), STOP_GRACE_S)
    kill_group(process.pid)
    await process.wait()


async def wait_or_kill(process: ChildProcess, step: Awaitable[T], limit_s: float) -> T:
    """`step`, given at most `limit_s`; on a timeout (TimeoutError) or a cancel, the child is
    stopped first."""
    try:
        return await asyncio.wait_for(step, limit_s)
    except (TimeoutError, asyncio.CancelledError):
        await stop(process)
        raise


async def run_verifier_files(
    code: str,
    databases: dict[str, Path],
    *,
    final_answer: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    task_key: str | None = None,
) -> Verdict:
    """Run `code` in a child process against SQLite files ({resource name: path})."""
    with tempfile.TemporaryDirectory(prefix="fleet-tui-verify-") as scratch:
        request_path, result_path = Path(scratch, "request.json"), Path(scratch, "result.json")
        request = {
            "code": code,
            "databases": {name: str(path) for name, path in databases.items()},
            "final_answer": final_answer,
        }
        request_path.write_text(json.dumps(request), encoding="utf-8")
        process = await start_child(
            "fleet_tui.tasks.verifier_child", str(request_path), str(result_path)
        )
        assert process.stdout is not None and process.stderr is not None  # started piped
        started = time.perf_counter()
        try:
            ready = await wait_or_kill(process, process.stdout.readline(), STARTUP_TIMEOUT_S)
        except TimeoutError:
            return verdict_from_outcome(
                _timed_out("the verifier process did not start in time"),
                task_key=task_key,
                elapsed_ms=(time.perf_counter() - started) * 1000,
                mode="local",
            )
        if ready.decode(errors="replace").strip() == READY:
            started = time.perf_counter()
        # The child cuts the verifier's output (OUTPUT_LIMIT), so reading it whole is safe.
        out = asyncio.ensure_future(process.stdout.read())
        err = asyncio.ensure_future(process.stderr.read())
        try:
            await wait_or_kill(process, process.wait(), timeout_s)
        except TimeoutError:
            outcome = _timed_out(f"the verifier did not finish within {timeout_s:g} s")
        except asyncio.CancelledError:
            out.cancel()
            err.cancel()
            raise
        else:
            outcome = _read_outcome(result_path, process.returncode, await err)
        finally:
            await stop(process)  # what is left of its group (where there is no /proc)
        outcome["stdout"] = (await out).decode(errors="replace")
        await err
        elapsed_ms = (time.perf_counter() - started) * 1000
    return verdict_from_outcome(outcome, task_key=task_key, elapsed_ms=elapsed_ms, mode="local")


def _timed_out(message: str) -> dict[str, Any]:
    return {"success": False, "error_type": "Timeout", "error_message": message}


def _read_outcome(result_path: Path, returncode: int | None, err: bytes) -> dict[str, Any]:
    try:
        return json.loads(result_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = err.decode(errors="replace").strip().splitlines()[-5:]
        return {
            "success": False,
            "error_type": "VerifierCrashed",
            "error_message": f"the verifier process exited with status {returncode}",
            "traceback": "\n".join(tail) or None,
        }


async def run_verifier_snapshots(
    code: str,
    snapshots: dict[str, DbSnapshot],
    *,
    final_answer: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    task_key: str | None = None,
) -> Verdict:
    """Write each snapshot to a SQLite file, then `run_verifier_files`."""
    with tempfile.TemporaryDirectory(prefix="fleet-tui-dbs-") as scratch:
        databases = {
            name: await asyncio.to_thread(write_sqlite, snapshot, Path(scratch, f"{name}.db"))
            for name, snapshot in snapshots.items()
        }
        return await run_verifier_files(
            code, databases, final_answer=final_answer, timeout_s=timeout_s, task_key=task_key
        )
