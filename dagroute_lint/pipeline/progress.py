"""A quiet progress line on a terminal for long runs; nothing at all anywhere else.

The line appears only once a run has lasted ``DELAY`` seconds (a short run stays silent), is
redrawn at most every ``INTERVAL`` seconds, and is erased when the run ends, so it never mixes
with diagnostics, and never reaches a file, a pipe or a machine format.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

DELAY = 1.0
INTERVAL = 0.2


class ProgressLine:
    """Counts files done out of those expected and redraws ``dagroute-lint: N/M files``."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.total = 0
        self.clock = clock
        self.done = 0
        self._started = clock()
        self._drawn_at: float | None = None
        self._width = 0

    def expect(self, count: int) -> None:
        """``count`` more files are to be done."""
        self.total += count

    def advance(self, count: int) -> None:
        self.done += count
        now = self.clock()
        if now - self._started < DELAY:
            return
        if self._drawn_at is not None and now - self._drawn_at < INTERVAL:
            return
        self._draw(f"dagroute-lint: {min(self.done, self.total)}/{self.total} files")
        self._drawn_at = now

    def close(self) -> None:
        """Erase the line, if one was drawn."""
        if self._drawn_at is not None:
            self._draw("")
            self.stream.write("\r")
            self.stream.flush()

    def _draw(self, text: str) -> None:
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)


def progress_line(stream: TextIO, wanted: bool) -> ProgressLine | None:
    """A progress line when ``wanted`` and ``stream`` is a terminal; ``None`` otherwise."""
    if not wanted or not stream.isatty():
        return None
    return ProgressLine(stream)
