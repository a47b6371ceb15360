"""Rule packs through the ``dagroute_lint.rules`` entry point group.

The first tests install a real rule pack (a pyproject with the entry point) together with
dagroute-lint itself into a fresh venv and run that venv's console script. The rest load entry
points in this process, to cover every way a pack can be broken.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.errors import ConfigError
from dagroute_lint.rules import RULES
from dagroute_lint.rules.plugins import ENTRY_POINT_GROUP, discover_entry_points, load_plugin_rules
from dagroute_lint.rules.registry import plugin_rules
from tests.helpers import CELERY_K8S, write_repo
from tests.real_venv import ensure_wheels, make_venv

REPO = Path(__file__).resolve().parents[1]

# What building dagroute-lint and the pack needs, and what dagroute-lint needs to run (pyproject's
# dependencies; the markers leave out what this interpreter does not need).
BUILD_AND_RUN = (
    "hatchling==1.33.0",
    "libcst==1.9.0",
    "click==8.5.1",
    "tomli>=1.1; python_version < '3.11'",
    "importlib-metadata>=4.6; python_version < '3.10'",
)

RULE_PACK_PYPROJECT = """
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "xyz-rules"
version = "0.1.0"
dependencies = ["dagroute-lint"]

[project.entry-points."dagroute_lint.rules"]
xyz = "xyz_rules:RULES"
"""

RULE_PACK_MODULE = '''
"""One rule: every task that sets no retries."""

from dagroute_lint.rules import Rule


def check(context):
    for task in context.tasks:
        if "retries" not in task.task.arguments.named:
            yield context.report(task.task.position, f"task {task.task_id!r} sets no retries")


RULES = [
    Rule(
        code="XYZ100",
        name="no-retries",
        summary="a task that sets no retries",
        boundary="execution",
        check=check,
    )
]
'''

DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x")
    BashOperator(task_id="noqa", bash_command="x")  # noqa: XYZ100
    BashOperator(task_id="safe", bash_command="x", retries=2)
"""


@pytest.fixture(scope="module")
def plugin_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding dagroute-lint built from this checkout and the XYZ rule pack."""
    pack = tmp_path_factory.mktemp("xyz-rules")
    (pack / "pyproject.toml").write_text(RULE_PACK_PYPROJECT, encoding="utf-8")
    (pack / "xyz_rules").mkdir()
    (pack / "xyz_rules" / "__init__.py").write_text(RULE_PACK_MODULE, encoding="utf-8")
    ensure_wheels(BUILD_AND_RUN, with_dependencies=True)
    python = make_venv(
        tmp_path_factory.mktemp("plugin") / "venv",
        [str(REPO), str(pack)],
        no_deps=False,
        build_backend=BUILD_AND_RUN[0],
    )
    return python.parent / "dagroute-lint"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_repo(tmp_path, {"dags/dag.py": DAG, "dagroute.toml": CELERY_K8S})


def run_installed(command: Path, repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The venv must stand on its own: nothing from this test run's PYTHONPATH.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    return subprocess.run(
        [str(command), *args], cwd=repo, capture_output=True, text=True, env=env, check=False
    )


@pytest.mark.installs
def test_installed_plugin_rule_runs_and_honours_noqa(plugin_venv: Path, repo: Path) -> None:
    result = run_installed(plugin_venv, repo, "dags")
    assert result.returncode == 1, result.stderr
    assert result.stdout == "dags/dag.py:4:5: XYZ100 [error] task 'build' sets no retries\n"


@pytest.mark.installs
def test_installed_plugin_rule_is_selected_and_ignored_like_ours(
    plugin_venv: Path, repo: Path
) -> None:
    selected = run_installed(plugin_venv, repo, "dags", "--select", "XYZ")
    assert (selected.returncode, selected.stdout.count("XYZ100")) == (1, 1)
    ignored = run_installed(plugin_venv, repo, "dags", "--ignore", "XYZ100")
    assert (ignored.returncode, ignored.stdout) == (0, "")
    only_ours = run_installed(plugin_venv, repo, "dags", "--select", "DRL")
    assert "XYZ100" not in only_ours.stdout
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\nper-file-ignores = { "dags/*.py" = ["XYZ1"] }\n', encoding="utf-8"
    )
    per_file = run_installed(plugin_venv, repo, "dags")
    assert (per_file.returncode, per_file.stdout) == (0, "")


@pytest.mark.installs
def test_installed_plugin_rule_is_listed(plugin_venv: Path, repo: Path) -> None:
    result = run_installed(plugin_venv, repo, "rules")
    assert result.returncode == 0, result.stderr
    last = result.stdout.splitlines()[-1]
    assert last.startswith("XYZ100  no-retries")
    assert "a task that sets no retries [plugin 'xyz = xyz_rules:RULES' (xyz-rules 0.1.0)]" in last
    listed = json.loads(run_installed(plugin_venv, repo, "rules", "--format", "json").stdout)
    assert listed[-1]["code"] == "XYZ100"
    assert listed[-1]["plugin"] == "'xyz = xyz_rules:RULES' (xyz-rules 0.1.0)"
    assert {item["plugin"] for item in listed[:-1]} == {None}


@pytest.mark.installs
def test_unknown_plugin_code_is_still_a_usage_error(plugin_venv: Path, repo: Path) -> None:
    result = run_installed(plugin_venv, repo, "dags", "--select", "XYZ2")
    assert result.returncode == 2
    assert "unknown rule selector 'XYZ2'" in result.stderr


# --- broken packs, loaded in this process -------------------------------------------------------

BROKEN_PACK = """
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules import DeploymentRule, Rule


