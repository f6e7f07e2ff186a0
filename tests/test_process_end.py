"""The fleet-tui program ends as Python's exit would (threads joined, `atexit` handlers run,
output flushed, the command's exit code), without freeing what its modules hold."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.fixtures.mcp_servers import ServedMcp

TORN_DOWN = "torn down"


def run_program(argv: list[str], before: str = "") -> subprocess.CompletedProcess:
    """Run fleet-tui's entry (`fleet_tui.cli.run`, as `fleet-tui` and `python -m fleet_tui`
    do) in a fresh interpreter, after `before`; an object that says so when torn down lives in
    `__main__` meanwhile."""
    code = f"""
        import sys

        class Tell:
            def __del__(self):
                print({TORN_DOWN!r}, file=sys.stderr)

        kept = Tell()
        {textwrap.indent(textwrap.dedent(before), " " * 8).strip()}
        sys.argv = ["fleet-tui", *{argv!r}]
        from fleet_tui.cli import run
        run()
        """
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )


def test_a_call_ends_with_its_output_and_code_and_frees_nothing(mcp_alpha: ServedMcp):
    done = run_program(["call", "--mcp", mcp_alpha.url, "echo", "-a", "text=hi"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == "hi\n"
    assert TORN_DOWN not in done.stderr


def test_a_failing_command_ends_with_its_exit_code(mcp_alpha: ServedMcp):
    done = run_program(["call", "--mcp", mcp_alpha.url, "no-such-tool"])
    assert done.returncode == 2  # what an EnvError ends with
    assert "unknown tool 'no-such-tool'" in done.stderr


def test_threads_are_joined_and_atexit_handlers_run_before_the_end(mcp_alpha: ServedMcp):
    before = """
        import atexit, threading
        atexit.register(lambda: print("atexit ran", flush=False))
        def late():
            threading.main_thread().join()  # until the command is done and the end begins
            print("thread done", flush=False)
        threading.Thread(target=late).start()
        """
    done = run_program(["tools", "--mcp", mcp_alpha.url], before)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["thread done", "atexit ran"]


def test_output_that_cannot_be_flushed_ends_with_pythons_status_for_it():
    code = """
        import os, sys
        from fleet_tui.process_end import end
        reader, writer = os.pipe()
        os.close(reader)
        sys.stdout = open(writer, "w", buffering=1 << 16)
        print("never read")
        end(0)
        """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 120  # as Python's own exit when it cannot flush stdout
