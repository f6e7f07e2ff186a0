"""A verifier's verdict: pass or fail, score, execution time, stdout, error and traceback."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from fleet_tui.envs.base import Verdict
from fleet_tui.text import clean


def verdict_headline(verdict: Verdict) -> str:
    """`PASS score 1 · 120 ms · remote`, `FAIL score 0 …` or `ERROR Timeout …`."""
    if not verdict.success:
        outcome = f"ERROR {verdict.error_type or 'verifier failed'}"
    else:
        outcome = "PASS" if verdict.passed else "FAIL"
        outcome += f" score {verdict.score:g}" if verdict.score is not None else " (no score)"
    parts = [outcome]
    if verdict.execution_time_ms is not None:
        parts.append(f"{verdict.execution_time_ms:.0f} ms")
    parts.append(verdict.mode)
    return " · ".join(parts)


def verdict_text(verdict: Verdict, *, after: str | None = None) -> Text:
    """The whole verdict as literal text (stdout and tracebacks are env data, never markup)."""
    style = (
        "bold green" if verdict.passed else ("bold red" if not verdict.success else "bold yellow")
    )
    text = Text()
    if verdict.task_key:
        text.append(f"{clean(verdict.task_key)}  ", style="bold")
    text.append(verdict_headline(verdict), style=style)
    if after:
        text.append(f"\nafter {after}", style="dim")
    if verdict.error_message:
        text.append(f"\n{clean(verdict.error_message)}", style="red")
    if verdict.stdout:
        text.append("\n\nstdout\n", style="bold dim")
        text.append(clean(verdict.stdout.rstrip("\n")))
    if verdict.traceback:
        text.append("\n\ntraceback\n", style="bold dim")
        text.append(clean(verdict.traceback.rstrip("\n")), style="dim")
    return text


class VerdictView(VerticalScroll):
    """Shows the latest verdict."""

    DEFAULT_CSS = """
    VerdictView { height: auto; max-height: 16; border-top: solid $panel; }
    VerdictView > Static { padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.verdict: Verdict | None = None

    def compose(self):
        yield Static(Text("No verdict yet.", style="dim"))

    def show(self, verdict: Verdict, *, after: str | None = None) -> None:
        self.verdict = verdict
        self.query_one(Static).update(verdict_text(verdict, after=after))

    def show_message(self, message: str, style: str = "dim") -> None:
        self.query_one(Static).update(Text(clean(message), style=style))
