"""DRL203 and the runtime precision cases of DRL202: which imports a worker must satisfy."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.rules.registry import rule_by_code
from tests.helpers import codes, lint_repo, write_repo

# Two Celery workers share the queue `ml`; only `celery-ml` has scikit-learn. Kubernetes pods
# have no business packages. The DAG processor has every provider and package the cases import,
# so the files load (DRL201 and DRL205 stay quiet) and their tasks reach the workers.
INVENTORY = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor", "KubernetesExecutor"]
dag_processor = { runtime = "full" }

[[workers]]
name = "celery-general"
executor = "CeleryExecutor"
queues = ["default", "ml"]
runtime = "base"

[[workers]]
name = "celery-ml"
executor = "CeleryExecutor"
queues = ["ml"]
runtime = "ml"

[[workers]]
name = "k8s-pods"
executor = "KubernetesExecutor"
runtime = "pods"

[runtimes.base]
providers = ["standard", "celery", "cncf.kubernetes", "docker"]
packages = ["pandas>=2", "requests"]

[runtimes.ml]
providers = ["standard", "celery"]
packages = ["pandas>=2", "scikit-learn>=1.4", "opencv-python-headless", "Pillow", "beautifulsoup4"]

[runtimes.pods]
providers = ["standard", "cncf.kubernetes"]
packages = []

[runtimes.full]
providers = ["standard", "celery", "cncf.kubernetes", "docker", "amazon"]
packages = [
    "pandas>=2", "scikit-learn", "polars", "opencv-python-headless", "Pillow", "beautifulsoup4",
    "helpers", "tools", "localmod", "PyJWT", "protobuf",
]
"""

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, task
"""


def lint(tmp_path: Path, body: str, extra: dict[str, str] | None = None) -> list[str]:
    """DRL2xx messages for ``dags/dag.py``, as ``'<line>: <CODE> <message>'``."""
    report = lint_repo(tmp_path, {"dags/dag.py": HEADER + body, **(extra or {})}, INVENTORY)
    return [
        f"{d.line}: {d.code} {d.message}" for d in report.diagnostics if d.code.startswith("DRL2")
    ]


# --- what counts --------------------------------------------------------------------------------


def test_module_level_import_counts_for_every_task_of_the_file(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
import sklearn
with DAG("lab"):
    BashOperator(task_id="shell", bash_command="x")
    BashOperator(task_id="pod", bash_command="x", executor="KubernetesExecutor")
    EmptyOperator(task_id="noop")
""",
    )
    # One report at the import, for both tasks; the EmptyOperator never reaches a worker.
    assert found == [
        "5: DRL203 module-level import of 'sklearn' needs scikit-learn, which workers "
        "'celery-general' (runtime 'base'), 'k8s-pods' (runtime 'pods') lack; 2 tasks fail "
        "there at startup, before their first line runs: task 'shell' in dag 'lab', "
        "task 'pod' in dag 'lab'",
    ]


def test_import_inside_the_task_counts_for_that_task_only(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
with DAG("lab"):
    @task
    def train():
        import sklearn.linear_model
        return 1

    @task
    def report():
        return 2

    train() >> report()
""",
    )
    assert found == [
        "15: DRL203 task 'train' in dag 'lab' imports 'sklearn.linear_model' (import in the task, "
        "line 8), which needs scikit-learn; worker 'celery-general' (runtime 'base') lacks it; "
        "it will fail when the import runs"
    ]


def test_some_workers_of_the_queue_lack_it_fails_only_sometimes(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
with DAG("lab"):
    @task(queue="ml")
    def train():
        import sklearn
        import cv2
        return 1

    train()
""",
    )
    assert len(found) == 2
    assert "which needs opencv-python; worker 'celery-general'" in found[0]
    assert found[1] == (
        "12: DRL203 task 'train' in dag 'lab' imports 'sklearn' (import in the task, line 8), "
        "which needs scikit-learn; worker 'celery-general' (runtime 'base') lacks it while "
        "'celery-ml' has it; it fails only when it lands on a worker without it"
    )


