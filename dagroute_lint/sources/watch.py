"""``--watch``: notice that a file a run read has changed, by polling ``os.stat``.

Polling needs no dependency and works wherever the files are (network mounts, containers
sharing a folder), at the cost of a stat per file and interval: a few thousand files polled
twice a second cost little beside a lint. Besides the files themselves, their folders are
polled: a folder's modification time changes when a file is added, removed or renamed in it,
so a new DAG file next to a linted one is noticed, as is an editor that saves by renaming a new
file over the old one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection
from pathlib import Path

# What tells one version of a file from another; ``None`` for a file that is not there.
Stamp = tuple[int, int, int] | None
# How often files are polled, and how long a change is left to settle (an editor writing a
# file in several steps, a checkout changing many) before the run that follows it.
POLL_SECONDS = 0.25
SETTLE_SECONDS = 0.1
_SETTINGS_NAMES = ("pyproject.toml", "dagroute.toml")


def watched(files: Collection[Path]) -> frozenset[Path]:
    """``files`` and the folders holding them."""
    return frozenset({*files, *(file.parent for file in files)})


def settings_candidates(starts: Collection[Path]) -> frozenset[Path]:
    """The ``pyproject.toml`` and ``dagroute.toml`` of every folder from each of ``starts`` up:
    where settings or an inventory would be found for them. Watched too, so that a run that
    failed on its settings, before reading anything, runs again when they are mended."""
    folders = {folder for start in starts for folder in (start, *start.parents)}
    return frozenset(folder / name for folder in folders for name in _SETTINGS_NAMES)


def stamps(paths: Collection[Path]) -> dict[Path, Stamp]:
    """Each path's modification time, size and inode (``None`` where there is no such file)."""
    found: dict[Path, Stamp] = {}
    for path in paths:
        try:
            status = os.stat(path)
        except OSError:
            found[path] = None
        else:
            found[path] = (status.st_mtime_ns, status.st_size, status.st_ino)
    return found


def changed_since(before: dict[Path, Stamp]) -> list[Path]:
    """The paths whose stamp differs from ``before``."""
    return sorted(path for path, stamp in stamps(before).items() if stamp != before[path])


def modified_during(now: dict[Path, Stamp], started_ns: int) -> list[Path]:
    """The files (not folders) of ``now`` modified since ``started_ns``: changed while the run
    that read them was reading, so its result may be of the old content. A folder's own time is
    left out, since the run's own writes (its output file, its caches) change it."""
    folders = {path.parent for path in now}
    return sorted(
        path
        for path, stamp in now.items()
        if stamp is not None and stamp[0] >= started_ns and path not in folders
    )


def wait_for_change(before: dict[Path, Stamp]) -> list[Path]:
    """Block until a path of ``before`` changes; the paths changed, once they settle."""
    while True:
        time.sleep(POLL_SECONDS)
        if changed_since(before):
            time.sleep(SETTLE_SECONDS)
            return changed_since(before)
