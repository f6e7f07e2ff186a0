"""The target options as one table of plain data, read both ways: command-line words to a
target's fields (`target_fields`, `from_argv`) and a target's fields back to words (`to_argv`).

Every command and the app add these options (`add_target_arguments`); the app writes them
into the command lines it shows (`ui/call_command.py`), and the warm-session client finds the
endpoints a command line names with them (`warm/place.py`). A target's fields are its dump
(`target.model_dump()`, with `kind`, and an MCP target's headers): `commands/target_options.py`
turns them into a checked `Target`. Standard library only: `fleet-tui --help` and the
warm-session client load it before anything else.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from fleet_tui.envs.errors import EnvError
from fleet_tui.text import one_line

DEFAULT_HEARTBEAT_S = 60
"""Heartbeat interval of an instance fleet-tui provisions and does not keep."""

INSTANCE_KINDS = ("fleet", "local")


class TargetOption(NamedTuple):
    """One option: its flag, where argparse keeps its value (`dest`) and how it is given:
    `text` (one value), `number` (an integer), `switch` (no value), `list` (repeatable,
    each value an item) or `pairs` (repeatable, each value one entry of a mapping)."""

    flag: str
    dest: str
    shape: str
    metavar: str | None
    help: str
    lifetime: bool = False
    """How long a provisioned instance lives, not which env it is."""


TARGET_OPTIONS = (
    TargetOption("--instance", "instance", "text", "ID", "attach to a running Fleet instance"),
    TargetOption(
        "--local", "local", "switch", None, "use the embedded local Fleet host (no API key)"
    ),
    TargetOption("--base-url", "base_url", "text", "URL", "another Fleet-compatible host"),
    TargetOption(
        "--mcp", "mcp", "list", "URL",
        "a plain MCP endpoint: streamable HTTP, or SSE when it answers as one (repeatable)",
    ),
    TargetOption(
        "--stdio", "stdio", "list", "'COMMAND ARGS'",
        "an MCP server to run, spoken to over stdin/stdout (repeatable, mixes with --mcp)",
    ),
    TargetOption(
        "--header", "headers", "pairs", "'NAME: VALUE'",
        "an HTTP header for the --mcp endpoints, e.g. 'Authorization: Bearer TOKEN' "
        "(repeatable; values are kept out of output and session files)",
    ),
    TargetOption("--openenv", "openenv", "text", "URL", "an OpenEnv environment server"),
    TargetOption(
        "--openenv-task", "openenv_task", "text", "SPLIT:INDEX",
        "with --openenv: reset into this task (see `fleet-tui tasks`)",
    ),
    TargetOption(
        "--openenv-token", "openenv_token", "text", "TOKEN",
        "with --openenv: the token `fleet-tui openenv serve` printed (default: "
        "$FLEET_TUI_OPENENV_TOKEN, else the one it keeps for its port on this machine)",
    ),
    TargetOption(
        "-o", "reset_pairs", "pairs", "KEY=VALUE",
        "with --openenv: an env keyword for its resets (repeatable), e.g. -o "
        "dataset_name=leg_counting; VALUE is read as JSON when it parses, else as a string",
    ),
    TargetOption(
        "-O", "reset_json", "text", "JSON",
        "with --openenv: env keywords for its resets as a JSON object (-o pairs win)",
    ),
    TargetOption("--data-key", "data_key", "text", "KEY[:VERSION]", "data snapshot to seed from"),
    TargetOption("--region", "region", "text", None, "Fleet region"),
    TargetOption("--image-type", "image_type", "text", None, "instance image type"),
    TargetOption("--ttl", "ttl", "number", "SECONDS", "instance time to live", lifetime=True),
    TargetOption(
        "--heartbeat", "heartbeat", "number", "SECONDS",
        "the host stops the instance when fleet-tui has not been heard from for two such "
        f"intervals, e.g. after a kill -9 (default {DEFAULT_HEARTBEAT_S}; none with --keep; "
        "0 for none)",
        lifetime=True,
    ),
    TargetOption(
        "--env", "env_variables", "pairs", "KEY=VALUE",
        "environment variable for the instance (repeatable)",
    ),
    TargetOption(
        "--keep", "keep", "switch", None, "leave the instance running on exit (prints its id)",
        lifetime=True,
    ),
)  # fmt: skip

FLAGS = {option.dest: option.flag for option in TARGET_OPTIONS}
"""Each option's flag by its `dest`."""


