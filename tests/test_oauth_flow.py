"""The MCP OAuth client flow against a real server that asks for it (tests/fixtures/
oauth_server.py), over real HTTP on 127.0.0.1; the "browser" is an HTTP client following the
authorization URL's redirects back to fleet-tui's loopback listener."""

from __future__ import annotations

import asyncio
import json
import re
import stat
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.mcp_endpoint import DEFAULT_TIMEOUTS, Timeouts
from fleet_tui.envs.mcp_union import McpUnion
from fleet_tui.envs.oauth_store import sign_in_file
from fleet_tui.envs.server_requests import SignInRequest
from tests.fixtures.oauth_server import TOOL_NAMES, PlainServer, SignedInServer

pytestmark = pytest.mark.usefixtures("private_state")


@pytest.fixture
def private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's state folder, where sign-ins are kept, in the test's own folder."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


class Browser:
    """A sign-in handler that opens each authorization URL the way a browser would (following
    redirects), then keeps "showing" it until the sign-in ends."""

    def __init__(self, follow: bool = True) -> None:
        self.follow = follow
        self.asked: list[SignInRequest] = []
        self.pages: list[tuple[int, str]] = []

    async def __call__(self, request: SignInRequest) -> None:
        self.asked.append(request)
        if self.follow:
            async with httpx2.AsyncClient(follow_redirects=True) as browser:
                page = await browser.get(request.url)
                self.pages.append((page.status_code, page.text))
        await asyncio.Event().wait()


async def tool_names(url: str, sign_in: Any, timeouts: Timeouts = DEFAULT_TIMEOUTS) -> list[str]:
    union = McpUnion([url], handlers=ClientHandlers(sign_in=sign_in), timeouts=timeouts)
    try:
        await union.connect()
        return [tool.name for tool in await union.list_tools()]
    finally:
        await union.close()


async def test_a_server_that_asks_for_oauth_is_signed_in_and_lists_its_tools(
    oauth_server: SignedInServer,
) -> None:
    browser = Browser()
    assert await tool_names(oauth_server.url, browser) == TOOL_NAMES
    assert len(browser.asked) == 1 and browser.asked[0].endpoint == oauth_server.url
    assert "/authorize?" in browser.asked[0].url
    assert browser.pages[0][0] == 200 and "signed in" in browser.pages[0][1]
    assert oauth_server.provider.authorizations == 1


async def test_an_sse_server_that_asks_for_oauth_is_signed_in_too(
    oauth_sse_server: SignedInServer,
) -> None:
    browser = Browser()
    union = McpUnion([oauth_sse_server.url], handlers=ClientHandlers(sign_in=browser))
    try:
        await union.connect()
        assert [tool.name for tool in await union.list_tools()] == TOOL_NAMES
        assert union.endpoints()[0].transport == "sse"
    finally:
        await union.close()
    assert len(browser.asked) == 1 and oauth_sse_server.provider.authorizations == 1


async def test_tokens_are_kept_for_the_owner_only_and_reused(
    oauth_server: SignedInServer,
) -> None:
    await tool_names(oauth_server.url, Browser())
    kept = sign_in_file(oauth_server.url)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    saved = json.loads(kept.read_text())
    assert saved["server_url"] == oauth_server.url
    assert saved["tokens"]["access_token"] in oauth_server.provider.issued

    again = Browser()
    assert await tool_names(oauth_server.url, again) == TOOL_NAMES
    assert again.asked == [] and oauth_server.provider.authorizations == 1


async def test_a_kept_sign_in_goes_out_with_the_first_request(
    oauth_server: SignedInServer,
) -> None:
    await tool_names(oauth_server.url, Browser())
    statuses: list[int | None] = []
    handlers = ClientHandlers(
        sign_in=Browser(), on_http=[lambda _url, exchange: statuses.append(exchange.status)]
    )
    union = McpUnion([oauth_server.url], handlers=handlers)
    try:
        await union.connect()
        assert [tool.name for tool in await union.list_tools()] == TOOL_NAMES
    finally:
        await union.close()
    assert statuses and 401 not in statuses, statuses


