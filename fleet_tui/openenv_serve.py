"""Serve a package that `openenv import` generated, on 127.0.0.1, in the openenv virtualenv.

`fleet-tui openenv serve` runs this file by its path with that virtualenv's Python, so it
imports only the standard library at the top, and openenv, uvicorn and the env's own SDK
inside functions: never fleet_tui (whose dependencies are not there). fleet-tui binds the
listening socket and hands it over (`--fd`), with the file holding the server's token
(`--token-file`, removed when the server stops).

What it adds to the generated server, in this process only (the generated files and the
user's env stay as they are):
- the loopback guard (`loopback_guard.py` beside this file, standard library only, loaded by
  its path): a request or WebSocket needs a loopback `Host`, no other site's `Origin` and the
  token, so a web page cannot reset and step the env, or read a task's answer;
- a Verifiers `Environment` registers SIGINT/SIGTERM handlers when it is built, which Python
  allows only on the main thread, and the generated wrapper builds it on a worker thread. Here
  a handler set off the main thread is ignored (the server's own handlers stay; the env's
  teardown still runs at exit, where it also registered it);
- the generated Verifiers wrapper offers only `submit`. Here it also offers the env's own tools
  (a `ToolEnv`'s `tool_defs`): a call runs the tool and adds the assistant's tool call and the
  tool's answer to the episode's turns, and `submit` without `messages` scores those turns
  followed by its `completion`, so a multi-turn rubric sees the tools used;
- the wrapper scores a completion of any length and with no turns. Here the env's `max_turns`
  holds as in a Verifiers rollout: a tool call past it is refused, and of a completion longer
  than it only the first `max_turns` assistant turns are scored (`is_truncated`); the turns
  scored are the state's `trajectory`, so the `num_turns` metric counts them;
- `submit` given both `completion` and `messages` is refused with the reason (the wrapper
  scored `messages` and dropped `completion` without a word).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any

GUARD = Path(__file__).with_name("loopback_guard.py")
TOKEN_HINT = (
    "this server needs its token as `Authorization: Bearer <token>` "
    "(`fleet-tui openenv serve` printed it)"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fleet-tui openenv serve")
    parser.add_argument("package", help="the folder `openenv import` generated")
    parser.add_argument("--fd", type=int, required=True, help="the socket bound on 127.0.0.1")
    parser.add_argument(
        "--token-file", type=Path, required=True, help="holds the token; removed at the end"
    )
    args = parser.parse_args(argv)
    listener = socket.socket(fileno=args.fd)
    try:
        token = read_token(args.token_file)
        if token is None:
            return 2
        return serve_package(Path(args.package).resolve(), listener, token)
    finally:
        args.token_file.unlink(missing_ok=True)


def read_token(path: Path) -> str | None:
    """The token fleet-tui kept in `path`, or None (said on stderr) when it cannot be read."""
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read the server's token in {path}: {error}", file=sys.stderr)
        return None


def serve_package(package: Path, listener: socket.socket, token: str) -> int:
    """Serve the generated app in `package` on `listener` until stopped; 2 when it cannot."""
    if not (package / "server" / "app.py").is_file():
        print(
            f"{package} has no server/app.py: not a package `openenv import` made", file=sys.stderr
        )
        return 2
    sys.path.insert(0, str(package.parent))
    ignore_signal_handlers_off_the_main_thread()
    server = f"{package.name}.server"
    try:
        app = importlib.import_module(f"{server}.app").app
        if (package / "server" / f"{package.name}_environment.py").is_file():
            wrapper = importlib.import_module(f"{server}.{package.name}_environment")
            if is_verifiers_wrapper(wrapper):
                offer_env_tools(wrapper)
                keep_turn_limit(wrapper)
    except ModuleNotFoundError as error:
        print(f"{sys.executable} cannot import {error.name}: {error}", file=sys.stderr)
        return 2
    serve(loopback_guard().LoopbackGuard(app, token, TOKEN_HINT), listener, package.name, token)
    return 0


def loopback_guard() -> Any:
    """fleet-tui's `loopback_guard.py`, loaded by its path (fleet_tui is not importable here)."""
    spec = importlib.util.spec_from_file_location("fleet_tui_loopback_guard", GUARD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ignore_signal_handlers_off_the_main_thread() -> None:
    """`signal.signal` off the main thread leaves the handler as it is, instead of raising."""
    install = signal.signal

    def signal_on_main_thread_only(signum: Any, handler: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            return install(signum, handler)
        return signal.getsignal(signum)

    signal.signal = signal_on_main_thread_only  # type: ignore[assignment]  # this process only


def is_verifiers_wrapper(module: Any) -> bool:
    """The module `openenv import` writes around a Verifiers env (its template's names)."""
    names = ("_LOAD_ENVIRONMENT", "_call_vendored", "_completion_messages")
    return all(hasattr(module, name) for name in names)


def offer_env_tools(wrapper: Any) -> None:
    """Give the wrapper's Environment class the Verifiers env's own tools (see the docstring)."""
    from openenv.core.env_server.mcp_types import (
        CallToolAction,
        CallToolObservation,
        ListToolsAction,
        Tool,
        ToolError,
        ToolErrorType,
    )

    cls = environment_class(wrapper)
    wrapped_reset, wrapped_step = cls.reset, cls.step

    def tool_map(self: Any) -> dict[str, Any]:
        return dict(getattr(self._env(), "tool_map", None) or {})

    def reset(self: Any, *args: Any, **kwargs: Any) -> Any:
        self._tool_turns = []
        return wrapped_reset(self, *args, **kwargs)

    def step(self: Any, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
        if isinstance(action, ListToolsAction):
            listed = wrapped_step(self, action, timeout_s=timeout_s, **kwargs)
            for tool in getattr(self._env(), "tool_defs", None) or []:
                listed.tools.append(
                    Tool(name=tool.name, description=tool.description, input_schema=tool.parameters)
                )
            return listed
        if isinstance(action, CallToolAction) and {"completion", "messages"} <= set(
            action.arguments
        ):
            return CallToolObservation(
                tool_name=action.tool_name,
                error=ToolError(error_type=ToolErrorType.INVALID_ARGS, message=BOTH_GIVEN),
            )
        if isinstance(action, CallToolAction) and action.tool_name in tool_map(self):
            return call_env_tool(self, action)
        turns = getattr(self, "_tool_turns", [])
        if isinstance(action, CallToolAction) and turns and "messages" not in action.arguments:
            final = {"role": "assistant", "content": str(action.arguments.get("completion", ""))}
            arguments = {**action.arguments, "messages": [*turns, final]}
            action = action.model_copy(update={"arguments": arguments})
        return wrapped_step(self, action, timeout_s=timeout_s, **kwargs)

    def call_env_tool(self: Any, action: Any) -> Any:
        self._ensure_session()
        limit = getattr(self._env(), "max_turns", -1) or -1
        if 0 < limit <= len(assistant_turns(self._tool_turns)):
            message = f"this episode used its max_turns ({limit}): submit to be scored"
            return CallToolObservation(
                tool_name=action.tool_name,
                error=ToolError(error_type=ToolErrorType.EXECUTION_ERROR, message=message),
            )
        call_id = f"call_{len(self._tool_turns)}"
        call = {"id": call_id, "name": action.tool_name, "arguments": json.dumps(action.arguments)}
        self._tool_turns.append({"role": "assistant", "content": "", "tool_calls": [call]})
        self._state.step_count += 1
        try:
            answer = wrapper._call_vendored(
                self._env().call_tool, action.tool_name, dict(action.arguments), call_id
            )
        except Exception as error:
            message = f"{type(error).__name__}: {error}"
            self._tool_turns.append({"role": "tool", "tool_call_id": call_id, "content": message})
            return CallToolObservation(
                tool_name=action.tool_name,
                error=ToolError(error_type=ToolErrorType.EXECUTION_ERROR, message=message),
            )
        content = wrapper._dump(getattr(answer, "content", answer))
        self._tool_turns.append({"role": "tool", "tool_call_id": call_id, "content": content})
        return CallToolObservation(tool_name=action.tool_name, result=content)

    cls.reset, cls.step = reset, step
    as_messages = verifiers_messages()
    if as_messages is not None:
        raw_messages = wrapper._completion_messages
        wrapper._completion_messages = lambda arguments: as_messages(raw_messages(arguments))


BOTH_GIVEN = (
    "give `completion` or `messages`, not both: `messages` is the whole completion (every "
    "turn), `completion` the final answer after the tools this episode called"
)


def environment_class(wrapper: Any) -> Any:
    """The wrapper's OpenEnv Environment class."""
    from openenv.core.env_server.interfaces import Environment

    (cls,) = [
        value
        for value in vars(wrapper).values()
        if isinstance(value, type) and issubclass(value, Environment) and value is not Environment
    ]
    return cls


def keep_turn_limit(wrapper: Any) -> None:
    """Each scored state gets its turns, cut at the env's `max_turns` (see the docstring):
    the env's rubric is wrapped once, when the wrapper first loads the env."""
    cls = environment_class(wrapper)
    load_env = cls._env

    def env_with_turns(self: Any) -> Any:
        env = load_env(self)
        rubric = getattr(env, "rubric", None)
        if rubric is not None and not getattr(rubric, "_turns_counted", False):
            score_rollout = rubric.score_rollout
            limit = getattr(env, "max_turns", -1) or -1

            def score_turns(state: Any, *args: Any, **kwargs: Any) -> Any:
                count_turns(state, limit)
                return score_rollout(state, *args, **kwargs)

            rubric.score_rollout = score_turns
            rubric._turns_counted = True
        return env

    cls._env = env_with_turns


def message_field(message: Any, name: str) -> Any:
    """A message's field, whether the message is a dict or a Verifiers message model."""
    return message.get(name) if isinstance(message, dict) else getattr(message, name, None)


def assistant_turns(messages: list[Any]) -> list[int]:
    """The indexes of the assistant's messages: one turn each."""
    return [i for i, m in enumerate(messages) if message_field(m, "role") == "assistant"]


def count_turns(state: Any, limit: int) -> None:
    """Cut `state`'s completion after its `limit`-th assistant turn (when it has more) and
    record its turns as the state's `trajectory`, as a Verifiers rollout does."""
    completion = list(state.get("completion") or [])
    turns = assistant_turns(completion)
    if 0 < limit < len(turns):
        completion = completion[: turns[limit]]
        turns = turns[:limit]
        state["completion"] = completion
        state["is_truncated"] = True
        state["stop_condition"] = "max_turns_reached"
    state["trajectory"] = [
        {
            "prompt": state.get("prompt"),
            "completion": [completion[i]],
            "response": None,
            "tokens": None,
            "reward": None,
            "advantage": None,
            "is_truncated": False,
            "trajectory_id": "",
            "extras": {},
        }
        for i in turns
    ]


def verifiers_messages() -> Any:
    """Verifiers' own conversion of message dicts into its message models, where it has one:
    rubrics (its tool-call metrics among them) read `message.role`, not `message["role"]`."""
    try:
        from verifiers.utils.message_utils import normalize_messages
    except ImportError:
        return None
    return normalize_messages


def serve(app: Any, listener: socket.socket, name: str, token: str) -> None:
    """Serve until SIGINT or SIGTERM; say where, and the token, once listening."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    host, port = listener.getsockname()[:2]
    started = server.startup

    async def startup(sockets: Any = None) -> None:
        await started(sockets=sockets)
        print(f"serving {name} at http://{host}:{port}", flush=True)
        print(
            f"token {token} (send it as `Authorization: Bearer TOKEN`; "
            "fleet-tui run by you sends it by itself)",
            flush=True,
        )

    def stop(*_: object) -> None:
        server.should_exit = True

    # uvicorn stops gracefully on these and then raises them again: they land here.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, stop)
    server.startup = startup  # type: ignore[method-assign]  # says when listening
    server.run(sockets=[listener])


if __name__ == "__main__":
    raise SystemExit(main())
