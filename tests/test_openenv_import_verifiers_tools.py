"""End to end with a multi-turn Verifiers env (tests/envs/vf_pantry: a ToolEnv with a `stock`
tool and a rubric that gives partial credit) through `openenv import` and
`fleet-tui openenv serve`: the env's own tool is offered beside `submit`, its calls become the
episode's turns, and the rubric scores them."""

from __future__ import annotations

import asyncio
import json
from functools import partial

import pytest

from fleet_tui.cli import main
from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from tests.app_driver import call, openenv_tasks_app, wait_for, wait_idle
from tests.fixtures.openenv_servers import imported_server, serve_with_launcher
from tests.recorded import call_tool, recorded

SUBMIT_11 = ("submit", {"completion": "8 + 3 = 11"})

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def pantry_server(openenv_venv, tmp_path_factory):
    output = tmp_path_factory.mktemp("gen")
    yield from imported_server(openenv_venv, "vf_pantry", "pantry", output, serve_with_launcher)


@pytest.fixture
async def pantry(pantry_server):
    """A session in eval task 0: the total of pears (8) and plums (3)."""
    env = OpenEnvEnv(OpenEnvTarget(url=pantry_server.base_url), seed=5, split="eval", index=0)
    await env.connect()
    yield env
    await env.close()


async def test_the_envs_tool_is_offered_beside_submit(pantry):
    tools = {tool.name: tool for tool in await pantry.list_tools()}
    assert set(tools) == {"submit", "stock"}
    assert tools["stock"].input_schema["required"] == ["item"]
    assert "How many of an item" in tools["stock"].description


async def test_tool_calls_answer_without_ending_the_episode(pantry):
    result = await pantry.call_tool("stock", {"item": "pears"})
    assert (result.text(), result.reward, result.done) == ("8", None, False)
    missing = await pantry.call_tool("stock", {"item": "kiwis"})
    assert missing.is_error and "the pantry has no 'kiwis'" in missing.text()
    assert (await pantry.state())["step_count"] == 2


async def test_the_rubric_gives_credit_for_each_part_done(pantry):
    """Half for the lookups (a quarter per asked item), half for the right total."""
    answer_only = await pantry.call_tool("submit", {"completion": "There are 11."})
    assert (answer_only.reward, answer_only.done) == (0.5, True)
    await pantry.reset(seed=6, split="eval", index=0)
    await pantry.call_tool("stock", {"item": "pears"})
    one_lookup = await pantry.call_tool("submit", {"completion": "There are 12."})
    assert one_lookup.reward == 0.25
    await pantry.reset(seed=7, split="eval", index=0)
    await pantry.call_tool("stock", {"item": "pears"})
    await pantry.call_tool("stock", {"item": "plums"})
    full = await pantry.call_tool("submit", {"completion": "8 + 3 = 11"})
    assert full.reward == 1.0
    metrics = full.structured["metrics"]
    assert (metrics["looked_up"], metrics["right_total"], metrics["stock_calls"]) == (1, 1, 2)


async def test_the_envs_max_turns_holds_and_turns_are_counted(pantry):
    """The env allows 6 turns: after six lookups a seventh is refused, and the answer that
    would be the seventh turn is not scored (as a Verifiers rollout would have stopped)."""
    for item in ["pears", "plums", "apples", "figs", "pears", "plums"]:
        assert not (await pantry.call_tool("stock", {"item": item})).is_error
    refused = await pantry.call_tool("stock", {"item": "figs"})
    assert refused.is_error and "max_turns (6): submit to be scored" in refused.text()
    late = await pantry.call_tool("submit", {"completion": "8 + 3 = 11"})
    assert (late.reward, late.done) == (0.5, True)  # the lookups count, the answer does not
    metrics = late.structured["metrics"]
    assert (metrics["num_turns"], metrics["right_total"]) == (6, 0)
    await pantry.reset(seed=9, split="eval", index=0)
    await pantry.call_tool("stock", {"item": "pears"})
    await pantry.call_tool("stock", {"item": "plums"})
    within = await pantry.call_tool("submit", {"completion": "8 + 3 = 11"})
    assert (within.reward, within.structured["metrics"]["num_turns"]) == (1.0, 3)


