"""A cache of per-file summaries (``Module``), so that a re-run extracts only what changed.

An entry is keyed by everything extraction depends on: the file's bytes, the name it is shown
under, its module name (which follows from the import roots in the settings), the values of
external names it loops over, the inventory's ``airflow_version`` (which decides the branches of
a version flag), and the versions of this tool, libcst and Python. Resolution and rules always
run again, so any other change of the inventory, or of the rule selection, needs no
invalidation.

Entries are kept in shards (``pipeline.shards``), written atomically, so concurrent runs never
see half an entry; the later of two runs writing one shard wins, and the other's new entries are
extracted again next time. Anything unreadable (corrupt, truncated, written by another
version, or a cache folder that cannot be written) counts as a miss: the run extracts the file
and produces the same output, never an error. Entries are unpickled with an allow-list of the
model's own classes, so a planted cache file cannot run code.
"""

from __future__ import annotations

import functools
import io
import os
import pickle
import re
import sys
from collections.abc import Mapping
from importlib.util import find_spec
from pathlib import Path

from dagroute_lint import __version__, model
from dagroute_lint.model import Expr, Module
from dagroute_lint.pipeline.shards import ignore_folder, pairs, read_shard, write_shard
from dagroute_lint.sources.files import stamp, stamps_below

DEFAULT_CACHE_DIR = ".dagroute_cache"
# Bump when the layout of entries changes (the model's shape is covered by the tool version).
FORMAT = 2
# Files the summaries are split into, new entries held back before they are written, and the
# summaries kept of each file (older versions of it, and its plain and final extractions).
SHARDS = 64
PENDING_BYTES = 8 * 1024 * 1024
KEPT_PER_FILE = 4
_MAGIC = b"dagroute-lint summary\n"
_SHARD_MAGIC = b"dagroute-lint summaries\n"
_OLDER_FORMAT = re.compile(r"v\d+|summaries-v\d+")
_BUILTINS: dict[str, type] = {"frozenset": frozenset, "set": set}


# What extraction reads outside ``extract/``: Airflow's names and version flags, the import
# verdicts that say which ``try`` body fails to import on the deployment's release
# (``evaluator/helpers.fails_on``), and the distribution tables that say which third-party
# libraries cannot build a task (``catalog/distributions.builds_no_tasks``).
EXTRACTION_READS = (
    ("model.py",),
    ("catalog", "airflow_names.py"),
    ("catalog", "airflow_versions.py"),
    ("catalog", "data", "reexports.tsv"),
    ("catalog", "import_verdicts.py"),
    ("catalog", "data", "import_verdicts.tsv"),
    ("catalog", "distributions.py"),
    ("catalog", "providers.py"),
    ("catalog", "data", "import_names.tsv"),
    ("catalog", "data", "airflow_dependencies.tsv"),
    ("catalog", "data", "package_dependencies.tsv"),
    ("catalog", "data", "provider_dependencies.tsv"),
)


@functools.cache
def extraction_fingerprint() -> bytes:
    """Format, tool and Python versions, and the installed libcst and extraction code.

    libcst is told apart by the path and modification time of its package, which an upgrade or
    reinstall changes: asking importlib.metadata for its version costs more than a warm run. The
    extraction code is stamped the same way, so a build from another commit with the same version
    number (a checkout, an editable install) never reads summaries an older extractor wrote.
    """
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    spec = find_spec("libcst")
    libcst = stamp(spec.origin) if spec is not None and spec.origin else ""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    extractor = [stamp(os.path.join(package, *parts)) for parts in EXTRACTION_READS]
    stamps = "\0".join([*extractor, *stamps_below(os.path.join(package, "extract"))])
    return f"{FORMAT}\0{__version__}\0{python}\0{libcst}\0{stamps}".encode()


def summary_key(
    data: bytes,
    display: str,
    module_name: str,
    is_package: bool,
    externals: Mapping[str, Expr] | None = None,
    airflow_version: str | None = None,
) -> str:
    """The cache key of one extraction: a SHA-256 over all of its inputs."""
    import hashlib  # here: loading OpenSSL's hashes is for runs with a cache only

    digest = hashlib.sha256(extraction_fingerprint())
    for part in (display, module_name, "package" if is_package else "module"):
        digest.update(b"\0" + part.encode("utf-8", "surrogateescape"))
    digest.update(b"\0" + repr(sorted((externals or {}).items())).encode("utf-8", "replace"))
    digest.update(b"\0airflow " + (airflow_version or "").encode("utf-8", "replace"))
    digest.update(b"\0" + data)
    return digest.hexdigest()


