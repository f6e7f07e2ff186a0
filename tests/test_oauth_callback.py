"""The OAuth loopback listener against hostile and odd clients: raw TCP connections to its real
socket on 127.0.0.1 (asyncio streams), sending what a browser would not."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from fleet_tui.envs import oauth_callback
from fleet_tui.envs.oauth_callback import LoopbackCallback, SignInFailed

STATE = "right-state"


@pytest.fixture
async def listener() -> AsyncIterator[LoopbackCallback]:
    callback = LoopbackCallback()
    await callback.open()
    callback.expect(STATE)
    yield callback
    await callback.close()


def port_of(callback: LoopbackCallback) -> int:
    return int(callback.redirect_uri.rsplit(":", 1)[1].split("/")[0])


def head(callback: LoopbackCallback, target: str, *extra: str) -> bytes:
    lines = [f"GET {target} HTTP/1.1", f"Host: 127.0.0.1:{port_of(callback)}", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def exchange(callback: LoopbackCallback, raw: bytes) -> str:
    """Send `raw` on a new connection; the whole answer, once the listener closes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port_of(callback))
    try:
        writer.write(raw)
        await writer.drain()
        return (await asyncio.wait_for(reader.read(), 5.0)).decode("latin-1")
    finally:
        writer.close()


async def test_the_right_redirect_ends_the_wait(listener: LoopbackCallback) -> None:
    answer = await exchange(listener, head(listener, f"/callback?code=c1&state={STATE}"))
    assert answer.startswith("HTTP/1.1 200")
    assert (await listener.wait(1.0)).code == "c1"


async def test_a_malformed_request_target_is_answered_400_and_closed(
    listener: LoopbackCallback,
) -> None:
    answer = await exchange(listener, head(listener, "//[x/callback"))
    assert answer.startswith("HTTP/1.1 400")


async def test_a_head_over_the_bound_is_refused_even_with_the_right_state(
    listener: LoopbackCallback,
) -> None:
    padding = "X-Pad: " + "a" * (oauth_callback.MAX_HEAD_BYTES + 1024)
    raw = head(listener, f"/callback?code=c1&state={STATE}", padding)
    answer = await exchange(listener, raw)
    assert answer.startswith("HTTP/1.1 400") and "could not be read" in answer


async def test_a_head_sent_too_slowly_is_refused(
    listener: LoopbackCallback, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oauth_callback, "READ_TIMEOUT_S", 0.2)
    answer = await exchange(listener, b"GET /callback?state=")  # the head never ends
    assert answer.startswith("HTTP/1.1 400") and "could not be read" in answer


async def slow_connections(callback: LoopbackCallback, count: int) -> list[asyncio.StreamWriter]:
    """`count` connections that each send the start of a request head and nothing more."""
    writers = []
    for _ in range(count):
        _, writer = await asyncio.open_connection("127.0.0.1", port_of(callback))
        writer.write(b"GET /callback?state=")
        await writer.drain()
        writers.append(writer)
    return writers


async def test_the_redirect_is_answered_while_32_slow_connections_are_open(
    listener: LoopbackCallback,
) -> None:
    slow = await slow_connections(listener, 32)
    try:
        # well inside the slow heads' own deadline (READ_TIMEOUT_S): answered as it arrives
        answer = await asyncio.wait_for(
            exchange(listener, head(listener, f"/callback?code=c1&state={STATE}")), 5.0
        )
        assert answer.startswith("HTTP/1.1 200")
        assert (await listener.wait(1.0)).code == "c1"
    finally:
        for writer in slow:
            writer.close()


async def test_past_the_bound_the_connection_open_longest_is_closed(
    listener: LoopbackCallback,
) -> None:
    first_reader, first = await asyncio.open_connection("127.0.0.1", port_of(listener))
    slow = await slow_connections(listener, oauth_callback.MAX_CONNECTIONS)
    try:
        with contextlib.suppress(ConnectionError):  # closed, unanswered (or reset)
            assert await asyncio.wait_for(first_reader.read(), 5.0) == b""
        answer = await exchange(listener, head(listener, f"/callback?code=c1&state={STATE}"))
        assert answer.startswith("HTTP/1.1 200")
    finally:
        for writer in (first, *slow):
            writer.close()


async def test_a_refusal_redirect_ends_the_wait_with_the_reason(
    listener: LoopbackCallback,
) -> None:
    target = f"/callback?error=access_denied&error_description=no+thanks&state={STATE}"
    answer = await exchange(listener, head(listener, target))
    assert answer.startswith("HTTP/1.1 200") and "refused (access_denied no thanks)" in answer
    with pytest.raises(SignInFailed, match="refused: access_denied no thanks"):
        await listener.wait(1.0)


async def test_after_reopening_the_previous_state_is_refused(listener: LoopbackCallback) -> None:
    port = port_of(listener)
    await listener.open(port)  # a new authorization, on the same port, not yet shown
    answer = await exchange(listener, head(listener, f"/callback?code=old&state={STATE}"))
    assert answer.startswith("HTTP/1.1 400") and "state does not match" in answer
    listener.expect("new-state")
    answer = await exchange(listener, head(listener, "/callback?code=new&state=new-state"))
    assert answer.startswith("HTTP/1.1 200")
    assert (await listener.wait(1.0)).code == "new"


async def test_an_empty_expected_state_accepts_nothing(listener: LoopbackCallback) -> None:
    listener.expect("")
    answer = await exchange(listener, head(listener, "/callback?code=c1"))
    assert answer.startswith("HTTP/1.1 400") and "state does not match" in answer


async def test_closing_while_reopening_leaves_the_new_wait_alone(
    listener: LoopbackCallback,
) -> None:
    port = port_of(listener)
    closing = asyncio.create_task(listener.close())
    await asyncio.sleep(0)  # the close is under way
    await listener.open(port)
    await closing
    listener.expect("new-state")
    answer = await exchange(listener, head(listener, "/callback?code=new&state=new-state"))
    assert answer.startswith("HTTP/1.1 200")
    assert (await listener.wait(1.0)).code == "new"
