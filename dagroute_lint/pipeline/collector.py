"""When the cyclic garbage collector runs: rarely while summaries pile up, never inside a file.

A collection traverses every tracked object younger than its generation. A run allocates
millions of objects of two kinds: the summaries and resolved tasks that live until it ends, and
each file's libcst tree and walk, which die, by reference counting, as soon as the file's
summary is built (libcst trees and the walk's scopes hold no reference cycles that outlive it).
A collection triggered inside a file would traverse objects about to die. (mypy tunes its
collector the same way.)
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

RARE_COLLECTIONS = 200_000
# What the process is: a library's caller by default, ``ONE_RUN`` for the command line,
# ``LONG_LIVED`` for the language server.
LIBRARY, ONE_RUN, LONG_LIVED = "library", "one run", "long-lived"
_MODE = {"process": LIBRARY}


def for_one_run() -> None:
    """The process does one run and ends without teardown (the command line): collections stay
    rare after the run too. Restoring the thresholds with a run's objects young made the next
    allocation collect them all, and a full collection followed while the output was written:
    25 ms of a 150 ms warm run over 1,000 files, for objects the process drops on exit anyway."""
    _MODE["process"] = ONE_RUN


def for_long_lived() -> None:
    """The process lints one buffer after another for as long as an editor is open (the
    language server): the collector keeps Python's own pace. Each lint is small, and the
    thresholds are the whole process's: while a lint ran in its thread with collections rare or
    off, the event loop's cyclic garbage (pygls's futures and their locks, one set per message)
    piled up by the hundred thousand between collections, and the allocator's arenas grew to
    hold it: resident memory rose 20 MB over the first 3,000 edits of a small DAG file."""
    _MODE["process"] = LONG_LIVED


@contextlib.contextmanager
def rare_collections() -> Iterator[None]:
    """Collect rarely while summaries pile up (each collection would traverse all of them again,
    which cost more than half of a warm run over 5,000 files); restore the thresholds after,
    unless the process ends with the run."""
    if _MODE["process"] == LONG_LIVED:
        yield
        return
    previous = gc.get_threshold()
    gc.set_threshold(RARE_COLLECTIONS, *previous[1:])
    try:
        yield
    finally:
        if _MODE["process"] != ONE_RUN:
            gc.set_threshold(*previous)


@contextlib.contextmanager
def no_collections() -> Iterator[None]:
    """No collection while one file is extracted: what it allocates dies with it, and what
    survives is traversed by the next collection after it."""
    if _MODE["process"] == LONG_LIVED:
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def settle() -> None:
    """Put every object alive now out of the collector's reach (``gc.freeze``), once libcst's
    modules are imported (when the first file is extracted): their 150,000 objects counted
    towards the next collection, which then traversed them all (22 ms of a one-file run at
    5,000 files, one gen-0 collection). A frozen object is still freed when its last reference
    goes; only a reference cycle among the objects alive at that moment would never be
    collected, which is why this happens once per process."""
    gc.freeze()
