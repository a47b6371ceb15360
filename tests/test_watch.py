"""``--watch``, driving the real process: it lints, lints again when a file it read changes (a
DAG, a new file beside one, the inventory), and ends with exit 0 on Ctrl-C or SIGTERM."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.helpers import CELERY_K8S, write_repo

DAG = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue="{queue}")
"""
# Long enough for a cold start of the interpreter and a lint on a busy machine.
WAIT_SECONDS = 60


class Watch:
    """A running ``dagroute-lint --watch``, its stdout and stderr read line by line."""

    def __init__(self, cwd: Path, *args: str) -> None:
        environment = {**os.environ, "NO_COLOR": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dagroute_lint", *args, "--watch"],
            cwd=cwd,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: dict[str, queue.Queue[str]] = {"out": queue.Queue(), "err": queue.Queue()}
        for name, stream in (("out", self.process.stdout), ("err", self.process.stderr)):
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines[name].put(line.rstrip("\n"))

    def until(self, stream: str, text: str) -> list[str]:
        """The lines of ``stream`` read since the last call, until one holding ``text``."""
        deadline = time.monotonic() + WAIT_SECONDS
        seen: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines[stream].get(timeout=1)
            except queue.Empty:
                assert self.process.poll() is None, f"--watch ended: {seen}"
                continue
            seen.append(line)
            if text in line:
                return seen
        raise AssertionError(f"no {text!r} on {stream} in {WAIT_SECONDS}s: {seen}")

    def ready(self) -> None:
        """Wait for the run to end and the polling to start."""
        self.until("err", "for changes (Ctrl-C to stop)")

    def stop(self, signal_number: int) -> int:
        self.process.send_signal(signal_number)
        return self.process.wait(timeout=WAIT_SECONDS)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write_repo(tmp_path, {"dagroute.toml": CELERY_K8S, "dags/lab.py": DAG.format(queue="reports")})
    return tmp_path


@pytest.fixture
def watch(repo: Path) -> Iterator[Watch]:
    running = Watch(repo, "dags")
    yield running
    running.kill()


def edit(path: Path, text: str) -> None:
    """Write ``text``, making sure the file's time moves on even on a coarse clock."""
    before = path.stat().st_mtime_ns
    path.write_text(text)
    while path.stat().st_mtime_ns == before:
        time.sleep(0.01)
        path.write_text(text)


def test_an_edit_prints_a_second_report_and_ctrl_c_exits_zero(repo: Path, watch: Watch) -> None:
    first = watch.until("out", "DRL101")
    assert first == [first[-1]] and "queue 'reports'" in first[-1]
    watch.ready()
    edit(repo / "dags" / "lab.py", DAG.format(queue="gpu"))
    (second,) = watch.until("out", "DRL101")
    assert second.startswith("dags/lab.py:4:5: DRL101 [error] task 'build' in dag 'lab'")
    assert "queue 'gpu'" in second
    assert "dagroute-lint: changed: dags/lab.py; linting again" in watch.until("err", "again")
    watch.ready()
    assert watch.stop(signal.SIGINT) == 0


def test_a_new_file_beside_a_linted_one_and_the_inventory_are_watched(
    repo: Path, watch: Watch
) -> None:
    watch.until("out", "queue 'reports'")
    watch.ready()
    write_repo(repo, {"dags/more.py": DAG.format(queue="ml").replace('"lab"', '"more"')})
    assert any("queue 'ml'" in line for line in watch.until("out", "dags/more.py"))
    watch.ready()
    inventory = repo / "dagroute.toml"
    edit(inventory, inventory.read_text().replace('"imports"]', '"imports", "reports", "ml"]'))
    assert watch.until("err", "All checks passed!")
    watch.ready()
    assert watch.stop(signal.SIGTERM) == 0


def test_a_broken_settings_file_is_reported_and_watched_until_mended(repo: Path) -> None:
    settings = repo / "pyproject.toml"
    settings.write_text("[tool.dagroute-lint]\nselekt = []\n")
    running = Watch(repo, "dags")
    try:
        assert "selekt: unknown setting" in running.until("err", "selekt")[-1]
        running.ready()
        edit(settings, '[tool.dagroute-lint]\nselect = ["DRL1"]\n')
        assert "queue 'reports'" in running.until("out", "DRL101")[-1]
        running.ready()
        assert running.stop(signal.SIGINT) == 0
    finally:
        running.kill()


def test_stdin_cannot_be_watched(repo: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dagroute_lint", "-", "--watch"],
        cwd=repo,
        input="",
        capture_output=True,
        text=True,
        check=False,
        timeout=WAIT_SECONDS,
    )
    assert result.returncode == 2 and "--watch" in result.stderr
