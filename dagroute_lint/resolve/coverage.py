"""How much of the repository was seen: tasks, DAGs, and the places where tasks may be missing.

A clean result must mean clean, so every summary (the lint run's, ``routes``', the acceptance
reports') counts the places extraction could not follow, whether or not DRL106 is selected.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from dagroute_lint.model import Module, Position
from dagroute_lint.records import record
from dagroute_lint.resolve.tasks import ResolvedTask

# What a place where tasks may be missing is about, in its facts: ``None`` for a place in the
# file's code, ``NO_DAG`` for a file the DAG processor imports in which no DAG is found.
NO_DAG = "dag"


@record
class NoDag:
    """Why a file in which no DAG is found is the DAG processor's: ``word`` is what its text
    holds beside "airflow" ("dag", or under Airflow 3 "asset"); ``folders_named`` whether the
    settings name the DAG folders (otherwise the folders linted stand for them)."""

    word: str
    folders_named: bool


def unmodelled_places(
    module: Module, tasks: Sequence[ResolvedTask], no_dag: NoDag | None = None
) -> Iterator[tuple[Position, str, str | None]]:
    """Each place of ``module`` where tasks may be built that cannot be seen, with why and what
    it is about (``NO_DAG`` or ``None``), once: what extraction could not follow, each DAG whose
    id cannot be known, and a file that the DAG processor imports in which no DAG is found
    (``no_dag``, see ``AnalysedFile.no_dag``), unless another place already says why. The code
    that builds a DAG may run several times (a factory called in a loop): its DAGs are one
    place."""
    places: dict[tuple[Position, str], None] = {}
    for place in module.unmodelled:
        places.setdefault((place.position, place.message), None)
    for position, message in places:
        yield position, message, None
    if no_dag is not None and not places:
        yield (*_no_dag_found(module, no_dag), NO_DAG)
    unknown: dict[tuple[Position, str], set[int]] = {}
    for task in tasks:
        dag = task.task.dag
        if task.dag_id is None and dag is not None:
            reason = dict(task.unresolved).get("dag_id", "not known statically")
            unknown.setdefault((module.dags[dag].position, reason), set()).add(dag)
    for (position, reason), dags in unknown.items():
        if len(dags) == 1:
            yield (
                position,
                f"the id of this DAG cannot be known without running the file ({reason}); its "
                "tasks cannot be matched with what Airflow builds",
                None,
            )
            continue
        yield (
            position,
            f"the ids of the {len(dags)} DAGs built here (one each time this code runs) cannot "
            f"be known without running the file ({reason}); their tasks cannot be matched with "
            "what Airflow builds",
            None,
        )


def _no_dag_found(module: Module, no_dag: NoDag) -> tuple[Position, str]:
    """Where a file without a DAG is reported, and why: at the call that may build its DAGs
    where the walk met one it could not follow, else at its first line."""
    found = (
        "no DAG is found in this file, though Airflow's DAG processor imports it (it mentions "
        f'"airflow" and "{no_dag.word}")'
    )
    cause = module.no_dag_cause
    if cause is not None:
        return (
            cause.position,
            f"{found}: {cause.message}; the DAGs and tasks it may build are not seen",
        )
    return (
        Position(1, 1),
        f"{found} and no other file of the repository does: nothing in it builds a DAG when it "
        "runs; if it is not meant to define one (a helper, a test), list it in .airflowignore so "
        "that Airflow skips it too"
        + (
            ""
            if no_dag.folders_named
            else ", or name the DAG folders in the `dags` setting if it lies outside them"
        ),
    )


@record
class Coverage:
    """Tasks and DAGs seen, places where tasks may be missing, and (a lint run's, counted over
    the run) facts the inventory leaves open that checks needed (DRL902)."""

    tasks: int = 0
    dags: int = 0
    unseen: int = 0
    open_facts: int = 0

    def __add__(self, other: Coverage) -> Coverage:
        return Coverage(
            self.tasks + other.tasks,
            self.dags + other.dags,
            self.unseen + other.unseen,
            self.open_facts + other.open_facts,
        )

    @property
    def line(self) -> str:
        """``412 tasks in 37 DAGs checked; 2 places where tasks could not be seen``, and
        ``; the inventory leaves open 1 fact some checks need`` (DRL902) when it does."""
        line = (
            f"{_plural(self.tasks, 'task')} in {_plural(self.dags, 'DAG')} checked; "
            f"{_plural(self.unseen, 'place')} where tasks could not be seen"
        )
        if self.open_facts:
            facts = _plural(self.open_facts, "fact")
            line += f"; the inventory leaves open {facts} some checks need"
        return line


def coverage(files: Iterable[tuple[Module, Sequence[ResolvedTask], NoDag | None]]) -> Coverage:
    total = Coverage()
    for module, tasks, no_dag in files:
        # Every DAG the file builds was checked (its id, its arguments), tasks or not; a task
        # built outside any DAG belongs to none.
        dags = len(module.dags)
        unseen = sum(1 for _ in unmodelled_places(module, tasks, no_dag))
        total += Coverage(len(tasks), dags, unseen)
    return total


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
