"""Print Airflow's own parsed routing for every task of a DAG folder, as JSON (the oracle).

Run with the interpreter of the pinned Airflow venv, never the linter's::

    <airflow-venv>/bin/python dump_airflow.py DAG_FOLDER --executors CeleryExecutor,... \
        --default-queue default --output airflow.json

It loads the folder the way the DAG processor of the installed Airflow does (3.x:
``BundleDagBag``; 2.x: ``DagBag(folder, include_examples=False)``; either way the folder is on
``sys.path``, every file is imported, each DAG validated, including its executor names, and
serialized) and records, for every task, the values the parsed operator holds: ``task.queue``,
``task.executor``, ``task.pool``, ``task.pool_slots``, whether it defers, its operator class,
whether it is mapped and whether the scheduler dispatches it at all. When the deployment's
``airflow_local_settings`` defines ``task_instance_mutation_hook``, the routing recorded is that
of a ``TaskInstance`` built from the task, which runs the hook (the parsed values are kept under
``parsed``). No metadata database is needed.
This file is imported by nothing; it must run on the Airflow venv's Python (3.10+), but keeps
to 3.9 syntax like the rest of the test code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _configure(folder: Path, executors: str, default_queue: str) -> None:
    """Set Airflow's configuration through the environment, before ``airflow`` is imported.

    ``[operators] default_queue`` is read once when the task SDK is imported, so it must be in
    place first; ``[core] executor`` must list every executor name a task uses, or its DAG is
    dropped with an import error.
    """
    for key in [k for k in os.environ if k.startswith("AIRFLOW__")]:
        del os.environ[key]
    if not os.environ.get("AIRFLOW_HOME"):
        os.environ["AIRFLOW_HOME"] = tempfile.mkdtemp(prefix="dagroute-airflow-home-")
    os.environ["AIRFLOW__CORE__EXECUTOR"] = executors
    os.environ["AIRFLOW__OPERATORS__DEFAULT_QUEUE"] = default_queue
    os.environ["AIRFLOW__CORE__DAGS_FOLDER"] = str(folder)
    os.environ["AIRFLOW__CORE__LOAD_EXAMPLES"] = "False"
    os.environ["AIRFLOW__CORE__DAGBAG_IMPORT_TIMEOUT"] = "120"
    os.environ["AIRFLOW__LOGGING__LOGGING_LEVEL"] = "ERROR"


# The routing fields a task instance copies from its task (``refresh_from_task``).
ROUTING = ("queue", "executor", "pool", "pool_slots")


def _relative(path: str, folder: Path) -> str:
    try:
        return Path(path).resolve().relative_to(folder).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _operator_name(task: Any) -> str:
    """``module.QualName`` of the operator class; a mapped task names the class it maps."""
    module = getattr(task, "_task_module", None)
    if module:
        return f"{module}.{task.task_type}"
    return f"{type(task).__module__}.{type(task).__qualname__}"


def _mapped(task: Any) -> bool:
    if hasattr(task, "is_mapped"):  # 3.x operators and mapped operators
        return bool(task.is_mapped)
    from airflow.models.mappedoperator import MappedOperator  # 2.x

    return isinstance(task, MappedOperator)


# Sensors whose ``execute`` always defers and that hold no ``deferrable`` attribute, by class
# (subclasses included): 3.x DateTimeSensorAsync; in 2.x the three *Async sensors of core.
ALWAYS_DEFER: frozenset[str] = frozenset(
    {
        "airflow.providers.standard.sensors.date_time.DateTimeSensorAsync",
        "airflow.sensors.date_time.DateTimeSensorAsync",
        "airflow.sensors.time_sensor.TimeSensorAsync",
        "airflow.sensors.time_delta.TimeDeltaSensorAsync",
    }
)


def _always_defers(task: Any) -> bool:
    cls = getattr(task, "operator_class", None) or type(task)  # a mapped task names its class
    if not isinstance(cls, type):
        return False
    return any(f"{base.__module__}.{base.__qualname__}" in ALWAYS_DEFER for base in cls.__mro__)


def _deferrable(task: Any) -> bool:
    """Whether the parsed task hands its wait to the triggerer.

    ``deferrable`` exists only on operators whose ``__init__`` takes it; a mapped operator keeps
    it in ``partial_kwargs``. ``start_from_trigger`` tasks are started by the scheduler in the
    triggerer. The ``ALWAYS_DEFER`` sensors have neither attribute: their ``execute`` defers.
    """
    if getattr(task, "start_from_trigger", False) or _always_defers(task):
        return True
    partial_kwargs = getattr(task, "partial_kwargs", None)
    if partial_kwargs is not None:
        return bool(partial_kwargs.get("deferrable", False))
    return bool(getattr(task, "deferrable", False))


def _dispatched(task: Any, major: int) -> bool:
    """Whether the scheduler sends the task to an executor rather than marking it SUCCESS.

    3.x ``TaskInstance.is_task_schedulable``: not an EmptyOperator, or one with an execute or
    success callback, outlets or inlets. 2.x ``DagRun.schedule_tis`` looked at the callbacks and
    outlets only.
    """
    if not task.inherits_from_empty_operator:
        return True
    if major >= 3:
        return bool(
            task.has_on_execute_callback
            or task.has_on_success_callback
            or task.outlets
            or task.inlets
        )
    return bool(task.on_execute_callback or task.on_success_callback or task.outlets)


def _taskflow_operators(major: int) -> dict[str, str]:
    """``task.<kind>`` -> the operator class that decorator builds, read from this Airflow.

    routes names a TaskFlow task by its decorator (the public spelling); Airflow holds a private
    ``_...DecoratedOperator`` class. Decorating a throw-away function returns the decorator
    object, whose ``operator_class`` is that class; kinds whose extra packages are absent are
    left out.
    """
    if major >= 3:
        from airflow.sdk import task
    else:
        from airflow.decorators import task

    def probe() -> None:
        """A function to decorate."""

    from airflow.providers_manager import ProvidersManager

    # 3.x resolves most kinds lazily from the providers' registrations, so dir() misses them.
    kinds = {name for name in dir(task) if not name.startswith("_")}
    kinds.update(ProvidersManager().taskflow_decorators)
    table: dict[str, str] = {}
    for kind in sorted(kinds):
        # external_python takes its interpreter first: called with the function alone it
        # returns another decorator, so try with the interpreter too.
        for args in ({}, {"python": sys.executable}):
            try:
                decorator = getattr(task, kind)(**args) if args else getattr(task, kind)
                operator_class = getattr(decorator(probe), "operator_class", None)
            except Exception:  # an optional provider is not installed, or it takes other input
                continue
            if isinstance(operator_class, type):
                qualified = f"{operator_class.__module__}.{operator_class.__qualname__}"
                table[f"task.{kind}"] = qualified
                break
    return table


def _mutation_hook_active() -> bool:
    """Whether ``airflow_local_settings`` (or a policy plugin) defines
    ``task_instance_mutation_hook``: Airflow then marks its wrapper as no longer a no-op."""
    from airflow import settings

    return not getattr(settings.task_instance_mutation_hook, "is_noop", True)


def _dispatched_routing(task: Any, major: int) -> dict[str, Any]:
    """The routing the scheduler dispatches the task with: a ``TaskInstance`` made from it, as
    the scheduler makes one, runs ``refresh_from_task``, which copies the task's routing and
    then runs Airflow's ``task_instance_mutation_hook`` for real (no run: ``dag_run`` is
    ``None`` in 3.x). No database is needed to build one."""
    from airflow.models.taskinstance import TaskInstance

    if major >= 3:
        import uuid

        ti = TaskInstance(task, dag_version_id=uuid.uuid4(), run_id="conformance", map_index=0)
    else:
        ti = TaskInstance(task, run_id="conformance", map_index=0)
    return {
        "queue": ti.queue,
        "executor": ti.executor,
        "pool": ti.pool,
        "pool_slots": ti.pool_slots,
    }


def _load(folder: Path, major: int) -> Any:
    """The DagBag the DAG processor of this Airflow version fills from ``folder``."""
    if major >= 3:
        from airflow.dag_processing.dagbag import BundleDagBag

        return BundleDagBag(
            dag_folder=str(folder),
            bundle_path=folder,
            bundle_name="conformance",
            load_op_links=False,
        )
    from airflow.models.dagbag import DagBag

    return DagBag(str(folder), include_examples=False, load_op_links=False)


def _serialize(dag: Any, major: int) -> None:
    if major >= 3:
        from airflow.serialization.serialized_objects import DagSerialization

        DagSerialization.to_dict(dag)
    else:
        from airflow.serialization.serialized_objects import SerializedDAG

        SerializedDAG.to_dict(dag)


def dump(folder: Path, errors_only: bool = False) -> dict[str, Any]:
    """Load ``folder`` with Airflow and return its DAGs, tasks and import errors.

    ``import_errors`` is keyed by file (relative to ``folder``), ``serialization_errors`` by
    dag_id. ``errors_only`` skips the tasks and serialization (the prediction test needs only
    which files load).
    """
    import airflow

    major = int(airflow.__version__.split(".")[0])
    started = time.monotonic()
    bag = _load(folder, major)
    import_errors = {_relative(str(folder / k), folder): v for k, v in bag.import_errors.items()}
    serialization_errors: dict[str, str] = {}

    dags: list[dict[str, Any]] = []
    tasks: list[dict[str, Any]] = []
    # With a mutation hook, a task's routing is what its task instance holds after the hook.
    mutated = not errors_only and _mutation_hook_active()
    for dag_id in sorted(bag.dags) if not errors_only else ():
        dag = bag.dags[dag_id]
        file = _relative(dag.fileloc, folder)
        # The DAG processor also serializes every DAG and records a failure as an import error
        # of the file. Kept apart here: the parsed values are still Airflow's, and some example
        # DAGs only fail because their plugins (custom timetables, weight rules) are not
        # registered in this bare environment.
        try:
            _serialize(dag, major)
        except Exception as exc:
            serialization_errors[dag_id] = f"{file}: {type(exc).__name__}: {exc}"
        dags.append({"file": file, "dag_id": dag_id, "task_count": len(dag.task_dict)})
        for task_id in sorted(dag.task_dict):
            task = dag.task_dict[task_id]
            tasks.append(
                {
                    "file": file,
                    "dag_id": dag_id,
                    "task_id": task_id,
                    "queue": task.queue,
                    "executor": task.executor,
                    "pool": task.pool,
                    "pool_slots": task.pool_slots,
                    "deferrable": _deferrable(task),
                    "operator": _operator_name(task),
                    "mapped": _mapped(task),
                    "dispatched": _dispatched(task, major),
                }
            )
            if mutated:
                tasks[-1]["parsed"] = {key: tasks[-1][key] for key in ROUTING}
                tasks[-1].update(_dispatched_routing(task, major))
    return {
        "airflow_version": airflow.__version__,
        "folder": str(folder),
        "settings": {
            "executor": os.environ["AIRFLOW__CORE__EXECUTOR"],
            "default_queue": os.environ["AIRFLOW__OPERATORS__DEFAULT_QUEUE"],
        },
        "seconds": round(time.monotonic() - started, 2),
        "taskflow_operators": {} if errors_only else _taskflow_operators(major),
        "dag_files": sorted({_relative(dag.fileloc, folder) for dag in bag.dags.values()}),
        "dags": dags,
        "tasks": tasks,
        "mutation_hook": mutated,
        "import_errors": dict(sorted(import_errors.items())),
        "serialization_errors": dict(sorted(serialization_errors.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--executors", default="CeleryExecutor,KubernetesExecutor,LocalExecutor")
    parser.add_argument("--default-queue", default="default")
    parser.add_argument("--output", type=Path, help="write JSON here instead of stdout")
    parser.add_argument(
        "--environment",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set in the environment the DAG files are parsed in (after the AIRFLOW__ settings)",
    )
    parser.add_argument("--errors-only", action="store_true", help="only which files load")
    args = parser.parse_args(argv)

    folder = args.folder.resolve()
    _configure(folder, args.executors, args.default_queue)
    for assignment in args.environment:
        name, _, value = assignment.partition("=")
        os.environ[name] = value
    # Airflow and DAG files print while loading; keep stdout for the JSON alone.
    sys.stdout.flush()
    saved_stdout = os.dup(1)
    os.dup2(2, 1)
    try:
        result = dump(folder, args.errors_only)
    finally:
        sys.stdout.flush()
        os.dup2(saved_stdout, 1)
        os.close(saved_stdout)
    text = json.dumps(result, indent=2, sort_keys=True, default=repr) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
