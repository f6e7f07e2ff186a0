"""The target options every command and the app share (`target_argv.add_target_arguments`),
parsed into a checked `Target`."""

from __future__ import annotations

import argparse
import os
import shlex
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.errors import EnvError
from fleet_tui.target_argv import key_value, target_fields
from fleet_tui.text import remember_secret_values, remember_secrets

if TYPE_CHECKING:  # the models (pydantic) load when a target is built, not for `--help`
    from fleet_tui.envs.targets import Target


def target_from_args(args: argparse.Namespace) -> Target:
    """Build and check a Target; raises EnvError (exit 2) with a one-line message."""
    return target_of(checked_target_fields(args))


def target_of(fields: dict[str, Any]) -> Target:
    """The Target of fields `checked_target_fields` gave (the models load here)."""
    from fleet_tui.envs.targets import TARGET

    return TARGET.validate_python(fields)


def checked_target_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The target's fields, checked (with the Fleet API key from the environment), without
    the models: EnvError (exit 2) with a one-line message when they name no env to reach."""
    fields = target_fields(vars(args))
    # whatever the target: an env may echo them
    remember_secrets(dict(key_value(item, "--env") for item in args.env_variables))
    remember_secret_values(list(fields.get("headers", {}).values()))
    if fields["kind"] == "fleet":
        fields["api_key"] = os.environ.get("FLEET_API_KEY") or None
        check_fleet_host(fields["base_url"], fields["api_key"])
    if fields["kind"] == "local" and fields["env_key"]:
        check_local_env_key(fields["env_key"])
    return fields


def check_local_env_key(env_key: str) -> None:
    """The embedded host serves its bundled envs only: another key could never connect."""
    from fleet_tui.local import BUNDLED_ENV_KEYS

    if env_key not in BUNDLED_ENV_KEYS:
        raise EnvError(
            f"the local host has no env {env_key!r}; its envs: {', '.join(BUNDLED_ENV_KEYS)}"
        )


def target_from_words(words: list[str]) -> Target:
    """`target_from_args` for target options given as words (`['--mcp', URL]`)."""
    from fleet_tui.target_argv import add_target_arguments

    parser = argparse.ArgumentParser(prog="fleet-tui", add_help=False, exit_on_error=False)
    add_target_arguments(parser)
    try:
        args = parser.parse_args(words)
    except (argparse.ArgumentError, SystemExit) as error:
        raise EnvError(f"cannot read the target {shlex.join(words)!r}: {error}") from None
    return target_from_args(args)


def has_target(args: argparse.Namespace) -> bool:
    """True when the command line names an env (ENV_KEY, --instance, --mcp, --stdio or
    --openenv)."""
    return bool(args.env_key or args.instance or args.mcp or args.stdio or args.openenv)


def add_repeatable(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, *flags: str, **options: Any
) -> None:
    """An option that may be given many times, collected into a list (empty when absent)."""
    parser.add_argument(*flags, action="append", default=[], **options)


def check_fleet_host(base_url: str | None, api_key: str | None) -> None:
    """The Fleet cloud needs an API key (set or stored); other hosts may not."""
    if not base_url and not api_key and not _has_stored_credentials():
        raise EnvError(
            "FLEET_API_KEY is not set: set it to use the Fleet cloud, "
            "or add --local to run on the embedded local host"
        )


def _has_stored_credentials() -> bool:
    return os.path.exists(os.path.expanduser("~/.fleet/credentials.json"))
