"""What each file of the DAG folders imports, kept so that finding a file's importers need not
read every file again.

A run given a few files (pre-commit) also lints the DAG files that import them
(``pipeline.dependents``), which means knowing what every file of the DAG folders imports: at
5,000 files, reading them all was a tenth of a one-file run. A run with a cache keeps, for each
file it extracted, the module names its imports read, with the file's status as ``fstat`` gave
it just before the bytes were read (device, inode, size, modification and change times). A later
run trusts an entry while ``stat`` gives the same status, and reads the file otherwise.

Any write to a file moves its change time, which no program can set back, so an entry is never
trusted for bytes it was not made from, with one exception it guards against: file systems keep
times at a coarse grain, so a write in the same tick as the read would leave the status as it
was (git's "racily clean" index entries). An entry is therefore made only for a file whose last
change was ``SETTLED_NS`` or more before it was read; a file changed more recently is read again
next time.

Files that no run extracts (helper modules no DAG file imports) get an entry too when their bytes
cannot hold an import statement (``imports_nothing``): their extraction would find that they read
no module, so no extraction is needed to say so.
"""

from __future__ import annotations

import functools
import os
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from dagroute_lint.model import Module
from dagroute_lint.pipeline.shards import (
    ignore_folder,
    keep_newest,
    pairs,
    read_shard,
    write_shard,
)

FORMAT = 1
# Files the index is split into by path, so that a run rewrites only the shards it changed, and
# indexes kept side by side (one per extractor and set of import roots), as for results.
SHARDS = 16
KEPT_INDEXES = 8
SETTLED_NS = 2_000_000_000
_MAGIC = b"dagroute-lint imports\n"
# What identifies a file's content as of a read: device, inode, size, mtime and ctime (ns).
_IDENTITY = struct.Struct("<5q")


def identity(status: os.stat_result) -> bytes:
    return _IDENTITY.pack(
        status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns
    )


def imports_nothing(data: bytes) -> bool:
    """Whether no import statement can be in ``data``: every one spells the keyword ``import``,
    in ASCII unless an encoding declaration (``coding:``) says otherwise."""
    return b"import" not in data and b"coding" not in data


def module_reads(module: Module) -> Iterator[str]:
    """Every module importing the file runs: ``import a.b`` runs ``a`` too, and ``from a import
    b`` may import the submodule ``a.b``."""
    for site in (*module.imports, *(site for task in module.tasks for site in task.imports)):
        parts = site.module.split(".")
        for end in range(1, len(parts) + 1):
            yield ".".join(parts[:end])
        for name in site.names:
            yield f"{site.module}.{name}"


