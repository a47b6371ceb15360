"""What a container command says: the Airflow component it starts, a Celery worker's queues.

A Helm chart's ``workers.args`` and a compose service's ``command`` both start Airflow
components; ``airflow celery worker -q a,b`` consumes queues ``a`` and ``b``, and without
``-q`` the ``[operators] default_queue`` only (Airflow's celery command, ``--queues`` default).
Shell words are split as the shell would (``bash -c "exec airflow celery worker -q x"``).
"""

from __future__ import annotations

import re
import shlex

from dagroute_lint.records import record

# Airflow component commands, as words after ``airflow`` (the official image's entrypoint
# prepends ``airflow`` to a command that is not an executable).
COMPONENTS = {
    ("celery", "worker"): "celery-worker",
    ("triggerer",): "triggerer",
    ("dag-processor",): "dag-processor",
    ("scheduler",): "scheduler",
    ("api-server",): "api-server",
    ("webserver",): "webserver",
    # One process running the scheduler, triggerer, DAG processor and web server (semantics:
    # Airflow's standalone command), with a local executor.
    ("standalone",): "standalone",
}
# The official image's entrypoint runs ``airflow`` with the words it is given.
_ENTRYPOINTS = frozenset({"/entrypoint", "/usr/bin/entrypoint"})
_QUEUE_OPTIONS = ("-q", "--queues")
# Templates (Helm ``{{ }}``) and variables (``$X``, ``${X:-d}``) are filled in at deploy time.
_DEFERRED = re.compile(r"\{\{|\$")
_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.DOTALL)


@record
class Component:
    """An Airflow component a command starts; ``queues`` for a Celery worker (``None``: no -q).

    ``deferred`` holds the word that decides the queues when it is only known at deploy time.
    """

    kind: str
    queues: tuple[str, ...] | None = None
    deferred: str | None = None


class CommandError(ValueError):
    """A command that cannot be read (unbalanced quotes, ``-q`` without a value)."""


def words(command: object) -> list[str]:
    """The command's words: a string is split as a shell does, a list is taken as given, and a
    ``sh -c`` / ``bash -c`` script is split too."""
    if isinstance(command, str):
        parts = _split(command)
    elif isinstance(command, list):
        parts = [str(part) for part in command]
    else:
        return []
    result: list[str] = []
    for index, part in enumerate(parts):
        if index > 0 and parts[index - 1] == "-c" and " " in part.strip():
            result.extend(_split(part.replace("\\\n", " ")))
        else:
            result.append(part)
    return result


def _split(text: str) -> list[str]:
    # A Helm template is one value however it is spaced: keep it one word.
    text = _TEMPLATE.sub(lambda match: re.sub(r"\s+", "", match.group()), text)
    try:
        return shlex.split(text, comments=False)
    except ValueError as error:
        raise CommandError(f"cannot split the command into words: {error}") from None


def component(command: object) -> Component | None:
    """The Airflow component ``command`` starts, or ``None`` when it starts none we know."""
    parts = ["airflow" if word in _ENTRYPOINTS else word for word in words(command)]
    native = _native_worker(parts)
    if native is not None:
        return native
    for start in range(len(parts)):
        for key, kind in COMPONENTS.items():
            if tuple(parts[start : start + len(key)]) == key and _after_airflow(parts, start):
                if kind != "celery-worker":
                    return Component(kind)
                return _worker(parts[start + len(key) :])
    return None


def _native_worker(parts: list[str]) -> Component | None:
    """``celery -A airflow.providers.celery.executors.celery_executor.app worker -Q a,b``: Celery's
    own command on Airflow's app, whose default queue is ``[operators] default_queue`` too
    (Airflow's default Celery config sets ``task_default_queue`` from it)."""
    for start, word in enumerate(parts):
        if word != "celery" and not word.endswith("/celery"):
            continue
        rest = parts[start + 1 :]
        if "worker" not in rest:
            return None
        before = rest[: rest.index("worker")]
        app = next((w for w in before if "celery_executor" in w), None)
        if app is None:
            return None
        options = rest[rest.index("worker") + 1 :]
        return _worker(options, ("-Q", "--queues"))
    return None


def _after_airflow(parts: list[str], start: int) -> bool:
    """``airflow scheduler``, or ``scheduler`` as the whole command (the image adds airflow)."""
    return start == 0 or parts[start - 1] == "airflow" or parts[start - 1].endswith("/airflow")


def _worker(options: list[str], names: tuple[str, ...] = _QUEUE_OPTIONS) -> Component:
    queues: str | None = None
    short = names[0]
    for index, option in enumerate(options):
        value: str | None = None
        if option in names:
            if index + 1 >= len(options):
                raise CommandError(f"{option} is not followed by the queues")
            value = options[index + 1]
        elif option.startswith("--queues="):
            value = option.split("=", 1)[1]
        elif option.startswith(short) and len(option) > 2:
            value = option[2:]
        if value is not None:
            queues = value  # the last one wins, as with argparse
    if queues is None:
        return Component("celery-worker")
    if _DEFERRED.search(queues):
        return Component("celery-worker", deferred=queues)
    names = tuple(name.strip() for name in queues.split(","))
    if not all(names):
        raise CommandError(f"-q {queues!r} holds an empty queue name")
    return Component("celery-worker", tuple(dict.fromkeys(names)))


def deferred(text: str) -> bool:
    """Whether the value is only known at deploy time (a template or a variable)."""
    return bool(_DEFERRED.search(text))
