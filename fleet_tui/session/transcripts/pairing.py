"""Each call of a transcript with the answer the agent got for it.

An answer names its call by id: it answers the latest unanswered call with that id, so ids
that a framework numbers afresh each turn (`call_0` in every turn) match the right call. An
answer without an id (or naming only its tool, as Gemini does) answers the first unanswered
call of the latest turn (of that tool, where named), then of any turn: calls and their answers
come in the same order. An answer that matches no call is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fleet_tui.session.transcripts.items import Item, ToolAnswer, ToolCall, TurnStart


@dataclass
class _Open:
    index: int
    turn: int
    call: ToolCall


def pair(items: Iterable[Item]) -> list[tuple[ToolCall, ToolAnswer | None]]:
    """The calls in order, each with its answer (None: the transcript holds none)."""
    pairs: list[tuple[ToolCall, ToolAnswer | None]] = []
    unanswered: list[_Open] = []
    turn = 0
    for item in items:
        if isinstance(item, TurnStart):
            turn += 1
        elif isinstance(item, ToolCall):
            unanswered.append(_Open(len(pairs), turn, item))
            pairs.append((item, None))
        elif (found := _answered(unanswered, item, turn)) is not None:
            unanswered.remove(found)
            pairs[found.index] = (found.call, item)
    return pairs


def _answered(unanswered: list[_Open], answer: ToolAnswer, turn: int) -> _Open | None:
    if answer.call_id is not None:
        same_id = [o for o in unanswered if o.call.call_id == answer.call_id]
        if same_id or any(o.call.call_id is not None for o in unanswered):
            return same_id[-1] if same_id else None
    named = [o for o in unanswered if answer.tool in (None, o.call.tool)]
    latest = [o for o in named if o.turn == turn]
    candidates = latest or named
    return candidates[0] if candidates else None
