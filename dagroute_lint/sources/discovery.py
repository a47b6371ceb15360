"""Find the files to lint, and name each one as a module the way Airflow's ``sys.path`` does."""

from __future__ import annotations

import ast
import fnmatch
import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import attrgetter
from pathlib import Path, PurePath

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


_DEFAULT_EXCLUDED = frozenset(DEFAULT_EXCLUDES)

# Whether a file or folder name, or a path, is excluded (truthy: a match).
Excluded = Callable[[str], object]

# What makes an exclude pattern a glob rather than a name or path to match exactly.
_WILDCARD = re.compile(r"[*?[]")

# Words one of which any file that can build a DAG contains (Airflow's own discovery heuristic
# wants "airflow" and one of "dag"/"asset"; either word is enough here, so that a broken DAG file
# that lost its import line is still reported).
_DAG_WORDS = (b"airflow", b"dag")


@record(frozen=False)
class LeftOut:
    """The Python files and folders a walk passed over, by why: what a run that finds nothing
    to lint says. The folders no repository wants linted (``DEFAULT_EXCLUDES``) are not counted.
    """

    excluded: int = 0  # by ``exclude`` / ``extend-exclude`` (named files: ``--force-exclude``)
    excluded_folders: int = 0
    airflowignored: int = 0
    airflowignored_folders: int = 0
    gitignored: int = 0
    # Found, and left out by the analysis: the word test of ``might_define_dags`` says no DAG.
    not_dag_files: int = 0

    def __add__(self, other: LeftOut) -> LeftOut:
        return LeftOut(
            self.excluded + other.excluded,
            self.excluded_folders + other.excluded_folders,
            self.airflowignored + other.airflowignored,
            self.airflowignored_folders + other.airflowignored_folders,
            self.gitignored + other.gitignored,
            self.not_dag_files + other.not_dag_files,
        )

    def reasons(self) -> list[str]:
        """``["3 files matched an exclude pattern", "1 file ignored by git"]``, without zeros."""
        parts = [
            (self.excluded, self.excluded_folders, "matched an exclude pattern"),
            (self.airflowignored, self.airflowignored_folders, "matched .airflowignore"),
            (self.gitignored, 0, "ignored by git"),
            (self.not_dag_files, 0, 'mentioned neither "airflow" nor "dag"'),
        ]
        return [
            f"{_counted(files, folders)} {why}" for files, folders, why in parts if files or folders
        ]


def _counted(files: int, folders: int) -> str:
    said = [
        f"{count} {noun}{'' if count == 1 else 's'}"
        for count, noun in ((files, "file"), (folders, "folder"))
        if count
    ]
    return " and ".join(said)


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
        data = path.read_bytes()
    except OSError:
        return False
    return processor_word(data, airflow_major) is not None


def processor_word(data: bytes, airflow_major: int) -> str | None:
    """The word beside "airflow" for which the DAG processor imports a file of this content
    (``processor_imports``): "dag", or under 3.x "asset"; ``None`` when it does not."""
    lowered = data.lower()
    if b"airflow" not in lowered:
        return None
    words = ("dag", "asset") if airflow_major >= 3 else ("dag",)
    return next((word for word in words if word.encode() in lowered), None)


def code_names(data: bytes, words: Sequence[str]) -> bool:
    """Whether a name in the code of ``data`` (a variable, an attribute, an import, a function,
    class, parameter or keyword: not a string or a comment) holds one of ``words``, in any case.
    A file that the DAG processor imports only because its strings and comments mention
    "airflow" and "dag" (a test whose fixtures hold ``https://github.com/org/airflow-dags``
    URLs) names no DAG in its code: nothing but a call can bind one in its namespace, and the
    walk follows calls or reports them. Code Python cannot parse here is not judged (``True``).
    """
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return True
    return any(any(w in name.lower() for w in words) for name in _names(tree))


def _names(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.alias):
            yield node.name
            yield node.asname or ""
        elif isinstance(node, ast.ImportFrom):
            yield node.module or ""
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.arg, ast.keyword)):
            yield node.arg or ""


