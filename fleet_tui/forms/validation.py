"""Validate arguments with `jsonschema` and map each error to the field it belongs to.

`jsonschema` (with `referencing` and `regex`, about 0.15 s) is imported when a schema is first
compiled, not with this module: the app's first frame does not wait for it.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fleet_tui.forms.patterns import TOO_SLOW, search, search_or_false
from fleet_tui.forms.schema import Schema
from fleet_tui.text import shortened, visible

if TYPE_CHECKING:
    from jsonschema import FormatChecker, ValidationError
    from referencing import Registry

Path = tuple[str | int, ...]
_MAX_MESSAGE = 200
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")


@dataclass(frozen=True)
class FieldError:
    """One problem with the arguments: where (keys and indexes) and what."""

    path: Path
    message: str


def path_text(path: tuple[str | int, ...]) -> str:
    """Where an error is, as `a/0/b` (names through `visible()`), or `arguments` for the top."""
    return "/".join(visible(str(part)) for part in path) or "arguments"


def error_line(error: FieldError) -> str:
    """One problem on one line: `a/0/b: message`."""
    return f"{path_text(error.path)}: {error.message}"


@functools.cache
def _format_checker() -> FormatChecker:
    """The standard checker plus RFC 3339 date-times and absolute URIs (which jsonschema
    only checks when optional packages are installed)."""
    from jsonschema import FormatChecker

    checker = FormatChecker()
    checker.checks("date-time")(_is_date_time)
    checker.checks("uri")(_is_uri)
    return checker


def _is_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not _DATE_TIME.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _is_uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if any(c.isspace() for c in value):
        return False
    parts = urlsplit(value)
    return bool(_SCHEME.fullmatch(parts.scheme)) and bool(parts.netloc or parts.path)


@functools.cache
def _local_refs() -> Registry:
    """The registry to validate with: `$ref`s resolve inside the schema (and the bundled
    metaschemas) only. By default jsonschema fetches an http(s) `$ref` with no timeout, on the
    thread that validates, and that schema would escape the budget (forms/budget.py)."""
    from referencing import Registry

    return Registry()


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """jsonschema's `pattern`, matched with a time limit (forms/patterns.py)."""
    from jsonschema import ValidationError

    if not validator.is_type(instance, "string"):
        return
    try:
        if not search(pattern, instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")
    except TimeoutError:
        yield ValidationError(f"pattern {pattern!r} {TOO_SLOW}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """jsonschema's `patternProperties`, matched with a time limit (forms/patterns.py)."""
    from jsonschema import ValidationError

    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                found = search(pattern, key)
            except TimeoutError:
                yield ValidationError(f"key {key!r}: pattern {pattern!r} {TOO_SLOW}")
                continue
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


@functools.cache
def _bounded(cls: Any) -> Any:
    from jsonschema import validators

    return validators.extend(cls, {"pattern": _pattern, "patternProperties": _pattern_properties})


def validator_class(schema: Any) -> Any:
    """The jsonschema validator class for `schema` (Draft 2020-12 unless `$schema` says
    otherwise), its regular expressions matched with a time limit."""
    from jsonschema import Draft202012Validator, validators

    return _bounded(validators.validator_for(schema, default=Draft202012Validator))


MAX_OUTPUT_PROBLEMS = 50


def output_problems(value: Any, schema: dict[str, Any]) -> list[str]:
    """Where `value` (a tool's structured content) breaks its output `schema`, one line per
    problem ("$.path: message"), at most MAX_OUTPUT_PROBLEMS. The caller screens the schema
    against the budget (forms/budget.py) first; regular expressions have a time limit."""
    from jsonschema.exceptions import SchemaError

    try:
        validator = _output_validator(json.dumps(schema, sort_keys=True))
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    except SchemaError as error:
        return [f"the tool's output schema is invalid: {error.message}"]
    except Exception as error:
        return [f"cannot check against the output schema: {error}"]
    return [
        f"{json_path(error.absolute_path)}: {error.message}"
        for error in errors[:MAX_OUTPUT_PROBLEMS]
    ]


@functools.lru_cache(maxsize=64)
def _output_validator(schema_json: str) -> Any:
    """The validator for an output schema (given as canonical JSON), the schema checked against
    its metaschema once: that check costs milliseconds, and a tool's every call needs it."""
    schema = json.loads(schema_json)
    cls = validator_class(schema)
    cls.check_schema(schema)
    return cls(schema, registry=_local_refs())


MAX_INPUT_PROBLEMS = 5


def input_problems(arguments: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """Where `arguments` break a tool's input `schema`, one line per problem ("$.path:
    message"), at most MAX_INPUT_PROBLEMS; none when the schema is over budget
    (forms/budget.py) or cannot be used: the env judges those itself. Formats (`uri`,
    `date-time`) are not asserted, as JSON Schema leaves them to the server."""
    from fleet_tui.forms.budget import over_budget

    if over_budget(schema) is not None:
        return []
    try:
        validator = validator_class(schema)(schema, registry=_local_refs())
        errors = sorted(
            validator.iter_errors(arguments), key=lambda e: list(map(str, e.absolute_path))
        )
    except Exception:  # a schema jsonschema cannot use: not the agent's fault
        return []
    return [
        f"{json_path(error.absolute_path)}: {shortened(error.message, 200)}"
        for error in errors[:MAX_INPUT_PROBLEMS]
    ]


def json_path(path: Iterable[str | int]) -> str:
    """`$.key[0].other` for a path of keys and indexes."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


class ArgumentValidator:
    """A compiled validator for one schema (Draft 2020-12 unless `$schema` says otherwise).

    A schema jsonschema cannot use (a bad regex, a reference it cannot follow) is reported once
    in `problem` and validation is skipped rather than blocking the user.
    """

    def __init__(self, schema: Schema) -> None:
        self.problem: str | None = None
        try:
            cls = validator_class(schema)
            self._validator: Any = cls(
                schema, format_checker=_format_checker(), registry=_local_refs()
            )
        except Exception as exc:  # a schema of any shape must not break the form
            self.problem = f"schema cannot be used for validation: {exc}"
            self._validator = None

    def iter_errors(self, instance: Any) -> list[ValidationError]:
        if self._validator is None:
            return []
        try:
            return list(self._validator.iter_errors(instance))
        except Exception as exc:  # e.g. an unresolvable $ref met during validation
            self.problem = f"schema cannot be used for validation: {exc}"
            return []

    def is_valid(self, instance: Any) -> bool:
        return self._validator is not None and not self.iter_errors(instance)


def map_errors(
    errors: Iterable[ValidationError], branch_at: Callable[[Path], int | None]
) -> list[FieldError]:
    """Field errors for jsonschema errors. `branch_at(path)` tells which `oneOf`/`anyOf` branch
    the form shows at a path, so a union's error is reported inside that branch."""
    out: list[FieldError] = []
    required_done: set[tuple[Path, str]] = set()
    for error in errors:
        if error.validator == "required":  # one error per missing key; all are mapped at once
            seen = (tuple(error.absolute_path), repr(error.validator_value))
            if seen in required_done:
                continue
            required_done.add(seen)
        out.extend(_map_one(error, branch_at))
    return list(dict.fromkeys(out))


def _map_one(error: ValidationError, branch_at: Callable[[Path], int | None]) -> list[FieldError]:
    path: Path = tuple(error.absolute_path)
    instance = error.instance
    required = error.validator_value
    if error.validator == "required" and isinstance(instance, dict) and isinstance(required, list):
        missing = [k for k in required if k not in instance]
        return [FieldError((*path, k), "required") for k in missing]
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        allowed = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        patterns = (
            error.schema.get("patternProperties", {}) if isinstance(error.schema, dict) else {}
        )
        extra = [
            k
            for k in instance
            if k not in allowed and not any(search_or_false(p, k) for p in patterns)
        ]
        return [FieldError((*path, k), "unexpected key") for k in extra] or [
            FieldError(path, shortened(error.message, _MAX_MESSAGE))
        ]
    if error.validator in ("oneOf", "anyOf") and error.context:
        chosen = branch_at(path)
        by_branch: dict[int | str, list[ValidationError]] = {}
        for sub in error.context:
            by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
        if chosen in by_branch:
            return [e for sub in by_branch[chosen] for e in _map_one(sub, branch_at)]
    return [FieldError(path, shortened(error.message, _MAX_MESSAGE))]
