"""``os.getenv``, ``os.environ`` and ``Variable.get`` answered from the inventory's
``[environment]`` and ``[variables]``: the tables, their reading, and the walk's answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.inventory import load_inventory_text
from dagroute_lint.deployment.parse_environment import UNSET, ParseEnvironment
from dagroute_lint.errors import ConfigError
from dagroute_lint.resolve.tasks import ResolvedTask
from tests.helpers import CELERY_K8S, lint_repo

# --- the tables ----------------------------------------------------------------------------------


def load(text: str) -> ParseEnvironment | None:
    return load_inventory_text(CELERY_K8S + text, "dagroute.toml").parse_environment


def test_absent_tables_change_nothing() -> None:
    assert load("") is None


def test_tables_are_read_with_their_complete_flag() -> None:
    found = load(
        """
[environment]
complete = true
ENVIRONMENT = "prod"

[variables]
schema = "raw"
tables = ["a", "b"]
settings = { queue = "q", slots = 2 }
"""
    )
    assert found == ParseEnvironment(
        {"ENVIRONMENT": "prod"},
        True,
        {"schema": "raw", "tables": ["a", "b"], "settings": {"queue": "q", "slots": 2}},
        False,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[environment]\nPORT = 8080\n",
            'dagroute.toml: environment.PORT: expected a string such as "production", got '
            "integer 8080",
        ),
        ('[environment]\n"A=B" = "x"\n', "environment.\"A=B\": 'A=B' is not an environment"),
        ("[variables]\nwhen = 2024-01-01\n", "variables.when: expected a string or a JSON value"),
        ("[variables]\nx = [1, 2024-01-01]\n", "variables.x[1]: expected a string or a JSON"),
        ('[variables]\n"" = "x"\n', 'variables."": a Variable key must not be empty'),
        (
            '[environment]\nAIRFLOW_VAR_SCHEMA = "raw"\n[variables]\nschema = "other"\n',
            "variables.schema: contradicts environment.AIRFLOW_VAR_SCHEMA 'raw', which Airflow "
            "reads first",
        ),
        ("[environment]\n[environment.nested]\n", "environment.nested: expected a string"),
    ],
)
def test_mistakes_name_file_and_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        load(text)
    assert message in str(error.value)


def test_a_json_variable_agrees_with_its_environment_text() -> None:
    found = load('[environment]\nAIRFLOW_VAR_T = "[1, 2]"\n[variables]\nt = [1, 2]\n')
    assert found is not None and found.variable("t", True).value == [1, 2]


# --- reading them as Airflow does ----------------------------------------------------------------


def test_an_open_environment_knows_only_what_it_lists() -> None:
    open_one = ParseEnvironment({"ENV": "prod"})
    assert open_one.getenv("ENV").value == "prod"
    assert open_one.getenv("OTHER").reason == "'OTHER' is not in the inventory's [environment]"
    assert ParseEnvironment({"ENV": "prod"}, True).getenv("OTHER").value is UNSET
    assert ParseEnvironment().getenv("ENV").reason == (
        "'ENV' is not known: the inventory has no [environment]"
    )


def test_variables_follow_airflows_search_order() -> None:
    environment = {"AIRFLOW__SECRETS__BACKEND": "", "AIRFLOW_VAR_SCHEMA": "from-env"}
    both = ParseEnvironment(environment, False, {"schema": "from-env", "other": "stored"}, True)
    # AIRFLOW_VAR_ + the key upper-cased, whatever case the DAG asks in.
    assert both.variable("Schema", False).value == "from-env"
    assert both.variable("other", False).value == "stored"
    # Not in [variables] (complete) and not in the (open) environment: may come from it.
    assert "may come from the environment" in str(both.variable("absent", False).reason)
    closed = ParseEnvironment(environment, True, {}, True)
    assert closed.variable("absent", False).value is UNSET


def test_a_secrets_backend_is_searched_before_the_environment() -> None:
    backend = {"AIRFLOW__SECRETS__BACKEND": "my.Backend", "AIRFLOW_VAR_X": "env"}
    found = ParseEnvironment(backend, True, {"y": "stored"})
    assert "the secrets backend my.Backend is searched" in str(found.variable("x", False).reason)
    assert found.variable("y", False).value == "stored"
    # Whether one is configured is not known: the environment's value is not taken.
    unknown = ParseEnvironment({"AIRFLOW_VAR_X": "env"}).variable("x", False)
    assert "a secrets backend may be" in str(unknown.reason)


def test_json_variables() -> None:
    found = ParseEnvironment({}, True, {"text": '{"a": 1}', "value": {"a": 1}, "bad": "{"}, True)
    assert found.variable("text", True).value == {"a": 1}
    assert found.variable("text", False).value == '{"a": 1}'
    assert found.variable("value", True).value == {"a": 1}
    assert "exact text is not known" in str(found.variable("value", False).reason)
    assert "json.loads fails" in str(found.variable("bad", True).reason)


# --- the walk's answers --------------------------------------------------------------------------

DEPLOYMENT = (
    CELERY_K8S
    + """
