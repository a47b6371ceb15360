"""Which files git ignores (``.gitignore``, ``.git/info/exclude``, the global excludes file).

Asked of git itself (``git check-ignore``), so the answer is git's to the letter, negations and
nested ``.gitignore`` files included. As in git, a file already tracked is never ignored. Outside
a work tree, or without git installed, nothing is ignored.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

# git check-ignore answers in well under a second even for thousands of paths; a hung git (a
# network file system, a lock) must not hang the linter.
TIMEOUT_SECONDS = 60


def git_ignored(paths: Sequence[str]) -> frozenset[str]:
    """The ones of ``paths`` (absolute, as text) that git ignores, asked once per work tree.

    In plain strings: a warm run asks this of every file of the DAG folders, and building,
    hashing and comparing a ``Path`` per file cost more than git's answer.
    """
    if not paths:  # a file named alone (pre-commit): no git, no PATH search
        return frozenset()
    import shutil  # here: only a walk with files to filter needs it (and its compressors)

    git = shutil.which("git")
    if git is None:
        return frozenset()
    by_tree: dict[str, list[str]] = {}
    trees: dict[str, str | None] = {}  # by the file's folder: every file of a folder shares it
    for path in paths:
        folder = os.path.dirname(path)
        if folder not in trees:
            trees[folder] = _work_tree(folder)
        tree = trees[folder]
        if tree is not None:
            by_tree.setdefault(tree, []).append(path)
    ignored: set[str] = set()
    for tree, members in by_tree.items():
        ignored |= _ask(git, tree, members)
    return frozenset(ignored)


def _work_tree(folder: str) -> str | None:
    """The nearest folder from ``folder`` up holding ``.git`` (a folder, or a file in a
    submodule or worktree); none outside a work tree."""
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _ask(git: str, tree: str, paths: Sequence[str]) -> set[str]:
    query = b"".join(os.fsencode(path) + b"\0" for path in paths)
    try:
        done = subprocess.run(
            [git, "-C", tree, "check-ignore", "-z", "--stdin"],
            input=query,
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return set()
    if done.returncode not in (0, 1):  # 1: none ignored; 128: not a work tree, or an error
        return set()
    return {os.fsdecode(name) for name in done.stdout.split(b"\0") if name}
