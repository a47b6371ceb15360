"""Which DAG files import the files a run was given, directly or through other modules.

pre-commit passes only the files a commit changed. A commit that changes only a shared
``common/routing.py`` can break every DAG that imports a queue from it, so those DAG files are
linted too. Finding them reads every file of the DAG folders that the import index cannot answer
for (``pipeline.import_index``, with the cache on), but extracts only the ones whose text names a
module of interest (an import of ``common.routing`` spells ``routing`` somewhere), and those
summaries come from the cache when it is on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dagroute_lint.model import Module
from dagroute_lint.pipeline.import_index import module_reads
from dagroute_lint.sources.discovery import SourceFile, might_define_dags

# What the analysis lends: a file's module name, the extraction of a batch of files, and a read.
ModuleNamer = Callable[[SourceFile], str]
BatchExtractor = Callable[[Sequence[tuple[SourceFile, bytes]]], list[Module]]
Reader = Callable[[SourceFile], "bytes | object"]
# Which of the files named (by absolute path) read one of the module names given.
Readers = Callable[[Sequence[str], set[str]], set[str]]


def importers(
    given: Sequence[SourceFile],
    candidates: Sequence[tuple[SourceFile, bytes]],
    known: Sequence[SourceFile],
    readers: Readers,
    name_of: ModuleNamer,
    extract: BatchExtractor,
    read: Reader,
) -> list[tuple[SourceFile, bytes]]:
    """The DAG files among ``candidates`` and ``known`` whose imports reach a module of
    ``given``. ``known`` are files the import index (``pipeline.import_index``) answers for
    through ``readers`` without reading them; those found are read here.

    Modules that are not DAG files (a ``common/__init__.py`` re-exporting ``routing``) carry the
    dependency on, but are not reported: they define no task.
    """
    reached = {name_of(source) for source in given}
    pending = {source.real: (source, data) for source, data in candidates}
    told = {source.real: source for source in known}
    for source in given:
        pending.pop(source.real, None)
        told.pop(source.real, None)
    extracted: dict[str, frozenset[str]] = {}
    found: list[tuple[SourceFile, bytes]] = []
    fresh = set(reached)
    while fresh:
        words = {name.rsplit(".", 1)[-1].encode() for name in fresh if name}
        hits = [entry for entry in pending.values() if any(word in entry[1] for word in words)]
        todo = [entry for entry in hits if entry[0].real not in extracted]
        for (source, _), module in zip(todo, extract(todo)):
            extracted[source.real] = frozenset(module_reads(module))
        importing = [source for source, _ in hits if reached & extracted[source.real]]
        importing += [told[real] for real in sorted(readers(list(told), fresh))]
        fresh = set()
        for source in importing:
            entry = pending.pop(source.real, None)
            told.pop(source.real, None)
            name = name_of(source)
            if name not in reached:
                reached.add(name)
                fresh.add(name)
            data = entry[1] if entry is not None else read(source)
            if isinstance(data, bytes) and might_define_dags(data):
                found.append((source, data))
    return sorted(found, key=lambda entry: entry[0].display)
