"""The official apache/airflow images: tags, the shipped table, and a sample checked for real."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dagroute_lint.catalog.official_images import (
    AIRFLOW_ITSELF,
    ImageTag,
    image_versions,
    official_image,
    official_tag,
)
from dagroute_lint.deployment.init.environment import interpreter_environment
from dagroute_lint.deployment.inventory import load_inventory_text
from dagroute_lint.deployment.requirements import release_tuple
from dagroute_lint.errors import ConfigError
from tests.real_venv import ensure_wheels, make_venv


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("apache/airflow:2.10.2", ImageTag("2.10.2", "2.10.2", None, False)),
        (
            "apache/airflow:2.10.2-python3.11",
            ImageTag("2.10.2-python3.11", "2.10.2", "3.11", False),
        ),
        ("docker.io/apache/airflow:slim-3.0.2", ImageTag("slim-3.0.2", "3.0.2", None, True)),
        (
            "apache/airflow:slim-3.0.2-python3.12",
            ImageTag("slim-3.0.2-python3.12", "3.0.2", "3.12", True),
        ),
        ("apache/airflow", ImageTag("latest", None, None, False)),
        ("apache/airflow:latest-python3.12", ImageTag("latest-python3.12", None, "3.12", False)),
        ("apache/airflow:2.10.2@sha256:" + "a" * 64, ImageTag("2.10.2", "2.10.2", None, False)),
        ("ghcr.io/acme/airflow:2.10.2", None),
        ("apache/airflow-pgbouncer:2024.01", None),
        ("apache/airflow:airflow-pgbouncer-2024.01.19-1.21.0", None),
    ],
)
def test_official_tags(reference: str, expected: ImageTag | None) -> None:
    assert official_tag(reference) == expected


def test_the_table_covers_every_release_from_2_9_with_its_pythons() -> None:
    versions = image_versions()
    releases = sorted(versions, key=release_tuple)
    assert releases[0] == "2.9.0"
    assert {"2.9.3", "2.10.5", "2.11.0", "3.0.2", "3.1.0", "3.3.2"} <= set(releases)
    assert versions["2.10.2"].pythons == ("3.8", "3.9", "3.10", "3.11", "3.12")
    assert versions["3.1.0"].pythons == ("3.10", "3.11", "3.12", "3.13")
    for version in versions.values():
        assert version.default_python in version.pythons, version.airflow


def test_an_image_holds_its_extras_and_the_slim_image_none() -> None:
    regular = official_image(ImageTag("2.10.2-python3.11", "2.10.2", "3.11", False))
    slim = official_image(ImageTag("slim-2.10.2-python3.11", "2.10.2", "3.11", True))
    assert regular is not None and slim is not None
    providers = dict(regular.providers)
    # The default extras of the 2.10 Dockerfile, with the versions of its release day.
    assert providers["apache-airflow-providers-amazon"] == "8.28.0"
    assert providers["apache-airflow-providers-google"] == "10.22.0"
    for provider in ("cncf-kubernetes", "google", "postgres", "celery", "docker"):
        assert f"apache-airflow-providers-{provider}" in providers
    assert dict(regular.packages)["boto3"]
    # The slim image: Airflow and what it requires itself (its preinstalled providers).
    assert set(dict(slim.providers)) == {
        "apache-airflow-providers-common-compat", "apache-airflow-providers-common-io",
        "apache-airflow-providers-common-sql", "apache-airflow-providers-fab",
        "apache-airflow-providers-ftp", "apache-airflow-providers-http",
        "apache-airflow-providers-imap", "apache-airflow-providers-smtp",
        "apache-airflow-providers-sqlite",
    }  # fmt: skip
    assert "boto3" not in dict(slim.packages)
    assert not AIRFLOW_ITSELF & {name for name, _ in (*regular.packages, *slim.packages)}
    # One constraints file serves both: what they share is pinned alike.
    shared = set(dict(slim.packages)) & set(dict(regular.packages))
    assert all(dict(slim.packages)[n] == dict(regular.packages)[n] for n in shared)


def test_each_provider_is_at_its_newest_compatible_release() -> None:
    """Not where a resolver backtracking on it would leave it: 2.9.3's google extra alone
    resolves to provider 8.8.0, an older release than any other extra holds it to."""
    image = official_image(ImageTag("2.9.3-python3.11", "2.9.3", "3.11", False))
    assert image is not None
    assert dict(image.providers)["apache-airflow-providers-google"] == "10.21.0"


def test_the_python_313_image_of_3_1_0_has_no_fab_provider() -> None:
    """The image changelog: "The Python 3.13 image for Airflow 3.1.0 does not contain fab"."""
    for python, expected in (("3.12", True), ("3.13", False)):
        image = official_image(ImageTag(f"3.1.0-python{python}", "3.1.0", python, False))
        assert image is not None
        assert ("apache-airflow-providers-fab" in dict(image.providers)) is expected
    assert "3.13: " in (image_versions()["3.1.0"].left_out or "3.13: fab")


def test_tags_the_table_lacks() -> None:
    assert official_image(ImageTag("latest", None, None, False)) is None
    assert official_image(ImageTag("2.10.2-python3.13", "2.10.2", "3.13", False)) is None
    assert official_image(ImageTag("2.8.4", "2.8.4", None, False)) is None
    default = official_image(ImageTag("2.10.2", "2.10.2", None, False))
    assert default is not None and default.python == "3.12" and not default.python_from_tag
    assert default.reference == "apache/airflow:2.10.2-python3.12"


def _sample() -> str:
    """The newest Airflow 2 release whose images include this interpreter's Python."""
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    found = [
        version
        for version in image_versions().values()
        if python in version.pythons and version.airflow.startswith("2.")
    ]
    if not found:
        pytest.skip(f"no Airflow 2 image runs Python {python}")
    return max(found, key=lambda version: release_tuple(version.airflow)).airflow


