"""Find the files to lint, and name each one as a module the way Airflow's ``sys.path`` does."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from dagroute_lint.records import record
from dagroute_lint.sources.airflowignore import AirflowIgnore
from dagroute_lint.sources.gitignore import git_ignored

# Folders no DAG repository wants linted.
DEFAULT_EXCLUDES = (
    ".git",
    ".hg",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    "node_modules",
    "build",
    "dist",
    ".dagroute_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
)


# Words one of which any file that can build a DAG contains (Airflow's own discovery heuristic
# wants "airflow" and one of "dag"/"asset"; either word is enough here, so that a broken DAG file
# that lost its import line is still reported).
_DAG_WORDS = (b"airflow", b"dag")


@record
class SourceFile:
    """A file to lint: the path as shown to the user, its absolute path, and whether it was named
    on the command line (rather than found in a folder).

    The absolute path is kept as text and made a ``Path`` only when asked for: every run walks,
    reads and names every file of the DAG folders, which needs only the text, and building and
    hashing a ``Path`` per file was a sixth of a one-file run after start-up.
    """

    display: str
    real: str
    named: bool = False

    @functools.cached_property
    def path(self) -> Path:
        return Path(self.real)


def might_define_dags(data: bytes) -> bool:
    """Whether a file found in a folder is worth extracting: others are read only when imported."""
    lowered = data.lower()
    return any(word in lowered for word in _DAG_WORDS)


def processor_imports(path: Path, airflow_major: int) -> bool:
    """Whether the DAG processor imports this file when it lies in its DAG folder (Airflow's
    safe-mode heuristic, ``might_contain_dag_via_default_heuristic``): the content, in any case,
    holds "airflow" and "dag" (3.x: or "asset"). Such a file's failed import is recorded as an
    import error whether or not it defines a DAG. An unreadable file is not judged."""
    try:
        lowered = path.read_bytes().lower()
    except OSError:
        return False
    words = (b"dag", b"asset") if airflow_major >= 3 else (b"dag",)
    return b"airflow" in lowered and any(word in lowered for word in words)


def discover(
    paths: Sequence[str],
    exclude: Sequence[str],
    dag_folders: Sequence[Path] = (),
    ignore_syntax: str = "glob",
    force_exclude: bool = False,
    respect_gitignore: bool = False,
    root: Path | None = None,
    skip: Sequence[Path] = (),
) -> list[SourceFile]:
    """Files named directly and every ``*.py`` in folders, less excludes and ``.airflowignore``.

    ``.airflowignore`` files apply from the innermost of ``dag_folders`` holding a path, else from
    the folder given (or, for a file, its own folder), as when Airflow is pointed there. Files
    git ignores are left out of folders with ``respect_gitignore``; files named on the command
    line are linted even when excluded, unless ``force_exclude`` (as in ruff, for pre-commit);
    their excludes are also matched below the project ``root``. Folders in ``skip`` (projects
    of their own, linted under their own settings) are not entered.
    """
    found: dict[str, SourceFile] = {}  # by real path, as text: hashing a Path costs more
    patterns = _matcher((*DEFAULT_EXCLUDES, *exclude))
    ignores: dict[Path, AirflowIgnore] = {}

    def ignore_for(base: Path) -> AirflowIgnore:
        return ignores.setdefault(base, AirflowIgnore(base, ignore_syntax))

    for given in paths:
        path = Path(given)
        resolved = absolute(path)
        if path.is_dir():
            ignore = ignore_for(_dag_folder(resolved, dag_folders) or resolved)
            if ignore.ignores(resolved):
                continue
            for file, text in _walk(path, patterns, ignore, frozenset(skip)):
                if text not in found:
                    found[text] = SourceFile(file, text)
        elif not ignore_for(_dag_folder(resolved, dag_folders) or resolved.parent).ignores(
            resolved
        ):
            if force_exclude and walk_excludes(given, exclude, root):
                continue
            found.setdefault(str(resolved), SourceFile(given, str(resolved), named=True))
    if respect_gitignore:
        ignored = git_ignored(
            [source.path for source in found.values() if force_exclude or not source.named]
        )
        found = {text: source for text, source in found.items() if source.path not in ignored}
    return sorted(found.values(), key=lambda source: source.display)


def _dag_folder(path: Path, dag_folders: Sequence[Path]) -> Path | None:
    holding = [folder for folder in dag_folders if path.is_relative_to(folder)]
    return max(holding, key=lambda folder: len(folder.parts)) if holding else None


def _walk(
    folder: Path, patterns: re.Pattern[str], ignore: AirflowIgnore, skip: frozenset[Path]
) -> Iterator[tuple[str, str]]:
    """Each file as found under ``folder`` (as shown), with its real path (resolving only
    symbolic links) as text.

    Every run walks the DAG folders (a named file's importers are searched there too), so the
    walk reads each folder once with ``os.scandir``, whose entries say without a system call
    whether they are links; it builds a file's ``Path`` only for a link or where
    ``.airflowignore`` rules apply. Folders are entered in sorted order,
    as ``os.walk`` would after sorting, and links to folders are not followed; a folder that
    cannot be listed is passed over, as ``os.walk`` does.
    """
    yield from _walk_folder(str(folder), Path(folder).resolve(), patterns, ignore, skip)


def _walk_folder(
    directory: str,
    here: Path,
    patterns: re.Pattern[str],
    ignore: AirflowIgnore,
    skip: frozenset[Path],
) -> Iterator[tuple[str, str]]:
    try:
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        return
    shown = str(Path(directory))
    prefix = "" if shown == "." else os.path.join(shown, "")
    real_prefix = os.path.join(str(here), "")
    rules = ignore.rules_in(here)
    folders = []
    for entry in entries:
        name = entry.name
        if _is_folder(entry):
            if (
                not _excluded(name, patterns)
                and here / name not in skip
                and not ignore.ignores_entry(here, here / name, True)
                and not entry.is_symlink()
            ):
                folders.append(name)
            continue
        if not name.endswith(".py") or _excluded(name, patterns):
            continue
        path = prefix + name
        if _excluded(path, patterns):
            continue
        if rules and ignore.ignores_entry(here, here / name, False):
            continue
        yield path, str(absolute(here / name)) if entry.is_symlink() else real_prefix + name
    for name in folders:
        yield from _walk_folder(os.path.join(directory, name), here / name, patterns, ignore, skip)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a folder or a link to one, as ``os.walk`` sorts them."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def absolute(path: Path) -> Path:
    """``path`` with symlinks resolved, or only made absolute when it is a symlink loop.

    A loop is reported when the file is read (``cannot read file``), not crashed on here.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: symlink loops before Python 3.13
        return Path(os.path.abspath(path))


def _matcher(patterns: Sequence[str]) -> re.Pattern[str]:
    """One regular expression for all exclude globs (``fnmatch`` semantics, as on POSIX)."""
    return re.compile("|".join(f"(?:{fnmatch.translate(pattern)})" for pattern in patterns))


def _excluded(name: str, patterns: re.Pattern[str]) -> bool:
    return patterns.match(os.path.normcase(name)) is not None


def module_name(path: Path | str, roots: Sequence[Path]) -> tuple[str, bool]:
    """Dotted name of ``path`` under the innermost root holding it, and whether it is a package.

    In plain strings (pathlib's ``relative_to`` builds several paths per call): every run names
    every file it reads, warm runs included.
    """
    text = str(path)
    folded = os.path.normcase(text)
    start = -1
    for root in roots:
        root_text = str(root)
        if root_text == ".":  # holds every relative path
            prefix, holds = "", not os.path.isabs(text)
        else:
            prefix = os.path.join(os.path.normcase(root_text), "")
            holds = folded.startswith(prefix)
        if holds and len(prefix) > start:
            start = len(prefix)
    relative = text[start:] if start >= 0 else Path(text).name
    parts = relative.split(os.sep)
    name = parts[-1]
    dot = name.rfind(".")
    if 0 < dot < len(name) - 1:  # pathlib's suffix: not a leading or trailing dot
        parts[-1] = name[:dot]
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def module_candidates(name: str, roots: Sequence[Path]) -> Iterable[Path]:
    """Where a module of that name would be found on an import path made of ``roots``."""
    relative = Path(*name.split("."))
    for root in roots:
        yield root / relative.with_suffix(".py")
        yield root / relative / "__init__.py"


def cwd_relative(path: Path) -> Path:
    """``path`` relative to the working directory when it lies inside it, as given otherwise."""
    cwd = Path.cwd()
    return path.relative_to(cwd) if path.is_absolute() and path.is_relative_to(cwd) else path


def force_excluded(
    path: str, exclude: Sequence[str], respect_gitignore: bool, root: Path | None = None
) -> bool:
    """Whether ``--force-exclude`` drops a file named on its own (or read from stdin)."""
    if walk_excludes(path, exclude, root):
        return True
    return respect_gitignore and absolute(Path(path)) in git_ignored([absolute(Path(path))])


def walk_excludes(path: str, exclude: Sequence[str], root: Path | None = None) -> bool:
    """Whether linting a folder would pass over ``path``: for tools that hand files one by one.

    The same patterns as the folder walk, matched against each folder and the file name below
    the working directory, against the path as given, and against the path below the project
    ``root`` (so an editor running elsewhere with an absolute path gets the same answer).
    """
    patterns = _matcher((*DEFAULT_EXCLUDES, *exclude))
    given = cwd_relative(Path(path))
    candidates = [path]
    resolved = absolute(Path(path))
    if root is not None and resolved.is_relative_to(root):
        candidates.append(resolved.relative_to(root).as_posix())
    return any(_excluded(part, patterns) for part in given.parts) or any(
        _excluded(candidate, patterns) for candidate in candidates
    )
