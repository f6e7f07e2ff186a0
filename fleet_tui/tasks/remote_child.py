"""Remote verification from a child process: `python -m fleet_tui.tasks.remote_child`.

The SDK executes a verifier's code locally (to find its function) before it sends it to the host,
so module-level code in a task's verifier would otherwise run in our process, the UI's included.
The request comes as JSON on stdin (`base_url`, `instance_id`, `task`, `final_answer`,
`timeout_s`: the host stops the verifier after it; the API key in `FLEET_API_KEY`). On stdout:
the READY line once the SDK is imported, the LOADED line once the verifier's module code has run
(the parent times each step), then one JSON line, the answer: `{"verdict": ...}` or
`{"error": ...}`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.base import EnvError, Task
from fleet_tui.process_tree import supervise
from fleet_tui.tasks.verifier_child import READY
from fleet_tui.text import named_error

if TYPE_CHECKING:
    import httpx

LOADED = "fleet-tui-verifier-loaded"
"""Printed once the verifier's module code has run: the remote run's clock starts here."""


@functools.cache
def sdk_http_client() -> httpx.AsyncClient:
    """The HTTP client `AsyncFleet` would make for itself (the SDK's retry policy and timeout),
    made once: making one loads the CA bundle (the zygote makes it before it forks)."""
    from fleet._async.instance.base import default_httpx_client
    from fleet.config import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT

    return default_httpx_client(DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT)


async def verify(request: dict[str, Any], say: Callable[[str], None]) -> dict[str, Any]:
    import fleet

    from fleet_tui.tasks.remote import load_verifier, verify_remote

    task = Task(**request["task"])
    say(READY)
    try:
        verifier = load_verifier(task)
        say(LOADED)
        client = fleet.AsyncFleet(
            api_key=os.environ.get("FLEET_API_KEY"),
            base_url=request["base_url"],
            httpx_client=sdk_http_client(),
        )
        sdk_env = await client.instance(request["instance_id"])
        verdict = await verify_remote(
            sdk_env, task, verifier, request.get("final_answer"), request.get("timeout_s")
        )
    except EnvError as error:
        return {"error": error.message}
    except Exception as error:  # the SDK's own errors: reported, not raised
        return {"error": named_error(error)}
    return {"verdict": verdict.model_dump(mode="json")}


def main(argv: list[str]) -> int:
    """Takes no arguments (`argv` is empty): the request comes on stdin."""
    request = json.load(sys.stdin)
    # Everything the verifier's module code starts is killed when the answer is out, or when
    # the parent stops us.
    return supervise(functools.partial(answer, request), limit=None)


def answer(request: dict[str, Any]) -> int:
    """Verify, and print the answer after the progress lines. What the verifier's module code
    writes to stdout, printed or written straight to the file descriptor, is dropped."""
    protocol = os.fdopen(os.dup(1), "w")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)

    def say(line: str) -> None:
        print(line, file=protocol, flush=True)

    say(json.dumps(asyncio.run(verify(request, say))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
