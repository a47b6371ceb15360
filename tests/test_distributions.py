"""Which distribution an import needs, and which imports need none."""

from __future__ import annotations

import pytest

from dagroute_lint.catalog.distributions import (
    KNOWN_DISTRIBUTIONS,
    airflow_dependencies,
    import_need,
    is_airflow,
    is_stdlib,
)


@pytest.mark.parametrize(
    ("module", "display", "satisfied_by"),
    [
        ("yaml", "PyYAML", "pyyaml"),
        ("sklearn.linear_model", "scikit-learn", "scikit-learn"),
        ("cv2", "opencv-python", "opencv-python-headless"),
        ("PIL.Image", "Pillow", "pillow"),
        ("bs4", "beautifulsoup4", "beautifulsoup4"),
        ("dateutil.parser", "python-dateutil", "python-dateutil"),
        ("psycopg2", "psycopg2", "psycopg2-binary"),
        ("slack_sdk", "slack_sdk", "slack-sdk"),  # no table entry: the name, canonicalized
        ("polars", "polars", "polars"),
    ],
)
def test_import_names_map_to_distributions(module: str, display: str, satisfied_by: str) -> None:
    need = import_need(module)
    assert need is not None
    assert need.display == display
    assert need.met_by({satisfied_by})
    assert not need.met_by({"pandas"})


def test_the_running_environment_knows_its_own_distributions() -> None:
    # ``_pytest`` is installed by the pytest distribution; no table says so.
    assert "_pytest" not in KNOWN_DISTRIBUTIONS
    need = import_need("_pytest.python")
    assert need is not None
    assert need.met_by({"pytest"})


def test_namespace_packages_are_judged_on_two_components() -> None:
    assert import_need("google") is None  # says nothing about which distribution
    cloud = import_need("google.cloud")
    assert cloud is not None
    assert cloud.met_by({"google-cloud-bigquery"})
    assert not cloud.met_by({"google-auth", "protobuf"})
    assert cloud.display == "google-cloud-*"
    blob = import_need("azure.storage.blob")
    assert blob is not None and blob.met_by({"azure-storage-blob"})
    protobuf = import_need("google.protobuf.json_format")
    assert protobuf is not None and protobuf.met_by({"protobuf"}) and protobuf.airflow_brings_it
    for module, distribution in [
        ("snowflake.connector", "snowflake-connector-python"),
        ("snowflake.sqlalchemy", "snowflake-sqlalchemy"),
    ]:
        need = import_need(module)
        assert need is not None and need.met_by({distribution}), module
    ruamel = import_need("ruamel.yaml")
    assert ruamel is not None and ruamel.met_by({"ruamel-yaml"})


def test_airflow_brings_its_own_dependencies() -> None:
    for module in ("pendulum", "yaml", "requests", "jinja2", "sqlalchemy.orm", "dateutil", "jwt"):
        need = import_need(module)
        assert need is not None and need.airflow_brings_it, module
    for module in ("pandas", "sklearn", "boto3", "kubernetes"):
        need = import_need(module)
        assert need is not None and not need.airflow_brings_it, module
    # Inside namespace packages, on two components: Airflow's protobuf and OpenTelemetry do not
    # make google.cloud importable.
    for module in ("google.protobuf", "google.rpc.status_pb2", "opentelemetry.trace"):
        need = import_need(module)
        assert need is not None and need.airflow_brings_it, module
    for module in ("google.cloud", "azure.identity", "opentelemetry.instrumentation"):
        need = import_need(module)
        assert need is not None and not need.airflow_brings_it, module
    assert "pendulum" in airflow_dependencies()
    assert "opentelemetry-sdk" in airflow_dependencies()  # no import name of its own
    assert not any(name.startswith("apache-airflow") for name in airflow_dependencies())


@pytest.mark.parametrize(
    "module",
    # formatter and parser: Python 3.9 only; distutils and imp: gone in 3.12.
    [
        "os.path",
        "collections.abc",
        "json",
        "__future__",
        "tomllib",
        "distutils.util",
        "imp",
        "formatter",
        "parser",
    ],
)
def test_stdlib(module: str) -> None:
    assert is_stdlib(module)


@pytest.mark.parametrize("module", ["pandas", "yaml", "airflow", "osmnx", "jsonschema"])
def test_not_stdlib(module: str) -> None:
    assert not is_stdlib(module)


def test_airflow_and_its_providers() -> None:
    assert is_airflow("airflow")
    assert is_airflow("airflow.providers.amazon.aws.hooks.s3")
    assert not is_airflow("airflow_utils")
