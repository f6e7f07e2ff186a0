"""What starting a task decides: is the connected env the task's, which tools its modality
offers, and whether its verifier reads a final answer (pure: no I/O, no UI)."""

from __future__ import annotations

import ast

from fleet_tui.envs.base import COMPUTER_TOOL, EnvInfo, Task, Tool

__all__ = ["COMPUTER_TOOL"]


def takes_final_answer(code: str | None) -> bool:
    """True when the verifier's function has a final-answer parameter and its body reads it."""
    if not code:
        return False
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            if len(params) < 2:
                return False
            name = params[1].arg
            return any(
                isinstance(n, ast.Name) and n.id == name
                for stmt in node.body
                for n in ast.walk(stmt)
            )
    return False


def tools_for_modality(tools: list[Tool], modality: str | None) -> tuple[list[Tool], str | None]:
    """The tools a task's modality offers, and a note for the user when something is off."""
    if modality == "computer_use":
        computer = [t for t in tools if t.name == COMPUTER_TOOL]
        if not computer:
            return (
                tools,
                "This env has no computer tool: the computer_use task cannot be driven "
                "by screen actions here; all tools stay available.",
            )
        return computer, None
    if modality == "tool_use":
        return [t for t in tools if t.name != COMPUTER_TOOL], None
    return tools, None


def same_env(task: Task, info: EnvInfo | None) -> bool:
    """The connected env is the one the task names (key and, if the task says, version)."""
    if info is None or not task.env_key:
        return True  # nothing to switch to: reset what we have
    wanted_key, _, wanted_version = task.env_key.partition(":")
    wanted_version = (wanted_version or task.version or "").lstrip("v")
    have_key = (info.env_key or "").partition(":")[0]
    have_version = (info.version or "").lstrip("v")
    return wanted_key == have_key and (not wanted_version or wanted_version == have_version)
