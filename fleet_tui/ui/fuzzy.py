"""Fuzzy ranking of tools for the tool filter, fast enough for a keystroke over 10 000 tools.

A query matches a tool when its letters appear in order (any case) in the tool's name, or else
in the start of its description (half the score). Scores follow Textual's `FuzzySearch`: one
point per letter, one more per letter at a word start, boosted when the letters are together.
Matches are found with one compiled regex per query (the leftmost match, tightened towards its
end) rather than every possible placement, and a query that extends an earlier one only looks
at the tools the earlier one matched. The tools no scattered placement can pass are put in order
first; scoring scattered letters, most of the cost, can wait for the rows further down.
"""

from __future__ import annotations

import functools
import math
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the env's models load after the first frame
    from fleet_tui.envs.base import Tool


DESCRIPTION_CHARS = 200
"""How much of a description the filter searches."""
REMEMBERED_QUERIES = 32

Ranked = list[tuple["Tool", list[int]]]


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


class Ranking:
    """The tools matching one query, best first, put in order a part at a time.

    Finding the matches, and scoring each text that holds the query whole, is cheap; scoring
    letters scattered over a text is most of the cost at 10 000 tools, and such a placement
    scores at most `scattered_ceiling` (half that in a description). So the tools that scored
    more are in their final places first (the first `settled`), the rest follow in list order
    until `settle` has scored them: scattered names first, then scattered descriptions."""

    def __init__(self, query: str, names: list[str], descriptions: list[str]) -> None:
        self.query = query
        self.by_name: list[int] = []
        """The tools whose name matches, in list order (a longer query searches only these)."""
        self.by_description: list[int] = []
        """The tools matching by their description only (a longer query searches only these
        descriptions, and no name)."""
        self.matched: list[int] | range = []
        """Every tool matching, in list order."""
        self.order: list[int] | range = []
        """Best first up to `settled`, the rest in list order until they are settled."""
        self.settled = 0
        self._names, self._descriptions = names, descriptions
        self._pattern = subsequence(query) if query else None
        self._points: dict[int, float] = {}
        """Negated points of the tools scored, so that an ascending sort puts the best first."""
        self._names_left: list[int] = []
        self._descriptions_left: list[int] = []

    @classmethod
    def everything(cls, count: int) -> Ranking:
        """The ranking of an empty query: every tool, in list order."""
        ranking = cls("", [], [])
        ranking.matched = ranking.order = range(count)
        ranking.settled = count
        return ranking

    @property
    def complete(self) -> bool:
        return self.settled == len(self.matched)

    def match(self, names_to_search: Sequence[int], descriptions_only: list[int]) -> None:
        """Find the tools matching among these and score those holding the query whole."""
        query, search, points = self.query, subsequence(self.query).search, self._points
        names, descriptions = self._names, self._descriptions
        by_name = self.by_name = [index for index in names_to_search if search(names[index])]
        for index in by_name:
            at = names[index].find(query)
            if at >= 0:
                points[index] = -whole_points(query, names[index], at)
            else:
                self._names_left.append(index)
        named = set(by_name)
        missed = [index for index in names_to_search if index not in named]
        self.by_description = [
            index for index in missed + descriptions_only if search(descriptions[index])
        ]
        for index in self.by_description:
            at = descriptions[index].find(query)
            if at >= 0:
                points[index] = -0.5 * whole_points(query, descriptions[index], at)
            else:
                self._descriptions_left.append(index)
        self.matched = self.order = sorted(by_name + self.by_description)
        self._settle_above()

    def settle(self, limit: int) -> bool:
        """Score up to `limit` more scattered placements, names first, and settle the tools
        that no placement left can pass. Whether the ranking is complete."""
        query, pattern, points = self.query, self._pattern, self._points
        if pattern is None or self.complete:
            return True
        left, texts, share = self._names_left, self._names, 1.0
        if not left:
            left, texts, share = self._descriptions_left, self._descriptions, 0.5
        cut = max(0, len(left) - limit)
        for index in left[cut:]:
            offsets = scattered(query, pattern, texts[index])
            assert offsets is not None  # the text matched when the ranking was made
            points[index] = -share * score(query, texts[index], offsets)
        del left[cut:]
        if not left:
            self._settle_above()
        return self.complete

    def settle_at_least(self, count: int) -> None:
        """Settle the first `count` tools (all of them when fewer match)."""
        while self.settled < min(count, len(self.matched)):
            self.settle(len(self._names_left) or len(self._descriptions_left))

    def _settle_above(self) -> None:
        """Put in their final places the tools that scored more than any placement left."""
        ceiling = scattered_ceiling(self.query)
        if not self._names_left:
            ceiling = 0.5 * ceiling if self._descriptions_left else -math.inf
        points = self._points
        above = [index for index in self.matched if -points.get(index, 0.0) > ceiling]
        first = sorted(above, key=points.__getitem__)
        self.settled = len(first)
        taken = set(first)
        self.order = first + [index for index in self.matched if index not in taken]


