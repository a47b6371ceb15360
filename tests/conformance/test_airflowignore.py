"""``.airflowignore``: the files we lint are the files Airflow 3.3.2's own discovery keeps.

Airflow's ``find_path_from_directory`` (the walk its DAG processor uses) runs in the pinned
Airflow venv over the same tree; both syntaxes, nested ignore files, negation, anchored and
folder-only patterns, comments.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from airflow_env import airflow_home, ensure_airflow_venv

from dagroute_lint.sources.discovery import discover

pytestmark = pytest.mark.conformance

TREE = [
    "top.py",
    "skip_me.py",
    "notes_test.py",
    "tests/test_a.py",
    "team_a/report.py",
    "team_a/scratch/tmp.py",
    "team_a/keep_test.py",
    "team_b/vendored/lib.py",
    "team_b/deep/vendored/lib.py",
    "team_b/load.py",
    "team_b/old/load.py",
    "legacy/old.py",
]

IGNORES = {
    "glob": {
        ".airflowignore": "# comment line\nskip_me.py\n*_test.py\n!keep_test.py\ntests/\n/legacy\n",
        "team_a/.airflowignore": "scratch/  # trailing comment\n",
        "team_b/.airflowignore": "vendored\nold/load.py\n",
    },
    "regexp": {
        ".airflowignore": "skip_me\n.*_test\\.py$\n^tests/\n# comment\n",
        "team_a/.airflowignore": "scratch\n",
        "team_b/.airflowignore": "vendored\nold/load\n[unclosed\n",
    },
}

AIRFLOW_WALK = """
import json, sys
from airflow._shared.module_loading.file_discovery import find_path_from_directory
print(json.dumps(sorted(find_path_from_directory(sys.argv[1], ".airflowignore", sys.argv[2]))))
"""


@pytest.mark.parametrize("syntax", ["glob", "regexp"])
def test_same_files_as_airflow_discovery(tmp_path: Path, syntax: str) -> None:
    root = tmp_path / "dags"
    for name in TREE:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")
    for name, text in IGNORES[syntax].items():
        (root / name).write_text(text)
    env = ensure_airflow_venv()
    completed = subprocess.run(
        [str(env.python), "-c", AIRFLOW_WALK, str(root), syntax],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **airflow_home(tmp_path / "home")},
    )
    airflow = {
        Path(path).relative_to(root).as_posix()
        for path in json.loads(completed.stdout.strip().splitlines()[-1])
        if path.endswith(".py")
    }
    ours = {
        source.path.relative_to(root).as_posix()
        for source in discover([str(root)], [], ignore_syntax=syntax)
    }
    assert ours == airflow
    assert "top.py" in ours and len(ours) < len(TREE)  # the tree ignores something, keeps something
