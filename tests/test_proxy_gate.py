"""The gate in front of an agent's calls, on its own: breakpoints parse and match, a held call
waits until it is stepped, released with edited arguments or refused, and closing refuses
every held call."""

from __future__ import annotations

import asyncio

import pytest

from fleet_tui.controller import CallRecord
from fleet_tui.proxy.gate import Breakpoint, Gate, Refusal, Release


def record(number: int, tool: str = "computer") -> CallRecord:
    return CallRecord(number=number, tool=tool, arguments={})


def test_breakpoints_parse_and_match():
    assert Breakpoint.parse("computer").matches("computer", {"action": "x"})
    assert not Breakpoint.parse("computer").matches("todo", {})
    assert Breakpoint.parse("todo_*").matches("todo_add", {})
    clicks = Breakpoint.parse("computer action=left_click")
    assert clicks.matches("computer", {"action": "left_click"})
    assert not clicks.matches("computer", {"action": "type"})
    anywhere = Breakpoint.parse("seconds=5")
    assert anywhere.matches("slow_count", {"seconds": 5})
    assert str(clicks) == "computer action=left_click"
    for bad in ("", "computer action", "tool =x"):
        with pytest.raises(ValueError):
            Breakpoint.parse(bad)


async def test_a_held_call_waits_for_step_release_or_refusal():
    gate = Gate(paused=True)
    reason = gate.hold_reason("computer", {})
    assert reason == "paused"
    first = asyncio.ensure_future(gate.hold(record(1), reason))
    second = asyncio.ensure_future(gate.hold(record(2), reason))
    third = asyncio.ensure_future(gate.hold(record(3), reason))
    await asyncio.sleep(0)
    assert [h.record.number for h in gate.held] == [1, 2, 3]
    assert gate.step().record.number == 1
    assert await first == Release()
    assert not second.done() and gate.paused
    gate.answer(gate.held_call(2), Release({"action": "screenshot"}))
    assert await second == Release({"action": "screenshot"})
    gate.close("closing")
    assert await third == Refusal("closing", abandoned=True)
    assert await gate.hold(record(4), "paused") == Refusal("closing", abandoned=True)


async def test_a_breakpoint_pauses_and_take_over_holds_until_given_back():
    gate = Gate(breakpoints=[Breakpoint("fail")])
    assert gate.hold_reason("echo", {}) is None
    stopped = asyncio.ensure_future(gate.hold(record(1, "fail"), gate.hold_reason("fail", {})))
    await asyncio.sleep(0)
    assert gate.paused and gate.hold_reason("echo", {}) == "paused"
    gate.resume()
    assert isinstance(await stopped, Release) and not gate.paused
    gate.take_over()
    waiting = asyncio.ensure_future(gate.hold(record(2, "echo"), gate.hold_reason("echo", {})))
    await asyncio.sleep(0)
    gate.resume()  # resuming does not end a take-over
    assert not waiting.done()
    gate.give_back()
    assert isinstance(await waiting, Release)


async def test_an_ordered_release_goes_on_past_a_call_that_is_not_made():
    gate = Gate(paused=True)
    holds = [asyncio.ensure_future(gate.hold(record(n), "paused")) for n in (1, 2, 3)]
    await asyncio.sleep(0)
    gate.resume()
    holds[1].cancel()  # the second call's agent goes away as it is released
    first, third = await holds[0], await holds[2]
    with pytest.raises(asyncio.CancelledError):
        await holds[1]
    await asyncio.sleep(0)
    assert not third.turn.after.done(), "the third goes only after the first"
    first.turn.finish()
    await asyncio.wait_for(third.turn.wait(), 5)
