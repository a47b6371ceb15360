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


def test_every_folder_on_the_path_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing entry does not end the search, an empty entry is the current folder, and an
    ``.egg-info`` counts as a ``.dist-info``; one without ``entry_points.txt`` names nothing."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "bare-1.0.dist-info").mkdir()
    assert not may_declare_rules([str(site)])
    install(site)
    assert may_declare_rules([str(tmp_path / "missing"), str(site)])
    monkeypatch.chdir(site)
    assert may_declare_rules([""])
    eggs = tmp_path / "eggs"
    (eggs / "xyz_rules.egg-info").mkdir(parents=True)
    (eggs / "xyz_rules.egg-info" / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nxyz = xyz_rules:RULES\n"
    )
    assert may_declare_rules([str(eggs)])


class _ListingFinder:
    """A finder that lists distributions of its own, as an import hook from a zip or a
    database does: what it holds is not in any folder."""

    def find_spec(self, *args: object) -> None:
        return None

    def find_distributions(self, *args: object) -> list[object]:
        return []


def test_a_finder_with_distributions_of_its_own_is_left_to_importlib_metadata(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not may_declare_rules([])
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, _ListingFinder()])
    assert may_declare_rules([])


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
