"""DRL009: a DAG file whose imports come back to it and ask a module for a name not bound yet.

DagBag runs a DAG file under a name of its own (``unusual_prefix_<sha1>_<stem>``), with the DAG
folder on ``sys.path``. When a repository module the file imports imports the file back by its
plain name, Python runs the file a second time from the top, as that module; its imports then find
the modules of the cycle still paused at their own import line, and ``from m import n`` fails
when ``n`` is bound only below that line. Verified with DagBag in Airflow 2.10.5 and 3.3.2
(``ImportError: cannot import name 'n' from partially initialized module 'm' (most likely due to a
circular import)``, recorded for each file of the cycle). The walk is Python's, over the
repository's models: each module runs once, imports in order, every unguarded module-level import
followed into the repository; anything it cannot decide (a star import, a name that may be a
submodule, a name never bound at module level) is not reported.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import ImportSite, Module
from dagroute_lint.records import record
from dagroute_lint.rules.base import Context, Rule

Lookup = Callable[[str], Module | None]
# One step of the walk: it hands the driver the steps it needs done first (``yield step``
# gives back that step's result) and returns a failure or ``None``.
Step = Generator["Step", "Failure | None", "Failure | None"]


@record
class Failure:
    """``site`` (in ``path``) asks ``module``, paused at line ``paused``, for ``name``, which
    it binds only at line ``bound``."""

    site: ImportSite
    path: str
    module: str
    name: str
    paused: int
    bound: int


def _drive(step: Step) -> Failure | None:
    """Run a step and the steps it asks for on a stack of our own, not Python's: a chain of
    modules importing each other is as deep as the repository makes it, and no bound on the
    depth is needed (each module runs once)."""
    stack = [step]
    result: Failure | None = None
    while stack:
        try:
            needed = stack[-1].send(result)
        except StopIteration as finished:
            stack.pop()
            result = finished.value
        else:
            stack.append(needed)
            result = None
    return result


class _Run:
    """Python's import of one DAG file, over the repository's models."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        # Modules being run, with the import site each is paused at; modules done.
        self.paused: dict[str, ImportSite | None] = {}
        self.done: set[str] = set()

    def run(self, module: Module, name: str | None) -> Step:
        for site in module.imports:
            if site.scope != "module" or site.guarded:
                continue
            if name is not None:
                self.paused[name] = site
            failure = yield self.execute(site, module)
            if failure is not None:
                return failure
        if name is not None:
            del self.paused[name]
            self.done.add(name)
        return None

    def execute(self, site: ImportSite, module: Module) -> Step:
        parts = site.module.split(".")
        for end in range(1, len(parts) + 1):
            failure = yield self.load(".".join(parts[:end]))
            if failure is not None:
                return failure
        target = site.module
        for imported in site.names:
            if imported == "*":
                continue
            submodule = f"{target}.{imported}"
            if self.lookup(submodule) is not None:
                failure = yield self.load(submodule)
                if failure is not None:
                    return failure
                continue
            failure = self.partial(site, module, target, imported)
            if failure is not None:
                return failure
        return None

    def load(self, name: str) -> Step:
        if name in self.paused or name in self.done:
            return None
        found = self.lookup(name)
        if found is None or found.syntax_error is not None:
            return None
        self.paused[name] = None
        return (yield self.run(found, name))

    def partial(self, site: ImportSite, module: Module, target: str, name: str) -> Failure | None:
        """``from target import name`` while ``target`` may be paused part-way."""
        if target not in self.paused:
            return None
        at = self.paused[target]
        found = self.lookup(target)
        if at is None or found is None:
            return None
        bound = found.bound_at.get(name)
        paused = at.position.line
        # Bound on the paused line: by that very import (not done yet), or undecidable.
        if bound is None or bound < paused or (bound == paused and name not in at.names):
            return None
        return Failure(site, module.path, target, name, at.position.line, bound)


def check_circular_import(context: Context) -> Iterator[Diagnostic]:
    module = context.module
    if not module.dags or module.syntax_error is not None:
        return
    walk = _Run(context.repository.lookup)
    # The file's own name is not in sys.modules: DagBag runs it under another one.
    for site in module.imports:
        if site.scope != "module" or site.guarded:
            continue
        failure = _drive(walk.execute(site, module))
        if failure is None:
            continue
        who = "this file, run again under its module name,"
        if failure.path != module.path:
            who = f"{failure.path} (line {failure.site.position.line})"
        bound = f"bound only at line {failure.bound}"
        if failure.bound == failure.paused:
            bound = "not bound above that line"
        yield context.report(
            site.position,
            f"importing '{site.module}' runs a circular import back into this file: {who} "
            f"does 'from {failure.module} import {failure.name}' while '{failure.module}' is "
            f"paused at its import on line {failure.paused}, and '{failure.name}' is {bound}; "
            "Python raises ImportError (cannot import name from "
            "partially initialized module) when the file is parsed, so the file does not load",
            kind="parse",
            item=site.module,
        )
        return


CIRCULAR_IMPORT = Rule(
    code="DRL009",
    name="circular-import",
    summary="a DAG file whose imports come back to it and fail on a name not bound yet",
    boundary="parse",
    check=check_circular_import,
)
