"""``--celery-broker URL``: ask the running Celery workers which queues they consume.

Through the Celery library (the ``deploy`` extra), the same broadcast as
``celery inspect active_queues``: read-only (nothing is published but the inspect request, no
task is sent, no queue declared or purged), answered by every worker within a short timeout.
Workers answer as ``celery@HOST``; workers on one host make one worker entry, serving every queue
any of them consumes, since a task on any of those queues can start there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from dagroute_lint.deployment.init.facts import DeploymentFacts, WorkerFact
from dagroute_lint.deployment.init.yaml_file import EXTRA_HINT
from dagroute_lint.errors import ConfigError

DEFAULT_TIMEOUT_SECONDS = 3.0


def redacted(url: str) -> str:
    """The broker URL without its password, fit for a comment or a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))


def active_queues(url: str, timeout: float) -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """``{"celery@host": [{"name": "default", ...}, ...]}`` from every worker that answers."""
    try:
        from celery import Celery
    except ImportError:
        raise ConfigError(
            f"--celery-broker asks Celery workers, which needs Celery: {EXTRA_HINT}"
        ) from None
    app = Celery("dagroute-lint-probe", broker=url, set_as_current=False)
    app.conf.update(
        broker_connection_retry=False,
        broker_connection_retry_on_startup=False,
        broker_connection_max_retries=0,
        broker_connection_timeout=timeout,
        broker_transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout},
    )
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=timeout)
            replies = app.control.inspect(timeout=timeout, connection=connection).active_queues()
    except Exception as error:  # kombu raises transport-specific errors; all mean "unreachable"
        raise ConfigError(
            f"--celery-broker {redacted(url)}: cannot ask the workers: {type(error).__name__}: "
            f"{error}"
        ) from None
    finally:
        app.close()
    if not replies:
        raise ConfigError(
            f"--celery-broker {redacted(url)}: no Celery worker answered within {timeout:g} s "
            "(are they running and connected to this broker?)"
        )
    return dict(replies)


def celery_facts(url: str, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> DeploymentFacts:
    """One worker entry per host that answered, with the queues its workers consume."""
    shown = redacted(url)
    hosts: dict[str, dict[str, None]] = {}
    for worker, queues in sorted(active_queues(url, timeout).items()):
        host = worker.split("@", 1)[-1]
        names = hosts.setdefault(host, {})
        for queue in queues or ():
            name = queue.get("name") if isinstance(queue, Mapping) else None
            if not isinstance(name, str) or not name:
                raise ConfigError(
                    f"--celery-broker {shown}: {worker} answered with a malformed queue"
                )
            names[name] = None
    workers = tuple(
        WorkerFact(
            host,
            tuple(names),
            f"celery inspect active_queues via {shown}: {host}",
        )
        for host, names in hosts.items()
        if names
    )
    return DeploymentFacts(sources=(f"the Celery workers answering on {shown}",), workers=workers)
