"""``inventory init``: real installed environments, airflow.cfg and its overrides, --worker."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.init.airflow_cfg import read_airflow_config
from dagroute_lint.deployment.init.build import build_inventory, parse_worker
from dagroute_lint.deployment.init.environment import Distribution, Environment
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.deployment.toml import toml
from dagroute_lint.errors import ConfigError
from tests.real_venv import ensure_wheels, make_venv

# Real distributions: two Apache providers, Airflow core itself (for the version) and an ordinary
# package. Installed with --no-deps: only their metadata matters, nothing is imported.
INSTALLED = (
    "apache-airflow-providers-http==6.3.0",
    "apache-airflow-providers-postgres==7.1.1",
    "apache-airflow-core==3.3.2",
    "six==1.17.0",
)


@pytest.fixture(autouse=True)
def no_airflow_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's or CI's own AIRFLOW__* settings must not leak into these tests."""
    for name in list(os.environ):
        if name.startswith("AIRFLOW__"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="module")
def provider_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ensure_wheels(INSTALLED)
    return make_venv(tmp_path_factory.mktemp("providers") / "venv", INSTALLED)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def unwrapped(text: str) -> str:
    """The text with wrapped comments joined again (continuations are indented two spaces)."""
    return text.replace("\n#   ", " ")


def document(text: str) -> dict[str, object]:
    return toml.loads(text)


def runtime(text: str, name: str = "base") -> dict[str, object]:
    runtimes = document(text)["runtimes"]
    assert isinstance(runtimes, dict)
    body = runtimes[name]
    assert isinstance(body, dict)
    return body


# --- a real environment --------------------------------------------------------------------------


@pytest.mark.installs
def test_another_interpreters_providers_versions_and_packages(
    provider_venv: Path, tmp_path: Path
) -> None:
    output = tmp_path / "dagroute.toml"
    code, _, err = invoke(
        "inventory", "init", "--python", str(provider_venv), "--output", str(output)
    )
    assert code == 0, err
    assert "2 providers, 1 packages, 1 workers" in err
    text = output.read_text(encoding="utf-8")
    body = runtime(text)
    assert body["providers"] == ["http==6.3.0", "postgres==7.1.1"]
    assert body["packages"] == ["six==1.17.0"]
    assert body["python"] == f"{sys.version_info[0]}.{sys.version_info[1]}"
    deployment = document(text)["deployment"]
    assert isinstance(deployment, dict)
    assert deployment["airflow_version"] == "3.3.2"
    assert deployment["executors"] == ["LocalExecutor"]  # Airflow 3's default

    code, out, err = invoke("inventory", "check", str(output))
    assert (code, err) == (0, "")
    assert "ok (1 executors, 1 workers, 1 runtimes)" in out
    loaded = load_inventory(output)
    providers = {req.name: req.specifier for req in loaded.runtimes["base"].providers}
    assert providers == {
        "apache-airflow-providers-http": "==6.3.0",
        "apache-airflow-providers-postgres": "==7.1.1",
    }


