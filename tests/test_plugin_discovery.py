"""Rule packs are found without ``importlib.metadata`` unless a distribution names the group, and
a pack installed between two runs is found by the second, cache or not."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from dagroute_lint.rules.plugins import ENTRY_POINT_GROUP, may_declare_rules
from tests.helpers import CELERY_K8S, write_repo
from tests.test_plugins import DAG, RULE_PACK_MODULE


def install(site: Path, group: str = ENTRY_POINT_GROUP) -> None:
    """Lay the XYZ pack out in ``site`` as an installer does: the package and its dist-info."""
    (site / "xyz_rules").mkdir(parents=True, exist_ok=True)
    (site / "xyz_rules/__init__.py").write_text(RULE_PACK_MODULE, encoding="utf-8")
    info = site / "xyz_rules-0.1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: xyz-rules\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\nxyz = xyz_rules:RULES\n")


def test_only_a_distribution_naming_the_group_may_declare_rules(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    path = [str(site), str(tmp_path / "missing")]
    assert not may_declare_rules(path)
    install(site, group="console_scripts")
    assert not may_declare_rules(path)
    install(site)
    assert may_declare_rules(path)


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path: Path) -> None:
    archive = tmp_path / "packs.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("placeholder.txt", "")
    assert may_declare_rules([str(archive)])


PROBE = """
import sys
from dagroute_lint.cli import main
sys.argv = ["dagroute-lint", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    print("exit", done.code, "metadata read:", "importlib.metadata" in sys.modules, file=sys.stderr)
"""


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_a_pack_installed_between_two_runs_is_found(tmp_path: Path, cache: list[str]) -> None:
    repo = write_repo(tmp_path / "repo", {"dags/dag.py": DAG, "dagroute.toml": CELERY_K8S})
    site = tmp_path / "site"
    site.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path[1:]])}
    command = [sys.executable, "-c", PROBE, "dags", "--inventory", "dagroute.toml", *cache]

    def lint() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=repo, env=env, capture_output=True, text=True, check=False
        )

    before = lint()
    assert "XYZ100" not in before.stdout
    assert "metadata read: False" in before.stderr, before.stderr
    install(site)
    after = lint()
    assert "metadata read: True" in after.stderr, after.stderr
    assert after.stdout.count("XYZ100") == 1  # one task sets no retries, one says noqa


def test_an_edited_pack_is_not_answered_from_the_cache(tmp_path: Path) -> None:
    """The results of a rule pack depend on its code: editing it re-lints, as editing ours."""
    repo = write_repo(tmp_path / "repo", {"dags/dag.py": DAG, "dagroute.toml": CELERY_K8S})
    site = tmp_path / "site"
    install(site)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path[1:]])}
    command = [sys.executable, "-m", "dagroute_lint", "dags", "--inventory", "dagroute.toml"]

    def lint() -> str:
        done = subprocess.run(
            command, cwd=repo, env=env, capture_output=True, text=True, check=False
        )
        return done.stdout

    assert "sets no retries" in lint()
    assert "sets no retries" in lint()  # from the cache
    module = site / "xyz_rules/__init__.py"
    module.write_text(module.read_text().replace("sets no retries", "has no retries"))
    after = lint()
    assert "has no retries" in after and "sets no retries" not in after
