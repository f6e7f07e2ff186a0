"""Run one verifier in this child process: `python -m fleet_tui.tasks.verifier_child REQ OUT`.

REQUEST is a JSON file `{code, databases: {name: path}, final_answer}`; the outcome is written
to RESULT as JSON `{success, result, error_type, error_message, traceback}`. The verifier gets
a fleet-python env in local file mode (`Fleet().instance({name: path})`), so `env.db("current")`
and `env.db("seed")` behave as they do on a Fleet instance. It runs in a forked child that this
process supervises (`process_tree.supervise`): what it prints comes out on our stdout, cut
after `OUTPUT_LIMIT` bytes, and every process it starts is killed when it ends or when the
parent stops this process (SIGTERM) at the timeout, counted from the READY line (so a slow
interpreter start on a busy machine is not blamed on the verifier); nothing here runs in the
UI's process.
"""

from __future__ import annotations

import functools
import inspect
import json
import linecache
import re
import sys
import traceback
from typing import Any

from fleet_tui.capped import result_value
from fleet_tui.process_tree import supervise

FILENAME = "<verifier>"

# The SDK's own local executor strips these: the decorator and fleet imports need a server.
_STRIP = [
    re.compile(r"^\s*@verifier\([^)]*\)\s*$", re.M),
    re.compile(r"^from fleet\.verifiers.*import.*$", re.M),
    re.compile(r"^from fleet import verifier.*$", re.M),
]


def _namespace() -> dict[str, Any]:
    """The helpers a Fleet verifier can use without importing them."""
    from fleet.verifiers import local_executor as sdk

    names = [
        "TASK_SUCCESSFUL_SCORE",
        "TASK_FAILED_SCORE",
        "normalized_contains",
        "normalized_string_comparison",
        "extract_numbers",
        "contains_number",
        "DatabaseSnapshot",
        "IgnoreConfig",
        "SnapshotDiff",
    ]
    helpers = {name: getattr(sdk, name) for name in names if hasattr(sdk, name)}
    return {"__name__": "verifier", "__builtins__": __builtins__, "json": json, "re": re, **helpers}


def _error(kind: str, message: str, trace: str | None = None) -> dict[str, Any]:
    return {
        "success": False,
        "result": None,
        "error_type": kind,
        "error_message": message,
        "traceback": trace,
    }


def _verifier_function(namespace: dict[str, Any]) -> Any | None:
    """The first function the verifier code itself defines."""
    for value in namespace.values():
        if inspect.isfunction(value) and value.__code__.co_filename == FILENAME:
            return value
    return None


def _verifier_traceback(error: BaseException) -> str:
    """The traceback from the verifier's own first frame on (this runner's frames left out)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != FILENAME:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb or error.__traceback__))


@functools.cache
def local_fleet() -> Any:
    """A fleet-python client for local file mode, made once: making one loads the CA bundle
    (the zygote makes it before it forks, see `zygote.py`)."""
    from fleet import Fleet

    return Fleet(api_key="local-verifier")


def _local_env(databases: dict[str, str]) -> Any:
    return local_fleet().instance(dict(databases))


def run(request: dict[str, Any]) -> dict[str, Any]:
    code = request["code"]
    for pattern in _STRIP:
        code = pattern.sub("", code)
    # Tracebacks then quote the verifier's own lines.
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(keepends=True), FILENAME)
    try:
        compiled = compile(code, FILENAME, "exec")
    except SyntaxError as error:
        where = f"line {error.lineno}" if error.lineno else "unknown line"
        return _error("SyntaxError", f"{error.msg} ({where})", traceback.format_exc(limit=0))

    namespace = _namespace()
    try:
        exec(compiled, namespace)
        function = _verifier_function(namespace)
        if function is None:
            return _error("MissingFunction", "the verifier code defines no function")
        env = _local_env(request["databases"])
        arity = len(inspect.signature(function).parameters)
        args = [env, request.get("final_answer")][:arity]
        result = function(*args)
        if inspect.iscoroutine(result):
            import asyncio

            result = asyncio.run(result)
    except BaseException as error:  # the verifier's failure is the answer, whatever it is
        return _error(type(error).__name__, str(error), _verifier_traceback(error))
    return {
        "success": True,
        "result": result_value(result),
        "error_type": None,
        "error_message": None,
        "traceback": None,
    }


READY = "fleet-tui-verifier-ready"
"""Printed once the SDK is imported: the parent starts the verifier's timeout from here."""


def main(argv: list[str]) -> int:
    request_path, result_path = argv
    import fleet  # noqa: F401  (slow imports happen before the clock starts)
    from fleet.verifiers import local_executor  # noqa: F401

    print(READY, flush=True)
    return supervise(functools.partial(run_files, request_path, result_path))


def run_files(request_path: str, result_path: str) -> int:
    """`run` the request in one file; its outcome goes to the other."""
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    outcome = run(request)
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(outcome, handle)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
