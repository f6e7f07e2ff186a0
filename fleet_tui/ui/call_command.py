"""The current call as a `fleet-tui call ...` command line a user can paste into a shell.

Env text stays data there: the env key and tool name come after `--` (a tool named
`--mcp=URL` is a name, not an option), and secret-named `--env` values are redacted as in
session files.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from fleet_tui.envs.targets import (
    FleetTarget,
    InstanceTarget,
    LocalTarget,
    McpTarget,
    OpenEnvTarget,
    Target,
)
from fleet_tui.text import REDACTED, redact


def target_options(target: Target, instance_id: str | None = None) -> list[str]:
    """The command-line options that reach the same target, with `target_env_key`.

    With `instance_id` (a Fleet instance that will outlive this app), attach to it instead of
    provisioning a new one.
    """
    if isinstance(target, OpenEnvTarget):
        if target.task:
            split, index = target.task
            return ["--openenv", target.url, "--openenv-task", f"{split}:{index}"]
        return ["--openenv", target.url]
    if isinstance(target, McpTarget):
        return [
            *(word for url in target.urls for word in ("--mcp", url)),
            *(word for line in target.stdio for word in ("--stdio", line)),
            *(word for name in target.headers for word in ("--header", f"{name}: {REDACTED}")),
        ]
    words: list[str] = []
    if instance_id and isinstance(target, FleetTarget):
        words += ["--instance", instance_id]
    elif target.instance:
        words += ["--instance", target.instance]
    if isinstance(target, LocalTarget):
        words.append("--local")
    elif target.base_url:
        words += ["--base-url", target.base_url]
    if not instance_id:
        for flag, value in (
            ("--data-key", target.data_key),
            ("--region", target.region),
            ("--image-type", target.image_type),
        ):
            if value:
                words += [flag, value]
        for key, value in redact(target.env_variables).items():
            words += ["--env", f"{key}={value}"]
    return words


def target_env_key(target: Target, instance_id: str | None = None) -> list[str]:
    """The ENV_KEY word that goes with `target_options` (none when attaching)."""
    if not isinstance(target, InstanceTarget) or not target.env_key:
        return []
    attaching = instance_id and isinstance(target, FleetTarget)
    return [] if attaching else [target.env_key]


def call_command(
    target: Target, tool: str, arguments: dict[str, Any], instance_id: str | None = None
) -> str:
    words = ["fleet-tui", "call", *target_options(target, instance_id)]
    if arguments:
        words += ["--args", json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))]
    words += ["--", *target_env_key(target, instance_id), tool]
    return " ".join(shell_word(word) for word in words)


def shell_word(word: str) -> str:
    """`word` quoted for a POSIX shell; one holding control characters (a tool name from an env
    may) in bash's `$'...'` form, so pasting the command writes no raw escape to a terminal."""
    if word.isprintable():
        return shlex.quote(word)
    return "$'" + "".join(map(_ansi_c, word)) + "'"


def _ansi_c(character: str) -> str:
    """One character inside bash's `$'...'` (`\\u` above ASCII: `\\x` would be one raw byte)."""
    if character in "\\'":
        return "\\" + character
    if character.isprintable():
        return character
    code = ord(character)
    if code < 0x80:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
