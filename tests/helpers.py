"""Build small DAG repositories on disk and run the real pipeline over them."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

from dagroute_lint.config import Settings, load_settings
from dagroute_lint.deployment.inventory import Inventory, load_inventory
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.pipeline.runner import Report, run
from dagroute_lint.records import replace
from dagroute_lint.resolve.tasks import Field, ResolvedTask

REPO = Path(__file__).resolve().parents[1]


def copy_of_examples(root: Path) -> Path:
    """``root`` holding a copy of the bundled ``examples/`` folder, for the README's commands
    run as written (``examples/dags``) from ``root``: what a run writes, such as its cache
    beside the example's inventory, goes into the copy, never into the repository."""
    shutil.copytree(
        REPO / "examples",
        root / "examples",
        ignore=shutil.ignore_patterns(".dagroute_cache", "__pycache__"),
    )
    return root


CELERY_K8S = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor", "KubernetesExecutor"]
dag_processor = { runtime = "base" }
triggerer = false

[[workers]]
name = "celery-general"
executor = "CeleryExecutor"
queues = ["default", "imports"]
runtime = "base"

[[workers]]
name = "k8s-pods"
executor = "KubernetesExecutor"
runtime = "pods"

[runtimes.base]
providers = ["standard", "celery"]
packages = []

[runtimes.pods]
providers = ["standard", "cncf.kubernetes"]
packages = []
"""


def write_repo(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def lint_repo(
    root: Path,
    files: dict[str, str],
    inventory: str | None = CELERY_K8S,
    select: tuple[str, ...] = ("ALL",),
    paths: list[str] | None = None,
) -> Report:
    write_repo(root, files)
    deployment: Inventory | None = None
    if inventory is not None:
        (root / "dagroute.toml").write_text(textwrap.dedent(inventory), encoding="utf-8")
        deployment = load_inventory(root / "dagroute.toml")
    targets = paths if paths is not None else [str(root / "dags")]
    return run(targets, Settings(root=root, select=select), deployment)


def codes(report: Report) -> list[str]:
    return [diagnostic.code for diagnostic in report.diagnostics]


def by_code(report: Report, code: str) -> list[Diagnostic]:
    return [diagnostic for diagnostic in report.diagnostics if diagnostic.code == code]


def routes(root: Path, source: str, extra: dict[str, str] | None = None) -> dict[str, ResolvedTask]:
    """Resolved tasks of ``dags/dag.py`` by full task id."""
    report = lint_repo(root, {"dags/dag.py": source, **(extra or {})}, inventory=None)
    return {task.task_id or "?": task for task in report.tasks}


def value(task: ResolvedTask, field: str) -> object:
    resolved = task.fields[field]
    assert resolved.known, f"{field} unresolved: {resolved.reason}"
    return resolved.value


SETTINGS_WITH_DAGS = '[tool.dagroute-lint]\ndags = ["dags"]\n'
ROUTING = 'REPORTS_QUEUE = "reports"\nIMPORTS_QUEUE = "imports"\n'


def dag_repository(root: Path, files: dict[str, str]) -> Path:
    """A repository laid out as users keep one: settings naming ``dags``, the inventory, and a
    routing module the DAGs import their queues from."""
    return write_repo(
        root,
        {
            "pyproject.toml": SETTINGS_WITH_DAGS,
            "dagroute.toml": CELERY_K8S,
            "dags/common/__init__.py": "",
            "dags/common/routing.py": ROUTING,
            **files,
        },
    )


def run_command(
    args: list[str], cwd: Path, input: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A real process, as a user's tool (pre-commit, flake8, an editor) starts it."""
    return subprocess.run(
        args,
        cwd=cwd,
        input=input,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def lint_files(
    files: dict[str, str | bytes],
    inventory: str | None = None,
    select: tuple[str, ...] = ("ALL",),
) -> list[Diagnostic]:
    """Diagnostics of a small repository given as ``{relative path: content}``, as the command
    line reports them when run from its root on ``dags/``.

    The pipeline reads files from disk (sibling modules are looked up on the import roots), so the
    repository is written to a temporary folder that is removed again; paths in the diagnostics
    are relative to its root, as for a user who runs ``dagroute-lint`` there. ``str`` contents are
    dedented (inline sources), ``bytes`` are written as they are (undecodable files). A
    ``pyproject.toml`` in ``files`` supplies ``[tool.dagroute-lint]`` settings; ``inventory`` is
    the TOML text of ``dagroute.toml`` (``None``: no inventory). This is the one place that calls
    the pipeline for in-memory sources.
    """
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder).resolve()
        for name, content in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
        if "pyproject.toml" not in files:
            (root / "pyproject.toml").write_text("[tool.dagroute-lint]\n", encoding="utf-8")
        if inventory is not None:
            (root / "dagroute.toml").write_text(textwrap.dedent(inventory), encoding="utf-8")
        previous = Path.cwd()
        os.chdir(root)
        try:
            settings = load_settings(None, root).with_overrides(select=select)
            return run(["dags"], settings, settings.load_inventory()).diagnostics
        finally:
            os.chdir(previous)


def lint_source(
    source: str | bytes,
    inventory: str | None = None,
    select: tuple[str, ...] = ("ALL",),
    files: dict[str, str | bytes] | None = None,
    path: str = "dags/dag.py",
) -> list[Diagnostic]:
    """Diagnostics of one DAG file's source, linted as ``path`` beside ``files``.

    >>> [d.code for d in lint_source('''
    ...     from airflow.sdk import DAG
    ...     from airflow.providers.standard.operators.bash import BashOperator
    ...     with DAG("lab"):
    ...         BashOperator(task_id="t", bash_command="x", queue="reports")
    ... ''', inventory=CELERY_K8S, select=("DRL101",))]
    ['DRL101']
    """
    return lint_files({path: source, **(files or {})}, inventory, select)


def placeless(field: Field) -> Field:
    """``field`` without where its unknown value is written (``Field.at``), for comparing the
    rest of it with a field written out in a test."""
    return replace(field, at=None)
