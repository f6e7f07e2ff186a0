"""How much work a JSON Schema may ask of us before we stop validating against it.

A schema comes from the environment: `$defs` that each refer twice to the next one
(`anyOf: [{"$ref": next}, {"$ref": next}]`) expand to 2^N subschemas, and validating or drawing
them never ends. `over_budget(schema)` walks the schema the way a validator would (following
`$ref`s), counts what it meets and gives up as soon as a limit is passed, so a bomb is screened
in milliseconds and a schema within the limits is cheap to validate by construction.

A recursive schema (a tree of nodes) is fine: a `$ref` back to a schema being expanded is not
expanded again, as long as it goes into the value (a validator then follows it only as deep as
the value is). Refused: a cycle that stays on one value (validators never finish it), and
recursion that can reach one value by two routes (`next: anyOf [Node, Node]`, or cycles through
`x` and `x/x`): the routes double with each level of the value.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fleet_tui.text import shortened, visible

MAX_NODES = 50_000
"""Subschemas met once `$ref`s are followed (the test corpus: 20 at most; a tool of 10,000
varied properties: about 16,000; a bomb of 2^N is stopped here in under 0.1 s)."""
MAX_DEPTH = 64
"""Subschemas nested in one another, `$ref`s followed (the test corpus: 7 at most)."""
MAX_ALTERNATIVES = 1_000
"""Branches of one `anyOf`, `oneOf` or `allOf` (the test corpus: 5 at most)."""

_REFS = ("$ref", "$dynamicRef", "$recursiveRef")
_IN_PLACE_MAPS = ("dependentSchemas", "dependencies")
_KEYWORDS = {
    **dict.fromkeys(("allOf", "anyOf", "oneOf"), "branches"),
    **dict.fromkeys(("not", "if", "then", "else"), "same"),
    **dict.fromkeys(("additionalProperties", "unevaluatedProperties", "propertyNames"), "key"),
    **dict.fromkeys(("patternProperties", *_IN_PLACE_MAPS), "map"),
    **dict.fromkeys(("items", "prefixItems", "additionalItems", "unevaluatedItems"), "items"),
    "contains": "items",
    "properties": "properties",
}
"""How each keyword holding subschemas applies them: to the same value ("same", "branches",
the maps of _IN_PLACE_MAPS), to the value under a key, or to items."""
_ANY_KEY = -1
"""A step into a value under a key that a pattern or `additionalProperties` stands for (a
step under a named property is the name)."""
_ITEM = 0
"""A step into one item of an array."""

Step = str | int
Place = tuple[Step, ...]


class _OverBudget(Exception):
    """Raised inside the walk to stop it; carries the reason."""


def complexity_note(schema: Any) -> str | None:
    """The note "schema too complex to validate: <why>" for a schema over the budget, or None."""
    reason = over_budget(schema)
    return None if reason is None else f"schema too complex to validate: {reason}"


def output_note(schema: Any) -> str | None:
    """Why a result is not checked against this output schema ("the output schema is too
    complex to validate (<why>)"), or None when it is within the budget."""
    reason = over_budget(schema)
    return None if reason is None else f"the output schema is too complex to validate ({reason})"


def over_budget(schema: Any) -> str | None:
    """Why validating against `schema` could take unbounded time, or None when it cannot."""
    if not isinstance(schema, dict):
        return None
    try:
        _Walk(schema).visit(schema, (), 0)
    except _OverBudget as stop:
        return str(stop)
    return None


class _Walk:
    """One walk over a schema: counts, the `$ref`s being expanded, the cycles met."""

    def __init__(self, root: dict[str, Any]) -> None:
        from referencing import Registry  # imported on first use: not before the first frame
        from referencing.jsonschema import DRAFT202012, specification_with

        dialect = root.get("$schema")
        self._specification = specification_with(
            dialect if isinstance(dialect, str) else "", default=DRAFT202012
        )
        self._resolvers: list[Any] = [  # referencing Resolvers, by scope number
            Registry().resolver_with_root(self._specification.create_resource(root))
        ]
        self._looked_up: dict[tuple[int, str], tuple[Any, int] | None] = {}
        self._entered: dict[tuple[int, int], int] = {}
        self._nodes = 0
        self._expanding: dict[int, tuple[int, Place]] = {}
        """Schemas being expanded (by id), with their expansion number and where they began."""
        self._back_refs: dict[int, _Routes] = {}
        self._expansions = 0

    def visit(self, schema: Any, place: Place, depth: int, scope: int = 0) -> None:
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise _OverBudget(f"more than {MAX_NODES:,} subschemas once $refs are followed")
        if depth > MAX_DEPTH:
            raise _OverBudget(f"nested deeper than {MAX_DEPTH} levels")
        if not isinstance(schema, dict):
            return
        if depth > 0 and self._specification.id_of(schema) is not None:
            scope = self._enter(schema, scope)
        for keyword in _REFS:
            ref = schema.get(keyword)
            if isinstance(ref, str):
                self._follow(ref, place, depth, scope)
        for sub, step in _subschemas(schema):
            self.visit(sub, place if step is None else (*place, step), depth + 1, scope)

    def _follow(self, ref: str, place: Place, depth: int, scope: int) -> None:
        found = self._lookup(ref, scope)
        if found is None:  # a validator cannot follow it either, and says so
            return
        target, target_scope = found
        key = id(target)
        expanding = self._expanding.get(key)
        if expanding is None:
            self._expansions += 1
            self._expanding[key] = (self._expansions, place)
            try:
                self.visit(target, place, depth + 1, target_scope)
            finally:
                del self._expanding[key]
            return
        number, began = expanding
        into = place[len(began) :]
        if not into:
            raise _OverBudget(f"$ref {_shown(ref)} refers back to itself on the same value")
        self._nodes += len(into) ** 2  # what `_Routes.add` costs, so it is bounded too
        if not self._back_refs.setdefault(number, _Routes()).add(into):
            raise _OverBudget(f"$ref {_shown(ref)} can reach one value by two routes")

    def _lookup(self, ref: str, scope: int) -> tuple[Any, int] | None:
        """The schema `ref` points at (resolved as jsonschema would) and its scope, or None."""
        key = (scope, ref)
        if key not in self._looked_up:
            try:
                resolved = self._resolvers[scope].lookup(ref)
            except Exception:  # unresolvable, or a reference of the wrong shape
                self._looked_up[key] = None
            else:
                self._resolvers.append(resolved.resolver)
                self._looked_up[key] = (resolved.contents, len(self._resolvers) - 1)
        return self._looked_up[key]

    def _enter(self, schema: dict[str, Any], scope: int) -> int:
        """The scope of a subschema with its own `$id` (`id` in old drafts): references inside
        resolve against it."""
        key = (scope, id(schema))
        if key not in self._entered:
            resolver = self._resolvers[scope]
            try:
                resource = self._specification.create_resource(schema)
                self._resolvers.append(resolver.in_subresource(resource))
            except Exception:  # an `$id` referencing cannot use: keep the outer scope
                self._entered[key] = scope
            else:
                self._entered[key] = len(self._resolvers) - 1
        return self._entered[key]


def _subschemas(schema: dict[str, Any]) -> Iterator[tuple[Any, Step | None]]:
    """Each subschema a validator applies, with the step into the value it applies to (None:
    the same value). `$defs` are not walked: they apply only through `$ref`s."""
    for keyword, value in schema.items():
        kind = _KEYWORDS.get(keyword)
        if kind is None:
            continue
        if kind == "branches":
            if isinstance(value, list) and len(value) > MAX_ALTERNATIVES:
                raise _OverBudget(
                    f"{len(value):,} branches in one {keyword} (at most {MAX_ALTERNATIVES:,})"
                )
            yield from ((member, None) for member in _listed(value))
        elif kind == "properties":
            if isinstance(value, dict):
                yield from ((sub, name) for name, sub in value.items())
        elif kind == "map":
            if isinstance(value, dict):
                step = None if keyword in _IN_PLACE_MAPS else _ANY_KEY
                yield from ((sub, step) for sub in value.values() if isinstance(sub, dict | bool))
        elif kind == "items":
            yield from ((sub, _ITEM) for sub in _listed(value, single=True))
        else:
            yield value, None if kind == "same" else _ANY_KEY


def _listed(value: Any, *, single: bool = False) -> list[Any]:
    """The subschemas of a keyword holding a list of them (or one, when `single`)."""
    if isinstance(value, list):
        return value
    return [value] if single else []


class _Routes:
    """The places (relative to where one expansion began) where `$ref`s lead back to it.

    A value n levels deep is reached through a sequence of these places; it is reached by one
    route only when no sequence reads two ways, which holds when no place begins another one,
    or when no place ends another one. A step for any key is taken to match every key.
    """

    def __init__(self) -> None:
        self._starts = _Affixes()
        self._ends = _Affixes()
        self._one_way = {"starts": True, "ends": True}

    def add(self, place: Place) -> bool:
        """Add `place`; False when some value may now be reached by two routes."""
        for side, affixes, word in (
            ("starts", self._starts, place),
            ("ends", self._ends, place[::-1]),
        ):
            if affixes.clashes(word):
                self._one_way[side] = False
            affixes.add(word)
        return any(self._one_way.values())


class _Affixes:
    """Words (places), to tell whether a new word begins one of them or one of them begins it."""

    def __init__(self) -> None:
        self._words: set[Place] = set()
        self._shapes: set[Place] = set()
        self._any_key_shapes: set[Place] = set()
        self._heads: set[Place] = set()
        self._head_shapes: set[Place] = set()
        self._any_key_head_shapes: set[Place] = set()

    def clashes(self, word: Place) -> bool:
        for head in _heads(word):  # a word already added begins this one (or equals it)
            shape = _shape(head)
            if (
                head in self._words
                or shape in self._any_key_shapes
                or (_ANY_KEY in head and shape in self._shapes)
            ):
                return True
        shape = _shape(word)  # this word begins one already added
        return (
            word in self._heads
            or shape in self._any_key_head_shapes
            or (_ANY_KEY in word and shape in self._head_shapes)
        )

    def add(self, word: Place) -> None:
        for head in _heads(word):
            shape = _shape(head)
            self._heads.add(head)
            self._head_shapes.add(shape)
            if _ANY_KEY in head:
                self._any_key_head_shapes.add(shape)
        shape = _shape(word)
        self._words.add(word)
        self._shapes.add(shape)
        if _ANY_KEY in word:
            self._any_key_shapes.add(shape)


def _heads(word: Place) -> list[Place]:
    """The words that begin `word`, itself included."""
    return [word[:length] for length in range(1, len(word) + 1)]


def _shape(place: Place) -> Place:
    """A place with every key written as "any key"."""
    return tuple(_ANY_KEY if isinstance(step, str) else step for step in place)


def _shown(ref: str) -> str:
    return repr(shortened(visible(ref), 80))
