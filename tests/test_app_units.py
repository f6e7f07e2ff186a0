"""The app's pure parts: escaping, image geometry, result formatting, command lines, labels."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from fleet_tui.call_command import call_command
from fleet_tui.commands import command_parser
from fleet_tui.commands.app import IMAGE_BACKENDS
from fleet_tui.envs.base import EnvInfo, TextBlock, Tool, ToolResult
from fleet_tui.envs.targets import FleetTarget, LocalTarget, OpenEnvTarget
from fleet_tui.local.envs import todo_gui
from fleet_tui.session_records import Episode
from fleet_tui.text import clean, one_line, visible
from fleet_tui.ui import images
from fleet_tui.ui.fuzzy import fuzzy_rank
from fleet_tui.ui.result_format import (
    HIGHLIGHT_LIMIT,
    JsonPart,
    MarkdownPart,
    PagerPart,
    TextPart,
    plan_result,
    text_part,
)
from fleet_tui.ui.widgets.status_bar import status_text, ttl_left
from fleet_tui.ui.widgets.tool_list import endpoint_labels


def test_clean_strips_escape_sequences_and_keeps_markup_text():
    hostile = "a\x1b[31mred\x1b[0m \x1b]0;title\x07b \x1b[2J\x9b1m [bold]x[/] \x07\x00tab\tend\n"
    assert clean(hostile) == "ared b  [bold]x[/] tab\tend\n"
    assert one_line("first\x1b[1m line\nsecond", 8) == "first l…"
    assert clean("half \ud800") == "half \\ud800", "a lone surrogate cannot reach the terminal"


def test_clean_keeps_printable_ascii_lines_and_tabs_and_strips_every_other_control():
    printable = "".join(map(chr, range(0x20, 0x7F)))
    kept = f"{printable}\n\t{printable}"
    assert clean(kept) is kept
    for code in (*range(0x20), 0x7F):
        if chr(code) not in "\n\t":
            assert clean(f"{printable}{chr(code)}x") == f"{printable}x", code


def test_visible_shows_control_characters_in_a_name_as_signs(monkeypatch):
    monkeypatch.setenv("FLEET_API_KEY", "sk-hidden-name-key")
    assert visible("run\x1b[2J\x00x\x7f sk-hidden-name-key") == "run␛[2J␀x␡ [redacted]"
    # Signs that would otherwise hide: C1, zero-width, bidi override, a lone surrogate.
    assert visible("a\x9bb\u200bc\u202ed\ud800") == "a\\u009bb\\u200bc\\u202ed\\ud800"
    assert visible("plain name, kept as is") == "plain name, kept as is"
    assert visible("key sk-hidden\x1b-name-key") == "key [redacted]", "split by a control"


def test_clean_removes_escapes_before_hiding_the_api_key(monkeypatch):
    monkeypatch.setenv("FLEET_API_KEY", "sk-hidden-name-key")
    assert clean("key sk-hidden\x1b[0m-name-key") == "key [redacted]"


def test_fit_keeps_aspect_ratio_and_clicks_map_to_pixels():
    # 1280x800 in an 80x40 box of 10x20-pixel cells: width-bound, 80 columns x 25 rows.
    assert images.fit_cells((1280, 800), (80, 40), (10, 20)) == (80, 25)
    assert images.fit_cells((800, 1280), (80, 40), (10, 20)) == (50, 40)
    assert images.cell_to_pixel((0, 0), (80, 25), (1280, 800)) == (8, 16)
    assert images.cell_to_pixel((79, 24), (80, 25), (1280, 800)) == (1272, 784)


def test_backend_choice_and_decode_failure(monkeypatch):
    assert images.BACKENDS == IMAGE_BACKENDS
    monkeypatch.setenv(images.ENV_VAR, "sixel")
    assert images.choose_backend() == "sixel"
    assert images.choose_backend("halfcell") == "halfcell"
    with pytest.raises(ValueError, match="unknown image backend"):
        images.choose_backend("braille")
    images.choose_backend("halfcell")
    refused = images.prepare(b"\x89PNG not really", "image/png", None)
    assert (
        refused.picture is None and refused.error == "cannot show image/png (15 B): not a valid PNG"
    )


def test_one_screenshot_shown_by_two_views_is_decoded_once():
    """The result view and the screenshot pane decode the same bytes at the same time."""
    png = todo_gui.render([todo_gui.Todo(1, "Decode me once", False)], todo_gui.Ui())
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(lambda _: images.prepare(png, "image/png", None), range(2))
    assert first is second and first.picture is not None
    assert images.prepare(png, "image/png", None) is first
    again = bytes(bytearray(png))  # equal bytes, another object: another screenshot
    assert images.prepare(again, "image/png", None) is not first


def test_text_parts_pick_json_markdown_plain_or_pager():
    assert isinstance(text_part('{"a": 1}'), JsonPart)
    assert text_part('{"a": 1}').highlighted is not None
    big = text_part('{"a": "' + "x" * HIGHLIGHT_LIMIT + '"}')
    assert isinstance(big, JsonPart) and big.highlighted is None and big.pager is not None
    assert isinstance(text_part("# Title\n\nSome *text*"), MarkdownPart)
    assert isinstance(text_part("just words [/]"), TextPart)
    assert isinstance(text_part("y" * 50_000), PagerPart)


def test_structured_content_is_checked_against_the_output_schema():
    tool = Tool(
        name="t",
        output_schema={
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
    )
    good = plan_result(ToolResult(blocks=[TextBlock(text="ok")], structured={"n": 1}), tool)
    assert good.structured.problems == []
    bad = plan_result(ToolResult(structured={"n": "one", "m": [1]}), tool)
    assert bad.structured.problems == ["$.n: 'one' is not of type 'integer'"]


@pytest.mark.timeout(30)
def test_structured_content_is_never_checked_against_a_remote_schema(silent_url):
    tool = Tool(name="t", output_schema={"properties": {"n": {"$ref": silent_url}}})
    plan = plan_result(ToolResult(structured={"n": 1}), tool)
    assert plan.structured.problems == [
        f"cannot check against the output schema: Unresolvable: {silent_url}"
    ]


def test_call_command_writes_the_target_and_arguments():
    target = LocalTarget(env_key="tracker")
    assert call_command(target, "get_issue", {"issue_id": 1}) == (
        "fleet-tui call --local --args '{\"issue_id\":1}' -- tracker get_issue"
    )
    kept = FleetTarget(env_key="tracker", data_key="d:1")
    assert call_command(kept, "t", {}, instance_id="abc") == "fleet-tui call --instance abc -- t"


def test_call_command_keeps_the_openenv_task():
    target = OpenEnvTarget(url="http://h:8000", task=("test", 3))
    assert call_command(target, "step", {"x": 1}) == (
        "fleet-tui call --openenv http://h:8000 --openenv-task test:3 --args '{\"x\":1}' -- step"
    )
    assert call_command(OpenEnvTarget(url="http://h:8000"), "step", {}) == (
        "fleet-tui call --openenv http://h:8000 -- step"
    )


def test_demo_takes_the_app_image_backend_option():
    args = command_parser("demo").parse_args(["--image-backend", "halfcell"])
    assert args.image_backend == "halfcell"


def test_labels_fuzzy_rank_and_status_line():
    labels = endpoint_labels(["http://h/i/x/mcp", "http://h/i/x/api/v1/mcp"])
    assert labels == {"http://h/i/x/mcp": "/mcp", "http://h/i/x/api/v1/mcp": "/api/v1/mcp"}
    tools = [Tool(name="list_issues"), Tool(name="search_issues"), Tool(name="get_issue")]
    assert [t.name for t, _ in fuzzy_rank("srch", tools)] == ["search_issues"]
    episode = Episode()
    episode.record(0.5, False)
    episode.record(1.0, True)
    line = status_text(
        "x",
        EnvInfo(kind="openenv", env_key="[/]e\x1b[2J"),
        [],
        episode,
        state="connected",
        connected_at=None,
    ).plain
    assert "[/]e" in line and "\x1b" not in line
    assert "step 2 · reward 1 · total 1.5 · done" in line


def test_ttl_countdown():
    info = EnvInfo(kind="fleet", ttl_seconds=3700)
    assert ttl_left(info, connected_at=100.0, now=160.0) == "TTL 1:00:40"
    assert ttl_left(info.model_copy(update={"ttl_seconds": 90}), 100.0, now=130.0) == "TTL 1:00"
    assert ttl_left(info, 100.0, now=5000.0) == "TTL expired"
    assert ttl_left(EnvInfo(kind="fleet"), 100.0) is None


async def test_tool_description_is_capped_and_expands_on_click():
    from textual.app import App

    from fleet_tui.ui.widgets.tool_description import COLLAPSED_LINES, ToolDescription

    long = "Use the screen: " + " ".join(f"word{i}" for i in range(60)) + " [b]end[/b]"

    class Holder(App):
        def compose(self):
            yield ToolDescription(long, id="d")

    app = Holder()
    async with app.run_test(size=(40, 20)) as pilot:
        description = app.query_one(ToolDescription)
        await pilot.pause()
        assert description.region.height == COLLAPSED_LINES
        assert "more (f5)" in str(description.render())
        await pilot.click(ToolDescription)
        await pilot.pause()
        assert description.expanded and description.region.height > COLLAPSED_LINES
        assert str(description.render()).startswith(long)
        description.show("short")
        await pilot.pause()
        assert description.region.height == 1 and str(description.render()) == "short"
