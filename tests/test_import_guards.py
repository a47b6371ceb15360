"""Which ``try`` blocks keep an import from failing the file: a handler that raises does not."""

from __future__ import annotations

import pytest

from dagroute_lint.extract import extract_module

HEAD = "from airflow.sdk import DAG\n"


def guarded(source: str) -> dict[str, bool]:
    module = extract_module((HEAD + source).encode(), "dag.py", "dag")
    return {site.module: site.guarded for site in module.imports if site.module != "airflow.sdk"}


@pytest.mark.parametrize(
    "handler",
    [
        "except ImportError:\n    raise",
        "except ImportError as error:\n    raise RuntimeError('needs it') from error",
        "except (ImportError, ValueError):\n    log = 1\n    raise SystemExit(1)",
        "except ImportError: raise",
        "except Exception:\n    raise AirflowOptionalProviderFeatureException('no')",
        # the first handler that catches the ImportError decides
        "except ImportError:\n    raise\nexcept Exception:\n    pass",
    ],
)
def test_a_handler_that_raises_does_not_guard(handler: str) -> None:
    assert guarded(f"try:\n    import opensearchpy\n{handler}\n") == {"opensearchpy": False}


@pytest.mark.parametrize(
    "handler",
    [
        "except ImportError:\n    opensearchpy = None",
        "except ImportError:\n    opensearchpy = None\nexcept ValueError:\n    raise",
        # only a raise directly in the handler counts: a conditional one may not run
        "except ImportError:\n    if STRICT:\n        raise\n    opensearchpy = None",
        "except:\n    opensearchpy = None",
    ],
)
def test_a_handler_that_does_not_raise_guards(handler: str) -> None:
    assert guarded(f"try:\n    import opensearchpy\n{handler}\n") == {"opensearchpy": True}


def test_a_handler_for_other_errors_does_not_guard() -> None:
    source = "try:\n    import opensearchpy\nexcept ValueError:\n    opensearchpy = None\n"
    assert guarded(source) == {"opensearchpy": False}


def test_imports_in_a_task_body_follow_the_same_rule() -> None:
    source = """
with DAG("d"):
    from airflow.sdk import task

    @task
    def work() -> None:
        try:
            import humanize
        except ImportError:
            raise RuntimeError("needs humanize")
        try:
            import tornado
        except ImportError:
            tornado = None

    work()
"""
    module = extract_module((HEAD + source).encode(), "dag.py", "dag")
    (task,) = module.tasks
    assert {site.module: site.guarded for site in task.imports} == {
        "humanize": False,
        "tornado": True,
    }
