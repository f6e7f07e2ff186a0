"""A small Prime Intellect Verifiers environment for end-to-end tests: add two numbers.

`load_environment()` builds a SingleTurnEnv over an in-memory dataset (train: three questions,
eval: two) with a rubric that gives 1.0 when the completion contains the right sum.
"""

from __future__ import annotations

import verifiers as vf
from datasets import Dataset

TRAIN = [(2, 3), (10, 5), (7, 8)]
EVAL = [(1, 1), (20, 22)]


def rows(pairs: list[tuple[int, int]]) -> Dataset:
    return Dataset.from_list(
        [{"question": f"What is {a} + {b}?", "answer": str(a + b)} for a, b in pairs]
    )


def correct_sum(completion, answer, **kwargs) -> float:
    """1.0 when the last message of the completion contains the answer."""
    text = completion[-1]["content"] if isinstance(completion, list) else str(completion)
    return 1.0 if answer in str(text) else 0.0


def load_environment(**kwargs) -> vf.Environment:
    return vf.SingleTurnEnv(
        dataset=rows(TRAIN), eval_dataset=rows(EVAL), rubric=vf.Rubric(funcs=[correct_sum])
    )
