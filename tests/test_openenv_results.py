"""Observation -> ToolResult for the shapes OpenEnv servers send, including malformed ones."""

from __future__ import annotations

import base64

from fleet_tui.envs.base import ImageBlock, TextBlock, UnknownBlock
from fleet_tui.envs.openenv_http import task_from_route
from fleet_tui.envs.openenv_results import tool_result_from_observation, tool_result_from_step

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()


def step(observation: dict, reward=None, done=False) -> dict:
    return {"observation": observation, "reward": reward, "done": done}


def test_mcp_dump_in_camel_case():
    answer = step(
        {
            "result": {
                "content": [{"type": "image", "data": PNG, "mimeType": "image/png"}],
                "structuredContent": {"k": 1},
                "isError": True,
            }
        },
        reward=0.5,
    )
    result = tool_result_from_step(answer, endpoint="ws://x/ws")
    assert isinstance(result.blocks[0], ImageBlock)
    assert (result.is_error, result.structured, result.reward, result.done) == (
        True,
        {"k": 1},
        0.5,
        False,
    )
    assert result.raw == answer and result.endpoint == "ws://x/ws"


def test_ors_blocks_keep_their_order_and_metadata():
    result = tool_result_from_step(
        step(
            {
                "result": {
                    "blocks": [
                        {"type": "text", "text": "a", "detail": None},
                        {"type": "image", "data": PNG, "mimeType": "image/jpeg"},
                        {"type": "image", "data": "not base64!", "mimeType": "image/png"},
                    ],
                    "metadata": {"m": 2},
                }
            },
            reward=1,
            done=True,
        )
    )
    first, second, third = result.blocks
    assert isinstance(first, TextBlock) and first.text == "a"
    assert isinstance(second, ImageBlock) and second.mime_type == "image/jpeg"
    assert isinstance(third, UnknownBlock)
    assert (result.structured, result.reward, result.done) == ({"m": 2}, 1.0, True)


def test_observation_error_names_its_kind():
    result = tool_result_from_step(
        step({"result": None, "error": {"error_type": "timeout", "message": "too slow"}})
    )
    assert (result.is_error, result.error_kind, result.text()) == (True, "timeout", "too slow")


def test_plain_results_are_kept_as_text_and_structure():
    assert tool_result_from_step(step({"result": "hi"})).text() == "hi"
    listed = tool_result_from_step(step({"result": [1, 2]}))
    assert listed.structured == [1, 2] and listed.blocks[0].parsed_json() == [1, 2]
    empty = tool_result_from_step(step({"result": None}))
    assert empty.blocks == [] and not empty.is_error


def test_reset_shows_the_prompt_or_the_observation():
    ors = tool_result_from_observation(
        {"observation": {}, "metadata": {"prompt": [{"type": "text", "text": "Q?"}]}}
    )
    assert ors.text() == "Q?"
    plain = tool_result_from_observation(
        {"observation": {"board": [1]}, "reward": None, "done": False}
    )
    assert plain.blocks[0].parsed_json() == {"board": [1]}
    assert plain.done is False


def test_reset_shows_a_prompt_of_chat_messages_as_text():
    """A Verifiers env's prompt is chat messages: the user's text, other roles named."""
    prompt = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "What is 1 + 1?"},
        {"role": "user", "content": [{"type": "text", "text": "Show working."}]},
    ]
    reset = tool_result_from_observation({"observation": {}, "metadata": {"prompt": prompt}})
    assert [block.text for block in reset.blocks] == [
        "system: Be brief.",
        "What is 1 + 1?",
        "Show working.",
    ]


def test_a_task_of_chat_messages_gets_their_text_as_its_prompt_and_a_key_per_split():
    """A Verifiers row: its prompt is chat messages, its example_id only a row number."""
    row = {
        "question": "What is 1 + 1?",
        "prompt": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "1+1?"}],
        "example_id": 0,
    }
    task = task_from_route(row, "eval", 0)
    assert (task.key, task.prompt) == ("eval/0", "system: Be brief.\n\n1+1?")
    assert task_from_route({"question": "Q?", "prompt": []}, "train", 2).prompt == "Q?"
    assert task_from_route({"id": "t-1", "prompt": "P"}, "train", 1).key == "t-1"
