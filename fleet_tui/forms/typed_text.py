"""Arguments typed as text on a command line (`-a key=value`), read by the tool's schema.

Each value becomes the type its parameter declares: a string stays a string even when it looks
like JSON (`-a message=123` sends "123"), numbers and booleans are parsed, objects and arrays
are JSON, enum values are matched as typed, and a union takes the first of its types (strings
last) that reads the text. A parameter that declares no type takes the text as a string, as
MCP Inspector sends it: JSON is read only where the schema asks for it (or with `-j`). A union
that takes strings reads a boolean only from exactly `true` or `false`, so `yes` stays "yes".
What cannot be read is a `FieldError` worded as the form words it.
"""

from __future__ import annotations

import shlex
from typing import Any

from fleet_tui.forms.container_nodes import UnionNode
from fleet_tui.forms.form import Form, build_form
from fleet_tui.forms.leaf_nodes import ConstNode, EnumNode, RawNode, ScalarNode
from fleet_tui.forms.node import Node
from fleet_tui.forms.schema import json_equal
from fleet_tui.forms.typed_values import parse_json, parse_number
from fleet_tui.forms.validation import FieldError

_BOOLEAN_WORDS = {
    **dict.fromkeys(("true", "yes", "on", "1"), True),
    **dict.fromkeys(("false", "no", "off", "0"), False),
}
_EXACT_BOOLEANS = {"true": True, "false": False}
_UNTYPED = ("no type", "any")
"""Why a field is raw when its schema declares no type at all (`{}`, `true`)."""


class Unreadable(ValueError):
    """Text that the parameter's type cannot read; the message says why."""


def typed_arguments(
    schema: Any, pairs: list[tuple[str, str]], base: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[FieldError]]:
    """`base` with each (key, text) pair read by the type of its parameter in `schema`, and
    what could not be read. A key the schema does not list is read as JSON when it parses,
    else as a string (the caller warns about unknown keys)."""
    form = build_form(schema)
    arguments = dict(base or {})
    problems: list[FieldError] = []
    for key, text in pairs:
        node = form.field_at((key,)) if form.root.kind == "object" else None
        try:
            arguments[key] = read_text(node, text) if node is not None else loose_json(text)
        except Unreadable as error:
            problems.append(FieldError((key,), str(error)))
    return arguments, problems


def schema_errors(schema: Any, arguments: dict[str, Any]) -> list[FieldError]:
    """What is wrong with `arguments` against `schema`, as the form reports it."""
    form: Form = build_form(schema)
    form.load(arguments)
    return form.errors()


def loose_json(text: str) -> Any:
    """`text` as JSON when it parses, else the text itself."""
    try:
        return parse_json(text)
    except ValueError:
        return text


def read_text(node: Node, text: str, *, strict_booleans: bool = False) -> Any:
    """The value of `text` for the field `node`; Unreadable when its type cannot read it.
    `strict_booleans`: only `true` and `false` read as booleans (a union that takes strings)."""
    if isinstance(node, UnionNode):
        return _read_union(node, text)
    if isinstance(node, ScalarNode):
        return _read_scalar(node, text, strict_booleans)
    if isinstance(node, RawNode) and node.reason in _UNTYPED:
        return text
    if isinstance(node, EnumNode | ConstNode):
        options = node.options if isinstance(node, EnumNode) else [node.const]
        return _read_choice(options, text, node.nullable)
    if node.nullable and text.strip() == "null":
        return None
    try:
        return parse_json(text)
    except ValueError as error:
        raise Unreadable(str(error)) from None


def _read_scalar(node: ScalarNode, text: str, strict_booleans: bool) -> Any:
    if node.kind == "string":
        return text
    stripped = text.strip()
    if node.nullable and stripped == "null":
        return None
    if node.kind == "boolean":
        booleans, word = (
            (_EXACT_BOOLEANS, text) if strict_booleans else (_BOOLEAN_WORDS, stripped.lower())
        )
        if word in booleans:
            return booleans[word]
        raise Unreadable("not a boolean (true or false)")
    try:
        number = parse_number(stripped, integer=node.kind == "integer")
    except ValueError as error:
        raise Unreadable(str(error)) from None
    if number is None:
        raise Unreadable(f"not {'an integer' if node.kind == 'integer' else 'a number'}")
    return number


def _read_choice(options: list[Any], text: str, nullable: bool) -> Any:
    """The option written as `text` (a string option as itself, others as JSON); text that
    names no option is kept as a string, for validation to report."""
    if any(option == text for option in options):
        return text
    parsed = loose_json(text)
    if nullable and parsed is None:
        return None
    return next((option for option in options if json_equal(option, parsed)), text)


def _read_union(node: UnionNode, text: str) -> Any:
    if node.nullable and text.strip() == "null":
        return None
    branches = [node.branch_node(i) for i in range(len(node.branch_schemas))]
    strings_last = sorted(branches, key=_is_string)
    takes_strings = any(map(_is_string, branches))
    first_problem: Unreadable | None = None
    for branch in strings_last:
        try:
            value = read_text(branch, text, strict_booleans=takes_strings)
        except Unreadable as error:
            first_problem = first_problem or error
            continue
        if branch.accepts(value):
            return value
    raise first_problem or Unreadable("matches none of its types")


def keywords_from_text(text: str) -> dict[str, Any]:
    """Keywords typed on one line: a JSON object, or `key=value` pairs separated by spaces
    (quote a value that holds spaces), each value read as JSON when it parses, else as a
    string. ValueError in plain words when the text is neither."""
    text = text.strip()
    if text.startswith("{"):
        value = parse_json(text)
        if not isinstance(value, dict):
            raise ValueError('keywords in JSON are an object: {"key": value}')
        return value
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"cannot read the keywords: {error}") from None
    keywords: dict[str, Any] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"write each keyword as key=value, not {word!r}")
        keywords[key] = loose_json(value)
    return keywords


def _is_string(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.kind == "string"
