"""Messages that name an image, a file or an error say it in plain words: no Python reprs, no
`[Errno N]`, no exception class standing in for the reason."""

from __future__ import annotations

from pathlib import Path

from fleet_tui.envs.targets import Target
from fleet_tui.text import describe_error as describe
from fleet_tui.ui import images
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, wait_connected, wait_for
from tests.fixtures.mcp_servers import tiny_png


async def save_picture(target: Target) -> str:
    """Call beta's `picture`, press save on its image; the toast that tells how it went."""
    app = FleetTuiApp(target)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await call(pilot, "picture")
        app.result_view.action_save_image()
        [message] = await wait_for(
            pilot, lambda: [n.message for n in app._notifications if "aved" in n.message]
        )
    return message


async def test_an_image_that_cannot_be_saved_says_why_in_plain_words(
    two_servers, tmp_path, monkeypatch
):
    name = images.save_png(tiny_png(), "image/png", tmp_path).name
    folder = tmp_path / "here"
    (folder / name).mkdir(parents=True)  # a folder where the PNG would go
    monkeypatch.chdir(folder)
    assert await save_picture(two_servers) == f"Not saved: Is a directory ({folder / name})"


async def test_an_image_saved_names_the_file(two_servers, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = await save_picture(two_servers)
    [saved] = list(Path(tmp_path).glob("*.png"))
    assert message == f"Saved {saved}"


def test_an_error_is_described_by_its_reason():
    assert describe(FileNotFoundError(2, "No such file or directory", "/x/y.json")) == (
        "No such file or directory (/x/y.json)"
    )
    assert describe(KeyError("content")) == "KeyError: content"
    assert describe(ExceptionGroup("g", [TimeoutError()])) == "timed out"