def test_all_serving_workers_lack_it_fails_always(tmp_path: Path) -> None:
    (message,) = lint(
        tmp_path,
        """
import polars
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x", queue="ml")
""",
    )
    assert "workers 'celery-general' (runtime 'base'), 'celery-ml' (runtime 'ml') lack;" in (
        message
    )
    assert message.endswith(
        "; 1 task fails there at startup, before its first line runs: task 't' in dag 'lab'"
    )


def test_a_package_imported_twice_is_reported_once(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
import sklearn
with DAG("lab"):
    @task
    def train():
        import sklearn
        return 1
    train()
""",
    )
    (message,) = found
    assert message.startswith("5: DRL203 module-level import of 'sklearn' needs scikit-learn")


def test_stdlib_first_party_airflow_and_airflow_dependencies_never_count(tmp_path: Path) -> None:
    extra = {
        "dags/common/__init__.py": "",
        "dags/common/helpers.py": "X = 1\n",
        "dags/localmod.py": "Y = 1\n",
        "dags/shared/util.py": "Z = 1\n",  # a namespace package: no __init__.py
        "tools/__init__.py": "",  # the repository root is an import root too
    }
    found = lint(
        tmp_path,
        """
import collections.abc
import distutils
import json
import os.path
import pendulum
import yaml
import requests
from dateutil import parser
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from common.helpers import X
import localmod
from shared.util import Z
import tools
with DAG("lab"):
    @task
    def t():
        import pandas
        import jwt
        from google.protobuf import json_format
        return 1
    t()
""",
        extra,
    )
    assert found == []


def test_guarded_and_type_checking_imports_are_not_reported(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
from typing import TYPE_CHECKING
try:
    import sklearn
except ImportError:
    sklearn = None
if TYPE_CHECKING:
    import polars
with DAG("lab"):
    @task
    def t():
        try:
            import cv2
        except ModuleNotFoundError:
            cv2 = None
        return 1
    t()
""",
    )
    assert found == []


def test_the_else_branch_of_type_checking_runs(tmp_path: Path) -> None:
    (message,) = lint(
        tmp_path,
        """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    import polars
else:
    import sklearn
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert message.startswith("9: DRL203 module-level import of 'sklearn' needs scikit-learn")


def test_import_names_map_to_distributions(tmp_path: Path) -> None:
    body = """
import sklearn
import cv2
from PIL import Image
from bs4 import BeautifulSoup
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x", queue="ml")
"""
    found = lint(tmp_path, body)
    needs = [line.split(" needs ")[1].split(", which")[0] for line in found]
    assert needs == ["scikit-learn", "opencv-python", "pillow", "beautifulsoup4"]
    # celery-ml lists all four by distribution name (opencv in its headless build), so each
    # import is missing only on celery-general.
    assert all(
        "which worker 'celery-general' (runtime 'base') lacks; 1 task fails there at startup, "
        "when it lands on a worker without it" in f
        for f in found
    )


def test_noqa_on_the_import_line_suppresses(tmp_path: Path) -> None:
    """A module-level import is reported at the import, so its noqa goes there."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
import sklearn  # noqa: DRL203
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x")
"""
        },
        INVENTORY,
    )
    assert codes(report) == []


# --- code that runs in its own runtime ----------------------------------------------------------


def test_bodies_running_elsewhere_are_not_the_workers_business(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
from airflow.providers.standard.operators.python import ExternalPythonOperator

def isolated():
    import sklearn
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
    return S3Hook

with DAG("lab"):
    @task.external_python(python="/opt/py/bin/python")
    def a():
        import sklearn
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook
        return S3Hook

    @task.branch_external_python(python="/opt/py/bin/python")
    def b():
        import sklearn
        return "a"

    @task.docker(image="ml:1")
    def c():
        import sklearn
        return 1

    @task.kubernetes(image="ml:1", namespace="ml")
    def d():
        import sklearn
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook
        return S3Hook

    ExternalPythonOperator(task_id="e", python="/opt/py/bin/python", python_callable=isolated)
    a() >> b() >> c() >> d()
""",
    )
    assert found == []