[environment]
AIRFLOW__SECRETS__BACKEND = ""
ENVIRONMENT = "prod"
AIRFLOW_VAR_SCHEMA = "raw"

[variables]
complete = true
tables = ["orders", "users"]
routing = '{"queue": "heavy"}'
"""
)


def tasks_of(root: Path, source: str, inventory: str = DEPLOYMENT) -> dict[str, ResolvedTask]:
    report = lint_repo(root, {"dags/dag.py": source}, inventory=inventory)
    return {task.task_id or "?": task for task in report.tasks}


HEADER = """
import os
from airflow.models import Variable
from airflow.sdk import DAG
from airflow.providers.standard.operators.empty import EmptyOperator
"""


def test_values_choose_ids_branches_and_routing(tmp_path: Path) -> None:
    found = tasks_of(
        tmp_path,
        HEADER
        + """
ENV = os.getenv("ENVIRONMENT", "dev")
with DAG(f"load_{ENV}"):
    for table in Variable.get("tables", deserialize_json=True):
        EmptyOperator(
            task_id=f"{Variable.get('schema')}_{table}",
            queue="prod" if os.environ["ENVIRONMENT"] == "prod" else "dev",
        )
    if "ENVIRONMENT" in os.environ:
        ROUTING = Variable.get("routing", deserialize_json=True)
        EmptyOperator(task_id="routed", queue=ROUTING["queue"])
    EmptyOperator(task_id="fallback", pool=Variable.get("absent", default_var="spare"))
    # airflow.models' Variable.get takes default_var: default= is a TypeError, never the value.
    EmptyOperator(task_id="typo", pool=Variable.get("tables", default="x"))
""",
    )
    assert sorted(found) == ["fallback", "raw_orders", "raw_users", "routed", "typo"]
    assert found["typo"].fields["pool"].reason == "Airflow Variable (Variable.get)"
    assert found["raw_orders"].dag_id == "load_prod"
    assert found["raw_orders"].fields["queue"].value == "prod"
    assert found["routed"].fields["queue"].value == "heavy"
    # Not in the complete [variables], and AIRFLOW_VAR_ABSENT not in the open environment.
    assert not found["fallback"].fields["pool"].known


def test_without_the_tables_reads_stay_unknown(tmp_path: Path) -> None:
    found = tasks_of(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    EmptyOperator(task_id="t", queue=os.getenv("Q", "q"), pool=Variable.get("p", default_var="x"))
""",
        inventory=CELERY_K8S,
    )
    assert found["t"].fields["queue"].reason == "environment variable (os.getenv)"
    assert found["t"].fields["pool"].reason == "Airflow Variable (Variable.get)"


def test_a_name_certainly_unset_gives_the_default(tmp_path: Path) -> None:
    complete = CELERY_K8S + '[environment]\ncomplete = true\nAIRFLOW__SECRETS__BACKEND = ""\n'
    complete += "[variables]\ncomplete = true\n"
    found = tasks_of(
        tmp_path,
        HEADER
        + """
from airflow.sdk import Variable as SdkVariable
with DAG("d"):
    EmptyOperator(task_id="t", queue=os.getenv("QUEUE", "q"), pool=Variable.get("p", "x"))
    EmptyOperator(task_id="u", queue=SdkVariable.get("p", default="sdk"))
    EmptyOperator(task_id="v", queue=os.environ.get("QUEUE"), pool=os.environ["POOL"])
    EmptyOperator(task_id="w", queue=SdkVariable.get("p", default_var="wrong keyword"))
""",
        inventory=complete,
    )
    assert found["t"].fields["queue"].value == "q"
    assert found["t"].fields["pool"].value == "x"
    assert found["u"].fields["queue"].value == "sdk"
    # os.environ.get's default, None: what queue=None gives
    assert found["v"].fields["queue"].known and found["v"].fields["queue"].value is None
    assert "KeyError at parse time" in str(found["v"].fields["pool"].reason)
    # The Task SDK's Variable.get takes no default_var: a TypeError, never a guess.
    assert not found["w"].fields["queue"].known


def test_the_files_own_changes_to_the_environment_win(tmp_path: Path) -> None:
    found = tasks_of(
        tmp_path,
        HEADER
        + """
os.environ["ENVIRONMENT"] = "staging"
os.environ.setdefault("ENVIRONMENT", "never")
os.environ.setdefault("REGION", "eu")  # the open environment may hold REGION: unknown
with DAG("d"):
    EmptyOperator(task_id="set", queue=os.getenv("ENVIRONMENT"), pool=os.environ.get("REGION"))
    if os.getenv("FLAG"):
        os.environ["SCHEMA_OVERRIDE"] = "x"
    EmptyOperator(task_id="maybe", queue=os.getenv("SCHEMA_OVERRIDE", "none"))
    os.environ.update({"ENVIRONMENT": "other"})
    EmptyOperator(task_id="after_update", queue=os.getenv("ENVIRONMENT"))
    EmptyOperator(task_id="variable", queue=Variable.get("schema"))
""",
    )
    assert found["set"].fields["queue"].value == "staging"
    assert "REGION" in str(found["set"].fields["pool"].reason)
    assert "changed by the file" in str(found["maybe"].fields["queue"].reason)
    assert "os.environ.update()" in str(found["after_update"].fields["queue"].reason)
    assert "os.environ.update()" in str(found["variable"].fields["queue"].reason)


