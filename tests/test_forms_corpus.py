"""The form model against a corpus of real tool schemas (tests/data/schemas/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fleet_tui.forms import build_form

CORPUS = sorted((Path(__file__).parent / "data" / "schemas").glob("*.json"))


def _entry(path: Path) -> dict:
    return json.loads(path.read_text())


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_valid_arguments_round_trip_without_errors(path: Path):
    entry = _entry(path)
    form = build_form(entry["schema"])
    form.load(entry["valid"])
    assert form.value() == entry["valid"]
    assert form.errors() == []


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_invalid_arguments_round_trip_and_point_at_the_field(path: Path):
    entry = _entry(path)
    form = build_form(entry["schema"])
    form.load(entry["invalid"])
    assert form.value() == entry["invalid"]
    paths = [list(error.path) for error in form.errors()]
    assert entry["invalid_path"] in paths, paths


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_fresh_form_builds_every_field(path: Path):
    form = build_form(_entry(path)["schema"])
    kinds = {node.kind for node in form.root.walk()}
    assert form.root.kind == "object"
    assert kinds