def add_target_arguments(
    parser: argparse.ArgumentParser, *, env_key_required: bool = False
) -> None:
    """The target options, identical for every command and the app."""
    parser.add_argument(
        "env_key",
        nargs=None if env_key_required else "?",
        metavar="ENV_KEY",
        help="Fleet env to provision, as name or name:version",
    )
    group = parser.add_argument_group("target")
    for option in TARGET_OPTIONS:
        if option.shape == "switch":
            group.add_argument(option.flag, dest=option.dest, action="store_true", help=option.help)
            continue
        given: dict[str, Any] = {"dest": option.dest, "metavar": option.metavar}
        if option.shape in ("list", "pairs"):
            given |= {"action": "append", "default": []}
        elif option.shape == "number":
            given["type"] = int
        group.add_argument(option.flag, help=option.help, **given)


def target_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    """A target's fields from the options' values as argparse leaves them (by `dest`, with
    `env_key`); EnvError (exit 2) with a one-line message when they cannot make a target."""
    check_target_args(values)
    env_variables = dict(key_value(item, "--env") for item in values["env_variables"])
    if values["openenv"]:
        task = parse_openenv_task(values["openenv_task"])
        token = values["openenv_token"]
        if token is not None:
            from fleet_tui.loopback_guard import sendable_token  # its server side: hmac, secrets

            if not sendable_token(token):
                raise EnvError(
                    "--openenv-token: a token is visible ASCII characters without spaces"
                )
        options = reset_options(values["reset_json"], values["reset_pairs"])
        return {"kind": "openenv", "url": values["openenv"], "task": task, "token": token,
                "reset_options": options}  # fmt: skip
    if not (values["env_key"] or values["instance"]):
        headers = dict(header(item) for item in values["headers"])
        return {"kind": "mcp", "urls": list(values["mcp"]), "stdio": list(values["stdio"]),
                "headers": headers}  # fmt: skip
    fields = {
        "kind": "local" if values["local"] else "fleet",
        "env_key": values["env_key"],
        "instance": values["instance"],
        "data_key": values["data_key"],
        "region": values["region"],
        "image_type": values["image_type"],
        "ttl_seconds": values["ttl"],
        "heartbeat_seconds": heartbeat_seconds(values["heartbeat"], keep=values["keep"]),
        "env_variables": env_variables,
        "keep": values["keep"],
    }
    if not values["local"]:
        fields["base_url"] = values["base_url"]
    return fields


def from_argv(words: list[str]) -> dict[str, Any]:
    """The fields of the target that command-line `words` (target options and ENV_KEY) name."""
    parser = argparse.ArgumentParser(add_help=False)
    add_target_arguments(parser)
    return target_fields(vars(parser.parse_args(words)))


def to_argv(fields: Mapping[str, Any], *, lifetime: bool = True) -> list[str]:
    """The words that name the target of `fields`: its options, then `--` and ENV_KEY when it
    has one (after `--`, any name is a name)."""
    env_key = fields.get("env_key")
    options = option_words(fields, lifetime=lifetime)
    return [*options, "--", env_key] if env_key else options


def option_words(fields: Mapping[str, Any], *, lifetime: bool = True) -> list[str]:
    """The options that name the target of `fields`. Without `lifetime`, those that say how
    long a provisioned instance lives are left out."""
    values = option_values(fields)
    words: list[str] = []
    for option in TARGET_OPTIONS:
        value = values.get(option.dest)
        if value is None or value is False or (option.lifetime and not lifetime):
            continue
        if option.shape == "switch":
            words.append(option.flag)
        elif option.shape in ("list", "pairs"):
            words += [word for item in value for word in _flag_and_value(option.flag, item)]
        else:
            words += _flag_and_value(option.flag, str(value))
    return words


