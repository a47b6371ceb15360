"""Tests for the provider mapping and the shipped provider, decorator and import-move tables."""

from __future__ import annotations

from importlib import resources

import pytest

from dagroute_lint.catalog.providers import (
    IMPORT_MOVES_FILE,
    PROVIDER_IDS_FILE,
    TASK_DECORATORS_FILE,
    canonical_distribution,
    import_moves,
    listed_provider_for,
    moved_import,
    provider_for_decorator,
    provider_for_module,
    provider_id,
)

P = "apache-airflow-providers-"


# --- module paths -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("airflow.providers.cncf.kubernetes.operators.pod", "cncf-kubernetes"),
        ("airflow.providers.cncf.kubernetes", "cncf-kubernetes"),
        ("airflow.providers.common.sql.operators.sql", "common-sql"),
        ("airflow.providers.common.io.operators.file_transfer", "common-io"),
        ("airflow.providers.microsoft.azure.hooks.wasb", "microsoft-azure"),
        ("airflow.providers.microsoft.mssql.hooks.mssql", "microsoft-mssql"),
        ("airflow.providers.apache.spark.operators.spark_submit", "apache-spark"),
        ("airflow.providers.dbt.cloud.operators.dbt", "dbt-cloud"),
        ("airflow.providers.amazon.aws.operators.s3", "amazon"),
        ("airflow.providers.google.cloud.operators.bigquery", "google"),
        ("airflow.providers.edge3.executors.edge_executor", "edge3"),
        ("airflow.providers.standard.operators.bash", "standard"),
        ("airflow.providers.celery.executors.celery_executor", "celery"),
        ("airflow.providers.smtp.operators.smtp", "smtp"),
    ],
)
@pytest.mark.parametrize("major", [2, 3])
def test_provider_module_longest_known_id(module: str, expected: str, major: int) -> None:
    assert provider_for_module(module, major) == P + expected


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        # Not in the table: the first component, or two under a namespace package.
        ("airflow.providers.acme.operators.thing", "acme"),
        ("airflow.providers.apache.newthing.operators.x", "apache.newthing"),
        ("airflow.providers.microsoft.newthing", "microsoft.newthing"),
        # Namespace packages and the bare package name no provider.
        ("airflow.providers.apache", None),
        ("airflow.providers.common", None),
        ("airflow.providers.cncf", None),
        ("airflow.providers", None),
        ("airflowx.providers.amazon", None),
        ("providers.amazon.aws", None),
    ],
)
def test_provider_id_fallbacks(module: str, expected: str | None) -> None:
    assert provider_id(module) == expected


def test_provider_id_with_explicit_ids() -> None:
    ids = {"cncf.kubernetes", "common.sql"}
    assert provider_id("airflow.providers.cncf.kubernetes.hooks.x", ids) == "cncf.kubernetes"
    assert provider_id("airflow.providers.common.io.x", ids) == "common.io"
    assert provider_id("airflow.providers.amazon.aws", ids) == "amazon"


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("airflow.operators.bash", "standard"),
        ("airflow.operators.python", "standard"),
        ("airflow.operators.empty", "standard"),
        ("airflow.operators.trigger_dagrun", "standard"),
        ("airflow.operators.latest_only", "standard"),
        ("airflow.operators.email", "smtp"),
        ("airflow.operators.generic_transfer", "common-sql"),
        ("airflow.sensors.external_task", "standard"),
        ("airflow.sensors.time_sensor", "standard"),
        ("airflow.sensors.filesystem", "standard"),
        ("airflow.hooks.subprocess", "standard"),
        ("airflow.hooks.filesystem", "standard"),
        ("airflow.hooks.package_index", "standard"),
        ("airflow.triggers.temporal", "standard"),
        ("airflow.triggers.file", "standard"),
    ],
)
def test_airflow3_shims_need_the_provider_they_moved_to(module: str, expected: str) -> None:
    assert provider_for_module(module, 3) == P + expected
    assert provider_for_module(module, 2) is None  # core on Airflow 2


@pytest.mark.parametrize(
    "module",
    [
        "airflow",
        "airflow.sdk",
        "airflow.models",
        "airflow.models.baseoperator",
        "airflow.decorators",
        "airflow.utils",
        "airflow.utils.task_group",
        "airflow.sensors.base",
        "airflow.hooks.base",
        "airflow.operators.branch",
        "os.path",
        "pendulum",
    ],
)
@pytest.mark.parametrize("major", [2, 3])
def test_core_and_foreign_modules_need_no_provider(module: str, major: int) -> None:
    assert provider_for_module(module, major) is None


