"""Small phrases several rules' messages share."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

_UNITS = ((86_400, "day"), (3_600, "hour"), (60, "minute"))


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for a close declared name, else nothing."""
    # A high cutoff: a typo ('report' for 'reports'), not a shared suffix ('x_pool', 'y_pool').
    close = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.8)
    return f"; did you mean '{close[0]}'?" if close else ""


def duration(seconds: float) -> str:
    """Seconds as people say them: ``7 days``, ``2 hours``, ``90 seconds``."""
    for size, unit in _UNITS:
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    count_text = f"{seconds:g}"
    return f"{count_text} second{'s' if count_text != '1' else ''}"
