"""``inventory init --celery-broker``: against a real Redis server and real Celery workers.

The test starts ``redis-server`` (Debian's package) on a free localhost port and two Celery
workers on it, each consuming its own queues and named for a different host, then asks them
through the command line. Everything started is stopped at the end, and every wait is bounded.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.toml import toml

START_TIMEOUT_SECONDS = 30
AIRFLOW_CFG = "[core]\nexecutor = CeleryExecutor\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail(
            "redis-server is not installed (apt-get install redis-server; see CONTRIBUTING.md)"
        )
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
                    connection.sendall(b"PING\r\n")
                    if connection.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail("redis-server did not start")
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


@pytest.fixture(scope="module")
def workers(broker: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Two workers, as `airflow celery worker -q ...` would run them on two hosts."""
    folder = tmp_path_factory.mktemp("celery-app")
    (folder / "app.py").write_text("from celery import Celery\n\napp = Celery('airflow')\n")
    started = []
    for name, queues in (("general@worker-a", "default,imports"), ("reports@worker-b", "reports")):
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "app",
                    "--broker",
                    broker,
                    "worker",
                    "-Q",
                    queues,
                    "-n",
                    name,
                    "--pool",
                    "solo",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "--loglevel",
                    "WARNING",
                ],
                cwd=folder,
                env={**os.environ, "PYTHONPATH": str(folder)},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    try:
        _wait_for_workers(broker, 2)
        yield
    finally:
        for process in started:
            stop(process)


def _wait_for_workers(broker: str, count: int) -> None:
    from celery import Celery

    app = Celery(broker=broker, set_as_current=False)
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    try:
        while time.monotonic() < deadline:
            replies = app.control.inspect(timeout=1).ping() or {}
            if len(replies) >= count:
                return
        pytest.fail("the Celery workers did not answer")
    finally:
        app.close()


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["inventory", "init", *args])
    return result.exit_code, result.stdout, result.stderr


def test_workers_answer_with_their_queues(broker: str, workers: None, tmp_path: Path) -> None:
    cfg = tmp_path / "airflow.cfg"
    cfg.write_text(AIRFLOW_CFG, encoding="utf-8")
    code, out, err = invoke(
        "--celery-broker", broker, "--celery-timeout", "2", "--airflow-cfg", str(cfg)
    )
    assert code == 0, err
    assert toml.loads(out)["workers"] == [
        {"name": "worker-a", "queues": ["default", "imports"], "runtime": "base"},
        {"name": "worker-b", "queues": ["reports"], "runtime": "base"},
    ]
    assert f"# from celery inspect active_queues via {broker}: worker-a" in out


def test_the_broker_password_never_shows(broker: str, workers: None, tmp_path: Path) -> None:
    cfg = tmp_path / "airflow.cfg"
    cfg.write_text(AIRFLOW_CFG, encoding="utf-8")
    # A URL with a password on a port nothing listens on: the failure message shows the URL.
    url = broker.replace("redis://", "redis://:s3cret@").rsplit(":", 1)[0] + f":{free_port()}/0"
    code, out, err = invoke(
        "--celery-broker", url, "--celery-timeout", "1", "--airflow-cfg", str(cfg)
    )
    assert (code, out) == (2, "")
    assert "cannot ask the workers" in err
    assert "s3cret" not in err and ":***@" in err


def test_no_worker_answering_is_an_error_not_an_empty_deployment(
    broker: str, tmp_path: Path
) -> None:
    """A broker of its own, with no worker on it."""
    empty = broker.rsplit("/", 1)[0] + "/5"  # another database: no worker listens there
    start = time.monotonic()
    code, _, err = invoke("--celery-broker", empty, "--celery-timeout", "1")
    assert code == 2
    assert "no Celery worker answered within 1 s" in err
    assert time.monotonic() - start < 15
