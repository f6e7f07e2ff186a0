"""A multi-turn Prime Intellect Verifiers environment for end-to-end tests: a `ToolEnv` whose
`stock` tool says how many of an item the pantry holds, asked for the total of two items.

The rubric gives partial credit: half the reward for looking up each asked item with the tool
(a quarter per item), half for a final answer that contains the right total.
"""

from __future__ import annotations

import json

import verifiers as vf
from datasets import Dataset

PANTRY = {"apples": 4, "pears": 8, "plums": 3, "figs": 0}
TRAIN = [("apples", "pears"), ("plums", "figs")]
EVAL = [("pears", "plums"), ("apples", "figs"), ("apples", "plums")]


def stock(item: str) -> int:
    """How many of an item the pantry holds.

    Args:
        item: the item, plural: apples, pears, plums or figs.
    """
    if item not in PANTRY:
        raise ValueError(f"the pantry has no {item!r}; it holds {', '.join(PANTRY)}")
    return PANTRY[item]


def rows(pairs: list[tuple[str, str]]) -> Dataset:
    return Dataset.from_list(
        [
            {
                "question": f"How many {a} and {b} are there together? Use the stock tool.",
                "answer": str(PANTRY[a] + PANTRY[b]),
                "info": {"items": [a, b]},
            }
            for a, b in pairs
        ]
    )


def field(message, name: str):
    """A message's field, whether the message is a dict or a Verifiers message model."""
    return message.get(name) if isinstance(message, dict) else getattr(message, name, None)


def looked_up(completion, info, **kwargs) -> float:
    """The share of the asked items the completion looked up with `stock`."""
    asked = set(info["items"])
    seen = set()
    for message in completion:
        for call in field(message, "tool_calls") or []:
            if field(call, "name") == "stock":
                seen.add(json.loads(field(call, "arguments")).get("item"))
    return len(asked & seen) / len(asked)


def right_total(completion, answer, **kwargs) -> float:
    """1.0 when the final message contains the right total."""
    return 1.0 if answer in str(field(completion[-1], "content")) else 0.0


def load_environment(**kwargs) -> vf.Environment:
    return vf.ToolEnv(
        tools=[stock],
        dataset=rows(TRAIN),
        eval_dataset=rows(EVAL),
        rubric=vf.Rubric(funcs=[looked_up, right_total], weights=[0.5, 0.5]),
        max_turns=6,
    )
