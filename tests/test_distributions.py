"""Which distribution an import needs, and which imports need none."""

from __future__ import annotations

import pytest

from dagroute_lint.catalog.distributions import (
    airflow_dependencies,
    brought_by,
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
        ("PIL.Image", "pillow", "pillow"),  # Pillow 11 names itself "pillow"
        ("bs4", "beautifulsoup4", "beautifulsoup4"),
        ("dateutil.parser", "python-dateutil", "python-dateutil"),
        ("psycopg2", "psycopg2", "psycopg2-binary"),
        ("slack_sdk", "slack_sdk", "slack-sdk"),
        ("polars", "polars", "polars"),
    ],
)
def test_import_names_map_to_distributions(module: str, display: str, satisfied_by: str) -> None:
    need = import_need(module)
    assert need is not None
    assert need.display == display
    assert need.met_by({satisfied_by})
    assert not need.met_by({"pandas"})


def test_import_names_come_from_real_wheels() -> None:
    # ``_pytest`` and ``py`` are installed by the pytest distribution (its wheel's RECORD).
    for module in ("_pytest.python", "py"):
        need = import_need(module)
        assert need is not None and need.display == "pytest" and need.met_by({"pytest"})
    # The cases: the import name is not the distribution name.
    assert import_need("bson").display == "pymongo"  # type: ignore[union-attr]
    assert import_need("opensearchpy").display == "opensearch-py"  # type: ignore[union-attr]
    cloud_files = import_need("cloudfiles")
    assert cloud_files is not None and cloud_files.met_by({"cloud-files"})


@pytest.mark.parametrize(
    ("module", "distribution"),
    [
        ("chunkiterator", "chunk-iterator"),
        ("Some_Module", "some-module"),
        ("fancylib", "python-fancylib"),
        ("fancylib", "fancylib-py"),
        ("fancylib", "fancy_lib"),
        ("fancylib", "fancylib-sdk"),  # named after its package and a suffix
        ("fancy_index", "fancy-index-core"),
        ("fancy_client", "acme-fancy-client"),  # after a vendor's prefix
    ],
)
def test_names_no_table_knows_are_matched_by_normalisation(module: str, distribution: str) -> None:
    need = import_need(module)
    assert need is not None and not need.known
    assert need.met_by({distribution})
    assert not need.met_by({"fancy"})
    assert need.display == f"an unknown distribution providing '{module}'"


def test_a_table_entry_is_not_overridden_by_normalisation() -> None:
    # ``bson`` is pymongo's; a distribution that happens to be called "bson" is another one.
    need = import_need("bson")
    assert need is not None and need.known
    assert need.met_by({"pymongo"}) and not need.met_by({"python-bson"})


def test_the_answer_does_not_depend_on_the_linters_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.metadata

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the linter's own environment was consulted")

    monkeypatch.setattr(importlib.metadata, "packages_distributions", refuse)
    monkeypatch.setattr(importlib.metadata, "distributions", refuse)
    import_need.cache_clear()
    need = import_need("rarely_installed_module_xyz")
    assert (
        need is not None
        and not need.met_by({"pandas"})
        and need.met_by({"rarely-installed-module-xyz"})
    )
    assert "unknown distribution" in need.display


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


def test_a_provider_brings_its_requirements_and_those_of_the_providers_it_requires() -> None:
    brought = brought_by({"apache-airflow-providers-amazon"})
    assert {"boto3", "botocore", "jmespath", "apache-airflow-providers-common-sql"} <= brought
    assert "sqlparse" in brought  # through common-sql
    assert "flower" in brought_by({"apache-airflow-providers-celery"})
    # and through the providers' third-party requirements, what those require in turn
    assert "humanize" in brought_by({"apache-airflow-providers-celery"})
