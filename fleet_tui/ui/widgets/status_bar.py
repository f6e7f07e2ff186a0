"""One line about the environment: target, env, instance, region, TTL, endpoints, episode."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static

from fleet_tui.text import clean
from fleet_tui.ui.keymap import marks_of
from fleet_tui.ui.widgets.tool_list import endpoint_labels

if TYPE_CHECKING:  # the env's and session's models load after the first frame
    from fleet_tui.controller import Episode
    from fleet_tui.envs.base import EndpointStatus, EnvInfo

ENDPOINT_STYLES = {
    "up": ("●", "green"),
    "connecting": ("◌", "yellow"),
    "down": ("✗", "bold red"),
    "closed": ("○", "dim"),
}
"""The mark and style of each `EndpointState`, by its value (a StrEnum's members are these
strings): the status bar is drawn in the first frame, before the env's models load."""


def ttl_left(info: EnvInfo, connected_at: float | None, now: float | None = None) -> str | None:
    if not info.ttl_seconds or connected_at is None:
        return None
    left = int(info.ttl_seconds - ((now or time.monotonic()) - connected_at))
    if left <= 0:
        return "TTL expired"
    hours, rest = divmod(left, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"TTL {hours}:{minutes:02}:{seconds:02}" if hours else f"TTL {minutes}:{seconds:02}"


def status_text(
    label: str,
    info: EnvInfo | None,
    endpoints: list[EndpointStatus],
    episode: Episode,
    *,
    state: str,
    connected_at: float | None,
    heartbeat: str | None = None,
    notes: Sequence[Text] = (),
    listed: Mapping[str, int] | None = None,
) -> Text:
    """The status line (pure, so tests and snapshots can check it); `notes` (the MCP proxy's
    address) come before the endpoints. `listed`: how many of each endpoint's tools the tool
    list shows (a name another endpoint offers too is listed once), so the counts add up to
    the list's."""
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f" {info.kind if info else 'target'} ", style="reverse bold")
    line.append(" ")
    if info and info.env_key:
        line.append(clean(info.env_key), style="bold")
        if info.version:
            line.append(f" {clean(info.version)}", style="dim")
    elif not endpoints or info is None or info.kind != "mcp":
        line.append(clean(label), style="bold")
    if info and info.instance_id:
        line.append(f"  inst {clean(info.instance_id)}")
    if info and info.region:
        line.append(f"  {clean(info.region)}", style="dim")
    if info:
        ttl = ttl_left(info, connected_at)
        if ttl:
            line.append(f"  {ttl}")
    if heartbeat:
        failed = heartbeat.startswith("failed")
        line.append(f"  ♥ {clean(heartbeat)}", style="bold red" if failed else "dim")
    for note in notes:
        line.append_text(note)
    labels = endpoint_labels([e.url for e in endpoints])
    for endpoint in endpoints:
        mark, style = ENDPOINT_STYLES.get(endpoint.state, ("?", ""))
        line.append(f"  {mark} ", style=style)
        line.append(labels[endpoint.url], style=style)
        if endpoint.transport == "sse":
            line.append(" via SSE", style="dim")
        if endpoint.state == "up":
            shown = endpoint.tool_count if listed is None else listed.get(endpoint.url, 0)
            of = f" of {endpoint.tool_count}" if shown != endpoint.tool_count else ""
            line.append(f" ({shown}{of})", style="dim")
    if episode.seen or (info and info.kind == "openenv"):
        reward = "-" if episode.last_reward is None else f"{episode.last_reward:g}"
        line.append(f"  step {episode.steps} · reward {reward} · total {episode.total_reward:g}")
        if episode.done:
            line.append(" · done", style="bold yellow")
    if state != "connected":
        line.append(f"  [{state}]", style="yellow" if state != "disconnected" else "bold red")
    return line


class StatusBar(Static):
    """The status line; the app updates it with a fresh `status_text` every second."""

    DEFAULT_CSS = "StatusBar { height: 1; background: $panel; }"

    def on_mount(self) -> None:
        self.tooltip = marks_of("Status line")

    def update(self, content: VisualType = "", *, layout: bool = False) -> None:
        """One line high whatever it says: a new status needs no layout of the screen, and
        the same status (most seconds) not even a repaint."""
        if content != self.content:
            super().update(content, layout=layout)
