"""Tests for parsing ``[core] executor`` the way Airflow's ExecutorLoader does."""

from __future__ import annotations

import pytest

from dagroute_lint.deployment.executors import (
    CELERY_EXECUTOR_PATH,
    KUBERNETES_EXECUTOR_PATH,
    LOCAL_EXECUTOR_PATH,
    ExecutorConfigError,
    ExecutorEntry,
    executor_kind,
    honours_queue,
    parse_executor_entries,
    parse_executor_list,
    resolve_executor,
)

EDGE_PATH = "airflow.providers.edge3.executors.EdgeExecutor"
ECS_PATH = "airflow.providers.amazon.aws.executors.ecs.ecs_executor.AwsEcsExecutor"
AIRFLOW_DUPLICATE = (
    "(Airflow: At least one executor was configured twice. Duplicate executors are not yet "
    "supported.)"
)
CORE_3 = "LocalExecutor, CeleryExecutor, KubernetesExecutor"


def only(value: str, airflow_major: int | None = 3) -> ExecutorEntry:
    entries = parse_executor_list(value, airflow_major)
    assert len(entries) == 1
    return entries[0]


@pytest.mark.parametrize(
    ("name", "path", "queue"),
    [
        ("LocalExecutor", LOCAL_EXECUTOR_PATH, False),
        ("CeleryExecutor", CELERY_EXECUTOR_PATH, True),
        ("KubernetesExecutor", KUBERNETES_EXECUTOR_PATH, False),
    ],
)
def test_core_names_map_to_builtin_paths_and_are_their_own_alias(
    name: str, path: str, queue: bool
) -> None:
    assert only(name) == ExecutorEntry(
        written=name, alias=name, module_path=path, honours_queue=queue
    )


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("SequentialExecutor", "airflow.executors.sequential_executor.SequentialExecutor"),
        ("DebugExecutor", "airflow.executors.debug_executor.DebugExecutor"),
        (
            "CeleryKubernetesExecutor",
            "airflow.providers.celery.executors.celery_kubernetes_executor."
            "CeleryKubernetesExecutor",
        ),
        (
            "LocalKubernetesExecutor",
            "airflow.providers.cncf.kubernetes.executors.local_kubernetes_executor."
            "LocalKubernetesExecutor",
        ),
    ],
)
def test_airflow_2_only_core_names_are_accepted_under_airflow_2(name: str, path: str) -> None:
    entry = only(name, 2)
    assert (entry.alias, entry.module_path) == (name, path)


def test_list_is_split_on_commas_stripped_and_keeps_order() -> None:
    entries = parse_executor_list(" CeleryExecutor ,KubernetesExecutor,  my.pkg.MyExecutor ", 3)
    assert [e.written for e in entries] == [
        "CeleryExecutor",
        "KubernetesExecutor",
        "my.pkg.MyExecutor",
    ]
    # The first entry is the default executor.
    assert entries[0].module_path == CELERY_EXECUTOR_PATH


def test_module_path_without_alias() -> None:
    entry = only(EDGE_PATH)
    assert entry == ExecutorEntry(
        written=EDGE_PATH, alias=None, module_path=EDGE_PATH, honours_queue=True
    )
    assert entry.class_name == "EdgeExecutor"
    assert entry.display_name == "EdgeExecutor"


def test_alias_with_module_path() -> None:
    entry = only(f"edge:{EDGE_PATH}")
    assert (entry.alias, entry.module_path, entry.display_name) == ("edge", EDGE_PATH, "edge")


def test_alias_of_core_name_is_accepted_by_airflow_3() -> None:
    entry = only("fast:LocalExecutor")
    assert (entry.alias, entry.module_path) == ("fast", LOCAL_EXECUTOR_PATH)
    assert only("fast:LocalExecutor", None) == entry  # None means "assume Airflow 3"


def test_empty_alias_registers_no_alias_as_airflow_does() -> None:
    entry = only(":my.pkg.MyExecutor")
    assert (entry.alias, entry.module_path) == (None, "my.pkg.MyExecutor")


