"""Standard-library modules that a repository module of the same name can never replace.

Airflow appends the DAG folder (and the config and plugins folders) to ``sys.path``: 2.10.5's
``settings.prepare_syspath_for_dags_folder``, 3.3.2's ``BundleDagBag``. The standard library
comes before them, so ``dags/queue.py`` is never what ``import queue`` finds, and
``from queue import ROUTING_QUEUE`` fails (verified with DagBag in both versions,
``tests/conformance/test_dag_integrity.py``). Only names that are the standard library's on
every CPython Airflow runs on (3.9 to 3.13, Linux) count: a module some of those versions or
platforms lack (``imp``, ``winreg``) may be the repository's own there.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sysconfig
from pathlib import Path
from types import ModuleType

from dagroute_lint.catalog.distributions import is_stdlib

# Not the standard library's on every Python from 3.9 to 3.13 on Linux: Windows and macOS
# modules, modules of 3.9 only, and those removed in 3.12 and 3.13.
_NOT_EVERYWHERE = frozenset(
    {
        *("_dbm", "_gdbm", "_msi", "_overlapped", "_scproxy", "_winapi", "msilib", "msvcrt"),
        *("nt", "winreg", "winsound"),
        *("_bootlocale", "_peg_parser", "formatter", "parser", "symbol"),
        *("asynchat", "asyncore", "distutils", "imp", "smtpd"),
        *("aifc", "audioop", "cgi", "cgitb", "chunk", "crypt", "_crypt", "imghdr", "mailcap"),
        *("nis", "nntplib", "ossaudiodev", "pipes", "sndhdr", "spwd", "sunau", "telnetlib"),
        *("uu", "xdrlib", "lib2to3"),
    }
)
# Modules whose import does something (opens a browser, prints) or needs a display.
_NEVER_IMPORTED = frozenset(
    {"antigravity", "this", "__hello__", "__phello__", "idlelib", "turtle", "turtledemo", "tkinter"}
)


def found_before_roots(module: str) -> bool:
    """Whether ``import module`` finds the standard library's module, whatever the import
    roots hold: its top-level name is the standard library's on every supported Python."""
    return _stdlib_everywhere(module.partition(".")[0])


@functools.lru_cache(maxsize=1024)  # asked for every name a run looks up
def _stdlib_everywhere(top: str) -> bool:
    return top not in _NOT_EVERYWHERE and is_stdlib(top)


def has_submodule(module: str) -> bool | None:
    """Whether the standard library holds the dotted ``module`` (``email.mime.text``) as a
    package folder or a ``.py`` file; ``None`` when its folder cannot be found here."""
    folder = _stdlib_folder()
    if folder is None:
        return None
    place = folder.joinpath(*module.split("."))
    return place.is_dir() or place.with_name(place.name + ".py").is_file()


@functools.lru_cache(maxsize=256)  # keyed by what the linted files import: bounded
def has_name(module: str, name: str) -> bool | None:
    """Whether the standard-library ``module`` binds ``name`` (or holds it as a submodule), in
    the Python running the linter; ``None`` when that cannot be asked safely. Only a module
    found in the standard library's own folders (or built in) is imported, never a file of the
    linted repository, whatever ``sys.path`` holds."""
    if module.partition(".")[0] in _NEVER_IMPORTED:
        return None
    try:
        loaded = _import_stdlib(module)
    except Exception:  # a module this platform cannot load: not decided
        return None
    if loaded is None:
        return None
    if hasattr(loaded, name):
        return True
    return bool(has_submodule(f"{module}.{name}"))


def _import_stdlib(module: str) -> ModuleType | None:
    """``module`` imported, when it and each package above it are found in the standard
    library's folders; ``None`` otherwise."""
    parts = module.split(".")
    for end in range(1, len(parts) + 1):
        spec = importlib.util.find_spec(".".join(parts[:end]))
        if spec is None or not _in_stdlib(spec.origin):
            return None
    return importlib.import_module(module)


def _in_stdlib(origin: str | None) -> bool:
    if origin in ("built-in", "frozen"):
        return True
    folder = _stdlib_folder()
    return origin is not None and folder is not None and Path(origin).is_relative_to(folder)


@functools.cache
def _stdlib_folder() -> Path | None:
    folder = Path(sysconfig.get_paths()["stdlib"])
    return folder if (folder / "os.py").is_file() else None
