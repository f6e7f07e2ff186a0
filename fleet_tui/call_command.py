"""The current call as a `fleet-tui call ...` command line a user can paste into a shell.

Env text stays data there: the env key and tool name come after `--` (a tool named
`--mcp=URL` is a name, not an option), and secret-named `--env` values are redacted as in
session files.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from fleet_tui.envs.targets import FleetTarget, McpTarget, Target, target_fields_of
from fleet_tui.target_argv import option_words
from fleet_tui.text import REDACTED, redact


def target_options(target: Target, instance_id: str | None = None) -> list[str]:
    """The command-line options that reach the same target (with `shown_fields`' env key).
    How long an instance lives (`--ttl`, `--heartbeat`, `--keep`) is the new command's own
    choice, so it is left out."""
    return option_words(shown_fields(target, instance_id), lifetime=False)


def shown_fields(target: Target, instance_id: str | None = None) -> dict[str, Any]:
    """The target's fields as a command line shows them: secrets redacted. With `instance_id`
    (a Fleet instance that will outlive this app), the fields that attach to it instead of
    provisioning a new one."""
    fields = target_fields_of(target)
    if isinstance(target, McpTarget):
        fields["headers"] = dict.fromkeys(target.headers, REDACTED)
    elif instance_id and isinstance(target, FleetTarget):
        fields = {"kind": "fleet", "instance": instance_id, "base_url": target.base_url,
                  "env_variables": {}}  # fmt: skip
    elif "env_variables" in fields:
        fields["env_variables"] = redact(fields["env_variables"])
    return fields


def call_command(
    target: Target,
    tool: str,
    arguments: dict[str, Any],
    instance_id: str | None = None,
    *,
    unchecked: bool = False,
) -> str:
    """The command line; `unchecked` (the arguments break the tool's schema, as the form
    warned) adds `--unchecked`, without which the command would refuse to send them."""
    fields = shown_fields(target, instance_id)
    words = ["fleet-tui", "call", *option_words(fields, lifetime=False)]
    if arguments:
        words += ["--args", json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))]
    if unchecked:
        words.append("--unchecked")
    words += ["--", *filter(None, [fields.get("env_key")]), tool]
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
