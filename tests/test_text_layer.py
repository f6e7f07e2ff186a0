"""fleet_tui.text is the bottom layer: every package imports its text helpers from it, so it
imports none of them back, nor Rich (the headless commands use it and stay free of Rich), nor
the `regex` module (11 ms to import: only once a long text is redacted)."""

from __future__ import annotations

import json
import subprocess
import sys

LOADED_BY_TEXT = """
import json, sys
import fleet_tui.text
print(json.dumps(sorted(sys.modules)))
"""


def test_importing_text_loads_no_other_fleet_tui_module_and_no_rich():
    shown = subprocess.run(
        [sys.executable, "-c", LOADED_BY_TEXT], capture_output=True, text=True, check=True
    )
    loaded = json.loads(shown.stdout)
    assert [name for name in loaded if name.startswith("fleet_tui.")] == ["fleet_tui.text"]
    assert not [name for name in loaded if name == "rich" or name.startswith("rich.")]
    assert "regex" not in loaded
