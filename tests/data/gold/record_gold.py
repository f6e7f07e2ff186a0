"""Record a gold session per bundled task: `python -m tests.data.gold.record_gold`.

Each session is recorded the way the app records one (a RecordingEnv on the embedded host):
connect, reset, the task, the solution's calls, then the verifier's verdict. The solutions are
the scripted ones the local host's own tests use.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fleet_tui.local import bundled_task_files
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.session.recording_env import RecordingEnv
from fleet_tui.targets import Target, make_env
from fleet_tui.tasks.files import load_tasks
from fleet_tui.tasks.provision import shared_host, task_target
from fleet_tui.tasks.verify import run_verifier
from tests.test_local_tasks import SOLUTIONS

GOLD_DIR = Path(__file__).parent


async def record_task(task, base: Target) -> bool:
    path = GOLD_DIR / f"{task.key}.jsonl"
    path.unlink(missing_ok=True)
    target = task_target(task, base)
    with SessionRecorder(path) as recorder:
        env = RecordingEnv(make_env(target), recorder, target)
        try:
            await env.connect()
            recorder.task(task)
            await env.reset()
            for _, tool, arguments in SOLUTIONS[task.key]:
                await env.call_tool(tool, arguments)
            verdict = await run_verifier(env, task)
            recorder.verify(verdict)
        finally:
            await env.close()
    print(f"{task.key}: {'pass' if verdict.passed else 'FAIL'} -> {path.name}")
    return verdict.passed


async def main() -> int:
    tasks = [t for path in bundled_task_files().values() for t in load_tasks(path)]
    async with shared_host(Target(local=True, env_key=tasks[0].env_key)) as base:
        results = [await record_task(task, base) for task in tasks]
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
