"""Airflow's ``[core] executor`` syntax and what each executor does with a task's queue."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from dagroute_lint.records import record
from dagroute_lint.wording import did_you_mean

# Built-in names and the module paths ExecutorLoader maps them to (``ExecutorLoader.executors`` in
# airflow-core/src/airflow/executors/executor_loader.py, 3.3.2; the 2.10 loader has all seven).
LOCAL_EXECUTOR_PATH = "airflow.executors.local_executor.LocalExecutor"
CELERY_EXECUTOR_PATH = "airflow.providers.celery.executors.celery_executor.CeleryExecutor"
KUBERNETES_EXECUTOR_PATH = (
    "airflow.providers.cncf.kubernetes.executors.kubernetes_executor.KubernetesExecutor"
)
SEQUENTIAL_EXECUTOR_PATH = "airflow.executors.sequential_executor.SequentialExecutor"
DEBUG_EXECUTOR_PATH = "airflow.executors.debug_executor.DebugExecutor"
CELERY_KUBERNETES_EXECUTOR_PATH = (
    "airflow.providers.celery.executors.celery_kubernetes_executor.CeleryKubernetesExecutor"
)
LOCAL_KUBERNETES_EXECUTOR_PATH = (
    "airflow.providers.cncf.kubernetes.executors.local_kubernetes_executor.LocalKubernetesExecutor"
)

CORE_EXECUTORS_3: dict[str, str] = {
    "LocalExecutor": LOCAL_EXECUTOR_PATH,
    "CeleryExecutor": CELERY_EXECUTOR_PATH,
    "KubernetesExecutor": KUBERNETES_EXECUTOR_PATH,
}
# Removed (Sequential, Debug) or made to raise in their constructor (the two hybrids) in 3.0.
CORE_EXECUTORS_2_ONLY: dict[str, str] = {
    "SequentialExecutor": SEQUENTIAL_EXECUTOR_PATH,
    "DebugExecutor": DEBUG_EXECUTOR_PATH,
    "CeleryKubernetesExecutor": CELERY_KUBERNETES_EXECUTOR_PATH,
    "LocalKubernetesExecutor": LOCAL_KUBERNETES_EXECUTOR_PATH,
}
CORE_EXECUTORS_2: dict[str, str] = {**CORE_EXECUTORS_3, **CORE_EXECUTORS_2_ONLY}

# Provider executors people write by class name alone, which only core executors allow; the
# paths are the ones the provider docs give for ``[core] executor``.
PROVIDER_EXECUTOR_PATHS: dict[str, str] = {
    "EdgeExecutor": "airflow.providers.edge3.executors.EdgeExecutor",
    "AwsEcsExecutor": "airflow.providers.amazon.aws.executors.ecs.ecs_executor.AwsEcsExecutor",
    "AwsBatchExecutor": (
        "airflow.providers.amazon.aws.executors.batch.batch_executor.AwsBatchExecutor"
    ),
    "AwsLambdaExecutor": (
        "airflow.providers.amazon.aws.executors.aws_lambda.lambda_executor.AwsLambdaExecutor"
    ),
}

# What ``[core] executor`` holds when nobody sets it (semantics §3.1).
DEFAULT_EXECUTOR_3 = "LocalExecutor"
DEFAULT_EXECUTOR_2 = "SequentialExecutor"

_HYBRIDS = frozenset({"CeleryKubernetesExecutor", "LocalKubernetesExecutor"})
# AWS executors in the amazon provider are all named Aws<Service>Executor (semantics §3.2).
_AWS_CLASS = re.compile(r"Aws[A-Z][A-Za-z0-9_]*Executor")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_KIND_BY_CLASS: dict[str, str] = {
    "CeleryExecutor": "celery",
    "EdgeExecutor": "edge",
    "KubernetesExecutor": "kubernetes",
    "LocalExecutor": "local",
    "SequentialExecutor": "sequential",
    "DebugExecutor": "debug",
    "CeleryKubernetesExecutor": "celery_kubernetes",
    "LocalKubernetesExecutor": "local_kubernetes",
}
# Semantics §2: Celery sends ``apply_async(queue=ti.queue)`` and Edge workers filter jobs on
# ``queue IN worker.queues``; Local, Kubernetes, Sequential, Debug and the AWS executors carry the
# queue but never route on it. The hybrids route one queue name only, so they answer neither way.
_QUEUE_HONOURING_KINDS = frozenset({"celery", "edge"})
_QUEUE_BLIND_KINDS = frozenset({"kubernetes", "local", "sequential", "debug", "aws"})


def executor_kind(class_name: str) -> str | None:
    """A short family name for a known executor class, so rules need not compare class names.

    Matching is by class name whichever module path it was configured with, because Airflow's
    own name lookup treats the class name as an identity (semantics §3.2).
    """
    kind = _KIND_BY_CLASS.get(class_name)
    if kind is not None:
        return kind
    if _AWS_CLASS.fullmatch(class_name):
        return "aws"
    return None


def honours_queue(class_name: str) -> bool | None:
    """Whether tasks' ``queue`` decides which worker runs them, ``None`` when we cannot know."""
    kind = executor_kind(class_name)
    if kind in _QUEUE_HONOURING_KINDS:
        return True
    if kind in _QUEUE_BLIND_KINDS:
        return False
    return None


