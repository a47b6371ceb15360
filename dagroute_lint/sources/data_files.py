"""The repository's own data files, read as a DAG file reads them at import, bounded and recorded.

Config-driven DAG files build their DAGs from files beside them (one DAG per YAML file, one task
per SQL file found with ``glob``): DagBag runs those reads, so their results are as static as the
file's own text. ``DataFiles`` answers them for the walk, under three limits: only paths inside
the repository (its real path: a link out of it is outside), at most ``MAX_FILE_BYTES`` a file
and ``MAX_FILES`` reads in one walk, at most ``MAX_ENTRIES`` names in one listing. Each answer is
recorded as ``(operation, argument, state)``, and ``still_hold`` asks every recorded question
again: a summary or a result made from a file is used only while that file, or that folder's
listing, is what it was.

Listings are returned sorted: the order the file system gives (``os.listdir``, ``glob``) is not
the deployment's, so the walk keeps a listing's order as not known (see ``ListObject.unordered``).
"""

from __future__ import annotations

import functools
import glob
import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

# Bytes of one data file, files read (and listings made) by one walk, and names one listing,
# glob or ``os.walk`` may give (folders and files together).
MAX_FILE_BYTES = 1_000_000
MAX_FILES = 256
MAX_ENTRIES = 1000

WORKING_DIRECTORY = "is relative to the DAG processor's working directory, which is not known"
# One recorded question: (operation, argument, the answer's digest).
DataRead = tuple[str, str, str]


class Refused(Exception):
    """A read the walk does not make: outside the repository, over a bound, or failing."""


class DataFiles:
    """Reads for one walk, inside ``roots`` (folders, as given: their real paths are compared)."""

    def __init__(self, roots: Sequence[str]) -> None:
        self._given = tuple(roots)
        self.reads: dict[tuple[str, str], str] = {}

    @functools.cached_property
    def roots(self) -> tuple[str, ...]:
        """Resolved on the first read: most files read nothing."""
        return _real(self._given)

    def text(self, path: str) -> str:
        """The text of the file at ``path`` (UTF-8, as ``open`` on a POSIX deployment reads)."""
        data = self._answer("read", path)
        assert isinstance(data, bytes)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Refused(f"{path} is not UTF-8 text ({error.reason})") from None

    def kind(self, path: str) -> str:
        """``file``, ``folder`` or ``missing`` (what ``os.path.exists/isfile/isdir`` ask)."""
        found = self._answer("kind", path)
        assert isinstance(found, str)
        return found

    def listing(self, path: str) -> list[str]:
        """The names in the folder ``path``, sorted (``os.listdir``)."""
        return self._names("list", path)

    def glob(self, pattern: str, recursive: bool) -> list[str]:
        """``glob.glob(pattern, recursive=...)``'s paths, sorted."""
        return self._names("rglob" if recursive else "glob", pattern)

    def path_glob(self, folder: str, pattern: str, method: str) -> list[str]:
        """``Path(folder).glob(pattern)`` (or ``rglob``)'s paths, sorted: pathlib's own
        matching, which differs from ``glob.glob``'s (hidden files, ``**``)."""
        return self._names(f"path_{method}", f"{folder}\0{pattern}")

    def walk(self, top: str) -> list[str]:
        """Every folder below ``top`` (itself included), as ``os.walk`` visits them top-down,
        each as ``"folder\\0sub1/sub2\\0file1/file2"``; sorted within a folder."""
        return self._names("walk", top)

    def _names(self, operation: str, argument: str) -> list[str]:
        found = self._answer(operation, argument)
        assert isinstance(found, list)
        return found

    def _answer(self, operation: str, argument: str) -> bytes | str | list[str]:
        if len(self.reads) >= MAX_FILES and (operation, argument) not in self.reads:
            raise Refused(f"more than {MAX_FILES} file reads in one DAG file (the bound)")
        try:
            answer = _OPERATIONS[operation](argument, self.roots)
        except Refused as refused:
            self.reads[(operation, argument)] = digest(refused)
            raise
        self.reads[(operation, argument)] = digest(answer)
        return answer

    def recorded(self) -> tuple[DataRead, ...]:
        return tuple(sorted((op, arg, state) for (op, arg), state in self.reads.items()))


def still_hold(reads: Iterable[DataRead], roots: Sequence[str]) -> bool:
    """Whether every recorded question gets the same answer now."""
    return all(data_state(op, arg, roots) == state for op, arg, state in reads)


def touches(reads: Iterable[DataRead], changed: str) -> bool:
    """Whether a change of the file ``changed`` (made, edited or removed) may change an answer
    of ``reads``: the file itself was read or asked about, or a folder above it was listed."""
    real = os.path.realpath(changed)
    for operation, argument, _ in reads:
        folder = _fixed_folder(argument) if operation in ("glob", "rglob") else argument
        if operation.startswith("path_"):  # ``Path(folder).glob(pattern)``
            base, pattern = argument.split("\0", 1)
            folder = os.path.join(base, _fixed_folder(pattern))
        asked = os.path.realpath(folder)
        if real == asked or (operation != "read" and real.startswith(os.path.join(asked, ""))):
            return True
    return False


