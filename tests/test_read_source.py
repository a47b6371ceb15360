"""``read_source`` reads a regular file to its end or to the limit, whatever ``fstat`` said."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dagroute_lint.sources.files import read_source

# A regular file whose size ``fstat`` gives as 0 but that reads as this process's command line:
# the first read asks for one byte, and the rest must be read on.
PROC_FILE = Path("/proc/self/cmdline")


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 70_000])
def test_a_file_is_read_whole(tmp_path: Path, size: int) -> None:
    path = tmp_path / "dag.py"
    data = os.urandom(size)
    path.write_bytes(data)
    assert read_source(path, size + 1) == data
    assert read_source(str(path), size + 1) == data


def test_reading_stops_at_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "dag.py"
    path.write_bytes(b"x" * 5000)
    assert read_source(path, 1000) == b"x" * 1000
    assert read_source(path, 5000) == b"x" * 5000


def test_a_file_longer_than_fstat_says_is_read_on() -> None:
    assert PROC_FILE.stat().st_size == 0
    data = read_source(PROC_FILE, 10**7)
    # More than the one byte a first read asks for, whatever started this process.
    assert data == PROC_FILE.read_bytes() and len(data) > 7 and data.endswith(b"\0")
    assert read_source(PROC_FILE, 7) == data[:7]
