"""Content-addressed session files written by two writers at once (the session recorder's
thread and the UI saving the same image) are written once, whole, for their owner only."""

from __future__ import annotations

import threading
from pathlib import Path

from fleet_tui.private_files import write_private_once


def test_writers_of_the_same_file_at_once_all_succeed(tmp_path: Path) -> None:
    failures: list[BaseException] = []
    data = b"x" * 200_000

    def write(path: Path, start: threading.Barrier) -> None:
        start.wait()
        try:
            write_private_once(path, data)
        except BaseException as error:  # what the test is about: no writer may fail
            failures.append(error)

    for index in range(100):
        path = tmp_path / f"{index}.png"
        start = threading.Barrier(4)
        writers = [threading.Thread(target=write, args=(path, start)) for _ in range(4)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
    assert failures == []
    written = sorted(tmp_path.iterdir())
    assert [p.name for p in written] == sorted(f"{index}.png" for index in range(100))
    assert all(p.read_bytes() == data and p.stat().st_mode & 0o777 == 0o600 for p in written)