class ImportIndex:
    """The entries of one extractor and set of import roots (which module names depend on),
    in ``SHARDS`` files of ``cache_dir``. An entry is the file's identity and the names its
    imports read, as one text (``\0a\0a.b\0``): a one-file run loads every entry, and one
    string a file unpickles and searches faster than a set of them."""

    def __init__(self, cache_dir: Path, key: Callable[[], str]) -> None:
        # The key is worked out when the index is first used: a run with nothing to extract
        # (a warm run) never stamps the extractor's files for it.
        self._key = key
        self._root = cache_dir
        self._seen: dict[str, tuple[str, bytes, int, int]] = {}  # by the name shown
        self._entries: dict[str, tuple[bytes, str]] | None = None
        # The same entries by shard, so that a save writes its shards without hashing every
        # path again (a one-file run changes one or two entries of 5,000).
        self._shards: list[dict[str, tuple[bytes, str]]] = [{} for _ in range(SHARDS)]
        self._changed: set[int] = set()

    def saw(self, display: str, real: str, status: os.stat_result, read_at: int) -> None:
        """A file was read at ``read_at`` (``time.time_ns()`` before it was opened)."""
        changed = max(status.st_mtime_ns, status.st_ctime_ns)
        self._seen[display] = (real, identity(status), changed, read_at)

    def holding(self, reals: Iterable[str]) -> set[str]:
        """Those of ``reals`` whose entries still hold: a stat of each, every file of the DAG
        folders on a one-file run, so the loop keeps to locals."""
        entries = self._loaded()
        pack = _IDENTITY.pack
        stat = os.stat
        held = set()
        for real in reals:
            entry = entries.get(real)
            if entry is None:
                continue
            try:
                s = stat(real)
            except OSError:
                continue
            if pack(s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns) == entry[0]:
                held.add(real)
        return held

    def readers(self, reals: Iterable[str], names: Iterable[str]) -> set[str]:
        """Those of ``reals`` (files it is ``holding``) whose imports read one of ``names``."""
        entries = self._loaded()
        candidates = list(reals)
        found: set[str] = set()
        for name in names:
            mark = f"\0{name}\0"
            found.update(real for real in candidates if mark in entries[real][1])
        return found

    def learn(self, module: Module) -> None:
        """Make the entry of a module extracted from a file this run read."""
        self._learn(module.path, module_reads(module))

    def learn_unextracted(self, display: str, data: bytes) -> None:
        """Make the entry of a file this run read but did not extract, if ``imports_nothing``."""
        if imports_nothing(data):
            self._learn(display, ())

    def _learn(self, display: str, reads: Iterable[str]) -> None:
        seen = self._seen.get(display)
        if seen is None:
            return
        real, found, changed, read_at = seen
        entries = self._loaded()
        if read_at - changed < SETTLED_NS:
            if real in entries:
                self._drop(real)
            return
        entry = (found, "\0" + "".join(f"{name}\0" for name in sorted(set(reads))))
        if entries.get(real) != entry:
            entries[real] = entry
            shard = _shard(real)
            self._shards[shard][real] = entry
            self._changed.add(shard)

    def keep_only(self, reals: Iterable[str]) -> None:
        """Drop the entries of files no longer found in the folders the index covers."""
        entries = self._loaded()
        kept = set(reals)
        for real in [real for real in entries if real not in kept]:
            self._drop(real)

    @functools.cached_property
    def folder(self) -> Path:
        return self._root / f"imports-v{FORMAT}" / self._key()

    def save(self) -> None:
        """Write the shards this run changed; a cache that cannot be written is skipped."""
        if not self._changed or self._entries is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore_folder(self._root)
            for shard in sorted(self._changed):
                write_shard(self.folder / f"{shard:x}", _MAGIC, self._shards[shard])
            keep_newest(self.folder.parent, KEPT_INDEXES)
        except OSError:
            pass
        self._changed = set()

    def _drop(self, real: str) -> None:
        del self._loaded()[real]
        shard = _shard(real)
        self._shards[shard].pop(real, None)
        self._changed.add(shard)

    def _loaded(self) -> dict[str, tuple[bytes, str]]:
        """Every entry, read when first needed: a run with nothing to extract never does.
        Entries of another shape (a damaged or foreign shard) are dropped."""
        if self._entries is None:
            self._entries = {}
            for shard in range(SHARDS):
                found = read_shard(self.folder / f"{shard:x}", _MAGIC)
                held = pairs(found, bytes, str)
                self._shards[shard] = held
                self._entries.update(held)
        return self._entries


def _shard(real: str) -> int:
    return zlib.crc32(real.encode("utf-8", "surrogateescape")) % SHARDS


def index_key(fingerprint: bytes, roots: Sequence[Path], airflow_version: str | None = None) -> str:
    """The index's name: module names follow from the import roots and the extractor, and
    which imports run from the inventory's Airflow version (a version flag's branches)."""
    import hashlib

    digest = hashlib.sha256(fingerprint)
    digest.update(b"\0airflow " + (airflow_version or "").encode("utf-8", "replace"))
    for root in roots:
        digest.update(b"\0" + str(root).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:32]
