"""Cache files that each hold many entries: a cache writes dozens of files, not one per entry.

Creating a file costs the kernel about half a millisecond on ext4 (create, then rename over the
old one): a cold run over 5,000 files that wrote each summary as a file of its own spent 2 to 5 s
of system time on it, more than a tenth of the run. Both caches (summaries and results) are
therefore split into a fixed number of shards by a hash of the entry's key.

A shard holds builtin values only (dicts, tuples, strings, bytes, numbers) and is unpickled with
every global refused, so a planted shard cannot run code; one that is missing, damaged or of
another format reads as empty, never as an error. Shards are written atomically, so a concurrent
run sees the old shard or the new one; the later of two writers wins, and what the other added
is a miss next time, never a wrong answer.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dagroute_lint.sources.files import write_atomically


def read_shard(path: Path, magic: bytes) -> dict[Any, Any]:
    """The entries of the shard at ``path``; empty when it is missing or not a shard."""
    try:
        blob = path.read_bytes()
    except OSError:
        return {}
    if not blob.startswith(magic):
        return {}
    try:
        entries = _BuiltinsOnly(io.BytesIO(blob[len(magic) :])).load()
    except Exception:  # any damage to the bytes: a cold start, never an error
        return {}
    return entries if isinstance(entries, dict) else {}


def write_shard(path: Path, magic: bytes, entries: Mapping[Any, Any]) -> None:
    """Write ``entries`` (builtin values only) as the shard at ``path``; raises ``OSError``."""
    write_atomically(path, magic + pickle.dumps(dict(entries), protocol=pickle.HIGHEST_PROTOCOL))


def ignore_folder(root: Path) -> None:
    """Give the cache folder a ``.gitignore`` that ignores everything in it."""
    ignore = root / ".gitignore"
    if not ignore.exists():
        write_atomically(ignore, b"# Created by dagroute-lint.\n*\n")


def keep_newest(folder: Path, count: int) -> None:
    """Keep the ``count`` newest entries of ``folder``: each build of the tool, settings or
    inventory writes its own index, and the old ones would pile up."""
    indexes = list(os.scandir(folder))
    indexes.sort(key=lambda entry: entry.stat().st_mtime_ns, reverse=True)
    for entry in indexes[count:]:
        with contextlib.suppress(OSError):  # another run removed it first
            if entry.is_dir():
                import shutil  # only when an index is dropped

                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


class _BuiltinsOnly(pickle.Unpickler):
    """Shards are dicts of builtin values: no global is ever needed."""

    def find_class(self, module_name: str, name: str) -> object:
        raise pickle.UnpicklingError(f"global '{module_name}.{name}' is not allowed")


def pairs(entries: dict[Any, Any], first: type, second: type) -> dict[str, tuple[Any, Any]]:
    """The entries of a shard keyed by text whose values have the shape its cache writes, a
    pair of ``first`` and ``second`` (a damaged or foreign shard's others are dropped, and their
    files read again). One comprehension for the shard: the import index checks 5,000 entries
    on a one-file run."""
    return {
        key: item
        for key, item in entries.items()
        if type(key) is str
        and type(item) is tuple
        and len(item) == 2
        and isinstance(item[0], first)
        and isinstance(item[1], second)
    }