@pytest.mark.installs
def test_a_slim_image_installs_for_real_as_the_table_says(tmp_path: Path) -> None:
    """The table's slim image, installed from the package index into a throwaway venv: every
    distribution of it installs for this Python, `pip check` finds every requirement met (the
    set is complete and consistent), and the venv holds exactly the table's distributions."""
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    airflow = _sample()
    image = official_image(ImageTag(f"slim-{airflow}-python{python}", airflow, python, True))
    assert image is not None
    pins = [f"{name}=={version}" for name, version in (*image.providers, *image.packages)]
    pins.append(f"apache-airflow=={airflow}")
    # A few of them are published as sdists only (python-nvd3): built with setuptools.
    ensure_wheels([*pins, "setuptools"])
    interpreter = make_venv(tmp_path / "venv", pins, build_backend="setuptools")
    check = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(interpreter), "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    installed = {d.name: d.version for d in interpreter_environment(interpreter).distributions}
    installed.pop("apache-airflow")
    expected = dict((*image.providers, *image.packages))
    if "setuptools" not in expected:
        installed.pop("setuptools")  # the build backend, not the image's
    assert installed == expected


# --- the inventory's `image` key -----------------------------------------------------------------

INVENTORY = """
[deployment]
airflow_version = "2.10.2"
dag_processor = {{ runtime = "base" }}

[runtimes.base]
{body}
"""


def test_a_runtime_on_an_official_image_holds_it_plus_what_it_adds() -> None:
    body = 'image = "apache/airflow:2.10.2-python3.11"\nproviders = ["amazon>=9", "github"]'
    runtime = load_inventory_text(INVENTORY.format(body=body), "dagroute.toml").runtimes["base"]
    assert runtime.python == "3.11"
    providers = {req.name: req.specifier for req in runtime.providers}
    assert providers["apache-airflow-providers-amazon"] == ">=9"  # written entries win
    assert providers["apache-airflow-providers-github"] == ""
    assert providers["apache-airflow-providers-google"] == "==10.22.0"  # the image's
    packages = {req.name for req in runtime.packages}
    assert {"boto3", "pandas", "celery"} <= packages
    assert not packages & AIRFLOW_ITSELF


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'image = "ghcr.io/acme/airflow:7"',
            "runtimes.base.image: 'ghcr.io/acme/airflow:7' is not an official apache/airflow",
        ),
        (
            'image = "apache/airflow:latest"',
            "runtimes.base.image: no official image 'apache/airflow:latest' is known",
        ),
        (
            'image = "apache/airflow:2.10.2-python3.13"',
            "no official image 'apache/airflow:2.10.2-python3.13' is known (the table covers "
            "Airflow 2.9.0 to",
        ),
        (
            'image = "apache/airflow:2.10.2"\npython = "3.11"',
            "runtimes.base.python: '3.11' contradicts the image apache/airflow:2.10.2-python3.12",
        ),
    ],
)
def test_image_mistakes_are_inventory_errors(body: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_inventory_text(INVENTORY.format(body=body), "dagroute.toml")