def scattered_ceiling(query: str) -> float:
    """The most `score` gives `query` placed by scattered letters (two groups or more): at most
    one letter a group starts a word, plus each letter after a non-word letter of the query."""
    count = len(query)
    after_non_word = sum(1 for letter in query[:-1] if not (letter.isalnum() or letter == "_"))
    most = 0.0
    for groups in range(2, count + 1):
        together = (count - (groups - 1)) / count
        hits = min(count, groups + after_non_word)
        most = max(most, (count + hits) * (1 + together * together))
    return most


class FuzzyRanker:
    """Ranks a fixed list of tools against queries, remembering recent queries' rankings.

    A ranking keeps tool indexes only (no per-tool objects, which would cost the garbage
    collector on every keystroke); the matched letters of a name are found again for the rows
    drawn (`offsets`)."""

    def __init__(self, tools: list[Tool]) -> None:
        self.tools = tools
        self._names = [tool.name.lower() for tool in tools]
        self._descriptions = [tool.description[:DESCRIPTION_CHARS].lower() for tool in tools]
        self._rankings: OrderedDict[str, Ranking] = OrderedDict()

    def rank(self, query: str) -> Ranked:
        """Tools matching `query`, best first (ties in list order), with matched name offsets."""
        return [(self.tools[index], self.offsets(query, index)) for index in self.order(query)]

    def order(self, query: str) -> list[int] | range:
        """The indexes of the tools matching `query`, best first (ties in list order)."""
        ranking = self.ranking(query)
        ranking.settle_at_least(len(ranking.matched))
        return ranking.order

    def ranking(self, query: str, first: int = 0) -> Ranking:
        """The ranking of `query`, with at least its `first` tools settled (see `Ranking`)."""
        query = query.lower()
        if not query:
            return Ranking.everything(len(self.tools))
        ranking = self._rankings.get(query)
        if ranking is None:
            ranking = self._rankings[query] = self._match(query)
            if len(self._rankings) > REMEMBERED_QUERIES:
                self._rankings.popitem(last=False)
        self._rankings.move_to_end(query)
        ranking.settle_at_least(first)
        return ranking

    def offsets(self, query: str, index: int) -> list[int]:
        """Where the letters of `query` fall in the name of tool `index` ([] when they do not:
        it matched by its description)."""
        query = query.lower()
        if not query:
            return []
        return placement(query, subsequence(query), self._names[index]) or []

    def _match(self, query: str) -> Ranking:
        """A new ranking of `query`, searching only what the ranking of a shorter form of it
        matched, if one is remembered: a tool that misses a prefix of the query misses it."""
        ranking = Ranking(query, self._names, self._descriptions)
        for end in range(len(query) - 1, 0, -1):
            if (earlier := self._rankings.get(query[:end])) is not None:
                ranking.match(earlier.by_name, earlier.by_description)
                return ranking
        ranking.match(range(len(self.tools)), [])
        return ranking


def points_of(query: str, pattern: re.Pattern[str], text: str) -> float | None:
    """`score` of `query` (lower case) in `text`, or None when it does not match."""
    at = text.find(query)
    if at < 0:
        offsets = scattered(query, pattern, text)
        return None if offsets is None else score(query, text, offsets)
    return whole_points(query, text, at)


def whole_points(query: str, text: str, at: int) -> float:
    """`score` of `query` found whole at `at` of `text`, without its arithmetic for scattered
    letters: only whether its first letter starts a word depends on the text."""
    before, first = text[at - 1] if at else " ", query[0]
    starts = (first.isalnum() or first == "_") and not (before.isalnum() or before == "_")
    hits = inner_word_starts(query) + starts
    return (len(query) + hits) * 2.0 * (2.0 if text == query else 1.5)


@functools.lru_cache(maxsize=REMEMBERED_QUERIES)
def inner_word_starts(query: str) -> int:
    """How many letters of `query` after its first start a word wherever it occurs whole."""
    return word_hits(query, range(1, len(query)))


def fuzzy_rank(query: str, tools: list[Tool]) -> Ranked:
    """Tools matching `query` (by name, then description), best first, with matched name offsets."""
    return FuzzyRanker(tools).rank(query)
