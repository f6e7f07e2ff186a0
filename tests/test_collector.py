"""The garbage collector and loading: what a command loads (the mcp SDK's models above all) is
kept out of the collector's walks, and the collector is back on once it is loaded."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import textwrap
import threading

from fleet_tui.collector import held_off, loading_modules
from tests.fixtures.mcp_servers import ServedMcp


def test_a_call_leaves_what_it_loaded_out_of_the_collectors_walks(mcp_alpha: ServedMcp):
    code = f"""
        import gc, json, sys
        from fleet_tui.cli import main
        code = main(["call", "--mcp", {mcp_alpha.url!r}, "echo", "-a", "text=hi"])
        frozen = gc.get_freeze_count()
        walked = sum(len(gc.get_objects(generation)) for generation in range(3))
        state = {{"on": gc.isenabled(), "frozen": frozen, "walked": walked}}
        print(json.dumps(state), file=sys.stderr)
        sys.exit(code)
        """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "hi"
    state = json.loads(done.stderr.strip().splitlines()[-1])
    assert state["on"] is True
    # The SDK's protocol models alone are tens of thousands of objects: frozen, no collection
    # (nor the interpreter's at exit) walks them; what the call made is walked as ever.
    assert state["frozen"] > 50_000
    assert state["walked"] < state["frozen"]


def test_loading_nothing_new_freezes_nothing_and_the_collector_comes_back_on():
    frozen = gc.get_freeze_count()
    with loading_modules():
        import json as already_loaded  # noqa: F401

        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen


def test_the_collector_is_back_on_when_the_last_of_several_holds_ends():
    first_in, second_done = threading.Event(), threading.Event()

    def second() -> None:
        first_in.wait()
        with held_off():
            pass
        second_done.set()

    worker = threading.Thread(target=second)
    worker.start()
    with held_off():
        first_in.set()
        second_done.wait(10)
        assert not gc.isenabled()  # the other hold ended first: still off for this one
    worker.join()
    assert gc.isenabled()
