"""The verifier API: `GET /v1/verifiers/check` and `POST /v1/verifiers/execute`.

Bundles (a zip holding `verifier.py`) are kept by their SHA-256. Each execution runs in a
child process forked by the `verifier_worker` pool, against the instance named by the SDK's
trailing `{"env": instance_id}` argument, and is stopped after its timeout: the child kills
every process the verifier started (see `process_tree`), and its session is killed if it has
not ended STOP_GRACE_S later. The host never unpickles arguments itself: only the child does.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import io
import json
import os
import signal
import sys
import tempfile
import time
import uuid
import zipfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from fleet_tui.local.orchestrator import json_body
from fleet_tui.local.registry import HostError, Instance, Registry
from fleet_tui.process_tree import kill_group

DEFAULT_TIMEOUT, MAX_TIMEOUT = 60, 300
MAX_LOG = 256 * 1024
"""Bytes of the pool's log read back to say why it died."""
STOP_GRACE_S = 5.0
"""How long a stopped verifier's child may take to kill what the verifier started."""
PARALLEL_RUNS = 4


class BundleStore:
    """Uploaded verifier sources, by the SHA-256 of their bundle."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.keys: dict[str, str] = {}

    def path(self, sha256: str) -> Path | None:
        path = self.directory / f"{sha256}.py"
        return path if sha256 in self.keys and path.exists() else None

    def add(self, bundle_b64: str, sha256: str | None, key: str) -> str:
        try:
            data = base64.b64decode(bundle_b64, validate=True)
        except (binascii.Error, ValueError) as error:
            raise HostError(400, f"bundle is not base64: {error}") from error
        digest = hashlib.sha256(data).hexdigest()
        if sha256 and sha256 != digest:
            raise HostError(400, f"bundle sha256 is {digest}, not {sha256}")
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                source = archive.read("verifier.py")
        except KeyError as error:
            raise HostError(400, "the bundle has no verifier.py") from error
        except zipfile.BadZipFile as error:
            raise HostError(400, f"the bundle is not a zip file: {error}") from error
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / f"{digest}.py").write_bytes(source)
        self.keys[digest] = key
        return digest


def _target(body: dict[str, Any], registry: Registry) -> Instance:
    """The instance the SDK named in the last element of `args_array`."""
    args_array = body.get("args_array")
    last = args_array[-1] if isinstance(args_array, list) and args_array else None
    if not (isinstance(last, dict) and isinstance(last.get("env"), str)):
        raise HostError(400, 'args_array must end with {"env": "<instance_id>"}')
    return registry.running(last["env"])


def _timeout(body: dict[str, Any]) -> float:
    value = body.get("timeout") or DEFAULT_TIMEOUT
    if not isinstance(value, int | float) or value <= 0:
        raise HostError(400, "timeout must be a positive number of seconds")
    return min(float(value), MAX_TIMEOUT)


class PoolProcess(Protocol):
    """What the pool uses of its process, spawned or forked from a warm process."""

    pid: int
    stdin: asyncio.StreamWriter | None
    stdout: asyncio.StreamReader | None

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


StartPool = Callable[[Path], Awaitable[PoolProcess]]
"""Starts `python -m fleet_tui.local.verifier_worker LOG` in a session of its own, stdin and
stdout piped; LOG is where it writes its stderr."""


async def spawn_pool(log_path: Path) -> PoolProcess:
    """The pool as a fresh Python process (which imports fleet-python itself)."""
    with log_path.open("ab") as log:  # until the pool has its own log open
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fleet_tui.local.verifier_worker",
            str(log_path),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
            start_new_session=True,
        )


class VerifierPool:
    """The `verifier_worker` pool process (started on first use) and the jobs running in it."""

    def __init__(self, log_path: Path, start: StartPool = spawn_pool) -> None:
        self.log_path = log_path
        """The pool's stderr: why it died, if it does."""
        self.start = start
        self.process: PoolProcess | None = None
        self.jobs: dict[str, dict[str, asyncio.Future]] = {}
        self.lock = asyncio.Lock()

    async def _ensure_started(self) -> PoolProcess:
        async with self.lock:
            if self.process is None or self.process.returncode is not None:
                self.log_path.parent.mkdir(parents=True, exist_ok=True)
                self.process = await self.start(self.log_path)
                self._reader = asyncio.create_task(self._read(self.process))
            return self.process

    async def _read(self, process: PoolProcess) -> None:
        """Resolve each job's `pid` and `exit` futures from the pool's reports."""
        assert process.stdout is not None  # started with stdout piped
        async for line in process.stdout:
            message = json.loads(line)
            futures = self.jobs.get(message["id"], {})
            for name in ("pid", "exit"):
                if name in message and name in futures and not futures[name].done():
                    futures[name].set_result(message[name])
        code = await process.wait()
        why = _read_text(self.log_path, MAX_LOG)[-500:].strip() or "no output"
        for futures in self.jobs.values():
            for future in futures.values():
                if not future.done():
                    future.set_exception(RuntimeError(f"the verifier pool exited ({code}): {why}"))

    async def run(self, job_path: Path, timeout: float) -> int | None:
        """Run a job; its exit code, or None if it timed out (it is then killed)."""
        process = await self._ensure_started()
        loop = asyncio.get_running_loop()
        job_id = uuid.uuid4().hex
        futures = self.jobs[job_id] = {"pid": loop.create_future(), "exit": loop.create_future()}
        pid = None
        assert process.stdin is not None  # started with stdin piped
        try:
            process.stdin.write(json.dumps({"id": job_id, "job": str(job_path)}).encode() + b"\n")
            await process.stdin.drain()
            pid = await futures["pid"]
            try:
                return await asyncio.wait_for(asyncio.shield(futures["exit"]), timeout)
            except TimeoutError:
                await _stop(pid, futures["exit"])
                return None
        except (asyncio.CancelledError, RuntimeError):  # cancelled, or the pool died
            if pid is not None:
                kill_group(pid)
            raise
        finally:
            del self.jobs[job_id]

    async def close(self) -> None:
        """Stop the pool; it kills the verifiers still running."""
        if self.process is None or self.process.returncode is not None:
            return
        assert self.process.stdin is not None  # started with stdin piped
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            kill_group(self.process.pid)  # the pool alone: each job has a session of its own


