"""One diagnostic for a module-level import that breaks many tasks on the workers serving them."""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.deployment.inventory import Worker
from dagroute_lint.records import record
from dagroute_lint.resolve.tasks import ResolvedTask

# Tasks named in a grouped message; the rest are counted.
FIRST_TASKS = 3


@record
class BrokenTask:
    """A task that a missing import breaks on ``lacking``, some or all of ``serving``."""

    task: ResolvedTask
    lacking: tuple[Worker, ...]
    serving: tuple[Worker, ...]


def task_list(tasks: Sequence[ResolvedTask]) -> str:
    """The first few tasks by label, then how many more: a cause reached by fifty tasks is one
    readable line, not fifty."""
    labels = ", ".join(task.label for task in tasks[:FIRST_TASKS])
    rest = len(tasks) - FIRST_TASKS
    return f"{labels} and {rest} more" if rest > 0 else labels


def grouped_outcome(broken: Sequence[BrokenTask]) -> str:
    """Which workers lack the import, which tasks it breaks there, and when they fail:
    ``worker 'a' (runtime 'r') lacks; 2 tasks fail there at startup, ...: task 'x' ...``."""
    lacking = list({worker.name: worker for item in broken for worker in item.lacking}.values())
    named = [f"'{worker.name}' (runtime '{worker.runtime}')" for worker in lacking]
    workers = f"worker {named[0]} lacks" if len(named) == 1 else f"workers {', '.join(named)} lack"
    one = len(broken) == 1
    always = all(len(item.lacking) == len(item.serving) for item in broken)
    if always:
        when = f"before {'its' if one else 'their'} first line runs"
    else:
        when = f"when {'it lands' if one else 'they land'} on a worker without it"
    noun = "1 task fails" if one else f"{len(broken)} tasks fail"
    tasks = task_list([item.task for item in broken])
    return f"{workers}; {noun} there at startup, {when}: {tasks}"
