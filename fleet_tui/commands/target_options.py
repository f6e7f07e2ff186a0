"""The target options every command and the app share: flags parsed into a checked `Target`."""

from __future__ import annotations

import argparse
import os
import re
from typing import TYPE_CHECKING, Any

from fleet_tui.commands.local import token_text
from fleet_tui.envs.errors import EnvError
from fleet_tui.text import one_line, remember_secret_values, remember_secrets

if TYPE_CHECKING:  # the models (pydantic) load when a target is built, not for `--help`
    from fleet_tui.envs.targets import Target


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
    group.add_argument("--instance", metavar="ID", help="attach to a running Fleet instance")
    group.add_argument(
        "--local", action="store_true", help="use the embedded local Fleet host (no API key)"
    )
    group.add_argument("--base-url", metavar="URL", help="another Fleet-compatible host")
    add_repeatable(
        group,
        "--mcp",
        metavar="URL",
        help="a plain MCP endpoint: streamable HTTP, or SSE when it answers as one (repeatable)",
    )
    add_repeatable(
        group,
        "--stdio",
        metavar="'COMMAND ARGS'",
        help="an MCP server to run, spoken to over stdin/stdout (repeatable, mixes with --mcp)",
    )
    add_repeatable(
        group,
        "--header",
        dest="headers",
        metavar="'NAME: VALUE'",
        help="an HTTP header for the --mcp endpoints, e.g. 'Authorization: Bearer TOKEN' "
        "(repeatable; values are kept out of output and session files)",
    )
    group.add_argument("--openenv", metavar="URL", help="an OpenEnv environment server")
    group.add_argument(
        "--openenv-task",
        metavar="SPLIT:INDEX",
        help="with --openenv: reset into this task (see `fleet-tui tasks`)",
    )
    group.add_argument(
        "--openenv-token",
        metavar="TOKEN",
        type=token_text,
        help="with --openenv: the token `fleet-tui openenv serve` printed (default: "
        "$FLEET_TUI_OPENENV_TOKEN, else the one it keeps for its port on this machine)",
    )
    group.add_argument("--data-key", metavar="KEY[:VERSION]", help="data snapshot to seed from")
    group.add_argument("--region", help="Fleet region")
    group.add_argument("--image-type", help="instance image type")
    group.add_argument("--ttl", type=int, metavar="SECONDS", help="instance time to live")
    group.add_argument(
        "--heartbeat",
        type=int,
        metavar="SECONDS",
        help="the host stops the instance when fleet-tui has not been heard from for two such "
        f"intervals, e.g. after a kill -9 (default {DEFAULT_HEARTBEAT_S}; none with --keep; "
        "0 for none)",
    )
    add_repeatable(
        group,
        "--env",
        dest="env_variables",
        metavar="KEY=VALUE",
        help="environment variable for the instance (repeatable)",
    )
    group.add_argument(
        "--keep", action="store_true", help="leave the instance running on exit (prints its id)"
    )


DEFAULT_HEARTBEAT_S = 60
"""Heartbeat interval of an instance fleet-tui provisions and does not keep."""


def heartbeat_seconds(asked: int | None, *, keep: bool) -> int | None:
    """The heartbeat interval to ask for: `asked` (0: none), else the default unless kept."""
    if asked is None:
        return None if keep else DEFAULT_HEARTBEAT_S
    if asked < 0:
        raise EnvError(f"--heartbeat must be 0 or more seconds, not {asked}")
    return asked or None


def target_from_args(args: argparse.Namespace) -> Target:
    """Build and check a Target; raises EnvError (exit 2) with a one-line message."""
    from fleet_tui.envs.targets import FleetTarget, LocalTarget, McpTarget, OpenEnvTarget

    check_target_args(args)
    env_variables = dict(key_value(item, "--env") for item in args.env_variables)
    remember_secrets(env_variables)  # whatever the target: an env may echo them
    if args.openenv:
        task = parse_openenv_task(args.openenv_task)
        return OpenEnvTarget(url=args.openenv, task=task, token=args.openenv_token)
    if not (args.env_key or args.instance):
        headers = dict(header(item) for item in args.headers)
        remember_secret_values(list(headers.values()))
        return McpTarget(urls=list(args.mcp), stdio=list(args.stdio), headers=headers)
    instance = {
        "env_key": args.env_key,
        "instance": args.instance,
        "data_key": args.data_key,
        "region": args.region,
        "image_type": args.image_type,
        "ttl_seconds": args.ttl,
        "heartbeat_seconds": heartbeat_seconds(args.heartbeat, keep=args.keep),
        "env_variables": env_variables,
        "keep": args.keep,
    }
    if args.local:
        return LocalTarget(**instance)
    api_key = os.environ.get("FLEET_API_KEY") or None
    check_fleet_host(args.base_url, api_key)
    return FleetTarget(**instance, base_url=args.base_url, api_key=api_key)


def has_target(args: argparse.Namespace) -> bool:
    """True when the command line names an env (ENV_KEY, --instance, --mcp, --stdio or
    --openenv)."""
    return bool(args.env_key or args.instance or args.mcp or args.stdio or args.openenv)


def add_repeatable(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, *flags: str, **options: Any
) -> None:
    """An option that may be given many times, collected into a list (empty when absent)."""
    parser.add_argument(*flags, action="append", default=[], **options)


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


def parse_openenv_task(text: str | None) -> tuple[str, int] | None:
    """`SPLIT:INDEX` as (split, index); EnvError (exit 2) when it is not that."""
    if text is None:
        return None
    split, sep, index = text.rpartition(":")
    if not sep or not split or not index.lstrip("-").isdigit():
        raise EnvError(f"--openenv-task expects SPLIT:INDEX, got {text!r}")
    return split, int(index)


def check_target_args(args: argparse.Namespace) -> None:
    """Reject target options that cannot work together, before anything is provisioned."""
    fleet = bool(args.env_key or args.instance or args.local)
    mcp = bool(args.mcp or args.stdio)
    if args.openenv and (fleet or mcp):
        raise EnvError(
            "--openenv cannot be combined with a Fleet env key, --instance, --local, --mcp or "
            "--stdio"
        )
    if mcp and (args.env_key or args.instance):
        raise EnvError("--mcp and --stdio cannot be combined with a Fleet env key or --instance")
    if args.headers and not args.mcp:
        raise EnvError("--header is sent to --mcp endpoints: add --mcp URL")
    if args.openenv_task and not args.openenv:
        raise EnvError("--openenv-task picks a task of an OpenEnv server: add --openenv URL")
    if args.openenv_token and not args.openenv:
        raise EnvError("--openenv-token is sent to an OpenEnv server: add --openenv URL")
    if args.local and args.base_url:
        raise EnvError("--local and --base-url are alternatives: pick one")
    if args.env_key and args.instance:
        raise EnvError("give either ENV_KEY to provision or --instance ID to attach, not both")
    if not (args.openenv or mcp or args.env_key or args.instance):
        raise EnvError(
            "no target: give ENV_KEY (with --local for the embedded host), "
            "--instance ID, --openenv URL, --mcp URL or --stdio COMMAND"
        )


def check_fleet_host(base_url: str | None, api_key: str | None) -> None:
    """The Fleet cloud needs an API key (set or stored); other hosts may not."""
    if not base_url and not api_key and not _has_stored_credentials():
        raise EnvError(
            "FLEET_API_KEY is not set: set it to use the Fleet cloud, "
            "or add --local to run on the embedded local host"
        )


def _has_stored_credentials() -> bool:
    return os.path.exists(os.path.expanduser("~/.fleet/credentials.json"))