def discover(
    paths: Sequence[str],
    exclude: Sequence[str],
    dag_folders: Sequence[Path] = (),
    ignore_syntax: str = "glob",
    force_exclude: bool = False,
    respect_gitignore: bool = False,
    root: Path | None = None,
    skip: Sequence[Path] = (),
    left_out: LeftOut | None = None,
) -> list[SourceFile]:
    """Files named directly and every ``*.py`` in folders, less excludes and ``.airflowignore``.

    ``.airflowignore`` files apply from the innermost of ``dag_folders`` holding a path, else from
    the folder given (or, for a file, its own folder), as when Airflow is pointed there. Files
    git ignores are left out of folders with ``respect_gitignore``; files named on the command
    line are linted even when excluded, unless ``force_exclude`` (as in ruff, for pre-commit);
    their excludes are also matched below the project ``root``. Folders in ``skip`` (projects
    of their own, linted under their own settings) are not entered. ``left_out`` counts what
    was passed over, and why.
    """
    left_out = left_out if left_out is not None else LeftOut()
    found: dict[str, SourceFile] = {}  # by real path, as text: hashing a Path costs more
    excluded = excluded_by(exclude)
    ignores: dict[Path, AirflowIgnore] = {}

    def ignore_for(base: Path) -> AirflowIgnore:
        return ignores.setdefault(base, AirflowIgnore(base, ignore_syntax))

    for given in paths:
        path = Path(given)
        resolved = absolute(path)
        if path.is_dir():
            ignore = ignore_for(_dag_folder(resolved, dag_folders) or resolved)
            if ignore.ignores(resolved):
                left_out.airflowignored_folders += 1
                continue
            _walk(path, excluded, ignore, frozenset(skip), found, left_out)
        elif ignore_for(_dag_folder(resolved, dag_folders) or resolved.parent).ignores(resolved):
            left_out.airflowignored += 1
        elif force_exclude and walk_excludes(given, exclude, root):
            left_out.excluded += 1
        else:
            found.setdefault(str(resolved), SourceFile(given, str(resolved), named=True))
    if respect_gitignore:
        ignored = git_ignored(
            [source.real for source in found.values() if force_exclude or not source.named]
        )
        kept = {text: source for text, source in found.items() if text not in ignored}
        left_out.gitignored += len(found) - len(kept)
        found = kept
    return sorted(found.values(), key=attrgetter("display"))


def _dag_folder(path: Path, dag_folders: Sequence[Path]) -> Path | None:
    holding = [folder for folder in dag_folders if path.is_relative_to(folder)]
    return max(holding, key=lambda folder: len(folder.parts)) if holding else None


def _walk(
    folder: Path,
    excluded: Excluded,
    ignore: AirflowIgnore,
    skip: frozenset[Path],
    found: dict[str, SourceFile],
    left_out: LeftOut,
) -> None:
    """Add each file under ``folder`` to ``found`` by its real path (resolving only symbolic
    links) as text, named as shown.

    Every run walks the DAG folders (a named file's importers are searched there too), so the
    walk reads each folder once with ``os.scandir``, whose entries say without a system call
    whether they are links; it builds a file's ``Path`` only for a link or where
    ``.airflowignore`` rules apply, and fills ``found`` itself rather than yielding through a
    generator per folder level. Folders are entered in sorted order, as ``os.walk`` would after
    sorting, and links to folders are not followed; a folder that cannot be listed is passed
    over, as ``os.walk`` does.
    """
    _walk_folder(str(folder), Path(folder).resolve(), excluded, ignore, skip, found, left_out)


def _walk_folder(
    directory: str,
    here: Path,
    excluded: Excluded,
    ignore: AirflowIgnore,
    skip: frozenset[Path],
    found: dict[str, SourceFile],
    left_out: LeftOut,
) -> None:
    try:
        with os.scandir(directory) as listing:
            entries = sorted(listing, key=_entry_name)
    except OSError:
        return
    shown = str(Path(directory))
    prefix = "" if shown == "." else os.path.join(shown, "")
    real_prefix = os.path.join(str(here), "")
    rules = ignore.rules_in(here)
    folders = []
    for entry in entries:
        name = entry.name
        try:
            is_folder = entry.is_dir()  # a link to a folder too, as ``os.walk`` sorts them
        except OSError:
            is_folder = False
        if is_folder:
            if excluded(name) or excluded(prefix + name):
                left_out.excluded_folders += name not in _DEFAULT_EXCLUDED
            elif ignore.ignores_entry(here, here / name, True):
                left_out.airflowignored_folders += 1
            elif here / name not in skip and not entry.is_symlink():
                folders.append(name)
            continue
        if not name.endswith(".py"):
            continue
        path = prefix + name
        if excluded(name) or excluded(path):
            left_out.excluded += 1
            continue
        if rules and ignore.ignores_entry(here, here / name, False):
            left_out.airflowignored += 1
            continue
        real = str(absolute(here / name)) if entry.is_symlink() else real_prefix + name
        if real not in found:
            found[real] = SourceFile(path, real)
    for name in folders:
        folder = os.path.join(directory, name)
        _walk_folder(folder, here / name, excluded, ignore, skip, found, left_out)


