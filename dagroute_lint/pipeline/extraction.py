"""Extract many files at once: from the cache where possible, in worker processes otherwise.

Extraction is pure per file, so the order results come back in never matters: results are put
back in request order, and the output is the same for any number of jobs and any cache state.
A process pool costs more than it gives for a handful of files (pre-commit passes one or two), so
small batches are extracted in this process. libcst and the pool are imported only when a file
must really be extracted: importing libcst alone costs more than a whole warm run.
"""

from __future__ import annotations

import functools
import os
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, cast

from dagroute_lint.deployment.parse_environment import ParseEnvironment
from dagroute_lint.model import Expr, Module, Source
from dagroute_lint.pipeline.cache import SummaryCache, summary_key
from dagroute_lint.pipeline.collector import no_collections, settle
from dagroute_lint.pipeline.progress import ProgressLine
from dagroute_lint.records import record
from dagroute_lint.sources.data_files import still_hold

if TYPE_CHECKING:
    from concurrent.futures import Executor

# Below this many files to extract, a pool's start-up costs more than the second core saves.
MIN_FILES_FOR_POOL = 16
# Work items per worker: enough to balance uneven files, few enough to keep messages cheap.
CHUNKS_PER_WORKER = 8


def available_cores() -> int:
    """Cores this process may run on (the affinity mask, where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@record
class Deployed:
    """What the deployment tells extraction, the same for every file of a run: the inventory's
    ``airflow_version`` (it decides conditions on Airflow's version), the folders whose data
    files the walk may read (``sources.data_files``), and the inventory's environment and
    Variables, which the file's reads of them answer from."""

    airflow_version: str | None = None
    data_roots: tuple[str, ...] = ()
    parse_environment: ParseEnvironment | None = None

    def key(self) -> bytes:
        """What of it keys a summary besides ``airflow_version`` (``summary_key`` takes that),
        with the working directory: ``__file__`` is ``os.path.abspath`` of the name shown, so
        it decides what is built from it (a data file's path)."""
        folders = "\0".join((os.getcwd(), *self.data_roots))
        key = b"\0folders\0" + folders.encode("utf-8", "surrogateescape")
        if self.parse_environment is not None:
            key += b"\0environment\0" + self.parse_environment.key().encode("utf-8", "replace")
        return key


@record
class Request:
    """One file to extract, with everything its summary depends on."""

    data: bytes
    display: str
    module_name: str
    is_package: bool
    externals: Mapping[str, Expr] = field(default_factory=dict)
    sources: Mapping[str, Source] = field(default_factory=dict)
    deployed: Deployed = field(default_factory=Deployed)

    @property
    def key(self) -> str:
        """The summary depends on the sources of the modules whose functions it runs too."""
        data = self.data
        if self.sources:
            import hashlib  # here: only runs with a cache ask for keys

            digest = hashlib.sha256()
            for name, source in sorted(self.sources.items()):
                digest.update(f"{name}\0{source.is_package}\0{source.path}\0".encode())
                digest.update(hashlib.sha256(source.data).digest())
            data += b"\0sources\0" + digest.digest()
        data += self.deployed.key()
        return summary_key(
            data,
            self.display,
            self.module_name,
            self.is_package,
            self.externals,
            self.deployed.airflow_version,
        )


class Extractor:
    """Turns requests into summaries, using ``jobs`` processes and an optional cache.

    The pool starts with the first batch large enough to need it and serves every later batch
    (files that loop over other modules' names are extracted twice); ``close`` ends it, and
    files asked for afterwards are extracted in this process.
    """

    def __init__(
        self,
        jobs: int = 1,
        cache: SummaryCache | None = None,
        progress: ProgressLine | None = None,
    ) -> None:
        self.jobs = max(1, jobs)
        self.cache = cache
        self.progress = progress
        self._pool: Executor | None = None
        self._closed = False

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        if self.cache is not None:
            self.cache.flush()
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def extract(self, requests: Sequence[Request]) -> list[Module]:
        if self.progress is not None:
            self.progress.expect(len(requests))
        results: list[Module | None] = [None] * len(requests)
        keys = [request.key for request in requests] if self.cache is not None else []
        missing: list[int] = []
        for index in range(len(requests)):
            cached = self.cache.load(keys[index]) if self.cache is not None else None
            if cached is not None and cached.data_reads:  # made from data files: still them?
                cached = (
                    cached
                    if still_hold(cached.data_reads, requests[index].deployed.data_roots)
                    else None
                )
            if cached is None:
                missing.append(index)
            else:
                results[index] = cached
        self._advance(len(requests) - len(missing))
        work = [requests[i] for i in missing]
        if self.jobs > 1 and len(work) >= MIN_FILES_FOR_POOL and not self._closed:
            chunksize = max(1, len(work) // (self.jobs * CHUNKS_PER_WORKER))
            payloads = self._started_pool().map(_extract_one, work, chunksize=chunksize)
            for index, payload in zip(missing, payloads):
                results[index] = pickle.loads(payload)
                if self.cache is not None:
                    self.cache.store(keys[index], requests[index].display, payload)
                self._advance(1)
        else:
            for index, request in zip(missing, work):
                module = _extract(request)
                if self.cache is not None:
                    payload = pickle.dumps(module, protocol=pickle.HIGHEST_PROTOCOL)
                    self.cache.store(keys[index], request.display, payload)
                results[index] = module
                self._advance(1)
        return cast("list[Module]", results)  # every slot is filled: from the cache or above

    def _started_pool(self) -> Executor:
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=self.jobs)
        return self._pool

    def _advance(self, count: int) -> None:
        if self.progress is not None and count:
            self.progress.advance(count)


@functools.cache
def _settled() -> None:
    """Once per process, after the first import of the extractor (libcst with it): those modules
    live as long as the process, and ``settle`` keeps later collections from traversing them."""
    settle()


def _extract(request: Request) -> Module:
    from dagroute_lint.extract import extract_module  # a run answered from the cache never does

    _settled()
    with no_collections():
        return extract_module(
            request.data,
            request.display,
            request.module_name,
            request.is_package,
            request.externals or None,
            request.sources or None,
            request.deployed.airflow_version,
            request.deployed.data_roots,
            request.deployed.parse_environment,
        )


def _extract_one(request: Request) -> bytes:
    """In a worker: extract one file and return the pickled summary (the parent caches it)."""
    return pickle.dumps(_extract(request), protocol=pickle.HIGHEST_PROTOCOL)