async def run_verifier(pool: VerifierPool, job: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run one verifier job; the outcome plus what it printed."""
    with tempfile.TemporaryDirectory(prefix="verifier-") as scratch:
        job_path = Path(scratch) / "job.json"
        result_path = Path(scratch) / "result.json"
        job_path.write_text(json.dumps({**job, "result_path": str(result_path)}))
        try:
            code = await pool.run(job_path, timeout)
        except RuntimeError as error:  # the pool itself died
            return _failure("RuntimeError", str(error), "", "")
        stdout = _read_text(Path(scratch) / "stdout.txt")  # cut to MAX_OUTPUT by the child
        if code is None:
            return _failure(
                "TimeoutError",
                f"the verifier ran longer than {timeout:g} s and was stopped",
                "",
                stdout,
            )
        if result_path.exists():
            return {**json.loads(result_path.read_text()), "stdout": stdout}
        stderr = _read_text(Path(scratch) / "stderr.txt", MAX_LOG)[-4000:]
        return _failure(
            "RuntimeError", f"the verifier process exited with code {code}", stderr, stdout
        )


def _failure(kind: str, message: str, trace: str, stdout: str) -> dict[str, Any]:
    return {
        "success": False,
        "result": None,
        "error": {"type": kind, "message": message, "traceback": trace},
        "stdout": stdout,
    }


def _read_text(path: Path, limit: int = -1) -> str:
    if not path.exists():
        return ""
    with path.open("rb") as handle:
        return handle.read(limit).decode("utf-8", errors="replace")


async def _stop(pid: int, exited: asyncio.Future) -> None:
    """Ask a verifier's child to stop (it kills what the verifier started); kill its session
    if it has not ended STOP_GRACE_S later."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(asyncio.shield(exited), STOP_GRACE_S)
    except TimeoutError:
        kill_group(pid)
        await exited


def routes(registry: Registry, pool: VerifierPool) -> list[Route]:
    store = BundleStore(registry.state_dir / "bundles")
    slots = asyncio.Semaphore(PARALLEL_RUNS)

    async def check(request: Request) -> JSONResponse:
        sha256 = request.query_params.get("sha256", "")
        known = store.path(sha256) is not None
        return JSONResponse({"success": known, "key": store.keys.get(sha256)})

    async def execute(request: Request) -> JSONResponse:
        body = await json_body(request)
        key = body.get("key") or "verifier"
        cache_hit = not body.get("bundle")
        sha256 = body.get("sha256")
        if body.get("bundle"):
            sha256 = store.add(body["bundle"], sha256, key)
        source = store.path(sha256 or "")
        if source is None:
            raise HostError(404, f"Bundle not found: {sha256}; upload it with the request")
        instance = _target(body, registry)
        timeout = _timeout(body)
        job = {
            "verifier_path": str(source),
            "function_name": body.get("function_name") or "verify",
            "args": body.get("args"),
            "seed_db": str(instance.live_state.seed_db),
            "current_db": str(instance.live_state.current_db),
            "instance_id": instance.instance_id,
            "env_key": instance.spec.key,
        }
        started = time.monotonic()
        async with slots:
            outcome = await run_verifier(pool, job, timeout)
        return JSONResponse(
            {
                **outcome,
                "key": key,
                "execution_id": uuid.uuid4().hex,
                "execution_time_ms": int((time.monotonic() - started) * 1000),
                "bundle_cache_hit": cache_hit,
            }
        )

    return [
        Route("/v1/verifiers/check", check, methods=["GET"]),
        Route("/v1/verifiers/execute", execute, methods=["POST"]),
    ]
