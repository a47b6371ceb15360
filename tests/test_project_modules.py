"""Where the repository's modules lie in the project folder off the import roots: found by one
walk of the project, never inside a virtual environment or an excluded folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.sources.first_party import FirstParty
from dagroute_lint.sources.project_modules import ProjectModules
from tests.helpers import lint_repo


def write(root: Path, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("X = 1\n", encoding="utf-8")


def test_the_folder_holding_the_whole_module_is_named(tmp_path: Path) -> None:
    write(tmp_path, "plugins/common/__init__.py", "plugins/common/helpers.py", "lib/solo.py")
    modules = ProjectModules(tmp_path)
    assert modules.folder_for("common.helpers") == tmp_path / "plugins"
    assert modules.folder_for("common") == tmp_path / "plugins"
    assert modules.folder_for("helpers") == tmp_path / "plugins/common"
    assert modules.folder_for("solo") == tmp_path / "lib"
    # A module the folder does not hold whole is not named, nor a name found nowhere.
    assert modules.folder_for("common.storage") is None
    assert modules.folder_for("absent") is None


def test_a_namespace_folder_counts_and_the_shallowest_folder_wins(tmp_path: Path) -> None:
    write(tmp_path, "src/shared/naming.py", "a/b/shared/naming.py")
    assert ProjectModules(tmp_path).folder_for("shared.naming") == tmp_path / "src"


def test_virtualenvs_excluded_and_skipped_folders_are_passed_over(tmp_path: Path) -> None:
    write(
        tmp_path,
        "env/lib/python3.11/site-packages/vendored/core.py",
        "build/lib/built/core.py",
        "scratch/drafts/core.py",
        "nested/inner/core.py",
    )
    (tmp_path / "env/pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    modules = ProjectModules(tmp_path, ["scratch"], [tmp_path / "nested"])
    for name in ("vendored.core", "built.core", "drafts.core", "inner.core"):
        assert modules.folder_for(name) is None, name


def test_the_project_is_walked_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "plugins/common/helpers.py")
    modules = ProjectModules(tmp_path)
    walks = []
    walk = modules._walk
    monkeypatch.setattr(modules, "_walk", lambda *args: walks.append(args[0]) or walk(*args))
    for name in ("common.helpers", "yaml", "absent", "common"):
        modules.folder_for(name)
    assert walks.count(str(tmp_path)) == 1  # the project folder is listed once, for every name


def test_a_module_on_an_import_root_is_not_off_the_roots(tmp_path: Path) -> None:
    write(tmp_path, "dags/common/helpers.py", "plugins/common/helpers.py", "plugins/extra.py")
    roots = FirstParty([tmp_path / "dags", tmp_path], ProjectModules(tmp_path))
    assert roots.off_roots("common.helpers") is None  # dags/common is found first
    assert roots.off_roots("extra") == tmp_path / "plugins"
    assert FirstParty([tmp_path]).off_roots("extra") is None  # no project to search


def test_a_file_importing_its_own_name_imports_the_installed_package(tmp_path: Path) -> None:
    """``import honeybadger`` in ``proj/honeybadger.py`` (imported by a DAG as
    ``proj.honeybadger``) is the installed distribution's, never the file itself: no DRL206,
    and the runtime's lists are judged for it as for any package."""
    report = lint_repo(
        tmp_path,
        {
            "proj/__init__.py": "",
            "proj/honeybadger.py": "import honeybadger\n\n\ndef notify(context):\n    pass\n",
            "proj/dags/report.py": (
                "from airflow.sdk import DAG\nfrom proj.honeybadger import notify\n\n"
                'with DAG("report", schedule=None, default_args={"on_failure_callback": notify}):'
                "\n    pass\n"
            ),
            "pyproject.toml": '[tool.dagroute-lint]\ndags = ["proj/dags"]\nroots = ["."]\n',
        },
        paths=[str(tmp_path / "proj/dags")],
    )
    assert [d.code for d in report.diagnostics if d.code == "DRL206"] == []
    assert any("honeybadger" in d.message for d in report.diagnostics if d.code == "DRL205")