class WaryBrowser(Browser):
    """Brings the code back first with a forged state, then from a foreign site's name, then
    as the authorization server sent it."""

    async def __call__(self, request: SignInRequest) -> None:
        self.asked.append(request)
        async with httpx2.AsyncClient() as browser:
            back = (await browser.get(request.url)).headers["location"]
            forged = re.sub(r"state=[^&]+", "state=forged", back)
            for url, headers in ((forged, {}), (back, {"Host": "evil.example"}), (back, {})):
                page = await browser.get(url, headers=headers)
                self.pages.append((page.status_code, page.text))
        await asyncio.Event().wait()


async def test_a_callback_with_another_state_or_host_is_refused_and_the_wait_goes_on(
    oauth_server: SignedInServer,
) -> None:
    browser = WaryBrowser()
    assert await tool_names(oauth_server.url, browser) == TOOL_NAMES
    (forged, forged_page), (foreign, foreign_page), (right, _) = browser.pages
    assert forged == 400 and "state does not match" in forged_page
    assert foreign == 400 and "Host header" in foreign_page
    assert right == 200


async def test_an_expired_token_is_refreshed_asking_no_one(oauth_server: SignedInServer) -> None:
    await tool_names(oauth_server.url, Browser())
    kept = sign_in_file(oauth_server.url)
    saved = json.loads(kept.read_text())
    assert saved["expires_at"] > time.time()
    oauth_server.provider.access.clear()  # the server forgets the access token: it expired
    kept.write_text(json.dumps({**saved, "expires_at": time.time() - 1}))

    again = Browser()
    assert await tool_names(oauth_server.url, again) == TOOL_NAMES
    assert again.asked == [] and oauth_server.provider.authorizations == 1
    assert oauth_server.provider.refreshes == 1
    assert json.loads(kept.read_text())["tokens"]["access_token"] in oauth_server.provider.access


async def test_a_server_that_refuses_the_token_it_issued_is_named_plainly(
    oauth_server: SignedInServer,
) -> None:
    oauth_server.provider.accepts_tokens = False
    browser = Browser()
    with pytest.raises(Exception, match=r"still asks for a sign-in \(HTTP 401\) after one"):
        await tool_names(oauth_server.url, browser)
    assert len(browser.asked) == 1


async def test_signing_in_again_reuses_the_registration_and_its_callback_port(
    oauth_server: SignedInServer,
) -> None:
    first = Browser()
    await tool_names(oauth_server.url, first)
    oauth_server.provider.access.clear()  # the server forgets every token: sign in again
    oauth_server.provider.refresh.clear()
    again = Browser()
    assert await tool_names(oauth_server.url, again) == TOOL_NAMES
    assert oauth_server.provider.authorizations == 2
    assert len(oauth_server.provider.clients) == 1  # registered once
    assert again.asked[0].redirect_uri == first.asked[0].redirect_uri


async def test_no_sign_in_handler_means_the_401_is_the_error(
    oauth_server: SignedInServer,
) -> None:
    with pytest.raises(Exception, match="HTTP 401"):
        await tool_names(oauth_server.url, None)


async def test_a_sign_in_nobody_completes_ends_with_a_clear_message(
    oauth_server: SignedInServer,
) -> None:
    nobody = Browser(follow=False)
    with pytest.raises(Exception, match=r"no sign-in within 0.5s.*authorization URL was not"):
        await tool_names(oauth_server.url, nobody, Timeouts(sign_in=0.5))
    assert len(nobody.asked) == 1  # not retried: one URL shown


class SlowBrowser(Browser):
    """A person who takes a second to open the URL."""

    async def __call__(self, request: SignInRequest) -> None:
        await asyncio.sleep(1.0)
        await super().__call__(request)


async def test_a_sign_in_asked_in_the_middle_of_a_session_stops_the_request_timeout(
    oauth_server: SignedInServer,
) -> None:
    browser = SlowBrowser()
    union = McpUnion(
        [oauth_server.url],
        handlers=ClientHandlers(sign_in=browser),
        timeouts=Timeouts(list=0.5),
        attempts=1,
    )
    try:
        await union.connect()
        await union.list_tools()
        oauth_server.provider.access.clear()  # the server revokes the session's token
        assert [tool.name for tool in await union.list_tools(refresh=True)] == TOOL_NAMES
    finally:
        await union.close()
    assert len(browser.asked) == 2 and oauth_server.provider.authorizations == 2