@record
class ExecutorEntry:
    """One entry of ``[core] executor``, as Airflow's ExecutorLoader parses it.

    ``module_path`` is the path as written, or the built-in path for a core name.
    ``honours_queue`` is ``None`` for executors we know nothing about (custom classes).
    """

    written: str
    alias: str | None
    module_path: str
    honours_queue: bool | None

    @property
    def class_name(self) -> str:
        return self.module_path.rsplit(".", 1)[-1]

    @property
    def display_name(self) -> str:
        return self.alias or self.class_name

    @property
    def kind(self) -> str | None:
        """Family of the executor (``celery``, ``edge``, ``kubernetes``, ``local``, ``aws``...)."""
        return executor_kind(self.class_name)

    def accepts(self, name: str) -> bool:
        """Whether a task's ``executor=name`` selects this entry (exact and case-sensitive).

        Mirrors ``ExecutorLoader.lookup_executor_name_by_str`` (semantics §3.2): alias, then the
        module path Airflow registered, then the class name. Another import path of the same
        class does not match, because Airflow compares configuration strings only.
        """
        # A core name's registered module path is the built-in one, and the name as written is
        # its alias or class name, so these three cover "the module path as written" too.
        return name in (self.alias, self.module_path, self.class_name)


def resolve_executor(entries: Sequence[ExecutorEntry], name: str) -> ExecutorEntry | None:
    """The entry Airflow picks for ``executor=name``, or ``None`` when no entry accepts it.

    When two entries accept a name (an alias equal to another entry's class name), Airflow's
    lookup tries aliases first, then module paths, then class names, and within one kind the
    last configured entry wins because later ones overwrite earlier ones in its lookup dicts.
    """
    by_alias = [entry for entry in entries if entry.alias == name]
    by_path = [entry for entry in entries if entry.module_path == name]
    by_class = [entry for entry in entries if entry.class_name == name]
    for found in (by_alias, by_path, by_class):
        if found:
            return found[-1]
    return None