def test_airflow2_aliases_into_providers() -> None:
    # 2.x kept 1.10-style aliases that import from a provider; 3.x removed them.
    assert provider_for_module("airflow.hooks.S3_hook", 2) == P + "amazon"
    assert provider_for_module("airflow.hooks.S3_hook", 3) is None
    assert provider_for_module("airflow.contrib.operators.kubernetes_pod_operator", 2) == (
        P + "cncf-kubernetes"
    )
    assert provider_for_module("airflow.hooks.dbapi", 2) == P + "common-sql"


# --- decorators ---------------------------------------------------------------------------------

# semantics 6.2: the registry of a 3.3.2 venv.
REGISTRY_3 = {
    **dict.fromkeys(
        [
            "python",
            "bash",
            "branch",
            "branch_virtualenv",
            "branch_external_python",
            "virtualenv",
            "external_python",
            "sensor",
            "short_circuit",
            "stub",
        ],
        "standard",
    ),
    "kubernetes": "cncf-kubernetes",
    "kubernetes_cmd": "cncf-kubernetes",
    "sql": "common-sql",
    "analytics": "common-sql",
    "docker": "docker",
}
CORE_2 = [
    "python",
    "virtualenv",
    "external_python",
    "branch",
    "branch_virtualenv",
    "branch_external_python",
    "short_circuit",
    "sensor",
    "bash",
]


@pytest.mark.parametrize(("kind", "provider"), sorted(REGISTRY_3.items()))
def test_decorator_registry_airflow3(kind: str, provider: str) -> None:
    assert provider_for_decorator(kind, 3) == P + provider


@pytest.mark.parametrize("kind", CORE_2)
def test_decorators_built_into_airflow2(kind: str) -> None:
    assert provider_for_decorator(kind, 2) is None


@pytest.mark.parametrize(
    ("kind", "provider"),
    [
        ("docker", "docker"),
        ("kubernetes", "cncf-kubernetes"),
        ("pyspark", "apache-spark"),
        ("stub", "standard"),
    ],
)
def test_provider_decorators_airflow2(kind: str, provider: str) -> None:
    assert provider_for_decorator(kind, 2) == P + provider


@pytest.mark.parametrize("major", [2, 3])
def test_unknown_and_modifier_decorators(major: int) -> None:
    assert provider_for_decorator("no_such_kind", major) is None
    assert provider_for_decorator("run_if", major) is None  # a modifier, built in
    assert provider_for_decorator("skip_if", major) is None