async def test_a_refused_token_exchange_is_named_in_one_bounded_line(
    oauth_server: SignedInServer,
) -> None:
    oauth_server.provider.token_refusal = "no " * 5000
    with pytest.raises(Exception, match=r"failed: Token exchange failed \(400\)") as raised:
        await tool_names(oauth_server.url, Browser())
    assert len(str(raised.value)) < 1000 and "\n" not in str(raised.value)


async def test_an_authorization_server_reply_over_1_mb_ends_the_sign_in_plainly(
    oauth_server: SignedInServer,
) -> None:
    oauth_server.provider.token_refusal = "no " * 400_000
    with pytest.raises(Exception, match=r"reply to \S+/token was over 1 MB"):
        await tool_names(oauth_server.url, Browser())


async def test_a_sign_in_handler_that_fails_ends_the_sign_in_with_its_error(
    oauth_server: SignedInServer,
) -> None:
    async def broken(request: SignInRequest) -> None:
        raise RuntimeError("no terminal to show the URL on")

    with pytest.raises(
        Exception, match="could not be shown: RuntimeError: no terminal to show the URL on"
    ):
        await tool_names(oauth_server.url, broken)


async def test_a_sign_in_that_cannot_be_kept_still_connects_and_says_so(
    oauth_server: SignedInServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "state-file"
    not_a_folder.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(not_a_folder))
    browser = Browser()
    union = McpUnion([oauth_server.url], handlers=ClientHandlers(sign_in=browser), attempts=1)
    try:
        await union.connect()
        assert [tool.name for tool in await union.list_tools()] == TOOL_NAMES
        (warning,) = union.warnings()
        assert f"{oauth_server.url}: sign-in not kept: " in warning
    finally:
        await union.close()
    assert len(browser.asked) == 1


def overlapped(spans: list[tuple[float, float]]) -> bool:
    """Whether every call started before any ended (server-side times)."""
    return max(start for start, _ in spans) < min(end for _, end in spans)


async def test_calls_made_at_once_to_a_server_that_never_asks_run_at_once(
    plain_json_server: PlainServer,
) -> None:
    browser = Browser()
    union = McpUnion([plain_json_server.served.url], handlers=ClientHandlers(sign_in=browser))
    try:
        await union.connect()
        await union.list_tools()
        await asyncio.gather(*(union.call_tool("slow", {"seconds": 2}) for _ in range(5)))
    finally:
        await union.close()
    assert len(plain_json_server.side.spans) == 5 and overlapped(plain_json_server.side.spans)
    assert browser.asked == []


async def test_calls_made_at_once_after_a_sign_in_run_at_once(
    oauth_json_server: SignedInServer,
) -> None:
    browser = Browser()
    union = McpUnion([oauth_json_server.url], handlers=ClientHandlers(sign_in=browser))
    try:
        await union.connect()
        await union.list_tools()
        await asyncio.gather(*(union.call_tool("slow", {"seconds": 2}) for _ in range(5)))
    finally:
        await union.close()
    assert len(oauth_json_server.side.spans) == 5 and overlapped(oauth_json_server.side.spans)
    assert len(browser.asked) == 1


async def test_calls_refused_at_once_sign_in_once_and_all_go_through(
    oauth_json_server: SignedInServer,
) -> None:
    browser = Browser()
    union = McpUnion([oauth_json_server.url], handlers=ClientHandlers(sign_in=browser))
    try:
        await union.connect()
        await union.list_tools()
        oauth_json_server.provider.access.clear()  # the server revokes the session's token
        results = await asyncio.gather(
            *(union.call_tool("slow", {"seconds": 0.5}) for _ in range(3))
        )
    finally:
        await union.close()
    assert [result.is_error for result in results] == [False, False, False]
    assert len(browser.asked) == 2 and oauth_json_server.provider.authorizations == 2


async def test_a_token_wanted_without_oauth_metadata_is_asked_for_as_a_header(
    token_only_url: str,
) -> None:
    for kind in ("realm", "bare"):
        browser = Browser()
        with pytest.raises(Exception, match="--header 'Authorization: Bearer") as raised:
            await tool_names(f"{token_only_url}/{kind}/mcp", browser)
        assert "wants a token" in str(raised.value) and "Registration" not in str(raised.value)
        assert browser.asked == []
