"""Module names from paths, in plain strings, agree with pathlib's reading of the same paths."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

from dagroute_lint.sources.discovery import module_name


def _by_pathlib(path: Path, roots: Sequence[Path]) -> tuple[str, bool]:
    best: Path | None = None
    for root in roots:
        if path.is_relative_to(root) and (best is None or len(root.parts) > len(best.parts)):
            best = root
    relative = path.relative_to(best) if best is not None else Path(path.name)
    parts = list(relative.with_suffix("").parts)
    is_package = bool(parts) and parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


PATHS = [
    "/repo/dags/team/etl.py",
    "/repo/dags/team/__init__.py",
    "/repo/dags/__init__.py",
    "/repo/dags/common/routing.py",
    "/repo/plugins/helpers/ops.py",
    "/repo/dags/.hidden.py",
    "/repo/dags/archive.tar.py",
    "/repo/dags/no_suffix",
    "/repo/dags-extra/x.py",
    "/elsewhere/x.py",
    "dags/relative.py",
    "relative.py",
]
ROOTS = [
    "/repo",
    "/repo/dags",
    "/repo/dags/team",
    "/repo/plugins",
    "/repo/dags/",
    "/",
    ".",
    "dags",
]


def test_every_path_under_every_set_of_roots_is_named_as_pathlib_names_it() -> None:
    compared = 0
    for count in range(4):
        for roots in itertools.permutations(ROOTS, count):
            for path in PATHS:
                given = [Path(root) for root in roots]
                assert module_name(Path(path), given) == _by_pathlib(Path(path), given), (
                    path,
                    roots,
                )
                compared += 1
    assert compared > 4_000