def _entry_name(entry: os.DirEntry[str]) -> str:
    return entry.name


def absolute(path: Path) -> Path:
    """``path`` with symlinks resolved, or only made absolute when it is a symlink loop.

    A loop is reported when the file is read (``cannot read file``), not crashed on here.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: symlink loops before Python 3.13
        return Path(os.path.abspath(path))


def excluded_by(exclude: Sequence[str]) -> Excluded:
    """Whether a name or path is left out of a walk: ``DEFAULT_EXCLUDES`` and ``exclude``."""
    return _matcher((*DEFAULT_EXCLUDES, *exclude))


def _matcher(patterns: Sequence[str]) -> Excluded:
    """Whether a name or path matches one of the exclude globs (``fnmatch`` semantics: cases
    folded where the file system folds them).

    The walk asks twice per file, so patterns without wildcards (every default one) are a set
    looked up, and only the others are one regular expression.
    """
    fold = os.path.normcase
    literal = frozenset(fold(pattern) for pattern in patterns if not _WILDCARD.search(pattern))
    globs = [fold(pattern) for pattern in patterns if _WILDCARD.search(pattern)]
    if not globs:
        if fold("A/") == "A/":  # nothing to fold either
            return literal.__contains__
        return lambda text: fold(text) in literal
    match = re.compile("|".join(f"(?:{fnmatch.translate(pattern)})" for pattern in globs)).match
    return lambda text: fold(text) in literal or match(fold(text))


def module_name(path: Path | str, roots: Sequence[Path]) -> tuple[str, bool]:
    """Dotted name of ``path`` under the innermost root holding it, and whether it is a package.

    In plain strings (pathlib's ``relative_to`` builds several paths per call): every run names
    every file it reads, warm runs included.
    """
    text = str(path)
    starts = _root_starts(text, roots)
    return _dotted(text[max(starts) :] if starts else Path(text).name)


def module_names(path: Path | str, roots: Sequence[Path]) -> list[str]:
    """Every dotted name ``path`` is imported by: one under each root holding it, the innermost
    first (``dags/common/db.py`` is ``common.db`` and, from the repository root, also
    ``dags.common.db``)."""
    text = str(path)
    starts = sorted(set(_root_starts(text, roots)), reverse=True)
    names = [_dotted(text[start:])[0] for start in starts] or [_dotted(Path(text).name)[0]]
    return list(dict.fromkeys(names))


def _root_starts(text: str, roots: Sequence[Path]) -> list[int]:
    """Where the part of ``text`` below each root holding it starts."""
    folded = os.path.normcase(text)
    starts = []
    for root in roots:
        root_text = str(root)
        if root_text == ".":  # holds every relative path
            prefix, holds = "", not os.path.isabs(text)
        else:
            prefix = os.path.join(os.path.normcase(root_text), "")
            holds = folded.startswith(prefix)
        if holds:
            starts.append(len(prefix))
    return starts


def _dotted(relative: str) -> tuple[str, bool]:
    """``a/b.py`` as ``a.b``, and whether it is a package (``a/__init__.py``: ``a``)."""
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
    real = str(absolute(Path(path)))
    return respect_gitignore and real in git_ignored([real])


def walk_excludes(path: str, exclude: Sequence[str], root: Path | None = None) -> bool:
    """Whether linting a folder would pass over ``path``: for tools that hand files one by one.

    The same patterns as the folder walk, matched against each folder and the file name, and
    against the path of each folder and of the file as the walk would spell them: below the
    working directory, as given, and below the project ``root`` (so an editor running
    elsewhere with an absolute path gets the same answer).
    """
    excluded = excluded_by(exclude)
    given = cwd_relative(Path(path))
    spellings = [given]
    resolved = absolute(Path(path))
    if root is not None and resolved.is_relative_to(root):
        spellings.append(resolved.relative_to(root))
    if any(excluded(part) for part in given.parts) or excluded(path):
        return True
    return any(
        excluded(PurePath(*spelling.parts[:end]).as_posix())
        for spelling in spellings
        for end in range(1, len(spelling.parts) + 1)
    )