def check(context):
    yield context.report(context.tasks[0].task.position, "fires")


def crashing(context):
    raise ValueError("boom")
    yield


def forging(context):
    yield Diagnostic(context.module.path, 1, 1, "DRL101", "forged")


def old_api(context):
    yield context.report(context.tasks[0].task.position, "ABC600", "fires")


def deployed(context):
    queue = context.inventory.default_queue
    for task, placement in context.placed:
        workers = ", ".join(worker.name for worker in placement.workers)
        yield context.report(task.task.position, f"{task.task_id} on {queue}: {workers}")


def rule(code, check=check, severity="error"):
    return Rule(code=code, name="n", summary="s", boundary="parse", check=check, severity=severity)


ONE = rule("ABC100")
TWO = [rule("ABC200"), rule("ABC201")]
SAME_AS_BUILTIN = rule("DRL101")
RESERVED = rule("DRL900")
LOWERCASE = rule("abc100")
NOT_A_RULE = "ABC100"
MIXED = [rule("ABC300"), object()]
CRASHING = rule("ABC400", crashing)
FORGING = rule("ABC500", forging)
OLD_API = rule("ABC600", old_api)
WARNING = rule("ABC800", severity="warning")
UNCALLABLE = rule("ABC900", check=None)
DEPLOYED_CRASHING = DeploymentRule(
    code="ABC710", name="d", summary="s", boundary="dispatch", check=crashing
)
DEPLOYED_FORGING = DeploymentRule(
    code="ABC720", name="d", summary="s", boundary="dispatch", check=forging
)
DEPLOYED = DeploymentRule(
    code="ABC700", name="d", summary="s", boundary="dispatch", check=deployed
)
"""


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    (tmp_path / "broken_pack.py").write_text(textwrap.dedent(BROKEN_PACK), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "broken_pack"
    sys.modules.pop("broken_pack", None)


def entry(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def test_a_rule_or_an_iterable_of_rules(pack: str) -> None:
    loaded = load_plugin_rules(RULES, [entry("one", f"{pack}:ONE"), entry("two", f"{pack}:TWO")])
    assert [plugin.rule.code for plugin in loaded] == ["ABC100", "ABC200", "ABC201"]
    assert loaded[0].origin == f"'one = {pack}:ONE'"


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["{pack}:SAME_AS_BUILTIN"], "rule code DRL101 is already used by the built-in rules"),
        (["{pack}:ONE", "{pack}:ONE"], "rule code ABC100 is already used by plugin 'p0 = "),
        (["{pack}:RESERVED"], "the DRL prefix is reserved for the built-in rules"),
        (
            ["{pack}:LOWERCASE"],
            "rule code 'abc100' must be capital letters then digits, such as ACME101",
        ),
        (["{pack}:UNCALLABLE"], ": rule ABC900: check is not callable"),
        (
            ["{pack}:NOT_A_RULE"],
            "expected a dagroute_lint.rules.Rule or DeploymentRule or an iterable of them, got str",
        ),
        (["{pack}:MIXED"], "item 1 is not a dagroute_lint.rules.Rule or DeploymentRule (object)"),
        (["{pack}:MISSING"], "failed to load: AttributeError"),
        (["no_such_pack_module:RULES"], "failed to load: ModuleNotFoundError"),
    ],
)
def test_broken_packs_are_errors_naming_the_entry_point(
    pack: str, values: list[str], message: str
) -> None:
    found = [entry(f"p{index}", value.format(pack=pack)) for index, value in enumerate(values)]
    with pytest.raises(ConfigError) as caught:
        load_plugin_rules(RULES, found)
    assert str(caught.value).startswith(f"plugin 'p{len(values) - 1} = ")
    assert message in str(caught.value)


@pytest.fixture
def installed(
    pack: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., None]]:
    """Make ``discover_entry_points`` answer the given entry points, in a repo with one DAG."""
    write_repo(tmp_path, {"dags/dag.py": DAG})
    monkeypatch.chdir(tmp_path)

    def install(*found: EntryPoint) -> None:
        monkeypatch.setattr(
            "dagroute_lint.rules.plugins.discover_entry_points", lambda: list(found)
        )
        plugin_rules.cache_clear()

    yield install
    plugin_rules.cache_clear()


def test_broken_pack_through_the_cli_exits_2(pack: str, installed: Callable[..., None]) -> None:
    installed(entry("bad", f"{pack}:MISSING"))
    for args in (["dags"], ["rules"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2
        assert result.stderr.startswith(
            f"dagroute-lint: plugin 'bad = {pack}:MISSING' failed to load: AttributeError"
        )


def test_a_crashing_plugin_rule_names_itself_and_the_file(
    pack: str, installed: Callable[..., None]
) -> None:
    installed(entry("ok", f"{pack}:ONE"), entry("crash", f"{pack}:CRASHING"))
    result = CliRunner().invoke(main, ["dags", "--select", "ABC100"])
    assert result.exit_code == 1
    assert "ABC100 [error] fires" in result.stdout
    result = CliRunner().invoke(main, ["dags", "--quiet"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"dagroute-lint: rule ABC400 from plugin 'crash = {pack}:CRASHING' failed on "
        "dags/dag.py: ValueError: boom\n"
    )


def test_a_plugin_rule_cannot_report_another_rules_code(
    pack: str, installed: Callable[..., None]
) -> None:
    installed(entry("forge", f"{pack}:FORGING"))
    result = CliRunner().invoke(main, ["dags", "--quiet"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"dagroute-lint: rule ABC500 from plugin 'forge = {pack}:FORGING' reported code DRL101 "
        "on dags/dag.py; a rule reports only its own code, through context.report()\n"
    )


def test_a_plugin_on_the_old_report_signature_is_an_error_not_a_wrong_message(
    pack: str, installed: Callable[..., None]
) -> None:
    """``report(position, code, message)`` would otherwise pass the message as the fix."""
    installed(entry("old", f"{pack}:OLD_API"))
    result = CliRunner().invoke(main, ["dags", "--quiet"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"dagroute-lint: rule ABC600 from plugin 'old = {pack}:OLD_API' failed on dags/dag.py: "
        "TypeError: "
    )


def test_plugin_diagnostics_carry_the_rules_code_and_severity(
    pack: str, installed: Callable[..., None]
) -> None:
    installed(entry("warn", f"{pack}:WARNING"))
    result = CliRunner().invoke(main, ["dags", "--format", "sarif"])
    assert result.exit_code == 1
    (sarif_result,) = json.loads(result.stdout)["runs"][0]["results"]
    assert (sarif_result["ruleId"], sarif_result["message"]["text"]) == ("ABC800", "fires")
    assert sarif_result["level"] == "warning"


def test_a_deployment_rule_runs_only_with_an_inventory(
    pack: str, installed: Callable[..., None], tmp_path: Path
) -> None:
    installed(entry("deployed", f"{pack}:DEPLOYED"))
    without = CliRunner().invoke(main, ["dags", "--select", "ABC700"])
    assert (without.exit_code, without.stdout) == (0, "")
    (tmp_path / "dagroute.toml").write_text(CELERY_K8S, encoding="utf-8")
    with_inventory = CliRunner().invoke(main, ["dags", "--select", "ABC700"])
    assert with_inventory.exit_code == 1, with_inventory.stderr
    assert with_inventory.stdout.splitlines() == [
        "dags/dag.py:4:5: ABC700 [error] build on default: celery-general",
        "dags/dag.py:5:5: ABC700 [error] noqa on default: celery-general",
        "dags/dag.py:6:5: ABC700 [error] safe on default: celery-general",
    ]


def test_plugin_rules_are_listed_with_their_entry_point(
    pack: str, installed: Callable[..., None]
) -> None:
    installed(entry("one", f"{pack}:ONE"))
    text = CliRunner().invoke(main, ["rules"]).stdout.splitlines()
    assert (
        text[-1] == f"ABC100  n                            parse     s [plugin 'one = {pack}:ONE']"
    )
    assert not any("[plugin" in line for line in text[:-1])
    listed = json.loads(CliRunner().invoke(main, ["rules", "--format", "json"]).stdout)
    assert listed[-1]["plugin"] == f"'one = {pack}:ONE'"
    assert [item["plugin"] for item in listed[:-1]] == [None] * (len(listed) - 1)


def test_installed_entry_points_are_found_in_name_order_with_their_distribution(
    pack: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real distribution's metadata on ``sys.path``, listing its entry points out of order."""
    info = tmp_path / "site" / "xyz_rules-1.2.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: xyz-rules\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nb = {pack}:TWO\na = {pack}:ONE\n\n[other.group]\nc = x:Y\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    found = discover_entry_points()
    assert [(ep.name, ep.value) for ep in found] == [("a", f"{pack}:ONE"), ("b", f"{pack}:TWO")]
    loaded = load_plugin_rules(RULES, found)
    assert [(plugin.rule.code, plugin.origin) for plugin in loaded] == [
        ("ABC100", f"'a = {pack}:ONE' (xyz-rules 1.2)"),
        ("ABC200", f"'b = {pack}:TWO' (xyz-rules 1.2)"),
        ("ABC201", f"'b = {pack}:TWO' (xyz-rules 1.2)"),
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "DEPLOYED_CRASHING",
            "rule ABC710 from plugin 'dc = {pack}:DEPLOYED_CRASHING' failed on "
            "dags/dag.py: ValueError: boom\n",
        ),
        (
            "DEPLOYED_FORGING",
            "rule ABC720 from plugin 'dc = {pack}:DEPLOYED_FORGING' reported code "
            "DRL101 on dags/dag.py; a rule reports only its own code, through context.report()\n",
        ),
    ],
)
def test_a_deployment_rule_from_a_plugin_is_guarded_too(
    pack: str, installed: Callable[..., None], tmp_path: Path, value: str, message: str
) -> None:
    installed(entry("dc", f"{pack}:{value}"))
    (tmp_path / "dagroute.toml").write_text(CELERY_K8S, encoding="utf-8")
    result = CliRunner().invoke(main, ["dags", "--quiet"])
    assert (result.exit_code, result.stderr) == (2, "dagroute-lint: " + message.format(pack=pack))


def test_a_plugin_rule_that_gives_no_facts_still_counts_as_other(
    pack: str, installed: Callable[..., None], tmp_path: Path
) -> None:
    installed(entry("deployed", f"{pack}:DEPLOYED"))
    (tmp_path / "dagroute.toml").write_text(CELERY_K8S, encoding="utf-8")
    lint = CliRunner().invoke(main, ["dags", "--select", "ABC700", "--format", "json"])
    assert [item["facts"]["kind"] for item in json.loads(lint.stdout)] == ["other"] * 3
    check = ["inventory", "check", "dagroute.toml", "--against", "dags", "--no-cache"]
    result = CliRunner().invoke(main, check)
    assert result.exit_code == 1, result.stderr
    rows = [re.split(r"\s{2,}", line) for line in result.stdout.splitlines()[2:-1]]
    assert rows[-1] == ["other", "-", "ABC700", "1: dags/dag.py"]