@pytest.mark.parametrize(
    ("value", "major", "message", "index"),
    [
        (
            "",
            3,
            "no executor configured (Airflow: The 'executor' key in the 'core' section of the "
            "configuration is mandatory and cannot be empty)",
            None,
        ),
        ("LocalExecutor,,CeleryExecutor", 3, "empty executor entry (a stray ','?)", 1),
        (
            "LocalExecutor,a:b:c.D",
            3,
            "'a:b:c.D': more than one ':' "
            "(Airflow: Incorrectly formatted executor configuration: a:b:c.D)",
            1,
        ),
        (
            "fast:Celery",
            3,
            "'fast:Celery': the part after ':' must be a module path or a core executor name "
            f"({CORE_3}); did you mean 'CeleryExecutor'? (Airflow: Incorrectly formatted "
            "executor configuration. Second portion of an executor configuration must be a module "
            "path but received: Celery)",
            0,
        ),
        (
            "fast:CeleryExecuter",
            3,
            "'fast:CeleryExecuter': the part after ':' must be a module path or a core executor "
            f"name ({CORE_3}); did you mean 'CeleryExecutor'? (Airflow: Incorrectly formatted "
            "executor configuration. Second portion of an executor configuration must be a "
            "module path but received: CeleryExecuter)",
            0,
        ),
        (
            "e:EdgeExecutor",
            3,
            f"'e:EdgeExecutor': EdgeExecutor is not a core executor name; write 'e:{EDGE_PATH}' "
            "(Airflow: Incorrectly formatted executor configuration. Second portion of an "
            "executor configuration must be a module path but received: EdgeExecutor)",
            0,
        ),
        (
            "LocalExecutor,fast:LocalExecutor",
            2,
            "'fast:LocalExecutor': Airflow 2 does not accept an alias for a core executor name; "
            f"write 'fast:{LOCAL_EXECUTOR_PATH}' instead (Airflow: Incorrectly formatted "
            "executor configuration. Second portion of an executor configuration must be a "
            "module path or plugin but received: LocalExecutor)",
            1,
        ),
        (
            f"KubernetesExecutor,k8s:{KUBERNETES_EXECUTOR_PATH}",
            3,
            f"'k8s:{KUBERNETES_EXECUTOR_PATH}' configures the same executor as entry 0 "
            f"'KubernetesExecutor' ({KUBERNETES_EXECUTOR_PATH}) {AIRFLOW_DUPLICATE}",
            1,
        ),
        (
            f"CeleryExecutor,{CELERY_EXECUTOR_PATH}",
            3,
            f"'{CELERY_EXECUTOR_PATH}' configures the same executor as entry 0 "
            f"'CeleryExecutor' ({CELERY_EXECUTOR_PATH}) {AIRFLOW_DUPLICATE}",
            1,
        ),
        (
            "fast:LocalExecutor,LocalExecutor",
            3,
            "'LocalExecutor' configures the same executor as entry 0 'fast:LocalExecutor' "
            f"({LOCAL_EXECUTOR_PATH}) {AIRFLOW_DUPLICATE}",
            1,
        ),
        (
            "a:my.pkg.Exec,b:my.pkg.Exec",
            3,
            f"'b:my.pkg.Exec' configures the same executor as entry 0 'a:my.pkg.Exec' "
            f"(my.pkg.Exec) {AIRFLOW_DUPLICATE}",
            1,
        ),
        (
            "LocalExecutor,SequentialExecutor",
            3,
            f"'SequentialExecutor' was removed in Airflow 3.0 (core executors: {CORE_3})",
            1,
        ),
        (
            "DebugExecutor",
            None,
            f"'DebugExecutor' was removed in Airflow 3.0 (core executors: {CORE_3})",
            0,
        ),
        (
            "x:SequentialExecutor",
            3,
            "'x:SequentialExecutor': SequentialExecutor was removed in Airflow 3.0 "
            f"(core executors: {CORE_3})",
            0,
        ),
        (
            "airflow.executors.debug_executor.DebugExecutor",
            3,
            "'airflow.executors.debug_executor.DebugExecutor': DebugExecutor was removed in "
            f"Airflow 3.0 (core executors: {CORE_3})",
            0,
        ),
        (
            "CeleryKubernetesExecutor",
            None,
            "'CeleryKubernetesExecutor' does not support Airflow 3.0+ (its constructor raises "
            "RuntimeError); configure its two executors side by side (e.g. CeleryExecutor, "
            "KubernetesExecutor) and route with the task's executor=",
            0,
        ),
        (
            "LocalKubernetesExecutor",
            3,
            "'LocalKubernetesExecutor' does not support Airflow 3.0+ (its constructor raises "
            "RuntimeError); configure its two executors side by side (e.g. CeleryExecutor, "
            "KubernetesExecutor) and route with the task's executor=",
            0,
        ),
        (
            "LocalExecutor;team1=CeleryExecutor",
            3,
            "multi-team executor configuration (';') is not supported by the inventory yet; "
            "list the global executors only",
            None,
        ),
        (
            "CeleryExecuter",
            3,
            f"'CeleryExecuter' is neither a core executor name ({CORE_3}) nor a module path "
            "such as my_company.executors.MyExecutor; did you mean 'CeleryExecutor'?",
            0,
        ),
        (
            "EdgeExecutor",
            3,
            f"'EdgeExecutor' is not a core executor name; configure it by module path: {EDGE_PATH}",
            0,
        ),
        (
            "my-company.executors.X",
            3,
            f"'my-company.executors.X' is neither a core executor name ({CORE_3}) nor a module "
            "path such as my_company.executors.MyExecutor",
            0,
        ),
    ],
)
def test_rejections_carry_airflows_reason(
    value: str, major: int | None, message: str, index: int | None
) -> None:
    with pytest.raises(ExecutorConfigError) as caught:
        parse_executor_list(value, major)
    assert str(caught.value) == message
    assert caught.value.index == index
    assert isinstance(caught.value, ValueError)


