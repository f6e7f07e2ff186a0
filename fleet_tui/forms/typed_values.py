"""Values typed as text into a form field: what a one-line box can hold, numbers and JSON,
parsed with their problems said in plain words."""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

_UNTYPABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Characters a one-line text box cannot show or keep (newlines, tabs, terminal controls):
strings holding them are edited as JSON text, where they are escaped."""


def typable(text: str) -> bool:
    """Whether a one-line text box can show and keep `text` unchanged."""
    return not _UNTYPABLE.search(text)


def parse_number(text: str, *, integer: bool) -> int | float | None:
    """Parse typed text as a JSON number (int when written without a fraction), else None;
    ValueError for an integer too long to convert."""
    if re.fullmatch(r"[+-]?\d+", text):
        return _integer(text)
    if integer:
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def parse_json(text: str) -> Any:
    """Parse typed JSON text; raises ValueError saying what is wrong in plain words
    (`invalid JSON: Expecting value at line 1 column 1`). NaN and Infinity are refused: they
    are not JSON, though Python's parser takes them; so is a number too large to be sent as
    itself (`1e999` would become infinity)."""
    try:
        return json.loads(
            text, parse_constant=_not_json, parse_float=_finite_float, parse_int=_integer
        )
    except json.JSONDecodeError as error:
        where = f"at line {error.lineno} column {error.colno}"
        raise ValueError(f"invalid JSON: {error.msg} {where}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    except ValueError as error:  # from the hooks below
        raise ValueError(f"invalid JSON: {error}") from None


def _not_json(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON value")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too large for a number")
    return number


def _integer(text: str) -> int:
    """`int(text)`, with Python's limit on digits said in plain words."""
    try:
        return int(text)
    except ValueError:
        limit = sys.get_int_max_str_digits()
        raise ValueError(
            f"{len(text):,} digits is too long for a number (at most {limit:,})"
        ) from None