def data_state(operation: str, argument: str, roots: Sequence[str]) -> str:
    """The digest of one question's answer now (what ``DataFiles.recorded`` holds)."""
    return digest(_ask(operation, argument, _real(roots)))


def _real(roots: Sequence[str]) -> tuple[str, ...]:
    """Each root's real path, ending with a separator (a prefix of what is inside it)."""
    return tuple(os.path.join(os.path.realpath(root), "") for root in roots)


def _ask(
    operation: str, argument: str, roots: tuple[str, ...]
) -> bytes | str | list[str] | Refused:
    """The answer to one question, a refusal included (compared by its reason)."""
    answer = _OPERATIONS.get(operation)
    if answer is None:
        return Refused(f"no operation {operation!r}")
    try:
        return answer(argument, roots)
    except Refused as refused:
        return refused


def digest(answer: bytes | str | list[str] | Refused) -> str:
    if isinstance(answer, Refused):
        return f"refused: {answer}"
    if isinstance(answer, list):
        answer = "\0".join(answer)
    data = answer.encode("utf-8", "surrogateescape") if isinstance(answer, str) else answer
    return hashlib.sha256(data).hexdigest()


def _inside(path: str, roots: tuple[str, ...]) -> str:
    """The real path of ``path``, which must be inside one of ``roots``."""
    if not os.path.isabs(path):
        raise Refused(f"{path!r} {WORKING_DIRECTORY} (a path built from __file__ is not)")
    real = os.path.realpath(path)
    if not any(os.path.join(real, "").startswith(root) for root in roots):
        raise Refused(f"{path} is outside the repository: it is not read")
    return real


def _read(path: str, roots: tuple[str, ...]) -> bytes:
    real = _inside(path, roots)
    if os.path.exists(real) and not os.path.isfile(real):  # a FIFO would block the walk
        raise Refused(f"{path} is not a regular file: not read")
    try:
        with open(real, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise Refused(f"{path} cannot be read ({error.strerror or type(error).__name__})") from None
    if len(data) > MAX_FILE_BYTES:
        raise Refused(f"{path} is larger than {MAX_FILE_BYTES:,} bytes (the bound): not read")
    return data


def _kind(path: str, roots: tuple[str, ...]) -> str:
    real = _inside(path, roots)
    if os.path.isfile(real):
        return "file"
    return "folder" if os.path.isdir(real) else "missing"


def _list(path: str, roots: tuple[str, ...]) -> list[str]:
    real = _inside(path, roots)
    try:
        names = os.listdir(real)
    except OSError as error:
        raise Refused(
            f"{path} cannot be listed ({error.strerror or type(error).__name__})"
        ) from None
    return _bounded(sorted(names), path)


def _glob(pattern: str, roots: tuple[str, ...], recursive: bool = False) -> list[str]:
    _inside(_fixed_folder(pattern), roots)
    found: list[str] = []
    for number, path in enumerate(glob.iglob(pattern, recursive=recursive)):
        if number >= MAX_ENTRIES:
            raise Refused(f"glob {pattern!r} matches more than {MAX_ENTRIES} paths (the bound)")
        _inside(path, roots)
        found.append(path)
    return sorted(found)


def _fixed_folder(pattern: str) -> str:
    """The folder a glob pattern searches below: its part before the first wildcard."""
    cut = min((pattern.find(c) for c in "*?[" if c in pattern), default=len(pattern))
    return os.path.dirname(pattern[:cut]) or "."


def _path_glob(argument: str, roots: tuple[str, ...], recursive: bool = False) -> list[str]:
    folder, pattern = argument.split("\0", 1)
    _inside(os.path.join(folder, _fixed_folder(pattern)), roots)
    base = Path(folder)
    matches = base.rglob(pattern) if recursive else base.glob(pattern)
    found: list[str] = []
    for number, path in enumerate(matches):
        if number >= MAX_ENTRIES:
            raise Refused(
                f"{folder} glob {pattern!r} matches more than {MAX_ENTRIES} paths (the bound)"
            )
        _inside(str(path), roots)
        found.append(str(path))
    return sorted(found)


def _walk(top: str, roots: tuple[str, ...]) -> list[str]:
    _inside(top, roots)
    found: list[str] = []
    names = 0
    for folder, subfolders, files in os.walk(top):
        subfolders.sort()
        _inside(folder, roots)
        found.append("\0".join((folder, "/".join(subfolders), "/".join(sorted(files)))))
        names += 1 + len(files)
        if names > MAX_ENTRIES:
            raise Refused(f"os.walk({top!r}) lists more than {MAX_ENTRIES} names (the bound)")
    return found


def _bounded(names: list[str], path: str) -> list[str]:
    if len(names) > MAX_ENTRIES:
        raise Refused(f"{path} holds more than {MAX_ENTRIES} entries (the bound): not listed")
    return names


_OPERATIONS: dict[str, Callable[[str, tuple[str, ...]], bytes | str | list[str]]] = {
    "read": _read,
    "kind": _kind,
    "list": _list,
    "glob": _glob,
    "rglob": lambda pattern, roots: _glob(pattern, roots, recursive=True),
    "walk": _walk,
    "path_glob": _path_glob,
    "path_rglob": lambda argument, roots: _path_glob(argument, roots, recursive=True),
}