class ExecutorConfigError(ValueError):
    """An executor list Airflow would refuse; ``index`` is the offending entry, if there is one."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


def _core_names(airflow_major: int) -> dict[str, str]:
    return CORE_EXECUTORS_2 if airflow_major == 2 else CORE_EXECUTORS_3


def _is_module_path(text: str) -> bool:
    parts = text.split(".")
    return len(parts) >= 2 and all(_IDENTIFIER.fullmatch(part) for part in parts)


def _not_importable(name: str, core: Mapping[str, str]) -> str:
    """Why a dotless non-core name cannot be an executor, with the likely intended spelling."""
    provider_path = PROVIDER_EXECUTOR_PATHS.get(name)
    if provider_path is not None:
        return f"'{name}' is not a core executor name; configure it by module path: {provider_path}"
    return (
        f"'{name}' is neither a core executor name ({', '.join(core)}) nor a module path such "
        f"as my_company.executors.MyExecutor{did_you_mean(name, core)}"
    )


def parse_executor_entry(written: str, airflow_major: int | None) -> ExecutorEntry:
    """Parse one entry (already split on commas and stripped); raise ``ValueError`` if invalid."""
    major = 3 if airflow_major is None else airflow_major
    core = _core_names(major)
    if written == "":
        # Airflow 3.3.2 keeps an empty entry as a module path "" and fails when importing it.
        raise ValueError("empty executor entry (a stray ','?)")
    if "," in written:
        raise ValueError(f"'{written}': ',' separates entries; give each executor on its own")
    if ";" in written or "=" in written:
        raise ValueError(
            f"'{written}': multi-team executor configuration (';' and 'team=') is not supported "
            "by the inventory yet; list the global executors only"
        )
    parts = written.split(":")
    if len(parts) > 2:
        raise ValueError(
            f"'{written}': more than one ':' "
            f"(Airflow: Incorrectly formatted executor configuration: {written})"
        )
    if major >= 3 and written in CORE_EXECUTORS_2_ONLY:
        raise ValueError(_removed_in_3(written, written))
    if len(parts) == 1:
        module_path = core.get(written)
        if module_path is not None:
            # A bare core name is its own alias (ExecutorLoader._get_executor_names).
            return _entry(written, written, module_path)
        if not _is_module_path(written):
            # Airflow accepts this at config parse but import_string fails when loading it.
            raise ValueError(_not_importable(written, core))
        if major >= 3 and written in CORE_EXECUTORS_2_ONLY.values():
            raise ValueError(_removed_in_3(written, written.rsplit(".", 1)[-1]))
        return _entry(written, None, written)
    alias, target = parts
    if major >= 3 and target in CORE_EXECUTORS_2_ONLY:
        raise ValueError(_removed_in_3(written, target))
    # An empty alias (":a.b.C") is accepted by Airflow and simply registers no alias.
    alias_or_none = alias or None
    if target in core:
        if major == 2:
            # The 2.10 loader refuses any core name after ':' (semantics §3.1).
            raise ValueError(
                f"'{written}': Airflow 2 does not accept an alias for a core executor name; write "
                f"'{alias}:{core[target]}' instead (Airflow: Incorrectly formatted executor "
                "configuration. Second portion of an executor configuration must be a module "
                f"path or plugin but received: {target})"
            )
        # 3.3.2 resolves ``alias:CoreName`` to the built-in path under that alias (semantics
        # §3.1, exp8; the docs show ``my_local_exec:LocalExecutor``).
        return _entry(written, alias_or_none, core[target])
    if not _is_module_path(target):
        provider_path = PROVIDER_EXECUTOR_PATHS.get(target)
        if provider_path is not None:
            reason = f"{target} is not a core executor name; write '{alias}:{provider_path}'"
        else:
            reason = (
                "the part after ':' must be a module path or a core executor name "
                f"({', '.join(core)}){did_you_mean(target, core)}"
            )
        raise ValueError(
            f"'{written}': {reason} (Airflow: Incorrectly formatted executor configuration. "
            "Second portion of an executor configuration must be a module path but received: "
            f"{target})"
        )
    if major >= 3 and target in CORE_EXECUTORS_2_ONLY.values():
        raise ValueError(_removed_in_3(written, target.rsplit(".", 1)[-1]))
    return _entry(written, alias_or_none, target)


def _removed_in_3(written: str, class_name: str) -> str:
    subject = f"'{written}'" if written == class_name else f"'{written}': {class_name}"
    if class_name in _HYBRIDS:
        # providers/celery/.../celery_kubernetes_executor.py and local_kubernetes_executor.py
        # raise RuntimeError("... does not support Airflow 3.0+") in their constructors.
        return (
            f"{subject} does not support Airflow 3.0+ (its constructor raises RuntimeError); "
            "configure its two executors side by side (e.g. CeleryExecutor, KubernetesExecutor) "
            "and route with the task's executor="
        )
    return f"{subject} was removed in Airflow 3.0 (core executors: {', '.join(CORE_EXECUTORS_3)})"


def _entry(written: str, alias: str | None, module_path: str) -> ExecutorEntry:
    return ExecutorEntry(
        written=written,
        alias=alias,
        module_path=module_path,
        honours_queue=honours_queue(module_path.rsplit(".", 1)[-1]),
    )


def parse_executor_entries(
    entries: Sequence[str], airflow_major: int | None
) -> tuple[ExecutorEntry, ...]:
    """Parse already-split entries (the inventory's list form); errors carry the entry's index."""
    if not entries:
        raise ExecutorConfigError(
            "no executor configured (Airflow: The 'executor' key in the 'core' section of the "
            "configuration is mandatory and cannot be empty)"
        )
    parsed: list[ExecutorEntry] = []
    for index, raw in enumerate(entries):
        try:
            entry = parse_executor_entry(raw.strip(), airflow_major)
        except ValueError as exc:
            raise ExecutorConfigError(str(exc), index) from None
        for earlier_index, earlier in enumerate(parsed):
            # Airflow compares module paths, "since the actual code is what is unique", so one
            # class under a core name and under its full path is still a duplicate.
            if earlier.module_path == entry.module_path:
                raise ExecutorConfigError(
                    f"'{entry.written}' configures the same executor as entry {earlier_index} "
                    f"'{earlier.written}' ({entry.module_path}) (Airflow: At least one executor "
                    "was configured twice. Duplicate executors are not yet supported.)",
                    index,
                )
        parsed.append(entry)
    return tuple(parsed)


def parse_executor_list(value: str, airflow_major: int | None) -> tuple[ExecutorEntry, ...]:
    """Parse a ``[core] executor`` value; raise ``ValueError`` with Airflow's reason if invalid.

    Multi-team values (``global;team=...``, Airflow 3.2+) are refused: the inventory has no notion
    of teams yet, and guessing which team's executors a DAG may use would give wrong answers.
    """
    if not value.strip():
        return parse_executor_entries((), airflow_major)
    if ";" in value:
        raise ExecutorConfigError(
            "multi-team executor configuration (';') is not supported by the inventory yet; "
            "list the global executors only"
        )
    # ``_get_team_executor_configs``: split on ',' and strip spaces off each name.
    return parse_executor_entries([name.strip() for name in value.split(",")], airflow_major)
