"""What one deployment source says, each value with where it came from, and how sources combine.

Every source (Helm values, a compose file, a requirements file, a runtime contract, the live
Celery workers) yields ``DeploymentFacts``; ``combine`` joins them. Two sources that disagree on
one value are a contradiction the user must settle, never a value picked by order, so ``combine``
raises ``ConfigError`` naming both places.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from typing import Any, Generic, TypeVar

from dagroute_lint.catalog.providers import canonical_distribution, canonical_name
from dagroute_lint.deployment.init.airflow_cfg import Setting
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record, replace

T = TypeVar("T")
Option = tuple[str, str]


@record
class Fact(Generic[T]):
    """A value and the place it was read from (``values.yaml: triggerer.enabled``)."""

    value: T
    source: str


@record
class WorkerFact:
    """A Celery worker: ``queues`` as given to ``-q``, ``None`` when it consumes the default queue.

    ``default_queue`` is the worker's own ``[operators] default_queue`` when the source knows it
    (a compose service's environment), for a worker started without ``-q``. ``undecided`` says
    why the queues cannot be known from the source (a template, a variable): such a worker is
    written as a commented block to fill in, never with a guessed queue.
    """

    name: str
    queues: tuple[str, ...] | None
    source: str
    runtime: str | None = None
    default_queue: Fact[str] | None = None
    undecided: str | None = None


@record
class RuntimeFact:
    """Part of a runtime: ``providers`` / ``packages`` are requirement strings (``http==6.3.0``),
    ``None`` when this source cannot tell what the runtime has installed; ``imports`` are the
    module names its distributions install under names no table or normalisation gives.

    ``image`` is the image the runtime is (or is built on); what it holds is known only for an
    official ``apache/airflow`` tag of the shipped table, and otherwise ``providers`` and
    ``packages`` are what is added on top of an unknown base, unless ``complete`` says they
    list everything installed (an environment read with ``--python``, a ``pip freeze``).
    ``installed``: the lists were read from the environment itself (``--python``), so every
    distribution in it is listed, its dependencies included (the inventory's ``complete``).
    ``open`` says why the runtime holds more than any list can say (a build that installs a
    ``setup.py`` project or a wheel): its providers and packages are then left to fill in."""

    name: str
    source: str
    python: Fact[str] | None = None
    providers: tuple[Fact[str], ...] | None = None
    packages: tuple[Fact[str], ...] | None = None
    labels: tuple[tuple[str, Fact[str]], ...] = ()
    comments: tuple[str, ...] = ()
    imports: tuple[Fact[str], ...] = ()
    image: Fact[str] | None = None
    complete: bool = False
    installed: bool = False
    open: tuple[str, ...] = ()


@record
class DeploymentFacts:
    """Everything the sources said. ``options`` are ``airflow.cfg`` options as Airflow would read
    them (environment overrides already applied inside each source); ``executor_runtimes`` maps an
    executor kind (``kubernetes``, ``local``) to the runtime its tasks run in. ``undecided`` holds
    the options a source sets to something known only at deploy time (a template, a secret, a
    shell variable), with where: another source may supply them, and no default may stand in.
    ``settings`` are notes on linter settings the deployment implies but the inventory cannot
    hold (``roots`` in ``[tool.dagroute-lint]``), told on stderr."""

    sources: tuple[str, ...] = ()
    options: Mapping[Option, Setting] = field(default_factory=dict)
    undecided: Mapping[Option, str] = field(default_factory=dict)
    airflow_version: Fact[str] | None = None
    triggerer: Fact[bool] | None = None
    dag_processor_runtime: Fact[str] | None = None
    workers: tuple[WorkerFact, ...] = ()
    executor_runtimes: Mapping[str, Fact[str]] = field(default_factory=dict)
    runtimes: tuple[RuntimeFact, ...] = ()
    notes: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    # ``[environment]``: the variables DAG files are parsed with, and the names left out, with
    # why (``parse_values``); ``[variables]`` likewise.
    environment: Mapping[str, Fact[str]] = field(default_factory=dict)
    environment_left: Mapping[str, str] = field(default_factory=dict)
    variables: Mapping[str, Fact[object]] = field(default_factory=dict)
    variables_left: Mapping[str, str] = field(default_factory=dict)


def contradiction(what: str, first: Fact[Any] | Setting, second: Fact[Any] | Setting) -> str:
    return (
        f"{second.source}: {what} {second.value!r} contradicts {first.value!r} from "
        f"{first.source}; make the sources agree or leave one out"
    )


def built_version(
    base: Fact[str] | None, installs: Sequence[Fact[str]]
) -> tuple[Fact[str] | None, str | None]:
    """The Airflow a build leaves installed, and a note when it is not the base image's.

    A ``pip install apache-airflow==X`` after ``FROM apache/airflow:Y`` replaces the image's
    Airflow (a later layer wins), so the last install decides over the tag: the two are not
    sources of equal precedence, and only those can contradict each other."""
    if not installs:
        return base, None
    installed = installs[-1]
    if base is None or base.value == installed.value:
        return installed if base is None else base, None
    return installed, (
        f"{installed.source} installs Airflow {installed.value} over the {base.value} of "
        f"{base.source}: a later layer wins, so the runtime runs Airflow {installed.value}"
    )


def prevailing(what: str, first: Setting, second: Setting) -> Setting:
    """The option Airflow reads of two sources: an environment variable over ``airflow.cfg``;
    two of the same kind that disagree are a contradiction."""
    if first.environment != second.environment:
        return first if first.environment else second
    if first.value != second.value:
        raise ConfigError(contradiction(what, first, second))
    return first


def _same(what: str, first: Fact[T] | None, second: Fact[T] | None) -> Fact[T] | None:
    if first is None or second is None:
        return first or second
    if first.value != second.value:
        raise ConfigError(contradiction(what, first, second))
    return first


def _present(fact: Fact[T] | None) -> Fact[T]:
    assert fact is not None, "combining a fact with another never loses both"
    return fact


def combine(parts: Iterable[DeploymentFacts]) -> DeploymentFacts:
    """One set of facts from several sources; ``ConfigError`` where two of them disagree."""
    result = DeploymentFacts()
    for part in parts:
        result = _combine_two(result, part)
    return result


def _combine_two(first: DeploymentFacts, second: DeploymentFacts) -> DeploymentFacts:
    options = dict(first.options)
    for option, setting in second.options.items():
        earlier = options.get(option)
        options[option] = (
            setting
            if earlier is None
            else prevailing(f"[{option[0]}] {option[1]}", earlier, setting)
        )
    undecided = {**second.undecided, **first.undecided}
    executor_runtimes = dict(first.executor_runtimes)
    for kind, ran_in in second.executor_runtimes.items():
        executor_runtimes[kind] = _present(
            _same(f"the {kind} runtime", executor_runtimes.get(kind), ran_in)
        )
    names = {worker.name: worker for worker in first.workers}
    for worker in second.workers:
        if worker.name in names:
            raise ConfigError(
                f"{worker.source}: worker {worker.name!r} is also described by "
                f"{names[worker.name].source}; give each worker its own name"
            )
    runtimes = {runtime.name: runtime for runtime in first.runtimes}
    for runtime in second.runtimes:
        earlier_runtime = runtimes.get(runtime.name)
        runtimes[runtime.name] = (
            runtime if earlier_runtime is None else combine_runtimes(earlier_runtime, runtime)
        )
    return DeploymentFacts(
        # One file read twice (a Dockerfile's `-r` and --requirements) is one source.
        sources=tuple(dict.fromkeys((*first.sources, *second.sources))),
        options=options,
        undecided=undecided,
        airflow_version=_same("airflow version", first.airflow_version, second.airflow_version),
        triggerer=_same("triggerer", first.triggerer, second.triggerer),
        dag_processor_runtime=_same(
            "DAG processor runtime", first.dag_processor_runtime, second.dag_processor_runtime
        ),
        workers=(*first.workers, *second.workers),
        executor_runtimes=executor_runtimes,
        runtimes=tuple(runtimes.values()),
        notes=(*first.notes, *second.notes),
        settings=tuple(dict.fromkeys((*first.settings, *second.settings))),
        environment=_same_names("environment variable", first.environment, second.environment),
        environment_left={**first.environment_left, **second.environment_left},
        variables=_same_names("Variable", first.variables, second.variables),
        variables_left={**first.variables_left, **second.variables_left},
    )


def _same_names(
    what: str, first: Mapping[str, Fact[T]], second: Mapping[str, Fact[T]]
) -> dict[str, Fact[T]]:
    """Two sources' values by name; one name given two values is a contradiction."""
    joined = dict(first)
    for name, fact in second.items():
        joined[name] = _present(_same(f"{what} {name}", joined.get(name), fact))
    return joined


def combine_runtimes(first: RuntimeFact, second: RuntimeFact) -> RuntimeFact:
    """Two sources on one runtime: requirements add up, one distribution pinned two ways fails."""
    labels = dict(first.labels)
    for name, label in second.labels:
        labels[name] = _present(_same(f"runtime {first.name!r} {name}", labels.get(name), label))
    return replace(
        first,
        source=f"{first.source}; {second.source}",
        python=_same(f"runtime {first.name!r} python", first.python, second.python),
        providers=_requirements(
            first.name, first.providers, second.providers, canonical_distribution
        ),
        packages=_requirements(first.name, first.packages, second.packages, canonical_name),
        labels=tuple(labels.items()),
        comments=(*first.comments, *second.comments),
        image=_same(f"runtime {first.name!r} image", first.image, second.image),
        complete=first.complete or second.complete,
        installed=first.installed and second.installed,
        open=(*first.open, *second.open),
    )


def _requirements(
    runtime: str,
    first: tuple[Fact[str], ...] | None,
    second: tuple[Fact[str], ...] | None,
    canonical: Callable[[str], str],
) -> tuple[Fact[str], ...] | None:
    if first is None or second is None:
        return first if second is None else second
    by_name = {canonical(parse_requirement(item.value).name): item for item in first}
    for item in second:
        name = canonical(parse_requirement(item.value).name)
        earlier = by_name.get(name)
        if earlier is None:
            by_name[name] = item
        elif _specifier(earlier.value) != _specifier(item.value):
            if not _specifier(item.value):
                continue  # a bare name adds nothing to a pinned one
            if _specifier(earlier.value):
                raise ConfigError(contradiction(f"runtime {runtime!r} {name}", earlier, item))
            by_name[name] = item
    return tuple(by_name.values())


def _specifier(requirement: str) -> str:
    return parse_requirement(requirement).specifier
