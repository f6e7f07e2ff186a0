"""Fuzzy ranking of tools for the tool filter, fast enough for a keystroke over 10 000 tools.

A query matches a tool when its letters appear in order (any case) in the tool's name, or else
in the start of its description (half the score). Scores follow Textual's `FuzzySearch`: one
point per letter, one more per letter at a word start, boosted when the letters are together.
Matches are found with one compiled regex per query (the leftmost match, tightened towards its
end) rather than every possible placement, and a query that extends an earlier one only looks
at the tools the earlier one matched.
"""

from __future__ import annotations

import functools
import re
from collections import OrderedDict
from collections.abc import Iterable
from itertools import pairwise

from fleet_tui.envs.base import Tool

DESCRIPTION_CHARS = 200
"""How much of a description the filter searches."""
REMEMBERED_QUERIES = 32

Ranked = list[tuple[Tool, list[int]]]


def word_hits(text: str, offsets: Iterable[int]) -> int:
    """How many of `offsets` begin a word of `text` (a run of `\\w` characters, as `re` has them:
    `str.isalnum` or `_`)."""
    hits = 0
    for offset in offsets:
        before = text[offset - 1] if offset else " "
        letter = text[offset]
        if (letter.isalnum() or letter == "_") and not (before.isalnum() or before == "_"):
            hits += 1
    return hits


def score(query: str, text: str, offsets: list[int]) -> float:
    """Textual's fuzzy score of `query` at `offsets` of `text`: 1.5 times more when the query
    occurs as a whole, twice when it is the whole text."""
    count = len(offsets)
    groups = 1 + sum(1 for left, right in pairwise(offsets) if right != left + 1)
    together = (count - (groups - 1)) / count
    points = (count + word_hits(text, offsets)) * (1 + together * together)
    return points * (2.0 if text == query else 1.5 if groups == 1 else 1.0)


def placement(query: str, pattern: re.Pattern[str], text: str) -> list[int] | None:
    """Where the letters of `query` fall in `text` (both lower case), or None: the query as a
    whole if it occurs, else the leftmost match pulled as close as it goes to its last letter."""
    at = text.find(query)
    if at >= 0:
        return list(range(at, at + len(query)))
    return scattered(query, pattern, text)


def scattered(query: str, pattern: re.Pattern[str], text: str) -> list[int] | None:
    """The leftmost match of `pattern` (the letters of `query`) in `text`, pulled as close as it
    goes to its last letter, or None."""
    match = pattern.search(text)
    if match is None:
        return None
    # Each letter, last to first, at its rightmost place before the next letter's.
    offsets = [0] * len(query)
    end = match.end()
    for letter in range(len(query) - 1, -1, -1):
        end = offsets[letter] = text.rfind(query[letter], 0, end)
    return offsets


@functools.lru_cache(maxsize=REMEMBERED_QUERIES)
def subsequence(query: str) -> re.Pattern[str]:
    """A regex for the letters of `query` in order, each gap free of the next letter (the
    leftmost match, found without backtracking)."""
    parts = [re.escape(query[0])]
    for letter in query[1:]:
        parts.append(f"[^{re.escape(letter)}]*{re.escape(letter)}")
    return re.compile("".join(parts))


class FuzzyRanker:
    """Ranks a fixed list of tools against queries, remembering recent queries' matches.

    A query's matches are kept as tool indexes only (no per-tool objects, which would cost the
    garbage collector on every keystroke); the matched letters of a name are found again for
    the rows drawn (`offsets`)."""

    def __init__(self, tools: list[Tool]) -> None:
        self.tools = tools
        self._names = [tool.name.lower() for tool in tools]
        self._descriptions = [tool.description[:DESCRIPTION_CHARS].lower() for tool in tools]
        self._matched: OrderedDict[str, list[int]] = OrderedDict()

    def rank(self, query: str) -> Ranked:
        """Tools matching `query`, best first (ties in list order), with matched name offsets."""
        return [(self.tools[index], self.offsets(query, index)) for index in self.order(query)]

    def order(self, query: str) -> list[int] | range:
        """The indexes of the tools matching `query`, best first (ties in list order)."""
        query = query.lower()
        if not query:
            return range(len(self.tools))
        if query not in self._matched:
            self._matched[query] = self._match(query, self._candidates(query))
            if len(self._matched) > REMEMBERED_QUERIES:
                self._matched.popitem(last=False)
        self._matched.move_to_end(query)
        return self._matched[query]

    def offsets(self, query: str, index: int) -> list[int]:
        """Where the letters of `query` fall in the name of tool `index` ([] when they do not:
        it matched by its description)."""
        query = query.lower()
        if not query:
            return []
        return placement(query, subsequence(query), self._names[index]) or []

    def _candidates(self, query: str) -> list[int] | range:
        """The tools an earlier, shorter form of `query` matched (all tools if none is known):
        a tool that misses a prefix of the query misses the query."""
        for end in range(len(query) - 1, 0, -1):
            earlier = self._matched.get(query[:end])
            if earlier is not None:
                return sorted(earlier)
        return range(len(self.tools))

    def _match(self, query: str, candidates: list[int] | range) -> list[int]:
        pattern = subsequence(query)
        names, descriptions = self._names, self._descriptions
        matched: list[int] = []
        points: list[float] = []  # negated, so an ascending sort puts the best first
        for index in candidates:
            found = points_of(query, pattern, names[index])
            if found is None:
                text = descriptions[index]
                if query[0] not in text:
                    continue
                found = points_of(query, pattern, text)
                if found is None:
                    continue
                found *= 0.5
            matched.append(index)
            points.append(-found)
        # A stable sort of positions in list order: ties stay in list order.
        return [matched[k] for k in sorted(range(len(matched)), key=points.__getitem__)]


def points_of(query: str, pattern: re.Pattern[str], text: str) -> float | None:
    """`score` of `query` (lower case) in `text`, or None when it does not match."""
    at = text.find(query)
    if at < 0:
        offsets = scattered(query, pattern, text)
        return None if offsets is None else score(query, text, offsets)
    # The query as a whole: `score` without its arithmetic for scattered letters.
    hits = word_hits(text, range(at, at + len(query)))
    return (len(query) + hits) * 2.0 * (2.0 if text == query else 1.5)


def fuzzy_rank(query: str, tools: list[Tool]) -> Ranked:
    """Tools matching `query` (by name, then description), best first, with matched name offsets."""
    return FuzzyRanker(tools).rank(query)
