"""The import roots a deployment's ``PYTHONPATH`` adds, as folders of the repository.

Airflow puts the DAG folder, ``plugins`` and ``config`` on ``sys.path``; a deployment may add
more with ``PYTHONPATH`` (compose's ``environment``, the image's ``ENV``), and DAG files then
import from them: with ``PYTHONPATH=/opt/airflow`` and ``./airflow/dags`` mounted at
``/opt/airflow/dags``, ``from dags.utils import s3`` imports ``airflow/dags/utils/s3.py``. Each
entry is mapped back, through what puts repository folders in the container (bind mounts, the
build's ``COPY``), to the folder it is. The linter's ``roots`` setting, which lives in
``[tool.dagroute-lint]`` and not in the inventory, is where such a folder goes, so ``init``
names the line to add; the DAG folder and the project folder are roots already.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from pathlib import Path

# Where the official image keeps Airflow's home, and so its DAG folder, unless told otherwise.
DEFAULT_AIRFLOW_HOME = "/opt/airflow"


def dags_folder(dags: str | None, home: str | None) -> str:
    """The DAG folder in the container: ``[core] dags_folder``, else ``$AIRFLOW_HOME/dags``."""
    if dags:
        return posixpath.normpath(dags)
    return posixpath.join(posixpath.normpath(home or DEFAULT_AIRFLOW_HOME), "dags")


def pythonpath_roots(
    pythonpath: str, placed: Sequence[tuple[str, Path]], dags: str, project: Path
) -> list[tuple[str, Path]]:
    """``(entry, folder)`` for each absolute ``PYTHONPATH`` entry that is a folder of the
    repository, by ``placed`` (``(path in the container, repository path)``, the bind mounts
    first), leaving out the DAG folder and ``project``, which are roots already."""
    skipped = {project.resolve(), *host_folders(dags, placed)}
    found: list[tuple[str, Path]] = []
    for entry in pythonpath.split(":"):
        if not entry.startswith("/"):
            continue  # relative to the working folder of each process: not one folder
        inside = posixpath.normpath(entry)
        for folder in host_folders(inside, placed):
            if folder not in skipped and folder.is_dir():
                found.append((inside, folder))
    return found


def host_folders(inside: str, placed: Sequence[tuple[str, Path]]) -> list[Path]:
    """The repository folders that ``inside`` is in the container: the one placed at it or
    above it (the deepest), else each whose folder placed below it has the same names
    (``./airflow/dags`` at ``/opt/airflow/dags`` makes ``/opt/airflow`` the folder
    ``airflow``)."""
    best: tuple[str, Path] | None = None
    above: list[Path] = []
    for written, local in placed:
        target = posixpath.normpath(written)
        host = local.resolve()
        if inside == target or inside.startswith(target + "/"):
            if best is None or len(target) > len(best[0]):
                best = (target, host / inside[len(target) :].lstrip("/"))
        elif target.startswith(inside.rstrip("/") + "/"):
            below = target[len(inside.rstrip("/")) + 1 :].split("/")
            if len(host.parts) > len(below) and list(host.parts[-len(below) :]) == below:
                above.append(host.parents[len(below) - 1])
    if best is not None:
        return [best[1]]
    return list(dict.fromkeys(above))


def roots_note(roots: Mapping[Path, str], project: Path) -> tuple[str, ...]:
    """One note naming the ``roots`` line for ``roots`` (folder → how it is on sys.path)."""
    if not roots:
        return ()
    given = "; ".join(f"{relative(folder, project)}/ as {how}" for folder, how in roots.items())
    return (
        f"add `{roots_line(list(roots), project)}` to [tool.dagroute-lint] in pyproject.toml: "
        f"the deployment's PYTHONPATH puts {given} on sys.path, and DAG files import from there "
        "as they do in the deployment (a setting of the linter, which the inventory cannot hold)",
    )


def relative(folder: Path, project: Path) -> str:
    """The folder as ``roots`` writes it: relative to the project folder when inside it."""
    try:
        return folder.relative_to(project.resolve()).as_posix()
    except ValueError:
        return str(folder)


def roots_line(folders: Sequence[Path], project: Path) -> str:
    """``roots = ["airflow"]``, the settings line for ``folders``."""
    return "roots = [" + ", ".join(f'"{relative(folder, project)}"' for folder in folders) + "]"
