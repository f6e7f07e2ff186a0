"""Remote verification from a child process: `python -m fleet_tui.tasks.remote_child`.

The SDK executes a verifier's code locally (to find its function) before it sends it to the host,
so module-level code in a task's verifier would otherwise run in our process, the UI's included.
The request comes as JSON on stdin (`base_url`, `instance_id`, `task`, `final_answer`; the API key
in `FLEET_API_KEY`); the answer is one JSON line on stdout: `{"verdict": ...}` or `{"error": ...}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import sys
from types import SimpleNamespace
from typing import Any

from fleet_tui.envs.base import EnvError, Task


async def verify(request: dict[str, Any]) -> dict[str, Any]:
    import fleet

    from fleet_tui.tasks.remote import verify_remote

    client = fleet.AsyncFleet(api_key=os.environ.get("FLEET_API_KEY"), base_url=request["base_url"])
    try:
        sdk_env = await client.instance(request["instance_id"])
        verdict = await verify_remote(
            SimpleNamespace(sdk_env=sdk_env), Task(**request["task"]), request.get("final_answer")
        )
    except EnvError as error:
        return {"error": error.message}
    except Exception as error:  # the SDK's own errors: reported, not raised
        return {"error": f"{type(error).__name__}: {error}"}
    return {"verdict": verdict.model_dump(mode="json")}


def main() -> int:
    request = json.load(sys.stdin)
    with contextlib.redirect_stdout(io.StringIO()):  # what the verifier's module code prints
        answer = asyncio.run(verify(request))
    print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