async def test_completion_and_messages_together_are_refused(pantry):
    answer = [{"role": "assistant", "content": "11"}]
    both = await pantry.call_tool("submit", {"completion": "11", "messages": answer})
    assert both.is_error and "give `completion` or `messages`, not both" in both.text()
    assert not both.done
    alone = await pantry.call_tool("submit", {"messages": answer})
    assert (alone.reward, alone.done) == (0.5, True)


async def test_a_reset_starts_the_turns_afresh(pantry):
    await pantry.call_tool("stock", {"item": "pears"})
    await pantry.call_tool("stock", {"item": "plums"})
    await pantry.reset(seed=8, split="eval", index=0)
    assert (await pantry.call_tool("submit", {"completion": "11"})).reward == 0.5


def test_cli_lists_tasks_calls_the_tool_and_submits(pantry_server, capsys):
    url = pantry_server.base_url
    assert main(["tasks", "--openenv", url, "--split", "eval", "--index", "2", "--json"]) == 0
    task = json.loads(capsys.readouterr().out)["task"]
    assert (task["answer"], task["info"]) == ("7", {"items": ["apples", "plums"]})
    assert main(["tools", "--openenv", url]) == 0
    assert "stock" in capsys.readouterr().out
    at_task = ["--openenv", url, "--openenv-task", "eval:2"]
    assert main(["call", *at_task, "stock", "-a", "item=apples"]) == 0
    out = capsys.readouterr().out
    assert "4" in out and "reward: None  done: false" in out
    assert main(["call", *at_task, "submit", "-a", "completion=7"]) == 0
    assert "reward: 0.5  done: true" in capsys.readouterr().out


async def record_gold(base_url: str, path, task: tuple[str, int], steps) -> None:
    """Record a session in `task` (as the app does): each (tool, arguments) of `steps`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    split, index = task
    in_task = partial(OpenEnvEnv, split=split, index=index)
    async with recorded(OpenEnvTarget(url=base_url), path, in_task) as session:
        for tool, arguments in steps:
            await call_tool(session, tool, arguments)


async def test_check_resets_every_task_and_replays_gold_sessions(pantry_server, tmp_path, capsys):
    url = pantry_server.base_url
    gold = tmp_path / "gold"
    lookups = [("stock", {"item": "pears"}), ("stock", {"item": "plums"})]
    await record_gold(url, gold / "eval" / "0.jsonl", ("eval", 0), [*lookups, SUBMIT_11])
    answer_only = [("submit", {"completion": "4"})]
    await record_gold(url, gold / "eval" / "1.jsonl", ("eval", 1), answer_only)
    check = ["check", "--openenv", url, "--split", "eval", "--gold", str(gold)]
    assert await asyncio.to_thread(main, [*check, "--json"]) == 1
    reports = {task["key"]: task for task in json.loads(capsys.readouterr().out)["tasks"]}
    assert reports["eval/0"]["status"] == "pass"
    assert (reports["eval/0"]["gold"]["score"], reports["eval/0"]["replay_divergences"]) == (1, 0)
    assert reports["eval/1"]["problems"] == ["gold session earns 0.5, below 1"]
    assert reports["eval/2"]["notes"] == ["no gold session"]
    assert reports["eval/2"]["status"] == "pass"
    assert await asyncio.to_thread(main, [*check, "--pass-reward", "0.5"]) == 0
    assert "3/3 tasks pass" in capsys.readouterr().out


async def test_app_runs_a_multi_turn_task_and_totals_its_reward(pantry_server):
    async with openenv_tasks_app(pantry_server.base_url, tasks=5) as (pilot, panel):
        panel.start_task(next(t for t in panel.tasks if (t.split, t.index) == ("train", 1)))
        await wait_idle(pilot, timeout=120)
        plums = await call(pilot, "stock", {"item": "plums"})
        assert (plums.status, plums.result.text()) == ("ok", "3")
        submitted = await call(pilot, "submit", {"completion": "3 in all"})
        assert (submitted.result.reward, submitted.result.done) == (0.75, True)
        await wait_for(pilot, lambda: len(panel.rewards) == 1)
        assert panel.rewards == [f"#{submitted.number} submit reward 0.75 · total 0.75"]
