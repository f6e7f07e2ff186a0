"""Remote verification from a child process: `python -m fleet_tui.tasks.remote_child`.

The SDK executes a verifier's code locally (to find its function) before it sends it to the host,
so module-level code in a task's verifier would otherwise run in our process, the UI's included.
The request comes as JSON on stdin (`base_url`, `instance_id`, `task`, `final_answer`; the API key
in `FLEET_API_KEY`). On stdout: the READY line once the SDK is imported, the LOADED line once the
verifier's module code has run (the parent times each step), then one JSON line, the answer:
`{"verdict": ...}` or `{"error": ...}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from fleet_tui.envs.base import EnvError, Task
from fleet_tui.tasks.verifier_child import READY

LOADED = "fleet-tui-verifier-loaded"
"""Printed once the verifier's module code has run: the remote run's clock starts here."""


async def verify(request: dict[str, Any], say: Callable[[str], None]) -> dict[str, Any]:
    import fleet

    from fleet_tui.tasks.remote import load_verifier, verify_remote

    task = Task(**request["task"])
    say(READY)
    try:
        verifier = load_verifier(task)
        say(LOADED)
        client = fleet.AsyncFleet(
            api_key=os.environ.get("FLEET_API_KEY"), base_url=request["base_url"]
        )
        sdk_env = await client.instance(request["instance_id"])
        verdict = await verify_remote(sdk_env, task, verifier, request.get("final_answer"))
    except EnvError as error:
        return {"error": error.message}
    except Exception as error:  # the SDK's own errors: reported, not raised
        return {"error": f"{type(error).__name__}: {error}"}
    return {"verdict": verdict.model_dump(mode="json")}


def main() -> int:
    request = json.load(sys.stdin)
    stdout = sys.stdout

    def say(line: str) -> None:
        print(line, file=stdout, flush=True)

    with contextlib.redirect_stdout(io.StringIO()):  # what the verifier's module code prints
        answer = asyncio.run(verify(request, say))
    say(json.dumps(answer))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