# --- moves --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "distribution"),
    [
        # semantics 6.3, row by row
        (
            "airflow.operators.bash.BashOperator",
            "airflow.providers.standard.operators.bash.BashOperator",
            "standard",
        ),
        (
            "airflow.operators.python.PythonOperator",
            "airflow.providers.standard.operators.python.PythonOperator",
            "standard",
        ),
        (
            "airflow.operators.python.BranchPythonVirtualenvOperator",
            "airflow.providers.standard.operators.python.BranchPythonVirtualenvOperator",
            "standard",
        ),
        ("airflow.operators.python.get_current_context", "airflow.sdk.get_current_context", None),
        (
            "airflow.operators.empty.EmptyOperator",
            "airflow.providers.standard.operators.empty.EmptyOperator",
            "standard",
        ),
        (
            "airflow.operators.trigger_dagrun.TriggerDagRunOperator",
            "airflow.providers.standard.operators.trigger_dagrun.TriggerDagRunOperator",
            "standard",
        ),
        (
            "airflow.operators.weekday.BranchDayOfWeekOperator",
            "airflow.providers.standard.operators.weekday.BranchDayOfWeekOperator",
            "standard",
        ),
        ("airflow.operators.branch.BaseBranchOperator", "airflow.sdk.BaseBranchOperator", None),
        (
            "airflow.operators.email.EmailOperator",
            "airflow.providers.smtp.operators.smtp.EmailOperator",
            "smtp",
        ),
        (
            "airflow.operators.generic_transfer.GenericTransfer",
            "airflow.providers.common.sql.operators.generic_transfer.GenericTransfer",
            "common-sql",
        ),
        ("airflow.sensors.base.BaseSensorOperator", "airflow.sdk.BaseSensorOperator", None),
        ("airflow.sensors.base.PokeReturnValue", "airflow.sdk.PokeReturnValue", None),
        (
            "airflow.sensors.time_sensor.TimeSensor",
            "airflow.providers.standard.sensors.time.TimeSensor",
            "standard",
        ),
        (
            "airflow.sensors.external_task.ExternalTaskMarker",
            "airflow.providers.standard.sensors.external_task.ExternalTaskMarker",
            "standard",
        ),
        (
            "airflow.hooks.subprocess.SubprocessHook",
            "airflow.providers.standard.hooks.subprocess.SubprocessHook",
            "standard",
        ),
        ("airflow.hooks.base.BaseHook", "airflow.sdk.BaseHook", None),
        (
            "airflow.triggers.temporal.TimeDeltaTrigger",
            "airflow.providers.standard.triggers.temporal.TimeDeltaTrigger",
            "standard",
        ),
        (
            "airflow.triggers.external_task.DagStateTrigger",
            "airflow.providers.standard.triggers.external_task.DagStateTrigger",
            "standard",
        ),
        ("airflow.models.baseoperator.BaseOperator", "airflow.sdk.BaseOperator", None),
        ("airflow.models.BaseOperator", "airflow.sdk.BaseOperator", None),
        ("airflow.models.baseoperator.chain", "airflow.sdk.chain", None),
        ("airflow.DAG", "airflow.sdk.DAG", None),
        ("airflow.models.DAG", "airflow.sdk.DAG", None),
        ("airflow.models.dag.DAG", "airflow.sdk.DAG", None),
        ("airflow.decorators.task", "airflow.sdk.task", None),
        ("airflow.decorators.task_group", "airflow.sdk.task_group", None),
        ("airflow.utils.task_group.TaskGroup", "airflow.sdk.TaskGroup", None),
    ],
)
def test_moves_of_semantics_table(old: str, new: str, distribution: str | None) -> None:
    module, _, name = old.rpartition(".")
    move = moved_import(module, name)
    assert move is not None
    assert not move.removed
    assert move.new_path == new
    assert move.distribution == (P + distribution if distribution else None)


@pytest.mark.parametrize(
    ("module", "name", "replacement"),
    [
        # semantics 6.3, "Gone in 3.3.2"
        (
            "airflow.operators.dummy",
            "DummyOperator",
            "airflow.providers.standard.operators.empty.EmptyOperator",
        ),
        (
            "airflow.operators.dummy_operator",
            "DummyOperator",
            "airflow.providers.standard.operators.empty.EmptyOperator",
        ),
        (
            "airflow.operators.bash_operator",
            "BashOperator",
            "airflow.providers.standard.operators.bash.BashOperator",
        ),
        (
            "airflow.operators.python_operator",
            "PythonOperator",
            "airflow.providers.standard.operators.python.PythonOperator",
        ),
        (
            "airflow.sensors.base_sensor_operator",
            "BaseSensorOperator",
            "airflow.sdk.BaseSensorOperator",
        ),
        ("airflow.operators.subdag", "SubDagOperator", "airflow.sdk.TaskGroup"),
        # 2.x real modules the standard provider took over under the same name
        (
            "airflow.decorators.python",
            "python_task",
            "airflow.providers.standard.decorators.python.python_task",
        ),
    ],
)
def test_removed_imports_suggest_a_replacement(module: str, name: str, replacement: str) -> None:
    move = moved_import(module, name)
    assert move is not None
    assert move.removed
    assert move.new_path == replacement
    module_move = moved_import(module)  # ``import airflow.operators.dummy`` is reported too
    assert module_move is not None
    assert module_move.removed
    assert module_move.old_name is None


def test_subdag_removal_explains_itself() -> None:
    move = moved_import("airflow.operators.subdag", "SubDagOperator")
    assert move is not None
    assert "TaskGroup" in move.note


def test_removed_submodule_imported_from_its_package() -> None:
    move = moved_import("airflow.operators", "dummy")
    assert move is not None
    assert move.removed
    assert move.old_module == "airflow.operators.dummy"