def test_the_worker_still_needs_the_provider_of_the_isolating_operator(tmp_path: Path) -> None:
    (message,) = lint(
        tmp_path,
        """
with DAG("lab"):
    @task.kubernetes(image="ml:1", namespace="ml", queue="ml")
    def a():
        import sklearn
        return 1
    a()
""",
    )
    # The pod's image is not the worker's business (no DRL203 for sklearn), but the worker that
    # launches the pod needs the cncf.kubernetes provider; only one of the two serving has it.
    assert message == (
        "10: DRL202 task 'a' in dag 'lab' needs apache-airflow-providers-cncf-kubernetes "
        "(the @task.kubernetes decorator), which worker 'celery-ml' (runtime 'ml') lacks while "
        "'celery-general' has it; it fails only when it lands on a worker without it"
    )


def test_kubernetes_cmd_functions_run_on_the_worker(tmp_path: Path) -> None:
    # The function only builds the command, in the worker's execute(); the pod runs the command.
    (message,) = lint(
        tmp_path,
        """
with DAG("lab"):
    @task.kubernetes_cmd(image="ml:1", namespace="ml")
    def build():
        import sklearn
        return ["echo", sklearn.__version__]
    build()
""",
    )
    assert "DRL203 task 'build' in dag 'lab' imports 'sklearn' (import in the task" in message


def test_virtualenv_imports_are_checked_against_requirements(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
with DAG("lab"):
    @task.virtualenv(requirements=["scikit-learn==1.5", "pillow"], system_site_packages=False)
    def listed():
        import sklearn
        from PIL import Image
        import json
        return 1

    @task.virtualenv(requirements=["scikit-learn"], system_site_packages=False)
    def unlisted():
        import sklearn
        import pandas
        import pendulum
        return 1

    @task.virtualenv(requirements=["apache-airflow==3.3.2"], system_site_packages=False)
    def with_airflow():
        import pendulum
        return 1

    listed() >> unlisted() >> with_airflow()
""",
    )
    assert found == [
        "25: DRL203 task 'unlisted' in dag 'lab' imports 'pandas' in its virtualenv (line 16), "
        "but requirements= does not list pandas and system_site_packages=False hides the "
        "worker's packages; it will fail when the import runs",
        "25: DRL203 task 'unlisted' in dag 'lab' imports 'pendulum' in its virtualenv "
        "(line 17), but requirements= does not list pendulum and system_site_packages=False "
        "hides the worker's packages; it will fail when the import runs",
    ]


def test_virtualenv_sees_the_workers_packages_by_default(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
with DAG("lab"):
    @task.virtualenv(requirements="polars\\n# a comment\\n", queue="ml")
    def a():
        import polars
        import pandas
        import pendulum
        import sklearn
        import cv2
        return 1
    a()
""",
    )
    # polars is a requirement; pandas is on both workers; pendulum comes with Airflow;
    # sklearn and cv2 are only on celery-ml.
    assert [line.split(" in its virtualenv")[0] for line in found] == [
        "14: DRL203 task 'a' in dag 'lab' imports 'cv2'",
        "14: DRL203 task 'a' in dag 'lab' imports 'sklearn'",
    ]
    assert found[1].endswith(
        "but requirements= does not list scikit-learn, and worker 'celery-general' (runtime "
        "'base'), whose packages the venv sees (system_site_packages=True), lacks it while "
        "'celery-ml' has it; it fails only when it lands on a worker without it"
    )


def test_classic_virtualenv_operator_and_unknown_requirements(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        """
from airflow.providers.standard.operators.python import PythonVirtualenvOperator
from common.deps import REQUIREMENTS

def body():
    import polars
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
    return S3Hook

with DAG("lab"):
    PythonVirtualenvOperator(task_id="literal", python_callable=body, requirements=["numpy"])
    PythonVirtualenvOperator(task_id="imported", python_callable=body, requirements=REQUIREMENTS)
    PythonVirtualenvOperator(task_id="file", python_callable=body, requirements=["-r r.txt"])
    PythonVirtualenvOperator(task_id="templated", python_callable=body, requirements="{{ x }}")
""",
        {"dags/common/__init__.py": "", "dags/common/deps.py": 'REQUIREMENTS = ["polars"]\n'},
    )
    # Only the literal list can be judged; the provider import is the venv's, not DRL202's.
    assert found == [
        "14: DRL203 task 'literal' in dag 'lab' imports 'polars' in its virtualenv (line 9), "
        "but requirements= does not list polars, and worker 'celery-general' (runtime 'base'), "
        "whose packages the venv sees (system_site_packages=True), lacks it; it will fail when "
        "the import runs"
    ]


