"""A cache of per-file summaries (``Module``), so that a re-run extracts only what changed.

An entry is keyed by everything extraction depends on: the file's bytes, the name it is shown
under, its module name (which follows from the import roots in the settings), the values of
external names it loops over, and the versions of this tool, libcst and Python. Resolution and
rules always run again, so a changed inventory or rule selection needs no invalidation.

Each entry is its own file, written atomically, so concurrent runs never see half an entry and
at worst write the same bytes twice. Anything unreadable (corrupt, truncated, written by another
version, or a cache folder that cannot be written) counts as a miss: the run extracts the file
and produces the same output, never an error. Entries are unpickled with an allow-list of the
model's own classes, so a planted cache file cannot run code.
"""

from __future__ import annotations

import functools
import io
import os
import pickle
import sys
from collections.abc import Mapping
from importlib.util import find_spec
from pathlib import Path

from dagroute_lint import __version__, model
from dagroute_lint.model import Expr, Module
from dagroute_lint.sources.files import write_atomically

DEFAULT_CACHE_DIR = ".dagroute_cache"
# Bump when the layout of entries changes (the model's shape is covered by the tool version).
FORMAT = 1
_MAGIC = b"dagroute-lint summary\n"
_BUILTINS: dict[str, type] = {"frozenset": frozenset, "set": set}


def _stamp(path: str) -> str:
    try:
        status = os.stat(path)
    except OSError:
        return path
    return f"{path}@{status.st_mtime_ns}:{status.st_size}"


@functools.cache
def _fingerprint() -> bytes:
    """Format, tool and Python versions, and the installed libcst and extraction code.

    libcst is told apart by the path and modification time of its package, which an upgrade or
    reinstall changes: asking importlib.metadata for its version costs more than a warm run. The
    extraction code is stamped the same way, so a build from another commit with the same version
    number (a checkout, an editable install) never reads summaries an older extractor wrote.
    """
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    spec = find_spec("libcst")
    libcst = _stamp(spec.origin) if spec is not None and spec.origin else ""
    package = Path(__file__).parents[1]
    extractor = [package / "model.py", package / "catalog" / "airflow_names.py"]
    extractor.append(package / "catalog" / "data" / "reexports.tsv")
    extractor += sorted((package / "extract").rglob("*.py"))
    stamps = "\0".join(_stamp(str(path)) for path in extractor)
    return f"{FORMAT}\0{__version__}\0{python}\0{libcst}\0{stamps}".encode()


def summary_key(
    data: bytes,
    display: str,
    module_name: str,
    is_package: bool,
    externals: Mapping[str, Expr] | None = None,
) -> str:
    """The cache key of one extraction: a SHA-256 over all of its inputs."""
    import hashlib  # here: loading OpenSSL's hashes is for runs with a cache only

    digest = hashlib.sha256(_fingerprint())
    for part in (display, module_name, "package" if is_package else "module"):
        digest.update(b"\0" + part.encode("utf-8", "surrogateescape"))
    digest.update(b"\0" + repr(sorted((externals or {}).items())).encode("utf-8", "replace"))
    digest.update(b"\0" + data)
    return digest.hexdigest()


class SummaryCache:
    """Per-file summaries under ``directory`` (created, with its own ``.gitignore``, on write)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._entries = directory / f"v{FORMAT}"
        self._prepared = False

    def load(self, key: str) -> Module | None:
        try:
            blob = self._path(key).read_bytes()
        except OSError:
            return None
        return decode_summary(blob, key)

    def store(self, key: str, blob: bytes) -> None:
        """Write an entry made by ``encode_summary``; a cache that cannot be written is skipped."""
        try:
            self._prepare()
            path = self._path(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, blob)
        except OSError:
            pass

    def _path(self, key: str) -> Path:
        return self._entries / key[:2] / key

    def _prepare(self) -> None:
        if self._prepared:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        ignore = self.directory / ".gitignore"
        if not ignore.exists():
            write_atomically(ignore, b"# Created by dagroute-lint.\n*\n")
        self._prepared = True


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
