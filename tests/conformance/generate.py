"""Generate DAG programs that mix the routing idioms of real repositories, from a seed.

``write_programs(folder, count, seed)`` writes ``count`` DAG files plus a fixed
``common/gen_lib.py`` (class constants, an Enum, a default_args builder, an operator factory and
subclass) into ``folder``. The same seed always gives the same files, so a CI failure can be
reproduced with
``python tests/conformance/generate.py FOLDER --count N --seed S``. Every program is valid in
Airflow 3.3.2 and 2.10.5 (Airflow 2 spellings only); no expected value is written: Airflow is the
oracle.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

LIB = '''\
"""Routing building blocks the generated DAG files import."""

import collections
import enum

from airflow.operators.bash import BashOperator

REPORTS = "reports"
TEAM = "growth"
BASE = {"owner": "gen", "retries": 1}
SLOTS = {"small": 1, "big": 3}


class Q:
    ETL = "etl"
    EXPORT = "export"

    class GPU:
        LARGE = "gpu-large"


class P:
    WAREHOUSE = "warehouse"
    API = "partner_api"


class Lane(enum.Enum):
    FAST = "fast-lane"
    SLOW = "slow-lane"


def get_default_args(**overrides):
    args = BASE.copy()
    args.update(overrides)
    return args


def shell_op(task_id, **kwargs):
    return BashOperator(task_id=task_id, bash_command="echo " + task_id, **kwargs)


Route = collections.namedtuple("Route", ["name", "queue", "pool"], defaults=["pool_a"])


class Settings:
    pool = "pool_b"

    def __init__(self, env, queue=None):
        self.env = env
        self.queue = queue or "q-" + env

    def task_id(self, step):
        return f"{self.env}_{step}"


class SparkJob(BashOperator):
    def __init__(self, *, app, **kwargs):
        kwargs.setdefault("queue", "spark")
        super().__init__(bash_command="spark-submit " + app, **kwargs)
'''

HEADER = '''\
"""Generated DAG program {index} (seed {seed}): mixes routing idioms; Airflow is the oracle."""

import itertools
import os
import re
from datetime import datetime

import common.gen_lib as gen_lib
from airflow import DAG
from airflow.decorators import dag, task, task_group
from airflow.operators.bash import BashOperator
from airflow.utils.task_group import TaskGroup
from common.gen_lib import BASE, SLOTS, Lane, P, Q, SparkJob, get_default_args, shell_op
'''

WORDS = ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa")
START = "start_date=datetime(2024, 1, 1), schedule=None"


class Program:
    """One generated file: module-level prelude lines and DAG bodies, with unique ids."""

    def __init__(self, rng: random.Random, index: int, seed: int = 0) -> None:
        self.rng = rng
        # Candidate values draw from their own stream, so adding them left every other
        # choice of a seed as it was.
        self.candidate_rng = random.Random(f"{seed}-{index}-candidates")
        self.chosen = 0  # and their names a counter of their own, so task ids stay too
        self.index = index
        self.prelude: list[str] = []
        self.serial = 0
        # The builders (named tuples, instances of plain classes, itertools, re, mapped task
        # groups) draw from a stream and a counter of their own too.
        self.builder_rng = random.Random(f"{seed}-{index}-builders")
        self.built = 0

    def name(self, stem: str) -> str:
        self.serial += 1
        return f"{stem}_{self.serial}"

    # --- values ------------------------------------------------------------------------------

    def queue(self) -> str:
        """A queue expression; now and then one of several values, decided when the file runs."""
        written = self.plain_queue()
        if self.candidate_rng.random() >= 0.25:
            return written
        word = self.candidate_rng.choice(WORDS)
        flag = self.flag()
        choice = self.candidate_rng.randrange(3)
        if choice == 0:  # a conditional expression
            return f'({written} if {flag} else "alt-{word}")'
        self.chosen += 1
        constant = f"CHOSEN_{self.chosen}"
        if choice == 1:  # if/else assignments at module level
            self.prelude.extend(
                [
                    f"if {flag}:",
                    f"    {constant} = {written}",
                    "else:",
                    f'    {constant} = "alt-{word}"',
                ]
            )
        else:  # try/except ImportError where the import may fail (it does here)
            self.prelude.extend(
                [
                    "try:",
                    f"    import gen_optional_{word}  # noqa: F401",
                    "",
                    f"    {constant} = {written}",
                    "except ImportError:",
                    f'    {constant} = "alt-{word}"',
                ]
            )
        return constant

    def flag(self) -> str:
        """A condition only the machine that parses the file can decide."""
        name = self.candidate_rng.choice(WORDS).upper()
        return self.candidate_rng.choice(
            (f'os.environ.get("GEN_{name}")', f'os.path.isdir("/opt/gen-{name.lower()}")')
        )

    def plain_queue(self) -> str:
        word = self.rng.choice(WORDS)
        choice = self.rng.randrange(7)
        if choice == 0:
            return f'"q-{word}"'
        if choice == 1:
            return self.rng.choice(("Q.ETL", "Q.EXPORT", "Q.GPU.LARGE"))
        if choice == 2:
            return "gen_lib.REPORTS"
        if choice == 3:
            return f'f"{{gen_lib.TEAM}}-{word}"'
        if choice == 4:
            return self.rng.choice(("Lane.FAST.value", "Lane.SLOW.value"))
        if choice == 5:
            constant = self.name("QUEUE").upper()
            self.prelude.append(f'{constant} = "local-{word}"')
            return constant
        return f'"{word}" + "-q"'

    def pool(self) -> str:
        return self.rng.choice(('"pool_a"', "P.WAREHOUSE", "P.API", '"default_pool"'))

    def slots(self) -> str:
        return self.rng.choice(("1", "2", 'SLOTS["big"]', 'SLOTS["small"]', "len(Q.ETL)"))

    def routing(self) -> str:
        """Keyword arguments of a task: each routing field set or not."""
        parts = []
        if self.rng.random() < 0.6:
            parts.append(f"queue={self.queue()}")
        if self.rng.random() < 0.4:
            parts.append(f"pool={self.pool()}")
        if self.rng.random() < 0.3:
            parts.append(f"pool_slots={self.slots()}")
        if self.rng.random() < 0.15:
            parts.append(f'executor="{self.rng.choice(("LocalExecutor", "KubernetesExecutor"))}"')
        return ", ".join(parts)

    def default_args(self) -> str | None:
        choice = self.rng.randrange(6)
        if choice == 0:
            return None
        if choice == 1:
            return f'{{"queue": {self.queue()}, "pool": {self.pool()}}}'
        if choice == 2:
            return f"get_default_args(queue={self.queue()})"
        if choice == 3:
            return f"dict(BASE, pool={self.pool()})"
        if choice == 4:
            args = self.name("ARGS").upper()
            self.prelude.append(f'{args} = {{"owner": "gen", "queue": "before"}}')
            self.prelude.append(f'{args}["queue"] = {self.queue()}')
            return args
        return f'{{**BASE, "pool_slots": {self.slots()}}}'

    def builder_queue(self) -> str:
        """A queue held by a named tuple, an instance of a plain class, or computed by ``re``."""
        word = self.builder_rng.choice(WORDS)
        self.built += 1
        choice = self.builder_rng.randrange(4)
        if choice == 0:
            self.prelude.append(f'ROUTE_{self.built} = gen_lib.Route("{word}", "route-{word}")')
            return f"ROUTE_{self.built}.queue"
        if choice == 1:
            self.prelude.append(f'ROUTE_{self.built} = gen_lib.Route("{word}", "r-{word}")')
            return f'ROUTE_{self.built}._replace(queue="re-{word}")[1]'
        if choice == 2:
            self.prelude.append(f'SETTINGS_{self.built} = gen_lib.Settings("{word}")')
            if self.builder_rng.random() < 0.5:
                self.prelude.append(f'SETTINGS_{self.built}.queue += "-set"')
            return f"SETTINGS_{self.built}.queue"
        return f're.sub("^q", "re", "q-{word}")'

    def builder_tasks(self) -> list[str]:
        """Now and then a loop over ``itertools.product`` and a mapped ``@task_group``."""
        lines: list[str] = []
        if self.builder_rng.random() < 0.25:
            self.built += 1
            lines += [
                "for a, b in itertools.product("
                f'("x", "y"), range({self.builder_rng.randint(1, 2)})):',
                f'    BashOperator(task_id=f"prod{self.built}_{{a}}{{b}}", bash_command="run",'
                f" queue={self.builder_queue()})",
            ]
        if self.builder_rng.random() < 0.2:
            self.built += 1
            group = f"mapped_{self.built}"
            lines += [
                f'@task_group(group_id="{group}")',
                f"def {group}(item, queue, pool):",
                '    BashOperator(task_id="inner", bash_command="run", queue=queue, pool=pool)',
                "",
                f"{group}.partial(queue={self.builder_queue()}, pool=gen_lib.Settings.pool)"
                '.expand(item=["a", "b"])',
            ]
        return lines

    # --- tasks -------------------------------------------------------------------------------

    def tasks(self, indent: str) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(2, 5)):
            lines.extend(indent + line for line in self.task())
        lines.extend(indent + line for line in self.builder_tasks())
        return lines

    def task(self) -> list[str]:
        task_id = self.name("t")
        routing = self.routing()
        extra = f", {routing}" if routing else ""
        choice = self.rng.randrange(8)
        if choice == 0:
            return [f'shell_op("{task_id}"{extra})']
        if choice == 1:
            return [f'SparkJob(task_id="{task_id}", app="job.py"{extra})']
        if choice == 2:
            function = self.name("fn")
            return [
                f"@task({routing})",
                f"def {function}():",
                "    return 1",
                "",
                f"{function}()",
            ]
        if choice == 3:
            function = self.name("fn")
            return [
                "@task",
                f"def {function}():",
                "    return 1",
                "",
                f'{function}.override(task_id="{task_id}"{extra})()',
            ]
        if choice == 4:
            count = self.rng.randint(1, 3)
            return [
                f"for n in range({count}):",
                f'    BashOperator(task_id=f"{task_id}_{{n}}", bash_command="run",'
                " pool_slots=n + 1)",
            ]
        if choice == 5:
            group = self.name("g")
            args = self.default_args()
            group_args = f", default_args={args}" if args else ""
            return [
                f'with TaskGroup("{group}"{group_args}):',
                f'    BashOperator(task_id="{task_id}", bash_command="run"{extra})',
            ]
        if choice == 6:
            return [
                f'BashOperator.partial(task_id="{task_id}"{extra}).expand(bash_command=["a", "b"])'
            ]
        return [f'BashOperator(task_id="{task_id}", bash_command="run"{extra})']

    # --- DAGs --------------------------------------------------------------------------------

    def dag(self) -> list[str]:
        dag_id = f"gen{self.index}_{self.name('dag')}"
        args = self.default_args()
        dag_args = f", default_args={args}" if args else ""
        choice = self.rng.randrange(4)
        if choice == 0:
            return [f'with DAG("{dag_id}", {START}{dag_args}):', *self.tasks("    ")]
        if choice == 1:
            function = self.name("pipeline")
            return [
                f'@dag(dag_id="{dag_id}", {START}{dag_args})',
                f"def {function}():",
                *self.tasks("    "),
                "",
                "",
                f"{function}()",
            ]
        if choice == 2:
            factory = self.name("build")
            return [
                f"def {factory}(name):",
                f"    with DAG(name, {START}{dag_args}) as built:",
                *self.tasks("        "),
                "    return built",
                "",
                "",
                'for suffix in ("x", "y"):',
                f'    globals()["{dag_id}_" + suffix] = {factory}("{dag_id}_" + suffix)',
            ]
        variable = self.name("dag").upper()
        return [
            f'{variable} = DAG("{dag_id}", {START}{dag_args})',
            f"with {variable}:",
            *self.tasks("    "),
        ]

    def source(self, seed: int) -> str:
        bodies = [self.dag() for _ in range(self.rng.randint(1, 3))]
        parts = [HEADER.format(index=self.index, seed=seed), *self.prelude, ""]
        for body in bodies:
            parts.extend(["", *body, ""])
        return "\n".join(parts).rstrip() + "\n"


def write_programs(folder: Path, count: int, seed: int) -> list[Path]:
    """Write ``count`` programs and the shared library into ``folder``; return the DAG files."""
    (folder / "common").mkdir(parents=True, exist_ok=True)
    (folder / "common" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "common" / "gen_lib.py").write_text(LIB, encoding="utf-8")
    rng = random.Random(seed)
    files = []
    for index in range(count):
        path = folder / f"gen_{index:03d}.py"
        path.write_text(Program(rng, index, seed).source(seed), encoding="utf-8")
        files.append(path)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    for path in write_programs(args.folder, args.count, args.seed):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
