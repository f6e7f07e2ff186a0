"""`fleet-tui check` CPU per task on the embedded local host: verifier children forked by the
warm zygote against each spawned afresh (`FLEET_TUI_VERIFIER_ZYGOTE=off`, as before it).

Run: .venv/bin/python bench/bench_check.py [--runs 3] [--parallel 2]
Each run is `fleet-tui check --local` of the bundled envs' tasks with their gold sessions (each
task: provision, reset, verify untouched, replay, verify); the CPU is the command's and every
process it waited for (its host's verifier pool and the zygote included), divided by the tasks.
A check of one task alone as well gives what each added task costs, start-up (the command's
imports, the host, the zygote and the pool importing fleet-python) left out. Runs interleaved,
medians. Goal: <= 0.3 s of CPU per task with the zygote.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fleet_tui.local import bundled_task_files  # noqa: E402
from fleet_tui.tasks.child_launch import SWITCH  # noqa: E402

GOLD = ROOT / "tests" / "data" / "gold"
GOAL_S = 0.3
ONE_TASK = "todo-add-buy-milk"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_check(zygote: bool, parallel: int, state: Path, only: list[str]) -> tuple[float, int]:
    """CPU seconds of one `check` run (of the tasks in `only`, or all) and how many tasks it
    checked."""
    files = [arg for path in bundled_task_files().values() for arg in ("--tasks", str(path))]
    env = {**os.environ, SWITCH: "on" if zygote else "off", "XDG_STATE_HOME": str(state)}
    options = ["--gold", str(GOLD), "--local", "--parallel", str(parallel), "--json"]
    options += [arg for key in only for arg in ("--task", key)]
    before = children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "fleet_tui", "check", *files, *options],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    cpu = children_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"check failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return cpu, len(json.loads(done.stdout)["tasks"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    per_task: dict[bool, list[float]] = {True: [], False: []}
    per_added: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="bench-check-") as state:
        for _ in range(args.runs):
            for zygote in (False, True):
                cpu, tasks = run_check(zygote, args.parallel, Path(state), [])
                alone, _ = run_check(zygote, args.parallel, Path(state), [ONE_TASK])
                per_task[zygote].append(cpu / tasks)
                per_added[zygote].append((cpu - alone) / (tasks - 1))
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} runs of each, interleaved")
    print(f"{'CPU s per task':<34} {'spawned (before)':>16} {'zygote':>8} {'goal':>6}")
    for label, samples in (("all tasks / tasks", per_task), ("per added task", per_added)):
        spawned, forked = (statistics.median(samples[z]) for z in (False, True))
        verdict = "met" if forked <= GOAL_S else "NOT met"
        print(f"{label:<34} {spawned:>16.3f} {forked:>8.3f} {GOAL_S:>6.2f}  {verdict}")


if __name__ == "__main__":
    main()
