"""What the client answers servers that ask it things: `--root PATH` (the roots offered; none
by default, since a server such as server-filesystem replaces the folders it was configured
with by the roots a client offers) and, headless, `--elicit JSON` (the answer to an elicitation;
without it every elicitation and sampling request is declined)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from fleet_tui.commands.output import Output
from fleet_tui.commands.target_options import add_repeatable
from fleet_tui.envs.errors import EnvError
from fleet_tui.target_argv import json_object
from fleet_tui.text import one_line

if TYPE_CHECKING:  # loaded when a command runs, not for `--help`
    from fleet_tui.envs.server_requests import (
        ElicitAnswer,
        ElicitRequest,
        SampleRequest,
        SignInRequest,
    )


def add_root_argument(parser: argparse.ArgumentParser) -> None:
    add_repeatable(
        parser,
        "--root",
        dest="roots",
        metavar="PATH",
        help="a directory offered to servers as a root (repeatable; default: none, so a server "
        "keeps the folders it was configured with)",
    )


def add_elicit_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--elicit",
        metavar="JSON",
        help="accept a server's elicitation with this JSON object (checked against the schema "
        "the server asks for); without it elicitations are declined",
    )


def add_protocol_argument(parser: argparse.ArgumentParser) -> None:
    from fleet_tui.envs.protocol_revision import DEFAULT_PROTOCOL, PROTOCOLS

    parser.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default=DEFAULT_PROTOCOL,
        help="the MCP revision to negotiate: the initialize handshake (2025-11-25, default), or "
        "latest: the newest the SDK speaks (2026-07-28, by server/discover) where the server "
        "offers it, else the handshake; on 2026-07-28 the log level is the one set when "
        "connecting, and resource subscriptions are not yet spoken",
    )


def add_timeout_argument(parser: argparse.ArgumentParser) -> None:
    from fleet_tui.envs.call_clock import DEFAULT_CALL_TIMEOUT_S

    parser.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=DEFAULT_CALL_TIMEOUT_S,
        metavar="SECONDS",
        help="cancel a tool call (the server is told) after this long without an answer or a "
        f"progress report; each report restarts the clock (default: {DEFAULT_CALL_TIMEOUT_S:g}; "
        "0: no limit)",
    )


def timeout_seconds(text: str) -> float | None:
    """`--timeout`'s value (None: no limit); argparse says what is wrong with a bad one."""
    from fleet_tui.envs.call_clock import parse_timeout

    try:
        return parse_timeout(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def roots_from_args(args: argparse.Namespace) -> list[str]:
    """The root directories to offer; EnvError (exit 2) for one that is not a directory."""
    from fleet_tui.envs.server_requests import root_problem

    roots: list[str] = getattr(args, "roots", None) or []
    for root in roots:
        if (problem := root_problem(root)) is not None:
            raise EnvError(f"--root {problem}")
    return roots


def elicit_from_args(args: argparse.Namespace) -> dict[str, Any] | None:
    """The `--elicit` object, or None; EnvError (exit 2) when it is not a JSON object."""
    text = getattr(args, "elicit", None)
    return json_object(text, "--elicit") if text is not None else None


class HeadlessAnswers:
    """The port a headless command answers servers with (`ServerRequests`), asking no one: the
    roots given, `--elicit` (or decline) for elicitations, decline for sampling; an OAuth
    sign-in's URL is printed to be opened. Each request is told on `out`'s stderr."""

    def __init__(
        self, roots: list[str], elicit: dict[str, Any] | None = None, *, out: Output | None = None
    ) -> None:
        self.out = out or Output()
        self.offered_roots = roots
        self.elicit_answer = elicit
        """The `--elicit` object, or None to decline."""
        self.problems: list[str] = []
        """Why an `--elicit` answer was not sent (it broke the schema the server asked for)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace, out: Output) -> HeadlessAnswers:
        return cls(roots_from_args(args), elicit_from_args(args), out=out)

    def roots(self) -> list[str]:
        return self.offered_roots

    async def sign_in(self, request: SignInRequest) -> None:
        from fleet_tui.commands.sign_in import show_sign_in  # asyncio: not for `--help`

        await show_sign_in(request)

    async def elicit(self, request: ElicitRequest) -> ElicitAnswer:
        from fleet_tui.envs.server_requests import ElicitAnswer

        asked = f"the server asks: {one_line(request.message, 300)}"
        if request.url_mode:
            self.out.warn(f"{asked} (visit {one_line(request.url or '', 500)}); declined")
            return ElicitAnswer("decline")
        if self.elicit_answer is None:
            self.out.warn(f"{asked}; declined (--elicit JSON answers it)")
            return ElicitAnswer("decline")
        from fleet_tui.forms.budget import complexity_note
        from fleet_tui.forms.typed_text import schema_errors
        from fleet_tui.forms.validation import error_line

        if (note := complexity_note(request.schema)) is not None:
            self.out.warn(f"{asked}; accepted with --elicit, unchecked: {note}")
            return ElicitAnswer("accept", self.elicit_answer)
        errors = schema_errors(request.schema, self.elicit_answer)
        if errors:
            problems = "; ".join(map(error_line, errors))
            self.problems.append(problems)
            self.out.warn(
                f"{asked}; cancelled: --elicit does not match what it asks for: {problems}"
            )
            return ElicitAnswer("cancel")
        self.out.warn(f"{asked}; accepted with --elicit")
        return ElicitAnswer("accept", self.elicit_answer)

    async def sample(self, _request: SampleRequest) -> None:
        self.out.warn("the server asks for a sampled message; declined (only the app can answer)")

    def refused_note(self) -> str | None:
        """What to say after the call, when an `--elicit` answer broke the schema a server
        asked for (the call was made: its result is printed, and the command exits 1)."""
        if not self.problems:
            return None
        return (
            "fleet-tui: --elicit does not match the schema the server asked for, so the "
            "elicitation was cancelled: " + " | ".join(self.problems)
        )
