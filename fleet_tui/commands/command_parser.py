"""The parser of a command line: argparse's, with positionals that may come between options
for the commands that take two (`fleet-tui call ENV_KEY TOOL`, `prompt`, `read`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn


class ParseError(Exception):
    """A command line a parser made with `exit_on_error=False` cannot read."""


class CommandParser(argparse.ArgumentParser):
    """With `intermixed`, options may come between the positionals (intermixed parsing).
    After `--` every word is positional, whatever it looks like: with `--` the plain parsing
    is used (options first), as argparse's intermixed parsing (Python 3.11 to 3.13) still
    reads `-- --mcp=URL` as an option."""

    def __init__(self, *args: Any, intermixed: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.intermixed = intermixed

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> argparse.Namespace:
        words = list(sys.argv[1:] if args is None else args)
        if not self.intermixed or "--" in words:
            return super().parse_args(words, namespace)
        return self.parse_intermixed_args(words, namespace)

    def error(self, message: str) -> NoReturn:
        """Print the usage and exit, or (`exit_on_error=False`) raise ParseError, printing
        nothing: a warm-session daemon reads a forwarded command line so."""
        if not self.exit_on_error:
            raise ParseError(message)
        super().error(message)