@pytest.mark.installs
def test_reading_another_environment_imports_nothing_from_the_current_folder(
    provider_venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe runs isolated (-I): a ``json.py`` here must not shadow the standard library."""
    canary = tmp_path / "imported"
    (tmp_path / "json.py").write_text(f"open({str(canary)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = invoke("inventory", "init", "--python", str(provider_venv))
    assert code == 0, err
    assert "http==6.3.0" in out
    assert not canary.exists()


def test_current_environment_by_default() -> None:
    code, out, err = invoke("inventory", "init", "--runtime", "dag processor")
    assert code == 0, err
    body = runtime(out, "dag processor")
    assert body["python"] == f"{sys.version_info[0]}.{sys.version_info[1]}"
    packages = body["packages"]
    assert isinstance(packages, list)
    assert any(str(item).startswith("libcst==") for item in packages)
    assert document(out)["deployment"] == {
        "executors": ["LocalExecutor"],
        "default_queue": "default",
        "dag_processor": {"runtime": "dag processor"},
    }


def test_bad_interpreter_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = invoke("inventory", "init", "--python", str(tmp_path / "nope"))
    assert code == 2
    assert err == f"dagroute-lint: --python {tmp_path / 'nope'}: no such file\n"
    script = tmp_path / "python"
    script.write_text("#!/bin/sh\necho 'no metadata here' >&2\nexit 3\n", encoding="utf-8")
    script.chmod(0o755)
    code, _, err = invoke("inventory", "init", "--python", str(script))
    assert code == 2
    assert "could not read its installed metadata" in err
    assert "no metadata here" in err


# --- airflow.cfg and AIRFLOW__ variables ---------------------------------------------------------

EMPTY = Environment("3.11", "/venv/bin/python", ())
AIRFLOW_CFG = """
[core]
executor = CeleryExecutor, KubernetesExecutor
default_pool_task_slot_count = 64

[operators]
default_queue = main

[logging]
log_format = [%%(asctime)s] %%(message)s
"""


def write_cfg(tmp_path: Path, text: str = AIRFLOW_CFG) -> Path:
    path = tmp_path / "airflow.cfg"
    path.write_text(text, encoding="utf-8")
    return path


def test_airflow_cfg_gives_executors_default_queue_and_default_pool(tmp_path: Path) -> None:
    cfg = write_cfg(tmp_path)
    generated = build_inventory(EMPTY, "test", read_airflow_config(cfg, {}))
    deployment = generated.inventory
    assert [entry.written for entry in deployment.executors] == [
        "CeleryExecutor",
        "KubernetesExecutor",
    ]
    assert deployment.default_queue == "main"
    assert deployment.pools == {"default_pool": 64}
    # One worker per executor; the Celery one consumes the default queue, as `celery worker` does.
    assert [(w.name, w.executor.display_name, w.queues) for w in deployment.workers] == [
        ("celery", "CeleryExecutor", ("main",)),
        ("kubernetes", "KubernetesExecutor", None),
    ]
    assert f"# from {cfg} [core] executor" in unwrapped(generated.text)


def test_environment_variables_win_over_the_file(tmp_path: Path) -> None:
    cfg = write_cfg(tmp_path)
    environ = {
        "AIRFLOW__OPERATORS__DEFAULT_QUEUE": 'env "quoted" \\ queue',
        "AIRFLOW__CORE__EXECUTOR": "CeleryExecutor",
    }
    generated = build_inventory(EMPTY, "test", read_airflow_config(cfg, environ))
    assert generated.inventory.default_queue == 'env "quoted" \\ queue'
    assert [entry.written for entry in generated.inventory.executors] == ["CeleryExecutor"]
    assert generated.inventory.pools == {"default_pool": 64}  # not overridden: from the file
    assert "# from AIRFLOW__OPERATORS__DEFAULT_QUEUE" in generated.text
    assert "AIRFLOW__* environment variables" in generated.text


def test_environment_variables_apply_without_a_file_through_the_cli(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AIRFLOW__CORE__EXECUTOR", "CeleryExecutor")
    monkeypatch.setenv("AIRFLOW__CORE__DEFAULT_POOL_TASK_SLOT_COUNT", "16")
    code, out, err = invoke("inventory", "init", "--worker", "general=default,imports")
    assert code == 0, err
    parsed = document(out)
    assert parsed["pools"] == {"default_pool": 16}
    assert parsed["workers"] == [
        {"name": "general", "queues": ["default", "imports"], "runtime": "base"}
    ]


def test_cmd_and_secret_variants_are_named_not_evaluated(tmp_path: Path) -> None:
    cfg = write_cfg(tmp_path, AIRFLOW_CFG + "\n[secrets]\n")
    cfg.write_text(
        cfg.read_text(encoding="utf-8").replace(
            "[operators]\n", "[operators]\ndefault_queue_cmd = echo q\n"
        ),
        encoding="utf-8",
    )
    environ = {
        "AIRFLOW__CORE__EXECUTOR_CMD": "echo LocalExecutor",
        "AIRFLOW__CORE__EXECUTOR_SECRET": "x",
    }
    config = read_airflow_config(cfg, environ)
    text = unwrapped(build_inventory(EMPTY, "test", config).text)
    assert "# NOTE: AIRFLOW__CORE__EXECUTOR_CMD is set but not evaluated" in text
    assert "# NOTE: AIRFLOW__CORE__EXECUTOR_SECRET is set but not evaluated" in text
    assert f"# NOTE: [operators] default_queue_cmd in {cfg} is set but not evaluated" in text
    # The file's values stand: nothing was run.
    assert document(text)["deployment"]["default_queue"] == "main"  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "environ", "message"),
    [
        (
            "executor = Celery\n",
            {},
            "airflow.cfg: not a valid airflow.cfg: File contains no section",
        ),
        (AIRFLOW_CFG + "[core]\nexecutor = x\n", {}, "not a valid airflow.cfg: While reading"),
        (
            "[core]\nexecutor = CeleryExecuter\n",
            {},
            "airflow.cfg [core] executor: 'CeleryExecuter'",
        ),
        (
            "[core]\ndefault_pool_task_slot_count = many\n",
            {},
            "[core] default_pool_task_slot_count: 'many' is not an integer",
        ),
        (
            "[core]\n",
            {"AIRFLOW__CORE__DEFAULT_POOL_TASK_SLOT_COUNT": "0"},
            "AIRFLOW__CORE__DEFAULT_POOL_TASK_SLOT_COUNT: pool size must be at least 1",
        ),
        ("[operators]\ndefault_queue =\n", {}, "the default queue must not be empty"),
        ("[operators]\ndefault_queue = a,b\n", {}, "'a,b': a queue name cannot hold ','"),
        ("[operators]\ndefault_queue = 100%\n", {}, "[operators] default_queue: '%' must be"),
    ],
)
def test_bad_airflow_cfg_exits_2_with_the_source_named(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    environ: dict[str, str],
    message: str,
) -> None:
    cfg = write_cfg(tmp_path, text)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    code, out, err = invoke("inventory", "init", "--airflow-cfg", str(cfg))
    assert (code, out) == (2, "")
    assert err.startswith("dagroute-lint: ")
    assert message in err
    assert err.count("\n") == 1


def test_missing_airflow_cfg(tmp_path: Path) -> None:
    code, _, err = invoke("inventory", "init", "--airflow-cfg", str(tmp_path / "airflow.cfg"))
    assert code == 2
    assert "airflow.cfg: airflow.cfg not found" in err


# --- --worker --------------------------------------------------------------------------------


def test_parse_worker() -> None:
    spec = parse_worker("general= default , imports")
    assert (spec.name, spec.queues) == ("general", ("default", "imports"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("general", "expected NAME=QUEUE[,QUEUE...]"),
        ("=default", "the worker name before '=' is empty"),
        ("general=", "empty queue name"),
        ("general=a,,b", "empty queue name"),
        ("general=a,a", "queue 'a' is listed twice"),
    ],
)
def test_bad_worker_is_a_usage_error(tmp_path: Path, value: str, message: str) -> None:
    cfg = write_cfg(tmp_path)
    code, out, err = invoke("inventory", "init", "--airflow-cfg", str(cfg), "--worker", value)
    assert (code, out) == (2, "")
    assert "Invalid value for '--worker'" in err
    assert message in err


def test_workers_need_a_celery_executor_and_distinct_names(tmp_path: Path) -> None:
    code, _, err = invoke("inventory", "init", "--worker", "general=default")
    assert code == 2
    assert "include no CeleryExecutor" in err
    cfg = write_cfg(tmp_path)
    code, _, err = invoke(
        "inventory", "init", "--airflow-cfg", str(cfg), "--worker", "a=x", "--worker", "a=y"
    )
    assert code == 2
    assert "worker name 'a' is used twice" in err
    code, _, err = invoke(
        "inventory", "init", "--airflow-cfg", str(cfg), "--worker", "kubernetes=x"
    )
    assert code == 2
    assert "worker name 'kubernetes' is used twice" in err


def test_workers_with_several_executors_name_theirs(tmp_path: Path) -> None:
    cfg = write_cfg(tmp_path)
    code, out, err = invoke(
        "inventory",
        "init",
        "--airflow-cfg",
        str(cfg),
        "--worker",
        "general=main,imports",
        "--worker",
        "reports=reports",
    )
    assert code == 0, err
    assert document(out)["workers"] == [
        {
            "name": "general",
            "executor": "CeleryExecutor",
            "queues": ["main", "imports"],
            "runtime": "base",
        },
        {"name": "reports", "executor": "CeleryExecutor", "queues": ["reports"], "runtime": "base"},
        {"name": "kubernetes", "executor": "KubernetesExecutor", "runtime": "base"},
    ]


# --- output ----------------------------------------------------------------------------------


def test_output_is_not_overwritten_without_force(tmp_path: Path) -> None:
    output = tmp_path / "dagroute.toml"
    output.write_text("keep me\n", encoding="utf-8")
    code, _, err = invoke("inventory", "init", "--output", str(output))
    assert code == 2
    assert err == f"dagroute-lint: {output}: already exists (use --force to overwrite it)\n"
    assert output.read_text(encoding="utf-8") == "keep me\n"
    code, _, err = invoke("inventory", "init", "--output", str(output), "--force")
    assert code == 0, err
    load_inventory(output)
    assert [p.name for p in tmp_path.iterdir()] == ["dagroute.toml"]  # no temporary left
    missing = tmp_path / "no" / "dagroute.toml"
    code, _, err = invoke("inventory", "init", "--output", str(missing))
    assert (code, err) == (2, f"dagroute-lint: {missing}: no such directory: {missing.parent}\n")


def test_awkward_names_are_escaped_and_read_back() -> None:
    environment = Environment(
        "3.12",
        "/venv/bin/python",
        (
            Distribution("apache-airflow-providers-cncf-kubernetes", "10.25.0", True),
            Distribution("astronomer-cosmos", "1.10.0", True),  # third-party provider
            Distribution("cosmos", "0.1", True),  # would read as an Apache id
            Distribution("odd-version", "1.0-custom build", False),
            Distribution("apache-airflow", "2.10.5", False),
            Distribution("apache-airflow-task-sdk", "1.0.0", False),
        ),
    )
    config = read_airflow_config(None, {"AIRFLOW__OPERATORS__DEFAULT_QUEUE": 'a"b\\c\nd\te'})
    generated = build_inventory(environment, "env\nwith a newline", config, runtime='rt "x"')
    deployment = generated.inventory
    assert deployment.airflow_version == "2.10.5"
    assert [entry.written for entry in deployment.executors] == ["SequentialExecutor"]
    assert deployment.default_queue == 'a"b\\c\nd\te'
    body = deployment.runtimes['rt "x"']
    assert [req.written for req in body.providers] == [
        "astronomer-cosmos==1.10.0",
        "cncf.kubernetes==10.25.0",
    ]
    assert [req.written for req in body.packages] == ["cosmos==0.1", "odd-version"]
    assert "# Installed versions that are not PEP 440 versions" in generated.text
    assert "#   - env\\nwith a newline" in generated.text


def test_undecodable_environment_values_and_runtime_names_are_refused() -> None:
    undecodable = b"q\xff".decode("utf-8", "surrogateescape")
    variable = "AIRFLOW__OPERATORS__DEFAULT_QUEUE"
    with pytest.raises(ConfigError, match=f"{variable}: the value is not valid UTF-8 text"):
        read_airflow_config(None, {variable: undecodable})
    for runtime in ("", " ", undecodable, "a\nb"):
        with pytest.raises(ConfigError, match="--runtime"):
            build_inventory(EMPTY, "test", read_airflow_config(None, {}), runtime=runtime)


def test_airflow_2_hybrid_executor_takes_celery_workers(tmp_path: Path) -> None:
    environment = Environment(
        "3.9", "/venv/bin/python", (Distribution("apache-airflow", "2.10.5", False),)
    )
    config = read_airflow_config(
        write_cfg(tmp_path, "[core]\nexecutor = CeleryKubernetesExecutor\n"), {}
    )
    deployment = build_inventory(
        environment, "test", config, [parse_worker("w=default,etl")]
    ).inventory
    assert [(w.name, w.executor.written, w.queues) for w in deployment.workers] == [
        ("w", "CeleryKubernetesExecutor", ("default", "etl"))
    ]


# websocket-client installs ``websocket``: no shipped table names it, and no normalisation of
# the distribution's name gives it, so only the runtime itself can say it.
# cattrs installs ``cattr`` too: a name neither its own nor its leading words.
SAYS_ITS_IMPORTS = ("cattrs==24.1.2", "six==1.17.0")


@pytest.mark.installs
def test_a_runtime_records_the_imports_its_distributions_give_other_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_wheels(SAYS_ITS_IMPORTS)
    python = make_venv(tmp_path / "venv", SAYS_ITS_IMPORTS)
    repo = tmp_path / "repo"
    (repo / "dags").mkdir(parents=True)
    (repo / "dags" / "stream.py").write_text(
        "import six\nimport cattr\nfrom airflow.sdk import DAG, task\n\n"
        'with DAG("stream", schedule=None):\n\n    @task\n    def listen() -> None:\n'
        "        cattr.structure\n\n    listen()\n",
        encoding="utf-8",
    )
    code, _, err = invoke(
        "inventory", "init", "--python", str(python), "--output", str(repo / "dagroute.toml")
    )
    assert code == 0, err
    text = (repo / "dagroute.toml").read_text(encoding="utf-8")
    body = runtime(text)
    # six is six: the name says it, so it is not repeated.
    assert body["imports"] == ["cattr"]
    monkeypatch.chdir(repo)
    assert invoke("dags", "--select", "DRL2")[:2] == (0, "")
    # Without what the runtime says, nothing decides which distribution 'cattr' is.
    (repo / "dagroute.toml").write_text(text.replace('imports = ["cattr"]', ""), "utf-8")
    code, out, _ = invoke("dags", "--select", "DRL2")
    assert code == 1
    assert "an unknown distribution providing 'cattr'" in out
    assert "DRL205" in out
