"""The app's `--serve-mcp --expose-reset`: an agent (a real MCP SDK client) resets an OpenEnv
episode through the app's session controller; the reset is the agent's row in the history,
opens the session's new episode, and the agent steps on in it."""

from __future__ import annotations

from fleet_tui.controller import Caller, CallStatus
from fleet_tui.envs.targets import OpenEnvTarget
from tests.agent_driver import watched
from tests.app_driver import screen_text


async def test_an_agent_resets_the_episode_in_the_app(openenv_server):
    target = OpenEnvTarget(url=openenv_server.base_url)
    async with watched(target, expose_reset=True) as w:
        tools = [tool.name for tool in (await w.agent.list_tools()).tools]
        assert "reset" in tools
        finished = await w.finish(w.call("finish", {"answer": "42"}))
        assert finished.meta["fleet-tui/done"] is True
        answer = await w.finish(w.call("reset", {"seed": 11}))
        assert not answer.is_error, answer.content
        record = await w.record_of("<reset>", CallStatus.OK)
        assert record.caller == Caller.AGENT
        assert w.app.history.entries[str(record.number)] is record
        assert w.app.controller.episode.opening is record
        step = await w.finish(w.call("echo", {"text": "after the agent's reset"}))
        assert not step.is_error and step.meta["fleet-tui/done"] is False
        await w.pilot.pause(0.3)
        assert "after the agent's reset" in screen_text(w.app)
