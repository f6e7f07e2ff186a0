"""docs/keys.md lists every key of the keymap: regenerated, it reads the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_keys_page_is_the_keymap():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "keys_doc"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
