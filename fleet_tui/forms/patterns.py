"""Regular expressions from a schema, matched with a time limit.

A schema's `pattern` and `patternProperties` come from the environment, and Python's `re`
backtracks without bound: `^(a|aa)+$` against 40 typed characters runs for minutes, on the thread
that validates (the form's, after every edit). The `regex` module avoids most such backtracking
and stops a match at a time limit. It is imported on the first match, not before the app's
first frame.
"""

from __future__ import annotations

from typing import Any

TIME_LIMIT_S = 0.1
"""The longest one match may take."""

TOO_SLOW = f"took over {TIME_LIMIT_S:g} s to match, not checked"


def search(pattern: str, text: str) -> bool:
    """Whether `pattern` matches somewhere in `text`. Raises `regex.error` for a pattern that
    does not compile, TimeoutError past TIME_LIMIT_S."""
    import regex

    return regex.search(pattern, text, timeout=TIME_LIMIT_S) is not None


def search_or_false(pattern: Any, text: str) -> bool:
    """`search`, with a bad or too slow pattern taken as no match."""
    import regex

    try:
        return isinstance(pattern, str) and search(pattern, text)
    except (regex.error, TimeoutError):
        return False
