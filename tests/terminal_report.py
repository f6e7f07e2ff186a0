"""`python -m tests.terminal_report DIR COMMAND...`: run COMMAND in this terminal and report on
it in DIR, for a command in a tmux pane, which tells neither once the pane is gone: `pid` (the
command's), then `terminal-mode` (the terminal's line mode after it: `icanon echo` is the
cooked mode a shell needs; `gone` after a hang-up) and last `exit-code` (negative: the number of
the signal that ended it). A hang-up is passed on to the command, as a shell does."""

from __future__ import annotations

import signal
import subprocess
import sys
import termios
from pathlib import Path

LINE_MODES = (("icanon", termios.ICANON), ("echo", termios.ECHO))


def main(report: Path, command: list[str]) -> None:
    child = subprocess.Popen(command)
    # As a shell does: the hang-up (SIGHUP to the session leader, this process) goes on to the
    # command, and this process stays to report.
    signal.signal(signal.SIGHUP, lambda *_: child.send_signal(signal.SIGHUP))
    (report / "pid").write_text(str(child.pid))
    code = child.wait()
    (report / "terminal-mode").write_text(terminal_mode())
    (report / "exit-code").write_text(str(code))


def terminal_mode() -> str:
    try:
        local_flags = termios.tcgetattr(sys.stdin.fileno())[3]
    except termios.error:
        return "gone"
    return " ".join(name for name, flag in LINE_MODES if local_flags & flag)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