def test_wildcard_shims_keep_the_imported_name() -> None:
    move = moved_import("airflow.utils.timezone", "utcnow")
    assert move is not None
    assert not move.removed
    assert move.new_path == "airflow.sdk.timezone.utcnow"


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("airflow.providers.standard.operators.bash", "BashOperator"),
        ("airflow.sdk", "DAG"),
        ("airflow.operators.bash", "NoSuchOperator"),
        ("os.path", "join"),
        ("airflow.operators.bash", None),  # a shim module still imports
    ],
)
def test_unchanged_paths_have_no_move(module: str, name: str | None) -> None:
    assert moved_import(module, name) is None


# --- the shipped tables -------------------------------------------------------------------------


@pytest.mark.parametrize("filename", [PROVIDER_IDS_FILE, TASK_DECORATORS_FILE, IMPORT_MOVES_FILE])
def test_tables_ship_as_generated_package_data(filename: str) -> None:
    table = resources.files("dagroute_lint.catalog").joinpath("data").joinpath(filename)
    assert table.is_file()
    head = table.read_text("utf-8").splitlines()[:3]
    assert "# generated by scripts/generate_provider_data.py — do not edit" in head


def _provider_id_rows() -> list[list[str]]:
    text = resources.files("dagroute_lint.catalog").joinpath("data").joinpath(PROVIDER_IDS_FILE)
    rows = [line.split("\t") for line in text.read_text("utf-8").splitlines()]
    return [row for row in rows if not row[0].startswith("#") and row[0] != "id"]


def test_provider_id_table_is_non_trivial_and_consistent() -> None:
    rows = _provider_id_rows()
    ids = {row[0] for row in rows}
    assert len(ids) == len(rows) > 80
    expected = {"standard", "celery", "cncf.kubernetes", "amazon", "edge3", "common.sql"}
    expected |= {"common.io", "common.compat", "smtp", "docker", "apache.spark", "dbt.cloud"}
    expected |= {"microsoft.azure", "google", "databricks", "snowflake", "fab"}
    assert expected <= ids
    for pid, distribution, _ in rows:
        assert "-" not in pid
        assert canonical_distribution(pid) == distribution
        assert canonical_distribution(distribution) == distribution
        assert provider_id(f"airflow.providers.{pid}.hooks.x") == pid


def test_namespace_packages_are_not_ids() -> None:
    # A namespace is no provider: alone it names none, and an unknown provider under it is
    # guessed with its next component rather than taken for the namespace's.
    for namespace in ("apache", "microsoft", "common", "cncf", "dbt"):
        assert provider_id(f"airflow.providers.{namespace}") is None
        assert provider_id(f"airflow.providers.{namespace}.newer.hooks.x") == f"{namespace}.newer"


def test_decorator_owners_are_known_providers() -> None:
    for kind in [*REGISTRY_3, "pyspark", "snowpark", "sftp_sensor", "llm"]:
        for major in (2, 3):
            owner = provider_for_decorator(kind, major)
            if owner is not None:
                assert owner.startswith(P)
                assert [owner] == [row[1] for row in _provider_id_rows() if row[1] == owner]


def test_moves_table_is_consistent() -> None:
    moves = import_moves()
    assert len(moves) > 100
    keys = [(m.old_module, m.old_name) for m in moves]
    assert len(keys) == len(set(keys))
    removed_modules = {m.old_module for m in moves if m.removed and m.old_name == "*"}
    for move in moves:
        assert move.old_module.startswith("airflow")
        if move.new_name == "*":
            assert move.old_name == "*"
        if move.new_module is None:
            assert move.removed
            assert move.distribution is None
        else:
            assert move.distribution == provider_for_module(move.new_module, 3)
        # a module is either still importable (through a shim) or gone, never both
        assert move.removed == (move.old_module in removed_modules)


def test_a_listed_provider_owns_by_its_name_what_no_known_id_covers() -> None:
    listed = ["apache-airflow-providers-foo", "apache-airflow-providers-foo-bar", "pandas"]
    assert listed_provider_for("airflow.providers.foo.bar.operators.x", listed) == (
        "apache-airflow-providers-foo-bar"
    )
    assert (
        listed_provider_for("airflow.providers.foo.baz", listed) == "apache-airflow-providers-foo"
    )
    assert listed_provider_for("airflow.providers.foobar", listed) is None
    # A module a known id covers is that provider's, whatever else is listed.
    google = ["apache-airflow-providers-google-cloud"]
    assert listed_provider_for("airflow.providers.google.cloud.hooks.gcs", google) is None
