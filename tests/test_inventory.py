"""Tests for loading and validating the deployment inventory (``dagroute.toml``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.executors import (
    CELERY_EXECUTOR_PATH,
    KUBERNETES_EXECUTOR_PATH,
    LOCAL_EXECUTOR_PATH,
    SEQUENTIAL_EXECUTOR_PATH,
)
from dagroute_lint.deployment.inventory import Inventory, Requirement, Runtime, load_inventory
from dagroute_lint.deployment.requirements import (
    normalise_specifier,
    parse_requirement,
    release_tuple,
)
from dagroute_lint.errors import ConfigError

FIXTURES = Path(__file__).parent / "fixtures" / "inventories"
DESIGN_EXAMPLE = FIXTURES / "design_2_2.toml"


Loader = Callable[[str], Inventory]


@pytest.fixture
def load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Loader:
    """Write ``text`` to ``dagroute.toml`` in a fresh folder and load it by relative name."""
    monkeypatch.chdir(tmp_path)

    def _load(text: str) -> Inventory:
        Path("dagroute.toml").write_text(text, encoding="utf-8")
        return load_inventory(Path("dagroute.toml"))

    return _load


def error_of(load: Loader, text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        load(text)
    return str(caught.value)


MALFORMED = [
    pytest.param(
        "a = ",
        "dagroute.toml:1:4: invalid TOML: Invalid value",
        id="syntax_end",
    ),
    pytest.param(
        '[deployment]\ndefault_queue = "x\n',
        "dagroute.toml:2:19: invalid TOML: Illegal character '\\n'",
        id="syntax_pos",
    ),
    pytest.param(
        "[deployment]\n[deployment]\n",
        "dagroute.toml:2:12: invalid TOML: Cannot declare ('deployment',) twice",
        id="syntax_twice",
    ),
    pytest.param(
        '[deployment]\ndefault_queue = "a\\qb"\n',
        "dagroute.toml:2:21: invalid TOML: Unescaped '\\' in a string",
        id="syntax_bad_escape",
    ),
    pytest.param(
        '[[worker]]\nname = "a"\n',
        "dagroute.toml: worker: unknown key 'worker' (did you mean 'workers'?)",
        id="top_unknown",
    ),
    pytest.param(
        "[deployment]\nflavour = 1\n",
        "dagroute.toml: deployment.flavour: unknown key 'flavour' (allowed: "
        "airflow_version, executors, default_queue, dag_processor, triggerer, local_settings)",
        id="dep_unknown_noclose",
    ),
    pytest.param(
        'deployment = "x"\n',
        'dagroute.toml: deployment: expected a table, got string "x"',
        id="dep_not_table",
    ),
    pytest.param(
        "[deployment]\nairflow_version = 3.3\n",
        'dagroute.toml: deployment.airflow_version: expected a string such as "3.3", got float 3.3',
        id="version_float",
    ),
    pytest.param(
        '[deployment]\nairflow_version = "three"\n',
        "dagroute.toml: deployment.airflow_version: 'three' is not a version such as "
        '"3.3" or "2.10.5"',
        id="version_word",
    ),
    pytest.param(
        '[deployment]\nairflow_version = "1.10.15"\n',
        "dagroute.toml: deployment.airflow_version: Airflow 1 is not supported (Airflow 2 "
        "or 3 only)",
        id="version_1",
    ),
    pytest.param(
        "[deployment]\nexecutors = []\n",
        "dagroute.toml: deployment.executors: no executor configured (Airflow: The "
        "'executor' key in the 'core' section of the configuration is mandatory and cannot "
        "be empty)",
        id="exec_empty_list",
    ),
    pytest.param(
        '[deployment]\nexecutors = "  "\n',
        "dagroute.toml: deployment.executors: no executor configured (Airflow: The "
        "'executor' key in the 'core' section of the configuration is mandatory and cannot "
        "be empty)",
        id="exec_empty_str",
    ),
    pytest.param(
        "[deployment]\nexecutors = 5\n",
        "dagroute.toml: deployment.executors: expected an array of strings such as "
        '["CeleryExecutor", "KubernetesExecutor"], got integer 5',
        id="exec_int",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["CeleryExecutor", 3]\n',
        "dagroute.toml: deployment.executors[1]: expected a string, got integer 3",
        id="exec_item_int",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["LocalExecutor", "a:b:c.D"]\n',
        "dagroute.toml: deployment.executors[1]: 'a:b:c.D': more than one ':' (Airflow: "
        "Incorrectly formatted executor configuration: a:b:c.D)",
        id="exec_colons",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["fast:Celery"]\n',
        "dagroute.toml: deployment.executors[0]: 'fast:Celery': the part after ':' must be "
        "a module path or a core executor name (LocalExecutor, CeleryExecutor, "
        "KubernetesExecutor); did you mean 'CeleryExecutor'? (Airflow: Incorrectly formatted "
        "executor configuration. Second portion of an executor configuration must be a module "
        "path but received: Celery)",
        id="exec_alias_dotless",
    ),
    pytest.param(
        "[deployment]\n"
        'executors = ["KubernetesExecutor", '
        '"k8s:airflow.providers.cncf.kubernetes.executors.kubernetes_executor.KubernetesExecutor"]\n',
        "dagroute.toml: deployment.executors[1]: "
        "'k8s:airflow.providers.cncf.kubernetes.executors.kubernetes_executor.KubernetesExecutor' "
        "configures the same executor as entry 0 'KubernetesExecutor' "
        "(airflow.providers.cncf.kubernetes.executors.kubernetes_executor.KubernetesExecutor) "
        "(Airflow: At least one executor was configured twice. Duplicate executors are not "
        "yet supported.)",
        id="exec_dup",
    ),
    pytest.param(
        '[deployment]\nairflow_version = "3.3"\nexecutors = ["SequentialExecutor"]\n',
        "dagroute.toml: deployment.executors[0]: 'SequentialExecutor' was removed in "
        "Airflow 3.0 (core executors: LocalExecutor, CeleryExecutor, KubernetesExecutor)",
        id="exec_seq_3",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["CeleryKubernetesExecutor"]\n',
        "dagroute.toml: deployment.executors[0]: 'CeleryKubernetesExecutor' does not "
        "support Airflow 3.0+ (its constructor raises RuntimeError); configure its two "
        "executors side by side (e.g. CeleryExecutor, KubernetesExecutor) and route with "
        "the task's executor=",
        id="exec_ck_none",
    ),
    pytest.param(
        "[deployment]\n"
        'airflow_version = "2.10.5"\n'
        'executors = ["LocalExecutor", "fast:LocalExecutor"]\n',
        "dagroute.toml: deployment.executors[1]: 'fast:LocalExecutor': Airflow 2 does not "
        "accept an alias for a core executor name; write "
        "'fast:airflow.executors.local_executor.LocalExecutor' instead (Airflow: "
        "Incorrectly formatted executor configuration. Second portion of an executor "
        "configuration must be a module path or plugin but received: LocalExecutor)",
        id="exec_alias_core_2",
    ),
    pytest.param(
        '[deployment]\nexecutors = "LocalExecutor;team1=CeleryExecutor"\n',
        "dagroute.toml: deployment.executors: multi-team executor configuration (';') is "
        "not supported by the inventory yet; list the global executors only",
        id="exec_multiteam",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["CeleryExecuter"]\n',
        "dagroute.toml: deployment.executors[0]: 'CeleryExecuter' is neither a core "
        "executor name (LocalExecutor, CeleryExecutor, KubernetesExecutor) nor a module "
        "path such as my_company.executors.MyExecutor; did you mean 'CeleryExecutor'?",
        id="exec_typo",
    ),
    pytest.param(
        '[deployment]\nexecutors = "CeleryExecutor,,KubernetesExecutor"\n',
        "dagroute.toml: deployment.executors: empty executor entry (a stray ','?)",
        id="exec_empty_entry_str",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["CeleryExecutor,KubernetesExecutor"]\n',
        "dagroute.toml: deployment.executors[0]: 'CeleryExecutor,KubernetesExecutor': ',' "
        "separates entries; give each executor on its own",
        id="exec_comma_item",
    ),
    pytest.param(
        "[deployment]\n"
        'airflow_version = "2.9.3"\n'
        'executors = ["CeleryExecutor", "KubernetesExecutor"]\n',
        "dagroute.toml: deployment.executors: several executors need Airflow 2.10 or later "
        "(airflow_version 2.9.3)",
        id="exec_29_multi",
    ),
    pytest.param(
        '[deployment]\nairflow_version = "2.9"\nexecutors = ["fast:my.mod.FastExecutor"]\n',
        "dagroute.toml: deployment.executors[0]: executor aliases "
        "('alias:module.path.Class') need Airflow 2.10 or later (airflow_version 2.9)",
        id="exec_29_alias",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["my-company.executors.X"]\n',
        "dagroute.toml: deployment.executors[0]: 'my-company.executors.X' is neither a "
        "core executor name (LocalExecutor, CeleryExecutor, KubernetesExecutor) nor a "
        "module path such as my_company.executors.MyExecutor",
        id="exec_bad_path",
    ),
    pytest.param(
        '[deployment]\ndefault_queue = ""\n',
        "dagroute.toml: deployment.default_queue: must not be empty",
        id="default_queue_empty",
    ),
    pytest.param(
        '[deployment]\ndag_processor = "base"\n',
        "dagroute.toml: deployment.dag_processor: expected a table such as { runtime = "
        '"base" }, got string "base"',
        id="dagproc_str",
    ),
    pytest.param(
        "[runtimes.base]\n[deployment]\ndag_processor = {}\n",
        "dagroute.toml: deployment.dag_processor: missing required key 'runtime'",
        id="dagproc_missing",
    ),
    pytest.param(
        '[runtimes.base]\n[deployment]\ndag_processor = { runtime = "bse" }\n',
        "dagroute.toml: deployment.dag_processor.runtime: runtime 'bse' is not defined "
        "(defined: base); did you mean 'base'?",
        id="dagproc_undefined",
    ),
    pytest.param(
        '[deployment]\ndag_processor = { runtime = "base" }\n',
        "dagroute.toml: deployment.dag_processor.runtime: runtime 'base' is not defined "
        "(no [runtimes] are defined)",
        id="dagproc_no_runtimes",
    ),
    pytest.param(
        '[deployment]\ntriggerer = "yes"\n',
        'dagroute.toml: deployment.triggerer: expected a table such as { runtime = "base" '
        '}, true or false, got string "yes"',
        id="trig_str",
    ),
    pytest.param(
        '[deployment]\ntriggerer = { runtime = "base" }\n',
        "dagroute.toml: deployment.triggerer.runtime: runtime 'base' is not defined (no "
        "[runtimes] are defined)",
        id="trig_undefined",
    ),
    pytest.param(
        '[runtimes.base]\n[deployment]\ntriggerer = { runtime = "base", replicas = 2 }\n',
        "dagroute.toml: deployment.triggerer.replicas: unknown key 'replicas' (allowed: runtime)",
        id="trig_unknown_key",
    ),
    pytest.param(
        '[runtimes.base]\n[workers]\nname = "a"\n',
        "dagroute.toml: workers: expected an array of [[workers]] tables, got table",
        id="workers_table",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nruntime = "base"\n',
        "dagroute.toml: workers[0]: missing required key 'name'",
        id="worker_missing_name",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nname = "a"\n',
        "dagroute.toml: workers[0]: missing required key 'runtime'",
        id="worker_missing_runtime",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[runtimes.spark-image]\n"
        "[[workers]]\n"
        'name = "a"\n'
        'runtime = "base"\n'
        "[[workers]]\n"
        'name = "b"\n'
        'runtime = "spark"\n',
        "dagroute.toml: workers[1].runtime: runtime 'spark' is not defined (defined: base, "
        "spark-image); did you mean 'spark-image'?",
        id="worker_runtime_undefined",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor", "KubernetesExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0]: missing key 'executor', required when several "
        "executors are configured (one of: CeleryExecutor, KubernetesExecutor)",
        id="worker_exec_omitted",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor", "KubernetesExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'executor = "celeryexecutor"\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0].executor: 'celeryexecutor' matches no configured "
        "executor (configured: CeleryExecutor, KubernetesExecutor); names are "
        "case-sensitive, did you mean 'CeleryExecutor'?",
        id="worker_exec_unknown",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'executor = "EdgeExecutor"\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0].executor: 'EdgeExecutor' matches no configured executor "
        "(configured: CeleryExecutor)",
        id="worker_exec_nomatch",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nname = "a"\nexecutor = 1\nruntime = "base"\n',
        'dagroute.toml: workers[0].executor: expected a string such as "LocalExecutor", '
        "got integer 1",
        id="worker_exec_int",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nname = "a"\nqueue = "x"\nruntime = "base"\n',
        "dagroute.toml: workers[0].queue: unknown key 'queue' (did you mean 'queues'?)",
        id="worker_unknown_key",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nname = 1\nruntime = "base"\n',
        "dagroute.toml: workers[0].name: expected a string, got integer 1",
        id="worker_name_int",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nname = " "\nruntime = "base"\n',
        "dagroute.toml: workers[0].name: must not be empty",
        id="worker_name_empty",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'queues = "default"\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0].queues: expected an array of strings such as "
        '["default"], got string "default"',
        id="queues_str",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        "queues = []\n"
        'runtime = "base"\n',
        "dagroute.toml: workers[0].queues: must list at least one queue (omit the key for "
        "the executor's default)",
        id="queues_empty",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'queues = ["a", ""]\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0].queues[1]: queue name must not be empty",
        id="queues_empty_item",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'queues = ["a", "b", "a"]\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0].queues[2]: queue 'a' is listed twice",
        id="queues_dup",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[deployment]\n"
        'executors = ["CeleryExecutor"]\n'
        "[[workers]]\n"
        'name = "a"\n'
        'queues = ["a,b"]\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[0].queues[0]: 'a,b' holds ','; list each queue as its own item",
        id="queues_comma",
    ),
    pytest.param(
        "[runtimes.base]\n"
        "[[workers]]\n"
        'name = "a"\n'
        'runtime = "base"\n'
        "[[workers]]\n"
        'name = "b"\n'
        'runtime = "base"\n'
        "[[workers]]\n"
        'name = "a"\n'
        'runtime = "base"\n',
        "dagroute.toml: workers[2].name: duplicate worker name 'a' (also workers[0])",
        id="worker_dup",
    ),
    pytest.param(
        'runtimes = "base"\n',
        'dagroute.toml: runtimes: expected a table of [runtimes.NAME] tables, got string "base"',
        id="runtimes_str",
    ),
    pytest.param(
        '[runtimes]\nbase = "x"\n',
        'dagroute.toml: runtimes.base: expected a table, got string "x"',
        id="runtime_str",
    ),
    pytest.param(
        "[runtimes.base]\npython = 3.11\n",
        'dagroute.toml: runtimes.base.python: expected a string such as "3.11", got float 3.11',
        id="python_float",
    ),
    pytest.param(
        '[runtimes.base]\npython = "py3"\n',
        "dagroute.toml: runtimes.base.python: 'py3' is not a version such as \"3.11\"",
        id="python_word",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = "amazon"\n',
        "dagroute.toml: runtimes.base.providers: expected an array of strings such as "
        '["standard", "amazon>=9"], got string "amazon"',
        id="providers_str",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = ["standard", "amazon>>9"]\n',
        "dagroute.toml: runtimes.base.providers[1]: 'amazon>>9': invalid version '>9' in '>>9'",
        id="providers_spec",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = ["amazon", "apache-airflow-providers-amazon>=9"]\n',
        "dagroute.toml: runtimes.base.providers[1]: apache-airflow-providers-amazon is "
        "listed twice (also providers[0] 'amazon')",
        id="providers_dup",
    ),
    pytest.param(
        '[runtimes.base]\npackages = ["pandas", "apache-airflow-providers-amazon"]\n',
        "dagroute.toml: runtimes.base.packages[1]: 'apache-airflow-providers-amazon' is an "
        "Airflow provider; list it under providers",
        id="packages_provider",
    ),
    pytest.param(
        "[runtimes.base]\npackages = [\"pandas; python_version < '3.12'\"]\n",
        "dagroute.toml: runtimes.base.packages[0]: \"pandas; python_version < '3.12'\": "
        "environment markers (';') are not supported",
        id="packages_marker",
    ),
    pytest.param(
        '[runtimes.base]\npackages = ["pandas>=2.*"]\n',
        "dagroute.toml: runtimes.base.packages[0]: 'pandas>=2.*': invalid version "
        "specifier '>=2.*' ('.*' only after == or !=)",
        id="packages_star_ge",
    ),
    pytest.param(
        "[runtimes.base]\ncode_version = 3\n",
        "dagroute.toml: runtimes.base.code_version: expected a string, got integer 3",
        id="label_int",
    ),
    pytest.param(
        '[runtimes."my image"]\npyton = "3.11"\n',
        "dagroute.toml: runtimes.\"my image\".pyton: unknown key 'pyton' (did you mean 'python'?)",
        id="runtime_unknown_key_quoted",
    ),
    pytest.param(
        '[runtimes.base]\nprovider = ["standard"]\n',
        "dagroute.toml: runtimes.base.provider: unknown key 'provider' (did you mean 'providers'?)",
        id="runtime_unknown_key",
    ),
    pytest.param(
        '[pools]\nreports = "4"\n',
        "dagroute.toml: pools.reports: expected an integer (slots, or -1 for unlimited), "
        'got string "4"',
        id="pool_str",
    ),
    pytest.param(
        "[pools]\nreports = 0\n",
        "dagroute.toml: pools.reports: pool size must be at least 1, or -1 for unlimited; got 0",
        id="pool_zero",
    ),
    pytest.param(
        "[pools]\nreports = true\n",
        "dagroute.toml: pools.reports: expected an integer (slots, or -1 for unlimited), "
        "got boolean true",
        id="pool_bool",
    ),
    pytest.param(
        "[pools]\nreports = 4.0\n",
        "dagroute.toml: pools.reports: expected an integer (slots, or -1 for unlimited), "
        "got float 4.0",
        id="pool_float",
    ),
    pytest.param(
        "pools = 4\n",
        "dagroute.toml: pools: expected a table of pool name = slots, got integer 4",
        id="pools_not_table",
    ),
    pytest.param(
        "[connections]\n",
        "dagroute.toml: connections: missing required key 'ids'",
        id="conn_missing",
    ),
    pytest.param(
        '[connections]\nids = ["a", 1]\n',
        "dagroute.toml: connections.ids[1]: expected a string, got integer 1",
        id="conn_item",
    ),
    pytest.param(
        '[connections]\nids = ["a", "a"]\n',
        "dagroute.toml: connections.ids[1]: 'a' is listed twice",
        id="conn_dup",
    ),
    pytest.param(
        '[connections]\nid = ["a"]\n',
        "dagroute.toml: connections.id: unknown key 'id' (did you mean 'ids'?)",
        id="conn_unknown",
    ),
    # --- more typos, hostile keys and values: each one line, never a traceback --------------
    pytest.param(
        '[deployment]\nexecutor = ["CeleryExecutor"]\n',
        "dagroute.toml: deployment.executor: unknown key 'executor' (did you mean 'executors'?)",
        id="dep_executor_singular",
    ),
    pytest.param(
        '[deployment]\ndefault_queues = "x"\n',
        "dagroute.toml: deployment.default_queues: unknown key 'default_queues' "
        "(did you mean 'default_queue'?)",
        id="dep_default_queues",
    ),
    pytest.param(
        "[runtime.base]\n",
        "dagroute.toml: runtime: unknown key 'runtime' (did you mean 'runtimes'?)",
        id="top_runtime_singular",
    ),
    pytest.param(
        '[runtimes.base]\n[[workers]]\nname = "a"\nruntime = "bsae"\n',
        "dagroute.toml: workers[0].runtime: runtime 'bsae' is not defined (defined: base); "
        "did you mean 'base'?",
        id="worker_runtime_typo",
    ),
    pytest.param(
        '[runtimes.base]\n[deployment]\ntriggerer = { runtime = "pods" }\n',
        "dagroute.toml: deployment.triggerer.runtime: runtime 'pods' is not defined "
        "(defined: base)",
        id="trig_runtime_far",
    ),
    pytest.param(
        '["a\\nb\\u001b[31m"]\nx = 1\n',
        'dagroute.toml: "a\\nb\\u001b[31m": unknown key "a\\nb\\u001b[31m" (allowed: '
        "deployment, workers, runtimes, pools, connections, environment, variables)",
        id="top_hostile_key",
    ),
    pytest.param(
        "[pools]\nx = 1e400\n",
        "dagroute.toml: pools.x: expected an integer (slots, or -1 for unlimited), got float inf",
        id="pool_inf",
    ),
    pytest.param(
        "[pools]\ndefault_pool = -5\n",
        "dagroute.toml: pools.default_pool: pool size must be at least 1, or -1 for unlimited; "
        "got -5",
        id="pool_negative",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = ["amazon>=9,<"]\n',
        "dagroute.toml: runtimes.base.providers[0]: 'amazon>=9,<': '<' needs a version",
        id="providers_spec_dangling",
    ),
    pytest.param(
        '[runtimes.base]\npackages = ["pandas==2.*.1"]\n',
        "dagroute.toml: runtimes.base.packages[0]: 'pandas==2.*.1': invalid version '2.*.1' "
        "in '==2.*.1'",
        id="packages_wildcard_middle",
    ),
    pytest.param(
        '[runtimes.base]\npackages = ["-e ."]\n',
        "dagroute.toml: runtimes.base.packages[0]: '-e .': not a distribution name with an "
        "optional version specifier",
        id="packages_editable",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = [""]\n',
        "dagroute.toml: runtimes.base.providers[0]: '': not a distribution name with an "
        "optional version specifier",
        id="providers_empty_name",
    ),
    pytest.param(
        '[deployment]\nexecutors = ["CeleryExecutor"]\n[runtimes.base]\n'
        '[[workers]]\nname = "a"\nruntime = "base"\nexecutor = "KubernetesExecutor"\n',
        "dagroute.toml: workers[0].executor: 'KubernetesExecutor' matches no configured "
        "executor (configured: CeleryExecutor)",
        id="worker_exec_unconfigured",
    ),
    pytest.param(
        '[deployment]\nairflow_version = "3.3"\nexecutors = ["LocalKubernetesExecutor"]\n',
        "dagroute.toml: deployment.executors[0]: 'LocalKubernetesExecutor' does not support "
        "Airflow 3.0+ (its constructor raises RuntimeError); configure its two executors side "
        "by side (e.g. CeleryExecutor, KubernetesExecutor) and route with the task's executor=",
        id="exec_local_k8s_3",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = ["standard", "amazn"]\n',
        "dagroute.toml: runtimes.base.providers[1]: unknown provider id 'amazn'; "
        "did you mean 'amazon'?",
        id="provider_id_typo",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = ["apache-airflow-providers-postgress"]\n',
        "dagroute.toml: runtimes.base.providers[0]: unknown Apache Airflow provider "
        "'apache-airflow-providers-postgress'; did you mean 'postgres'?",
        id="provider_distribution_typo",
    ),
    pytest.param(
        '[runtimes.base]\nproviders = ["nonexistent"]\n',
        "dagroute.toml: runtimes.base.providers[0]: unknown provider id 'nonexistent'",
        id="provider_id_unknown",
    ),
    pytest.param(
        '[runtimes.base]\npackages = ["pandas", "-pandas"]\n',
        "dagroute.toml: runtimes.base.packages[1]: '-pandas': not a distribution name with an "
        "optional version specifier",
        id="package_invalid_name",
    ),
    pytest.param(
        '[runtimes.base]\npackages = ["Django!"]\n',
        "dagroute.toml: runtimes.base.packages[0]: 'Django!': invalid version specifier '!' "
        "(expected an operator ==, !=, <=, >=, <, >, ~= or === and a version)",
        id="package_invalid_character",
    ),
    pytest.param(
        "a = " + "[" * 500 + "]" * 500 + "\n",
        "dagroute.toml: invalid TOML: arrays or inline tables nested too deeply to read",
        id="nested_500_arrays",
    ),
    pytest.param(
        "a = " + "{ b = " * 500 + "1" + " }" * 500 + "\n",
        "dagroute.toml: invalid TOML: arrays or inline tables nested too deeply to read",
        id="nested_500_inline_tables",
    ),
    pytest.param(
        '[runtimes.base]\nimports = ["cloudvolume", "cloud-volume"]\n',
        "dagroute.toml: runtimes.base.imports[1]: 'cloud-volume' is not a module name such as "
        "'cloudvolume' or 'google.cloud'",
        id="imports_not_a_module_name",
    ),
    pytest.param(
        "[deployment]\nairflow_version = 2025-01-01\n",
        'dagroute.toml: deployment.airflow_version: expected a string such as "3.3", got date',
        id="version_date",
    ),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_inventory_is_one_clear_line(load: Loader, text: str, message: str) -> None:
    got = error_of(load, text)
    assert got == message
    assert "\n" not in got


# --- file-level problems ------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        load_inventory(path)
    assert str(caught.value) == f"{path}: inventory file not found"


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_inventory(tmp_path)
    assert str(caught.value) == f"{tmp_path}: cannot read inventory: it is a directory"


def test_not_utf8_reports_line_and_column(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("dagroute.toml").write_bytes(b'[deployment]\ndefault_queue = "q\xff"\n')
    with pytest.raises(ConfigError) as caught:
        load_inventory(Path("dagroute.toml"))
    assert str(caught.value) == "dagroute.toml:2:19: invalid TOML: not UTF-8 text (byte 0xff)"


def test_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "dagroute.toml"
    path.write_bytes(b'\xef\xbb\xbf[deployment]\ndefault_queue = "q"\n')
    assert load_inventory(path).default_queue == "q"


def test_user_strings_with_newlines_stay_on_one_line(load: Loader) -> None:
    text = (
        '[runtimes.base]\n[[workers]]\nname = "a\\nb"\nruntime = "base"\n'
        '[[workers]]\nname = "a\\nb"\nruntime = "base"\n'
    )
    assert error_of(load, text) == (
        'dagroute.toml: workers[1].name: duplicate worker name "a\\nb" (also workers[0])'
    )


# --- valid inventories --------------------------------------------------------------------------


def test_design_example_verbatim_names_an_undefined_runtime() -> None:
    # DESIGN §2.2 sends the k8s-pods worker to runtime "spark-image" but never defines it.
    with pytest.raises(ConfigError) as caught:
        load_inventory(DESIGN_EXAMPLE)
    assert str(caught.value) == (
        f"{DESIGN_EXAMPLE}: workers[1].runtime: runtime 'spark-image' is not defined "
        "(defined: base)"
    )


def test_design_example_with_its_missing_runtime(load: Loader) -> None:
    text = DESIGN_EXAMPLE.read_text(encoding="utf-8") + (
        '\n[runtimes.spark-image]\npython = "3.11"\nproviders = ["cncf.kubernetes"]\n'
    )
    inventory = load(text)
    celery, kubernetes = inventory.executors
    assert (celery.alias, celery.module_path, celery.honours_queue) == (
        "CeleryExecutor",
        CELERY_EXECUTOR_PATH,
        True,
    )
    assert (kubernetes.alias, kubernetes.module_path, kubernetes.honours_queue) == (
        "KubernetesExecutor",
        KUBERNETES_EXECUTOR_PATH,
        False,
    )
    assert inventory.path == "dagroute.toml"
    assert inventory.airflow_version == "3.3"
    assert inventory.airflow_major == 3
    assert inventory.default_executor is celery
    assert inventory.default_queue == "default"
    assert inventory.dag_processor_runtime == "base"
    assert (inventory.has_triggerer, inventory.triggerer_runtime) == (True, "base")
    assert [(w.name, w.executor, w.queues, w.runtime) for w in inventory.workers] == [
        ("celery-general", celery, ("default", "imports"), "base"),
        ("k8s-pods", kubernetes, None, "spark-image"),
    ]
    assert inventory.runtimes["base"] == Runtime(
        name="base",
        python="3.11",
        providers=(
            Requirement("apache-airflow-providers-standard", "", "standard"),
            Requirement("apache-airflow-providers-celery", "", "celery"),
            Requirement("apache-airflow-providers-amazon", ">=9", "amazon>=9"),
        ),
        packages=(
            Requirement("pandas", ">=2", "pandas>=2"),
            Requirement("requests", "", "requests"),
        ),
        labels={
            "code_version": "lab-report-v3",
            "artifact_contract": "immutable-manifest-v1",
            "credential_source": "approved-runtime-lookup",
        },
    )
    assert inventory.runtimes["spark-image"].providers == (
        Requirement("apache-airflow-providers-cncf-kubernetes", "", "cncf.kubernetes"),
    )
    assert list(inventory.runtimes) == ["base", "spark-image"]
    assert inventory.pools == {"default_pool": 128, "reports": 4}
    assert inventory.connections == frozenset({"aws_default", "reports_db"})


def test_empty_file_takes_airflow_3_defaults(load: Loader) -> None:
    inventory = load("")
    (executor,) = inventory.executors
    assert (executor.written, executor.module_path) == ("LocalExecutor", LOCAL_EXECUTOR_PATH)
    assert inventory.airflow_version is None
    assert inventory.airflow_major is None
    assert inventory.airflow_release is None
    assert inventory.default_queue == "default"
    assert inventory.dag_processor_runtime is None
    # Absent: whether a triggerer runs is not known (DRL902 says so), never taken as "none".
    assert (inventory.has_triggerer, inventory.triggerer_runtime) == (None, None)
    assert inventory.workers == ()
    assert inventory.runtimes == {}
    assert inventory.pools is None
    assert inventory.connections is None


def test_airflow_2_default_executor_is_sequential(load: Loader) -> None:
    inventory = load('[deployment]\nairflow_version = "2.10.5"\n')
    assert [e.module_path for e in inventory.executors] == [SEQUENTIAL_EXECUTOR_PATH]
    assert inventory.airflow_major == 2
    assert inventory.airflow_release == (2, 10, 5)


def test_airflow_2_10_allows_several_executors(load: Loader) -> None:
    inventory = load(
        '[deployment]\nairflow_version = "2.10"\nexecutors = ["CeleryExecutor", "x:a.b.Exec"]\n'
    )
    assert [e.display_name for e in inventory.executors] == ["CeleryExecutor", "x"]


def test_executors_as_one_comma_separated_string(load: Loader) -> None:
    inventory = load('[deployment]\nexecutors = "LocalExecutor, fast:LocalExecutor2.x.Y"\n')
    assert [(e.alias, e.module_path) for e in inventory.executors] == [
        ("LocalExecutor", LOCAL_EXECUTOR_PATH),
        ("fast", "LocalExecutor2.x.Y"),
    ]


def test_executor_errors_in_string_form_point_at_the_key(load: Loader) -> None:
    assert error_of(load, '[deployment]\nexecutors = "LocalExecutor, a:b:c"\n') == (
        "dagroute.toml: deployment.executors: 'a:b:c': more than one ':' "
        "(Airflow: Incorrectly formatted executor configuration: a:b:c)"
    )


def test_alias_of_core_name_under_airflow_3(load: Loader) -> None:
    inventory = load(
        '[deployment]\nairflow_version = "3.3.2"\nexecutors = ["fast:LocalExecutor"]\n'
    )
    (executor,) = inventory.executors
    assert (executor.alias, executor.module_path) == ("fast", LOCAL_EXECUTOR_PATH)
    assert inventory.resolve_executor("LocalExecutor") is executor
    assert inventory.resolve_executor("fast") is executor
    assert inventory.resolve_executor("Fast") is None


EDGE = "airflow.providers.edge3.executors.EdgeExecutor"


@pytest.mark.parametrize(
    ("executor", "queues", "expected"),
    [
        ("CeleryExecutor", None, ("jobs",)),  # celery worker -q defaults to default_queue
        ("CeleryExecutor", '["a", "b"]', ("a", "b")),
        (EDGE, None, None),  # edge worker without -q serves all queues
        (EDGE, '["a"]', ("a",)),
        ("KubernetesExecutor", None, None),
        ("KubernetesExecutor", '["ignored"]', None),  # queue-blind: accepted, not used
        ("LocalExecutor", '["ignored"]', None),
        ("airflow.providers.amazon.aws.executors.ecs.ecs_executor.AwsEcsExecutor", '["x"]', None),
        ("my.pkg.MyExecutor", '["a"]', ("a",)),  # unknown behaviour: keep what is listed
        ("my.pkg.MyExecutor", None, None),
    ],
)
def test_worker_queues_are_normalised_per_executor(
    load: Loader, executor: str, queues: str | None, expected: tuple[str, ...] | None
) -> None:
    text = (
        f'[deployment]\nexecutors = ["{executor}"]\ndefault_queue = "jobs"\n'
        '[runtimes.base]\n[[workers]]\nname = "w"\nruntime = "base"\n'
    )
    if queues is not None:
        text += f"queues = {queues}\n"
    (worker,) = load(text).workers
    assert worker.queues == expected


def test_worker_of_airflow_2_hybrid_keeps_its_queues(load: Loader) -> None:
    text = (
        '[deployment]\nairflow_version = "2.9"\nexecutors = ["CeleryKubernetesExecutor"]\n'
        '[runtimes.base]\n[[workers]]\nname = "w"\nqueues = ["kubernetes"]\nruntime = "base"\n'
    )
    (worker,) = load(text).workers
    assert worker.queues == ("kubernetes",)
    assert worker.executor.honours_queue is None


@pytest.mark.parametrize(
    "name",
    [
        "edge",  # alias
        EDGE,  # module path as written
        "EdgeExecutor",  # class name
    ],
)
def test_worker_executor_named_any_way_airflow_accepts(load: Loader, name: str) -> None:
    text = (
        f'[deployment]\nexecutors = ["CeleryExecutor", "edge:{EDGE}"]\n'
        f'[runtimes.base]\n[[workers]]\nname = "w"\nexecutor = "{name}"\nruntime = "base"\n'
    )
    inventory = load(text)
    assert inventory.workers[0].executor is inventory.executors[1]


def test_worker_executor_may_be_omitted_with_one_executor(load: Loader) -> None:
    text = (
        '[deployment]\nexecutors = ["CeleryExecutor"]\n'
        '[runtimes.base]\n[[workers]]\nname = "w"\nruntime = "base"\n'
    )
    inventory = load(text)
    assert inventory.workers[0].executor is inventory.executors[0]
    assert inventory.workers[0].queues == ("default",)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("true", (True, None)),
        ("false", (False, None)),
        ("{}", (True, None)),
        ('{ runtime = "base" }', (True, "base")),
    ],
)
def test_triggerer_forms(load: Loader, value: str, expected: tuple[bool, str | None]) -> None:
    inventory = load(f"[deployment]\ntriggerer = {value}\n[runtimes.base]\n")
    assert (inventory.has_triggerer, inventory.triggerer_runtime) == expected


def test_pools_keep_unlimited_and_an_explicit_default_pool(load: Loader) -> None:
    inventory = load("[pools]\ndefault_pool = 16\nbig = -1\n")
    assert inventory.pools == {"default_pool": 16, "big": -1}


def test_empty_pools_table_still_has_default_pool(load: Loader) -> None:
    assert load("[pools]\n").pools == {"default_pool": 128}


def test_requirements_are_canonicalised(load: Loader) -> None:
    text = (
        "[runtimes.base]\n"
        'providers = ["cncf.kubernetes>=10", "Apache_Airflow_Providers_Amazon[s3] >= 9.0, <10",'
        ' "astronomer-providers", "Standard"]\n'
        'packages = ["Pandas>=2,<3", "requests[socks]==2.*", "ruamel.yaml", "numpy (>=1.26)"]\n'
    )
    runtime = load(text).runtimes["base"]
    assert runtime.providers == (
        Requirement("apache-airflow-providers-cncf-kubernetes", ">=10", "cncf.kubernetes>=10"),
        Requirement(
            "apache-airflow-providers-amazon",
            ">=9.0,<10",
            "Apache_Airflow_Providers_Amazon[s3] >= 9.0, <10",
            ("s3",),
        ),
        Requirement("astronomer-providers", "", "astronomer-providers"),
        Requirement("apache-airflow-providers-standard", "", "Standard"),
    )
    assert runtime.packages == (
        Requirement("pandas", ">=2,<3", "Pandas>=2,<3"),
        Requirement("requests", "==2.*", "requests[socks]==2.*", ("socks",)),
        Requirement("ruamel-yaml", "", "ruamel.yaml"),
        Requirement("numpy", ">=1.26", "numpy (>=1.26)"),
    )
    assert runtime.python is None
    assert runtime.labels == {}


def test_quoted_runtime_names_work_as_references(load: Loader) -> None:
    text = '[runtimes."my image"]\n[[workers]]\nname = "w"\nruntime = "my image"\n'
    assert load(text).workers[0].runtime == "my image"


# --- requirements.py ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "normalised"),
    [
        ("", ""),
        ("  ", ""),
        (">=2", ">=2"),
        (" >= 2 , < 3 ", ">=2,<3"),
        ("==2.*", "==2.*"),
        ("!=1.0.*", "!=1.0.*"),
        ("~=1.4.2", "~=1.4.2"),
        ("==1.0+local.7", "==1.0+local.7"),
        ("===weird-thing", "===weird-thing"),
        (">=1.0a1,<2.0.dev0,!=1.5.post1", ">=1.0a1,<2.0.dev0,!=1.5.post1"),
        ("==1!2.0", "==1!2.0"),
    ],
)
def test_specifier_grammar_accepts(spec: str, normalised: str) -> None:
    assert normalise_specifier(spec) == normalised


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (">=2.*", "invalid version specifier '>=2.*' ('.*' only after == or !=)"),
        ("==2.*.1", "invalid version '2.*.1' in '==2.*.1'"),
        ("~=2", "invalid version specifier '~=2' (~= needs at least X.Y)"),
        ("~=2.0.*", "invalid version specifier '~=2.0.*' ('.*' only after == or !=)"),
        ("<=1.0+local", "invalid version specifier '<=1.0+local' (local version with <=)"),
        (">=", "'>=' needs a version"),
        (">=2,", "empty version specifier clause (a stray ',')"),
        (
            "2.0",
            "invalid version specifier '2.0' (expected an operator ==, !=, <=, >=, <, >, ~= or "
            "=== and a version)",
        ),
        (
            "=>2",
            "invalid version specifier '=>2' (expected an operator ==, !=, <=, >=, <, >, ~= or "
            "=== and a version)",
        ),
        (">=two", "invalid version 'two' in '>=two'"),
    ],
)
def test_specifier_grammar_rejects(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        normalise_specifier(spec)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "pandas; python_version<'3.12'",
            "\"pandas; python_version<'3.12'\": environment markers (';') are not supported",
        ),
        (
            "pkg @ https://x/y.whl",
            "'pkg @ https://x/y.whl': direct references ('@ url') are not supported",
        ),
        ("-pandas", "'-pandas': not a distribution name with an optional version specifier"),
        ("requests[]", "'requests[]': invalid extra name ''"),
        ("requests[a b]", "'requests[a b]': invalid extra name 'a b'"),
        (
            "pandas 2",
            "'pandas 2': invalid version specifier '2' (expected an operator ==, !=, "
            "<=, >=, <, >, ~= or === and a version)",
        ),
    ],
)
def test_parse_requirement_rejects(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_requirement(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("version", "release"),
    [("3.3", (3, 3)), ("2.10.5", (2, 10, 5)), ("3.0.0rc1", (3, 0, 0)), ("3", (3,))],
)
def test_release_tuple(version: str, release: tuple[int, ...]) -> None:
    assert release_tuple(version) == release


def test_providers_in_pip_spelling_are_provider_ids(load: Loader) -> None:
    """``common-sql`` (the id as pip spells it) is ``common.sql``; a prefixed distribution name
    of a provider newer than the shipped table is kept as written."""
    inventory = load(
        '[runtimes.base]\nproviders = ["common-sql", "cncf_kubernetes", "Amazon", '
        '"apache-airflow-providers-brand-new", "acme-airflow-provider"]\n'
    )
    assert [r.name for r in inventory.runtimes["base"].providers] == [
        "apache-airflow-providers-common-sql",
        "apache-airflow-providers-cncf-kubernetes",
        "apache-airflow-providers-amazon",
        "apache-airflow-providers-brand-new",
        "acme-airflow-provider",
    ]


def test_a_provider_id_twice_in_two_spellings_is_one_error(load: Loader) -> None:
    message = error_of(load, '[runtimes.base]\nproviders = ["common.sql", "common-sql"]\n')
    assert message == (
        "dagroute.toml: runtimes.base.providers[1]: apache-airflow-providers-common-sql is listed "
        "twice (also providers[0] 'common.sql')"
    )


def test_inventory_check_of_a_deeply_nested_document_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["inventory", "check", str(path)])
    assert result.exit_code == 2
    deep = "invalid TOML: arrays or inline tables nested too deeply to read"
    assert result.stderr == f"dagroute-lint: {path}: {deep}\n"


def test_packages_from_a_lock_file_beside_the_inventory(load: Loader) -> None:
    Path("requirements.lock").write_text(
        "# pip freeze of the image\ncloud-volume==12.2.0\n"
        "apache-airflow-providers-amazon==9.1.0\npandas==2.2.3\n",
        encoding="utf-8",
    )
    inventory = load(
        '[runtimes.base]\nproviders = ["celery"]\npackages = ["pandas>=2"]\n'
        'packages_from = "requirements.lock"\n'
    )
    runtime = inventory.runtimes["base"]
    assert [(r.name, r.specifier) for r in runtime.providers] == [
        ("apache-airflow-providers-celery", ""),
        ("apache-airflow-providers-amazon", "==9.1.0"),
    ]
    # What the inventory writes itself wins over the file.
    assert [(r.name, r.specifier) for r in runtime.packages] == [
        ("pandas", ">=2"),
        ("cloud-volume", "==12.2.0"),
    ]


def test_packages_from_a_missing_or_broken_file_is_an_error(load: Loader) -> None:
    text = '[runtimes.base]\npackages_from = "requirements.lock"\n'
    missing = error_of(load, text)
    assert missing.startswith(
        "dagroute.toml: runtimes.base.packages_from: 'requirements.lock': no such file"
    )
    Path("requirements.lock").write_text("pandas===\n", encoding="utf-8")
    broken = error_of(load, text)
    assert broken.startswith("dagroute.toml: runtimes.base.packages_from: requirements.lock:1")