def test_list_form_rejects_commas_inside_an_item() -> None:
    with pytest.raises(ExecutorConfigError) as caught:
        parse_executor_entries(["LocalExecutor", "CeleryExecutor,KubernetesExecutor"], 3)
    assert str(caught.value) == (
        "'CeleryExecutor,KubernetesExecutor': ',' separates entries; give each executor on its own"
    )
    assert caught.value.index == 1


def test_list_form_strips_whitespace_like_airflow() -> None:
    (entry,) = parse_executor_entries(["  CeleryExecutor "], 3)
    assert entry.written == "CeleryExecutor"


@pytest.mark.parametrize(
    ("configured", "name", "expected"),
    [
        ("CeleryExecutor", "CeleryExecutor", True),
        ("CeleryExecutor", CELERY_EXECUTOR_PATH, True),
        ("CeleryExecutor", "celeryexecutor", False),
        ("CeleryExecutor", "Celery", False),
        ("fast:LocalExecutor", "fast", True),
        ("fast:LocalExecutor", "LocalExecutor", True),  # class name still works
        ("fast:LocalExecutor", LOCAL_EXECUTOR_PATH, True),
        ("fast:LocalExecutor", "Fast", False),
        (f"edge:{EDGE_PATH}", "edge", True),
        (f"edge:{EDGE_PATH}", EDGE_PATH, True),
        (f"edge:{EDGE_PATH}", "EdgeExecutor", True),
        # Another import path of the same class is not what was configured.
        (
            f"edge:{EDGE_PATH}",
            "airflow.providers.edge3.executors.edge_executor.EdgeExecutor",
            False,
        ),
        (EDGE_PATH, "airflow.providers.edge3.executors", False),
        (EDGE_PATH, "edge", False),
        ("my.pkg.MyExecutor", "MyExecutor", True),
        ("my.pkg.MyExecutor", "pkg.MyExecutor", False),
        ("my.pkg.MyExecutor", "", False),
    ],
)
def test_accepts_matches_alias_module_path_or_class_name_exactly(
    configured: str, name: str, expected: bool
) -> None:
    assert only(configured).accepts(name) is expected


def test_resolve_prefers_alias_then_module_path_then_class_name() -> None:
    entries = parse_executor_list(
        "CeleryExecutor,LocalExecutor:my.pkg.Other,my.pkg.LocalExecutor", 3
    )
    celery, other, local = entries
    # "LocalExecutor" is other's alias and local's class name: the alias lookup runs first.
    assert resolve_executor(entries, "LocalExecutor") is other
    assert resolve_executor(entries, "my.pkg.LocalExecutor") is local
    assert resolve_executor(entries, "Other") is other
    assert resolve_executor(entries, CELERY_EXECUTOR_PATH) is celery
    assert resolve_executor(entries, "KubernetesExecutor") is None


def test_resolve_last_entry_wins_when_two_share_a_class_name() -> None:
    entries = parse_executor_list("a.Exec,b.Exec", 3)
    assert resolve_executor(entries, "Exec") is entries[1]


@pytest.mark.parametrize(
    ("class_name", "kind", "queue"),
    [
        ("CeleryExecutor", "celery", True),
        ("EdgeExecutor", "edge", True),
        ("LocalExecutor", "local", False),
        ("KubernetesExecutor", "kubernetes", False),
        ("SequentialExecutor", "sequential", False),
        ("DebugExecutor", "debug", False),
        ("AwsEcsExecutor", "aws", False),
        ("AwsBatchExecutor", "aws", False),
        ("AwsLambdaExecutor", "aws", False),
        ("AwsEksExecutor", "aws", False),
        ("CeleryKubernetesExecutor", "celery_kubernetes", None),
        ("LocalKubernetesExecutor", "local_kubernetes", None),
        ("MyExecutor", None, None),
        ("AwsomeExecutor", None, None),  # not an AWS executor, just a prefix
        ("EcsExecutor", None, None),  # AWS class names start with Aws
        ("celeryexecutor", None, None),
    ],
)
def test_kind_and_queue_behaviour_by_class_name(
    class_name: str, kind: str | None, queue: bool | None
) -> None:
    assert executor_kind(class_name) == kind
    assert honours_queue(class_name) is queue


@pytest.mark.parametrize(
    ("value", "queue"),
    [
        ("my.fork.CeleryExecutor", True),  # class name decides, whichever path
        (EDGE_PATH, True),
        (f"ecs:{ECS_PATH}", False),
        ("my.pkg.MyExecutor", None),
    ],
)
def test_entry_honours_queue_follows_class_name(value: str, queue: bool | None) -> None:
    entry = only(value)
    assert entry.honours_queue is queue
    assert entry.kind == executor_kind(entry.class_name)


def test_hybrid_under_airflow_2_honours_queue_is_unknown() -> None:
    entry = only("CeleryKubernetesExecutor", 2)
    assert entry.honours_queue is None
    assert entry.kind == "celery_kubernetes"
