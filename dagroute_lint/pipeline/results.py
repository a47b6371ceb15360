"""The result cache: each reported file's diagnostics and coverage, with what producing them read.

A run's results depend on the file, on the repository modules its extraction, resolution and
rules looked up (recorded as they are looked up, see ``pipeline.world``), on what the rules asked
of the file system (which modules are the repository's own), and on the run: the tool's code,
the settings, the inventory, the rule set and the working directory. The run's part names the
index folder; the rest is kept per entry and checked again before an entry is used, so a stale
result is never printed: anything that differs makes the file be linted again.

Entries hold only builtin values (no classes), and are unpickled with every global refused, so
a planted index cannot run code; an unreadable index is a cold start, never an error.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import zlib
from collections.abc import Iterable, Mapping
from enum import Enum
from pathlib import Path, PurePath

from dagroute_lint import __version__
from dagroute_lint.diagnostics import Diagnostic, Facts, Fix, ImportFix, KeywordFix, Related
from dagroute_lint.pipeline.shards import ignore_folder, keep_newest, read_shard, write_shard
from dagroute_lint.records import field_values, is_record, record
from dagroute_lint.resolve.coverage import Coverage
from dagroute_lint.sources.files import stamp, stamps_below

# Bump when the layout of entries changes.
FORMAT = 6
# Files an index is split into (see ``ResultIndex``).
SHARDS = 64
_MAGIC = b"dagroute-lint results\n"
# Indexes kept side by side: runs under different settings (a pre-commit hook's, CI's) alternate.
KEPT_INDEXES = 8

# What one looked-up module name resolved to (see ``world.ModuleStates``), comparable as is.
State = tuple[object, ...]
# A question a rule asked of the import roots, and its answer: ("first_party", "common") -> True.
Probe = tuple[str, ...]


@record
class Entry:
    """One file's results and what they were derived from.

    ``own`` is the key of the file itself (bytes, name shown, module name); ``imported`` the
    modules loading it runs (which decides whether helper modules beside it are reported), and
    ``reads`` every module name its imports may load (``import_index.module_reads``: which files
    of the run are imported by another, see ``Analysis.imported_elsewhere``);
    ``states`` what each module name it read resolved to; ``probes`` the rules' questions about
    the import roots, with their answers. ``dags`` are the DAGs the file certainly defines (id,
    line, column), and ``peers`` the definitions of other files that share one of those ids, as
    they were when the results were made: rules that compare files (DRL002) read them, so the
    results hold only while no other file starts or stops defining one of these ids.
    """

    own: str
    imported: tuple[str, ...]
    states: tuple[tuple[str, State], ...]
    probes: tuple[tuple[Probe, object], ...]
    diagnostics: tuple[Diagnostic, ...]
    coverage: Coverage
    dags: tuple[tuple[str, int, int], ...] = ()
    peers: tuple[tuple[str, str, int, int], ...] = ()
    reads: tuple[str, ...] = ()


_PLAIN = frozenset({str, int, float, bool, type(None)})


def canonical(value: object) -> str:
    """A text that is equal for equal settings or inventories in any process.

    ``repr`` is not: sets of strings iterate in an order that changes with each process's hash
    seed. Anything this does not know is written with ``repr``, which at worst misses the cache.
    """
    if type(value) in _PLAIN:  # most values: no ``Mapping`` check (an ABC's) to pay
        return repr(value)
    if is_record(value):
        parts = (canonical(item) for item in field_values(value))
        return f"{type(value).__qualname__}({','.join(parts)})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a plugin's own
        parts = (canonical(getattr(value, f.name)) for f in dataclasses.fields(value))
        return f"{type(value).__qualname__}({','.join(parts)})"
    if isinstance(value, Mapping):
        pairs = sorted(f"{canonical(key)}:{canonical(item)}" for key, item in value.items())
        return "{" + ",".join(pairs) + "}"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(canonical(item) for item in value)) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if isinstance(value, PurePath):
        return f"path:{value}"
    if isinstance(value, Enum):
        return f"{type(value).__qualname__}.{value.name}"
    return repr(value)


@functools.cache
def code_fingerprint() -> str:
    """Python's version, libcst's package and every file of this tool.

    Resolution and the rules decide results as much as extraction does, so a build from another
    commit (a checkout, an editable install) never reads results an older tool wrote.
    """
    from importlib.util import find_spec

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = find_spec("libcst")
    stamps = [sys.version, stamp(spec.origin) if spec and spec.origin else "no libcst"]
    stamps += stamps_below(package)
    return f"{FORMAT}\0{__version__}\0" + "\0".join(stamps)


def run_key(parts: tuple[object, ...]) -> str:
    """The name of the index for runs under the same code and ``parts`` (settings, inventory,
    rules, import roots, working directory)."""
    import hashlib  # here, as below: loading OpenSSL's hashes is for runs with a cache only

    digest = hashlib.sha256(code_fingerprint().encode("utf-8", "surrogateescape"))
    for part in parts:
        digest.update(b"\0" + canonical(part).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:32]


def own_key(display: str, module_name: str, is_package: bool, content: bytes | str) -> str:
    """The key of a file by itself: its bytes (or why it cannot be read) and its names."""
    import hashlib

    digest = hashlib.blake2b(digest_size=16)
    for part in (display, module_name, "package" if is_package else "module"):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    digest.update(content if isinstance(content, bytes) else b"unreadable\0" + content.encode())
    return digest.hexdigest()


def content_hash(data: bytes) -> str:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).hexdigest()


class ResultIndex:
    """The entries of one run key, by the file's name as shown, in ``directory``.

    The entries are split into ``SHARDS`` files by a hash of the name, and a run reads and
    rewrites only the shards of the files it reports on: a one-file run in a repository of
    5,000 files read and wrote every entry, a fifth of its time. A damaged shard is a cold start
    for its files, never an error.
    """

    def __init__(self, directory: Path, key: str) -> None:
        self.path = directory / f"results-v{FORMAT}" / key
        self._shards: dict[int, dict[str, Entry]] = {}

    def load(self, displays: Iterable[str]) -> dict[str, Entry]:
        """The entries of the shards that hold ``displays`` (others' entries among them)."""
        entries: dict[str, Entry] = {}
        for shard in sorted({_shard(display) for display in displays}):
            self._shards[shard] = self._read(shard)
            entries.update(self._shards[shard])
        return entries

    def _read(self, shard: int) -> dict[str, Entry]:
        raw = read_shard(self.path / f"{shard:02x}", _MAGIC)
        try:
            return {display: _entry(fields) for display, fields in raw.items()}
        except Exception:  # entries of another shape: a cold start, never an error
            return {}

    def store(self, fresh: Mapping[str, Entry]) -> None:
        """Write the shards that ``fresh`` changes, with the entries they held; a folder that
        cannot be written is skipped."""
        changed: dict[int, dict[str, Entry]] = {}
        for display, entry in fresh.items():
            shard = _shard(display)
            if shard not in changed:
                held = self._shards[shard] if shard in self._shards else self._read(shard)
                changed[shard] = dict(held)
            changed[shard][display] = entry
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            ignore_folder(self.path.parents[1])
            for shard, entries in sorted(changed.items()):
                raw = {display: _fields(entry) for display, entry in entries.items()}
                write_shard(self.path / f"{shard:02x}", _MAGIC, raw)
                self._shards[shard] = entries
            keep_newest(self.path.parent, KEPT_INDEXES)
        except OSError:
            pass


def _shard(display: str) -> int:
    """Which shard holds a file's entry: the same in every process (not ``hash()``)."""
    return zlib.crc32(display.encode("utf-8", "surrogateescape")) % SHARDS


def _fields(entry: Entry) -> tuple[object, ...]:
    diagnostics = tuple(
        (
            d.path,
            d.line,
            d.column,
            d.code,
            d.message,
            _fix_fields(d.fix),
            d.severity,
            d.cause,
            field_values(d.facts),
            tuple((r.path, r.line, r.column, r.message) for r in d.related),
        )
        for d in entry.diagnostics
    )
    covered = (entry.coverage.tasks, entry.coverage.dags, entry.coverage.unseen)
    fields = (entry.own, entry.imported, entry.states, entry.probes, diagnostics, covered)
    return (*fields, entry.dags, entry.peers, entry.reads)


# A fix's kind, as an entry names it, and the class it is rebuilt as.
_FIX_KINDS: dict[str, type[ImportFix] | type[KeywordFix]] = {
    "import": ImportFix,
    "keyword": KeywordFix,
}


def _fix_fields(fix: Fix | None) -> tuple[object, ...] | None:
    if fix is None:
        return None
    return ("import" if isinstance(fix, ImportFix) else "keyword", *field_values(fix))


def _fix(fields: object) -> Fix | None:
    if not fields:
        return None
    assert isinstance(fields, tuple)
    kind, *values = fields
    return _FIX_KINDS[kind](*values)


def _entry(fields: tuple[object, ...]) -> Entry:
    own, imported, states, probes, diagnostics, covered, dags, peers, reads = fields
    assert isinstance(own, str) and isinstance(imported, tuple) and isinstance(states, tuple)
    assert isinstance(probes, tuple) and isinstance(diagnostics, tuple)
    assert isinstance(covered, tuple) and isinstance(dags, tuple) and isinstance(peers, tuple)
    assert isinstance(reads, tuple)
    found = tuple(
        Diagnostic(
            path,
            line,
            column,
            code,
            message,
            _fix(fix),
            severity,
            cause,
            Facts(*facts),
            tuple(Related(*place) for place in related),
        )
        for path, line, column, code, message, fix, severity, cause, facts, related in diagnostics
    )
    return Entry(own, imported, states, probes, found, Coverage(*covered), dags, peers, reads)
