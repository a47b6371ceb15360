"""Which files git ignores (``.gitignore``, ``.git/info/exclude``, the global excludes file).

Asked of git itself (``git check-ignore``), so the answer is git's to the letter, negations and
nested ``.gitignore`` files included. As in git, a file already tracked is never ignored. Outside
a work tree, or without git installed, nothing is ignored.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

# git check-ignore answers in well under a second even for thousands of paths; a hung git (a
# network file system, a lock) must not hang the linter.
TIMEOUT_SECONDS = 60


def git_ignored(paths: Sequence[Path]) -> frozenset[Path]:
    """The ones of ``paths`` (absolute) that git ignores, asked once per work tree folder."""
    if not paths:  # a file named alone (pre-commit): no git, no PATH search
        return frozenset()
    import shutil  # here: only a walk with files to filter needs it (and its compressors)

    git = shutil.which("git")
    if git is None:
        return frozenset()
    by_folder: dict[Path, list[Path]] = {}
    trees: dict[Path, Path] = {}  # by the file's folder: every file of a folder shares its tree
    for path in paths:
        if path.parent not in trees:
            trees[path.parent] = _work_tree(path)
        by_folder.setdefault(trees[path.parent], []).append(path)
    ignored: set[Path] = set()
    for folder, members in by_folder.items():
        ignored |= _ask(git, folder, members)
    return frozenset(ignored)


def _work_tree(path: Path) -> Path:
    """The nearest folder holding ``.git`` (a folder, or a file in a submodule or worktree)."""
    for directory in path.parents:
        if (directory / ".git").exists():
            return directory
    return path.parent


def _ask(git: str, folder: Path, paths: Sequence[Path]) -> set[Path]:
    if not (folder / ".git").exists():
        return set()
    query = b"".join(os.fsencode(path) + b"\0" for path in paths)
    try:
        done = subprocess.run(
            [git, "-C", str(folder), "check-ignore", "-z", "--stdin"],
            input=query,
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return set()
    if done.returncode not in (0, 1):  # 1: none ignored; 128: not a work tree, or an error
        return set()
    return {Path(os.fsdecode(name)) for name in done.stdout.split(b"\0") if name}