def test_provider_imports_in_a_task_body_still_count_for_drl202(tmp_path: Path) -> None:
    (message,) = lint(
        tmp_path,
        """
with DAG("lab"):
    @task
    def pull():
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook
        return S3Hook
    pull()
""",
    )
    assert message.startswith("10: DRL202 task 'pull' in dag 'lab' needs apache-airflow-providers")


# --- placement ----------------------------------------------------------------------------------


def test_edge_workers_without_queues_serve_every_queue(tmp_path: Path) -> None:
    inventory_text = """
[deployment]
airflow_version = "3.3"
executors = ["airflow.providers.edge3.executors.EdgeExecutor"]
[[workers]]
name = "edge-any"
runtime = "base"
[[workers]]
name = "edge-gpu"
queues = ["gpu"]
runtime = "base"
[runtimes.base]
providers = ["standard", "edge3"]
"""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
with DAG("lab"):
    BashOperator(task_id="gpu", bash_command="x", queue="gpu")
    BashOperator(task_id="rare", bash_command="x", queue="rare")
"""
        },
        inventory_text,
    )
    placed = {
        task.task_id: [worker.name for worker in placement.workers]
        for task, placement in report.repository.placed
    }
    assert placed == {"gpu": ["edge-any", "edge-gpu"], "rare": ["edge-any"]}
    assert codes(report) == []


def test_rule_is_registered_with_its_boundary() -> None:
    rule = rule_by_code("DRL203")
    assert rule is not None
    assert (rule.name, rule.boundary, rule.needs_inventory) == (
        "package-missing-on-worker",
        "startup",
        True,
    )


def test_first_party_is_decided_by_the_import_roots(tmp_path: Path) -> None:
    write_repo(tmp_path, {"dags/helpers.py": ""})
    body = """
import helpers
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x")
"""
    assert lint(tmp_path, body) == []
    (tmp_path / "dags" / "helpers.py").unlink()
    (message,) = lint(tmp_path / "elsewhere", body)
    assert "module-level import of 'helpers' needs an unknown distribution providing " in message
    assert "'helpers', which worker" in message


def test_the_inventorys_airflow_version_decides_what_providers_mean(tmp_path: Path) -> None:
    source = """
from airflow.decorators import task
from airflow.models.dag import DAG
from airflow.providers.standard.operators.bash import BashOperator

with DAG("lab"):
    @task.virtualenv(requirements=[])
    def venv():
        return 1
    venv() >> BashOperator(task_id="shell", bash_command="x")
"""
    inventory = """
[deployment]
airflow_version = "{version}"
executors = ["CeleryExecutor"]
dag_processor = {{ runtime = "base" }}
[[workers]]
name = "celery"
runtime = "base"
[runtimes.base]
providers = ["celery"]
"""
    airflow3 = lint_repo(tmp_path / "3", {"dags/dag.py": source}, inventory.format(version="3.3"))
    # Airflow 3 installs the standard provider with its core; @task.virtualenv comes from it.
    # Only the Airflow 2 paths of task and DAG are reported: they moved to airflow.sdk.
    assert codes(airflow3) == ["DRL204", "DRL204"]
    airflow2 = lint_repo(
        tmp_path / "2", {"dags/dag.py": source}, inventory.format(version="2.10.5")
    )
    # On Airflow 2 @task.virtualenv is built in, but the standard provider is a separate install:
    # the file does not load (DRL201), so no task reaches the worker to fail there (no DRL202).
    assert codes(airflow2) == ["DRL201"]
    assert all("apache-airflow-providers-standard" in d.message for d in airflow2.diagnostics)
    assert not any("@task.virtualenv" in d.message for d in airflow2.diagnostics)
