"""Which DAG files import the files a run was given, directly or through other modules.

pre-commit passes only the files a commit changed. A commit that changes only a shared
``common/routing.py`` can break every DAG that imports a queue from it, so those DAG files are
linted too. Finding them reads every file of the DAG folders but extracts only the ones whose
text names a module of interest (an import of ``common.routing`` spells ``routing`` somewhere),
and those summaries come from the cache when it is on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Callable

from dagroute_lint.model import Module
from dagroute_lint.sources.discovery import SourceFile, might_define_dags

# What the analysis lends: a file's module name, and the extraction of a batch of files.
ModuleNamer = Callable[[SourceFile], str]
BatchExtractor = Callable[[Sequence[tuple[SourceFile, bytes]]], list[Module]]


def importers(
    given: Sequence[SourceFile],
    candidates: Sequence[tuple[SourceFile, bytes]],
    name_of: ModuleNamer,
    extract: BatchExtractor,
) -> list[tuple[SourceFile, bytes]]:
    """The DAG files among ``candidates`` whose imports reach a module of ``given``.

    Modules that are not DAG files (a ``common/__init__.py`` re-exporting ``routing``) carry the
    dependency on, but are not reported: they define no task.
    """
    reached = {name_of(source) for source in given}
    pending = {source.real: (source, data) for source, data in candidates}
    for source in given:
        pending.pop(source.real, None)
    extracted: dict[str, Module] = {}
    found: list[tuple[SourceFile, bytes]] = []
    fresh = set(reached)
    while fresh:
        words = {name.rsplit(".", 1)[-1].encode() for name in fresh if name}
        hits = [entry for entry in pending.values() if any(word in entry[1] for word in words)]
        todo = [entry for entry in hits if entry[0].real not in extracted]
        for (source, _), module in zip(todo, extract(todo)):
            extracted[source.real] = module
        fresh = set()
        for source, data in hits:
            if not reached.intersection(_reads(extracted[source.real])):
                continue
            del pending[source.real]
            name = name_of(source)
            if name not in reached:
                reached.add(name)
                fresh.add(name)
            if might_define_dags(data):
                found.append((source, data))
    return sorted(found, key=lambda entry: entry[0].display)


def _reads(module: Module) -> Iterator[str]:
    """Every module importing the file runs: ``import a.b`` runs ``a`` too, and ``from a import
    b`` may import the submodule ``a.b``."""
    for site in (*module.imports, *(site for task in module.tasks for site in task.imports)):
        parts = site.module.split(".")
        for end in range(1, len(parts) + 1):
            yield ".".join(parts[:end])
        for name in site.names:
            yield f"{site.module}.{name}"