def test_the_environment_given_to_code_not_followed_is_unknown_after(tmp_path: Path) -> None:
    # configure() is another module's, not followed: it may set ENVIRONMENT, so the inventory's
    # "prod" would be stale after it.
    found = tasks_of(
        tmp_path,
        HEADER
        + """
from dags.helpers import configure
with DAG("d"):
    EmptyOperator(task_id="before", queue=os.getenv("ENVIRONMENT"))
    configure(os.environ)
    EmptyOperator(task_id="after", queue=os.getenv("ENVIRONMENT"))
""",
    )
    assert found["before"].fields["queue"].value == "prod"
    assert not found["after"].fields["queue"].known
    assert "passed to dags.helpers.configure()" in str(found["after"].fields["queue"].reason)


def test_setting_a_variable_makes_later_reads_unknown(tmp_path: Path) -> None:
    found = tasks_of(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    EmptyOperator(task_id="before", queue=Variable.get("schema"))
    Variable.set("schema", "other")
    EmptyOperator(task_id="after", queue=Variable.get("schema"))
""",
    )
    assert found["before"].fields["queue"].value == "raw"
    assert "Variable.set()" in str(found["after"].fields["queue"].reason)


def test_the_environment_keys_the_cached_summary(tmp_path: Path) -> None:
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(
        HEADER + 'with DAG(os.getenv("ENVIRONMENT")):\n    EmptyOperator(task_id="t")\n'
    )
    dags = []
    for environment in ("prod", "staging", "prod"):
        (tmp_path / "dagroute.toml").write_text(
            CELERY_K8S + f'[environment]\nENVIRONMENT = "{environment}"\n'
        )
        result = CliRunner().invoke(
            main,
            ["routes", str(tmp_path / "dags"), "--inventory", str(tmp_path / "dagroute.toml"),
             "--format", "csv", "--cache-dir", str(tmp_path / "cache")],
        )  # fmt: skip
        dags.append(result.stdout.splitlines()[1].split(",")[3])
    assert dags == ["prod", "staging", "prod"]


def test_inventory_check_lists_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "dagroute.toml"
    path.write_text(DEPLOYMENT)
    result = CliRunner().invoke(main, ["inventory", "check", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()[1:]
    assert lines[0].endswith(
        "[environment] 3 names (open: one not listed is not known): AIRFLOW_VAR_SCHEMA, "
        "AIRFLOW__SECRETS__BACKEND, ENVIRONMENT"
    )
    assert lines[1].endswith(
        "[variables] 2 Variables (complete: one not listed is unset): routing, tables"
    )


def test_inventory_diff_names_what_changed_never_the_values() -> None:
    from dagroute_lint.deployment.diff import inventory_changes

    old = load_inventory_text(CELERY_K8S + '[environment]\nENV = "prod"\nGONE = "x"\n', "old.toml")
    new = load_inventory_text(
        CELERY_K8S + '[environment]\ncomplete = true\nENV = "staging"\n[variables]\nv = 1\n',
        "new.toml",
    )
    changes = {change.what: change for change in inventory_changes(old, new)}
    assert changes["environment"].removed == ("GONE", "ENV (its value)")
    assert changes["environment"].added == ("(complete)", "ENV (another value)")
    assert changes["variables"].removed == ("(variables not given: every name is unknown)",)
    assert changes["variables"].added == ("v",)
    assert "staging" not in repr(changes)


def test_a_module_imported_that_changes_the_environment(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/common/__init__.py": "",
            "dags/common/settings.py": "from dotenv import load_dotenv\nload_dotenv()\n",
            "dags/common/names.py": "import os\nSCHEMA = os.getenv('ENVIRONMENT')\n",
            "dags/changed.py": HEADER
            + "import common.settings\n"
            + 'with DAG("changed"):\n'
            + '    EmptyOperator(task_id="t", queue=os.getenv("ENVIRONMENT"))\n',
            "dags/kept.py": HEADER
            + "from common.names import SCHEMA\n"
            + 'with DAG("kept"):\n'
            + '    EmptyOperator(task_id="t", queue=os.getenv("ENVIRONMENT"), pool=SCHEMA)\n',
        },
        inventory=DEPLOYMENT,
    )
    found = {task.dag_id: task for task in report.tasks}
    assert "module common.settings, imported before, changes the environment" in str(
        found["changed"].fields["queue"].reason
    )
    assert "dotenv.load_dotenv()" in str(found["changed"].fields["queue"].reason)
    assert found["kept"].fields["queue"].value == "prod"
    assert found["kept"].fields["pool"].value == "prod"