class SummaryCache:
    """Per-file summaries under ``directory``, in ``SHARDS`` files by key (``pipeline.shards``).

    New entries wait in memory and are written when they reach ``PENDING_BYTES`` or when the run
    ends (``flush``): a cold run writes each shard a few times, not a file per summary. A shard
    keeps the ``KEPT_PER_FILE`` newest summaries of each file, so edits do not pile up.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._folder = directory / f"summaries-v{FORMAT}"
        self._read: dict[str, dict[str, tuple[str, bytes]]] = {}
        self._pending: dict[str, dict[str, tuple[str, bytes]]] = {}
        self._pending_bytes = 0

    def load(self, key: str) -> Module | None:
        shard = _shard(key)
        item = self._pending.get(shard, {}).get(key) or self._held(shard).get(key)
        return decode_summary(item[1], key) if item is not None else None

    def store(self, key: str, display: str, payload: bytes) -> None:
        """Keep the pickled summary of the file shown as ``display``, under ``key``."""
        blob = encode_summary(payload, key)
        self._pending.setdefault(_shard(key), {})[key] = (display, blob)
        self._pending_bytes += len(blob)
        if self._pending_bytes >= PENDING_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write the shards new entries went to; a cache that cannot be written is skipped."""
        pending, self._pending, self._pending_bytes = self._pending, {}, 0
        if not pending:
            return
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            ignore_folder(self.directory)
            for shard, fresh in sorted(pending.items()):
                entries = dict(self._held(shard))
                for key, item in fresh.items():
                    entries.pop(key, None)  # the newest last
                    entries[key] = item
                write_shard(self._folder / shard, _SHARD_MAGIC, _newest(entries))
                # Read again if asked: holding what was written would hold every summary.
                self._read.pop(shard, None)
            _drop_older_formats(self.directory, self._folder.name)
        except OSError:
            pass

    def _held(self, shard: str) -> dict[str, tuple[str, bytes]]:
        if shard not in self._read:
            raw = read_shard(self._folder / shard, _SHARD_MAGIC)
            self._read[shard] = pairs(raw, str, bytes)
        return self._read[shard]


def _shard(key: str) -> str:
    """The shard of a key (a hexadecimal digest): the same in every process."""
    return f"{int(key[:2], 16) % SHARDS:02x}"


def _newest(entries: dict[str, tuple[str, bytes]]) -> dict[str, tuple[str, bytes]]:
    """The last ``KEPT_PER_FILE`` entries of each file, in their order."""
    kept: list[tuple[str, tuple[str, bytes]]] = []
    count: dict[str, int] = {}
    for key, item in reversed(entries.items()):
        seen = count.get(item[0], 0)
        if seen < KEPT_PER_FILE:
            count[item[0]] = seen + 1
            kept.append((key, item))
    return dict(reversed(kept))


def _drop_older_formats(directory: Path, current: str) -> None:
    """Remove the summaries older versions of the tool wrote (``v1`` held a file per entry)."""
    for entry in os.scandir(directory):
        if entry.name != current and _OLDER_FORMAT.fullmatch(entry.name) and entry.is_dir():
            import shutil  # only when an older cache is found

            shutil.rmtree(entry.path, ignore_errors=True)


def encode_summary(payload: bytes, key: str) -> bytes:
    """An entry: a header naming the format and the key, then the pickled summary."""
    return _MAGIC + key.encode("ascii") + b"\n" + payload


def decode_summary(blob: bytes, key: str) -> Module | None:
    """The summary in ``blob`` if it is a well-formed entry for ``key``, else ``None``."""
    header = _MAGIC + key.encode("ascii") + b"\n"
    if not blob.startswith(header):
        return None
    try:
        module = _ModelUnpickler(io.BytesIO(blob[len(header) :])).load()
    except Exception:  # any damage to the bytes: treat as a miss and extract again
        return None
    return module if isinstance(module, Module) else None


class _ModelUnpickler(pickle.Unpickler):
    """Refuses every global but the model's dataclasses and plain sets."""

    def find_class(self, module_name: str, name: str) -> object:
        if module_name == model.__name__ and isinstance(getattr(model, name, None), type):
            return getattr(model, name)
        if module_name == "builtins" and name in _BUILTINS:
            return _BUILTINS[name]
        raise pickle.UnpicklingError(f"global '{module_name}.{name}' is not allowed")