def option_values(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The options' values (by `dest`) that give the target of `fields`: `target_fields`
    read backwards. A value an option would have by default is left out (None)."""
    kind = fields["kind"]
    if kind == "openenv":
        task = fields.get("task")
        options = fields.get("reset_options")
        return {
            "openenv": fields["url"],
            "openenv_task": f"{task[0]}:{task[1]}" if task else None,
            "reset_json": _compact_json(options) if options else None,
        }
    if kind == "mcp":
        headers = [f"{name}: {value}" for name, value in fields.get("headers", {}).items()]
        return {"mcp": fields["urls"], "stdio": fields["stdio"], "headers": headers}
    keep = fields.get("keep", False)
    return {
        "instance": fields.get("instance"),
        "local": kind == "local",
        "base_url": fields.get("base_url"),
        "data_key": fields.get("data_key"),
        "region": fields.get("region"),
        "image_type": fields.get("image_type"),
        "ttl": fields.get("ttl_seconds"),
        "heartbeat": heartbeat_option(fields.get("heartbeat_seconds"), keep=keep),
        "env_variables": [f"{key}={value}" for key, value in fields["env_variables"].items()],
        "keep": keep,
    }


def _flag_and_value(flag: str, value: str) -> list[str]:
    """`[flag, value]`; one word `flag=value` when the value looks like an option itself."""
    return [f"{flag}={value}"] if value.startswith("-") else [flag, value]


def heartbeat_seconds(asked: int | None, *, keep: bool) -> int | None:
    """The heartbeat interval to ask for: `asked` (0: none), else the default unless kept."""
    if asked is None:
        return None if keep else DEFAULT_HEARTBEAT_S
    if asked < 0:
        raise EnvError(f"--heartbeat must be 0 or more seconds, not {asked}")
    return asked or None


def heartbeat_option(interval: int | None, *, keep: bool) -> int | None:
    """The `--heartbeat` value that asks for `interval` (None: the option is not needed)."""
    if interval == heartbeat_seconds(None, keep=keep):
        return None
    return interval or 0


def key_value(item: str, option: str) -> tuple[str, str]:
    """`KEY=VALUE` as (key, value); EnvError (exit 2) naming `option` when it is not that."""
    key, sep, value = item.partition("=")
    if not sep or not key:
        raise EnvError(f"{option} expects KEY=VALUE, got {item!r}")
    return key, value


HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP header name (RFC 9110 token)."""


def header(item: str) -> tuple[str, str]:
    """`Name: value` as (name, value); EnvError (exit 2) when it is not that."""
    name, sep, value = item.partition(":")
    name, value = name.strip(), value.strip()
    if not sep or not HEADER_NAME.fullmatch(name) or not value:
        raise EnvError(f"--header expects 'Name: value', got {one_line(item, 40)!r}")
    if any(c in value for c in "\r\n\0"):
        raise EnvError(f"--header {name}: the value holds a line break or NUL")
    return name, value


def reset_options(json_text: str | None, pairs: list[str]) -> dict[str, Any]:
    """`-O JSON` merged with the `-o KEY=VALUE` pairs (pairs win, each read as JSON when it
    parses, else as a string, as `-a` reads a key no schema lists); EnvError on bad input."""
    from fleet_tui.forms.typed_text import loose_json

    options = json_object(json_text, "-O") if json_text is not None else {}
    for pair in pairs:
        key, value = key_value(pair, "-o")
        options[key] = loose_json(value)
    return options


def json_object(text: str, option: str) -> dict[str, Any]:
    """`text` as a JSON object; EnvError (exit 2) naming `option` when it is not one."""
    from fleet_tui.forms.typed_values import parse_json

    try:
        value = parse_json(text)
    except ValueError as error:
        raise EnvError(f"{option} is not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise EnvError(f"{option} must be a JSON object, got {type(value).__name__}")
    return value


def _compact_json(value: Any) -> str:
    import json  # here: `fleet-tui --help` loads this module and no json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def parse_openenv_task(text: str | None) -> tuple[str, int] | None:
    """`SPLIT:INDEX` as (split, index); EnvError (exit 2) when it is not that."""
    if text is None:
        return None
    split, sep, index = text.rpartition(":")
    if not sep or not split or not index.lstrip("-").isdigit():
        raise EnvError(f"--openenv-task expects SPLIT:INDEX, got {text!r}")
    return split, int(index)


def check_target_args(values: Mapping[str, Any]) -> None:
    """Reject target options that cannot work together, before anything is provisioned."""
    fleet = bool(values["env_key"] or values["instance"] or values["local"])
    mcp = bool(values["mcp"] or values["stdio"])
    if values["openenv"] and (fleet or mcp):
        raise EnvError(
            "--openenv cannot be combined with a Fleet env key, --instance, --local, --mcp or "
            "--stdio"
        )
    if mcp and (values["env_key"] or values["instance"]):
        raise EnvError("--mcp and --stdio cannot be combined with a Fleet env key or --instance")
    if values["headers"] and not values["mcp"]:
        raise EnvError("--header is sent to --mcp endpoints: add --mcp URL")
    if values["openenv_task"] and not values["openenv"]:
        raise EnvError("--openenv-task picks a task of an OpenEnv server: add --openenv URL")
    if (values["reset_pairs"] or values["reset_json"]) and not values["openenv"]:
        raise EnvError(
            "-o and -O are env keywords for an OpenEnv server's reset: add --openenv URL"
        )
    if values["openenv_token"] and not values["openenv"]:
        raise EnvError("--openenv-token is sent to an OpenEnv server: add --openenv URL")
    if values["local"] and values["base_url"]:
        raise EnvError("--local and --base-url are alternatives: pick one")
    if values["env_key"] and values["instance"]:
        raise EnvError("give either ENV_KEY to provision or --instance ID to attach, not both")
    if not (values["openenv"] or mcp or values["env_key"] or values["instance"]):
        raise EnvError(
            "no target: give ENV_KEY (with --local for the embedded host), "
            "--instance ID, --openenv URL, --mcp URL or --stdio COMMAND"
        )
