"""Build a starting inventory (``inventory init``) from what a deployment knows about itself.

Sources, combinable (``facts.combine`` refuses two that disagree):

- an installed Python environment (``environment.py``): the Airflow version, the providers with
  their versions and every other distribution, as one runtime;
- ``airflow.cfg`` and ``AIRFLOW__*`` variables (``airflow_cfg.py``): executors, default queue and
  the ``default_pool`` size;
- the queues of Celery workers as given on the command line (``--worker NAME=QUEUES``);
- the deployment's own description: Helm values (``helm.py``), compose files (``compose.py``,
  read as compose reads them by ``compose_project.py``, their builds by ``dockerfile.py``),
  requirements files (``requirements_file.py``), a runtime contract (``contract.py``) and the
  running Celery workers (``celery_probe.py``).

A runtime on an official ``apache/airflow`` image is written as that ``image`` plus what is
added to it (``catalog/official_images``); a fact no source establishes is a ``# FILL IN``
comment and a line of ``Generated.open_facts``.

The result is commented TOML that says where each value came from, and it is read back with the
inventory loader before anyone sees it, so what ``init`` writes always passes ``inventory check``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.catalog.airflow_defaults import DEFAULT_POOL
from dagroute_lint.catalog.airflow_defaults import DEFAULT_QUEUE as AIRFLOW_DEFAULT_QUEUE
from dagroute_lint.catalog.distributions import import_need
from dagroute_lint.catalog.official_images import (
    OfficialImage,
    covered_range,
    official_image,
    official_tag,
)
from dagroute_lint.catalog.providers import PROVIDER_PREFIX
from dagroute_lint.deployment.executors import (
    DEFAULT_EXECUTOR_2,
    DEFAULT_EXECUTOR_3,
    ExecutorConfigError,
    ExecutorEntry,
    parse_executor_list,
)
from dagroute_lint.deployment.init import DEFAULT_RUNTIME
from dagroute_lint.deployment.init import toml_writer as tw
from dagroute_lint.deployment.init.airflow_cfg import (
    DEFAULT_POOL_SLOTS,
    DEFAULT_QUEUE,
    EXECUTOR,
    AirflowConfig,
    Setting,
    environment_variable,
)
from dagroute_lint.deployment.init.environment import Distribution, Environment
from dagroute_lint.deployment.init.facts import (
    DeploymentFacts,
    Fact,
    RuntimeFact,
    WorkerFact,
    combine,
    contradiction,
    prevailing,
)
from dagroute_lint.deployment.inventory import (
    SUPPORTED_AIRFLOW_MAJORS,
    Inventory,
    load_inventory_text,
)
from dagroute_lint.deployment.parse_environment import (
    SECRETS_BACKEND,
    VARIABLE_PREFIX,
    same_variable,
)
from dagroute_lint.deployment.requirements import parse_requirement, release_tuple
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record

# Airflow itself rather than a provider or a business dependency (``apache-airflow-core`` carries
# the version in Airflow 3, ``apache-airflow`` in Airflow 2).
AIRFLOW_CORE_DISTRIBUTIONS = ("apache-airflow-core", "apache-airflow")
AIRFLOW_DISTRIBUTIONS = frozenset({*AIRFLOW_CORE_DISTRIBUTIONS, "apache-airflow-task-sdk"})
# Executors whose workers are ``airflow celery worker -q QUEUES`` (the 2.x hybrid runs them too).
CELERY_KINDS = frozenset({"celery", "celery_kubernetes"})
WORKER_SYNTAX = "NAME=QUEUE[,QUEUE...], e.g. general=default,imports"


@record
class WorkerSpec:
    """A Celery worker as started with ``airflow celery worker -q QUEUES``."""

    name: str
    queues: tuple[str, ...]


def parse_worker(text: str) -> WorkerSpec:
    """``general=default,imports`` → ``WorkerSpec("general", ("default", "imports"))``.

    Raises ``ValueError`` with a one-line reason for anything else.
    """
    name, equals, queues_text = text.partition("=")
    name = name.strip()
    if not equals:
        raise ValueError(f"{text!r}: expected {WORKER_SYNTAX}")
    if not name:
        raise ValueError(f"{text!r}: the worker name before '=' is empty")
    queues = [queue.strip() for queue in queues_text.split(",")]
    if not queues_text.strip() or not all(queues):
        raise ValueError(f"{text!r}: empty queue name (expected {WORKER_SYNTAX})")
    duplicates = sorted({queue for queue in queues if queues.count(queue) > 1})
    if duplicates:
        raise ValueError(f"{text!r}: queue {duplicates[0]!r} is listed twice")
    return WorkerSpec(name, tuple(queues))


@record
class Generated:
    """The inventory text and what it holds, for the summary line."""

    text: str
    inventory: Inventory
    open_facts: tuple[str, ...] = ()
    # Linter settings the deployment implies, outside the inventory (``roots``): for stderr.
    settings: tuple[str, ...] = ()


def build_inventory(
    environment: Environment | None,
    environment_label: str,
    config: AirflowConfig,
    workers: Sequence[WorkerSpec] = (),
    runtime: str = DEFAULT_RUNTIME,
    sources: Sequence[DeploymentFacts] = (),
    version_hint: str | None = None,
) -> Generated:
    """The commented inventory text, validated by the loader; ``ConfigError`` for bad input.

    ``environment`` (installed distributions, or ``None`` when none is read) becomes runtime
    ``runtime``; ``sources`` are what the deployment's own files and workers said;
    ``version_hint`` names where an Airflow version no source gives likely comes from.
    """
    if not runtime.strip():
        raise ConfigError("--runtime: the runtime name must not be empty")
    if not runtime.isprintable():
        raise ConfigError(f"--runtime: {runtime!r} holds unprintable characters")
    parts = list(sources)
    if environment is not None:
        parts.insert(0, environment_facts(environment, environment_label, runtime))
    facts = combine(parts)
    builder = _Builder(facts, _settings(config, facts), runtime)
    builder.version_hint = version_hint
    builder.celery_workers_given = bool(workers)
    builder.header(config)
    builder.deployment()
    builder.workers(workers)
    builder.runtimes()
    builder.pools()
    builder.environment()
    builder.variables()
    text = "\n".join(builder.lines) + "\n"
    return Generated(text, _read_back(text), tuple(builder.open_facts), facts.settings)


def _settings(config: AirflowConfig, facts: DeploymentFacts) -> dict[tuple[str, str], Setting]:
    """``airflow.cfg`` and ``AIRFLOW__*`` options, joined with what the sources configure."""
    settings = dict(config.settings)
    for option, setting in facts.options.items():
        earlier = settings.get(option)
        settings[option] = (
            setting
            if earlier is None
            else prevailing(f"[{option[0]}] {option[1]}", earlier, setting)
        )
    # An option known only at deploy time that no other source supplies is left open by the
    # builder (a FILL IN line), never replaced by Airflow's default in silence.
    return settings


def _read_back(text: str) -> Inventory:
    try:
        return load_inventory_text(text, "dagroute.toml")
    except ConfigError as error:
        # The inputs were checked on the way in, so this is a defect here, not the user's.
        raise RuntimeError(f"the generated inventory does not validate: {error}") from None


def provider_id(distribution: str) -> str:
    """``apache-airflow-providers-cncf-kubernetes`` → ``cncf.kubernetes`` (semantics 6.1)."""
    return distribution[len(PROVIDER_PREFIX) :].replace("-", ".")


def environment_facts(environment: Environment, label: str, runtime: str) -> DeploymentFacts:
    """An installed environment as a runtime, and the Airflow version installed in it."""
    installed = {d.name: d for d in environment.distributions}
    found = next((installed[n] for n in AIRFLOW_CORE_DISTRIBUTIONS if n in installed), None)
    version = None
    notes: list[str] = []
    if found is not None:
        version = Fact(found.version, f"{found.name} {found.version} installed")
    providers: list[Fact[str]] = []
    packages: list[Fact[str]] = []
    unpinned: list[str] = []
    skipped: list[str] = []
    imports: dict[str, Fact[str]] = {}
    for distribution in sorted(environment.distributions, key=lambda d: d.name):
        name = distribution.name
        if name in AIRFLOW_DISTRIBUTIONS:
            continue
        for module in _unmatched_imports(distribution):
            imports.setdefault(module, Fact(module, label))
        if not _is_requirement(name):
            skipped.append(name)
            continue
        if name.startswith(PROVIDER_PREFIX):
            target, written = providers, provider_id(name)
        elif distribution.provider and "-" in name:
            target, written = providers, name  # a third-party provider
        else:
            # A provider-registering distribution whose name has no dash would read as an
            # Apache provider id under ``providers``, so it is listed as a package.
            target, written = packages, name
        pinned = f"{written}=={distribution.version}"
        if _is_requirement(pinned):
            target.append(Fact(pinned, label))
        else:
            target.append(Fact(written, label))
            unpinned.append(f"{name} {distribution.version}")
    comments = []
    if unpinned:
        comments.append(
            "Installed versions that are not PEP 440 versions, listed without one: "
            + ", ".join(unpinned)
        )
    if skipped:
        comments.append("Left out, not valid distribution names: " + ", ".join(skipped))
    return DeploymentFacts(
        sources=(label,),
        airflow_version=version,
        runtimes=(
            RuntimeFact(
                runtime,
                label,
                python=Fact(environment.python, label),
                providers=tuple(providers),
                packages=tuple(packages),
                imports=tuple(imports.values()),
                comments=tuple(comments),
                complete=True,
                installed=True,
            ),
        ),
        notes=tuple(notes),
    )


def _unmatched_imports(distribution: Distribution) -> list[str]:
    """The modules a distribution installs that the shipped tables and the normalisation would
    not attribute to it: the runtime says them itself, so that nothing is guessed."""
    found = []
    for module in distribution.imports:
        need = import_need(module)
        if need is not None and not need.met_by({distribution.name}):
            found.append(module)
    return found


class _Builder:
    """Accumulates the TOML lines, section by section."""

    def __init__(
        self, facts: DeploymentFacts, settings: dict[tuple[str, str], Setting], runtime: str
    ) -> None:
        self.facts = facts
        self.settings = settings
        self.runtime_name = runtime
        self.lines: list[str] = []
        self.airflow_major: int | None = None
        self.executors: tuple[ExecutorEntry, ...] = ()
        self.default_queue = AIRFLOW_DEFAULT_QUEUE
        # Runtimes the inventory refers to, in order of first use.
        self.used_runtimes: dict[str, None] = {}
        # One line per fact left to fill in, for stderr.
        self.open_facts: list[str] = []
        self.version_hint: str | None = None
        self.celery_workers_given = False

    def fill_in(self, key: str, why: str) -> None:
        """A ``# FILL IN`` comment for ``key``, also told on stderr."""
        self.comment(f"FILL IN {key}: {why}")
        self.open_facts.append(f"{key}: {why}")

    def comment(self, text: str) -> None:
        self.lines.extend(tw.comment_lines(text))

    def value(self, name: str, rendered: str, why: str | None = None) -> None:
        if why:
            self.comment(why)
        self.lines.append(f"{tw.key(name)} = {rendered}")

    def use_runtime(self, name: str) -> str:
        self.used_runtimes.setdefault(name, None)
        return name

    def header(self, config: AirflowConfig) -> None:
        self.comment(
            "Deployment inventory for dagroute-lint, written by `dagroute-lint inventory init`"
        )
        self.comment("from:")
        for source in (*self.facts.sources, *config.sources):
            self.comment(f"  - {source}")
        self.comment("A starting point: compare every value with the deployment, then validate")
        self.comment("with `dagroute-lint inventory check`. Lines starting with `# FILL IN` hold")
        self.comment("what the sources could not decide.")
        for note in (*config.notes, *self.facts.notes, *self.facts.settings):
            self.comment(f"NOTE: {note}")

    # --- [deployment] ---------------------------------------------------------------------

    def deployment(self) -> None:
        self.lines += ["", "[deployment]"]
        self.airflow_version()
        self.executor_list()
        queue = self.settings.get(DEFAULT_QUEUE)
        if queue is not None:
            self.default_queue = _queue_name(queue)
        if queue is None and DEFAULT_QUEUE in self.facts.undecided:
            self.deploy_time(DEFAULT_QUEUE, "default_queue", tw.string(self.default_queue))
        else:
            self.value(
                "default_queue",
                tw.string(self.default_queue),
                _origin(queue, "[operators] default_queue"),
            )
        parser = self.facts.dag_processor_runtime
        runtime = self.use_runtime(parser.value if parser is not None else self.runtime_name)
        self.value(
            "dag_processor",
            f"{{ runtime = {tw.string(runtime)} }}",
            f"DAG files are parsed in runtime {runtime!r} ({parser.source})"
            if parser is not None
            else "DAG files are parsed in the runtime described below; change it if they are not.",
        )
        self.triggerer()

    def triggerer(self) -> None:
        found = self.facts.triggerer
        if found is None:
            self.comment("Uncomment when a triggerer runs (deferrable tasks wait for one):")
            self.comment(f"triggerer = {{ runtime = {tw.string(self.runtime_name)} }}")
        elif found.value:
            self.value("triggerer", "true", f"a triggerer runs: {found.source}")
        else:
            self.value("triggerer", "false", f"no triggerer runs: {found.source}")

    def airflow_version(self) -> None:
        found = self.facts.airflow_version
        if found is None:
            self.fill_in(
                "[deployment] airflow_version",
                "no source above names the Airflow version (an official apache/airflow image "
                "tag, the chart's airflowVersion, the FROM of a --dockerfile, apache-airflow==X "
                "in --requirements or an "
                'environment read with --python would); set it, e.g. "3.3"'
                + (f"; {self.version_hint}" if self.version_hint else ""),
            )
            return
        try:
            release = release_tuple(found.value)
        except ValueError:
            release = None
        if release is None or release[0] not in SUPPORTED_AIRFLOW_MAJORS:
            self.comment(
                f"airflow_version: {found.value} ({found.source}) is a version "
                "dagroute-lint does not support (Airflow 2 or 3 only)"
            )
            return
        self.airflow_major = release[0]
        self.value("airflow_version", tw.string(found.value), found.source)

    def executor_list(self) -> None:
        setting = self.settings.get(EXECUTOR)
        open_value = setting is None and EXECUTOR in self.facts.undecided
        if setting is None:
            default = DEFAULT_EXECUTOR_2 if self.airflow_major == 2 else DEFAULT_EXECUTOR_3
            if open_value and (self.facts.workers or self.celery_workers_given):
                default = "CeleryExecutor"  # what the Celery workers the sources run need
            setting = Setting(default, "")
        try:
            self.executors = parse_executor_list(setting.value, self.airflow_major)
        except ExecutorConfigError as error:
            raise ConfigError(f"{setting.source}: {error}") from None
        written = tw.array(entry.written for entry in self.executors)
        if open_value:
            self.deploy_time(EXECUTOR, "executors", written)
            return
        self.value(
            "executors",
            written,
            _origin(setting, "[core] executor") + "; the first is the default executor",
        )

    def deploy_time(self, option: tuple[str, str], key: str, default: str) -> None:
        """A routing option known only at deploy time: a FILL IN line, and Airflow's default
        commented below it (which the inventory reads until the line is filled in)."""
        self.fill_in(
            f"[deployment] {key}",
            f"{self.facts.undecided[option]}: [{option[0]}] {option[1]} is known only at "
            f"deploy time; give it with --airflow-cfg or {environment_variable(*option)}, or "
            f"write it here (until then Airflow's default, {default}, is what this file says)",
        )
        self.comment(f"{key} = {default}")

    # --- [[workers]] ----------------------------------------------------------------------

    def workers(self, specs: Sequence[WorkerSpec]) -> None:
        celery = next((entry for entry in self.executors if entry.kind in CELERY_KINDS), None)
        found = [WorkerFact(spec.name, spec.queues, f"from --worker {spec.name}") for spec in specs]
        found += self.facts.workers
        if found and celery is None:
            configured = ", ".join(entry.written for entry in self.executors)
            raise ConfigError(
                f"{found[0].source}: describes Celery workers, but the configured executors "
                f"({configured}) include no CeleryExecutor; pass --airflow-cfg or set "
                "AIRFLOW__CORE__EXECUTOR"
            )
        names: set[str] = set()
        for worker in found:
            self.celery_worker(worker, celery, names)
        for entry in self.executors:
            if found and entry is celery:
                continue
            queues = (self.default_queue,) if entry.kind in CELERY_KINDS else None
            why = (
                "`airflow celery worker` without -q consumes the default queue only"
                if queues
                else _queue_note(entry)
            )
            ran_in = self.facts.executor_runtimes.get(_runtime_kind(entry))
            runtime = self.runtime_name
            if ran_in is not None:
                runtime = ran_in.value
                why += f"; its tasks run in runtime {runtime!r} ({ran_in.source})"
            self.worker(_worker_name(entry), entry, queues, why, names, runtime)

    def celery_worker(
        self, worker: WorkerFact, celery: ExecutorEntry | None, names: set[str]
    ) -> None:
        runtime = worker.runtime or self.runtime_name
        if worker.undecided is not None:
            self.lines.append("")
            self.fill_in(
                f"worker {worker.name!r} queues",
                f"{worker.undecided} ({worker.source}); fill them in and uncomment the worker",
            )
            for line in ("[[workers]]", f"name = {tw.string(worker.name)}", "queues = []"):
                self.comment(line)
            return
        queues = worker.queues
        why = worker.source
        if queues is None:
            own = worker.default_queue
            queue = own.value if own is not None else self.default_queue
            queues = (queue,)
            why += f"; without -q it consumes the default queue {queue!r}"
            if own is not None:
                why += f", its own ({own.source})"
        if not worker.source.startswith("from --worker"):
            why = f"from {why}"
        self.worker(worker.name, celery, queues, why, names, self.use_runtime(runtime))

    def worker(
        self,
        name: str,
        executor: ExecutorEntry | None,
        queues: tuple[str, ...] | None,
        why: str,
        names: set[str],
        runtime: str,
    ) -> None:
        if name in names:
            raise ConfigError(f"worker name {name!r} is used twice; give each --worker its own")
        names.add(name)
        self.lines += ["", "[[workers]]"]
        self.comment(why)
        self.value("name", tw.string(name))
        if executor is not None and len(self.executors) > 1:
            self.value("executor", tw.string(executor.display_name))
        if queues is not None:
            self.value("queues", tw.array(queues))
        self.value("runtime", tw.string(self.use_runtime(runtime)))

    # --- [runtimes.NAME] ------------------------------------------------------------------

    def runtimes(self) -> None:
        known = {runtime.name: runtime for runtime in self.facts.runtimes}
        for name in self.used_runtimes:
            self.runtime(known.get(name) or RuntimeFact(name, "no source"))
        for name, runtime in known.items():
            if name not in self.used_runtimes:
                self.lines.append("")
                self.comment(
                    f"Runtime {name!r} ({runtime.source}) runs no worker or DAG processor above; "
                    "left out"
                )

    def runtime(self, runtime: RuntimeFact) -> None:
        self.lines += ["", f"[runtimes.{tw.key(runtime.name)}]"]
        image = self.official(runtime)
        unknown_base = None
        python = runtime.python
        if runtime.open and not runtime.complete:
            # `image` would say everything the runtime holds: with an install that cannot be
            # read, the image is a comment to restore once the additions are known.
            unknown_base = "what it holds is not all known: " + "; ".join(runtime.open)
            if image is not None and runtime.image is not None:
                self.comment(
                    f"Built on the official image {image.reference} ({runtime.image.source}); "
                    "once what the build adds is known, uncomment image and list the additions:"
                )
                self.comment(f"image = {tw.string(image.reference)}")
                python = python or Fact(image.python, f"{runtime.image.source}: {image.reference}")
                image = None
        elif image is not None:
            self.image(runtime, image)
        elif runtime.image is not None and not runtime.complete:
            unknown_base = _unknown_image(runtime.image)
        if python is not None and image is None:
            self.value("python", tw.string(python.value), _sources([python]))
        for key, items, what in (
            ("providers", runtime.providers, "Airflow providers"),
            ("packages", runtime.packages, "Installed distributions other than providers"),
        ):
            if image is not None and items is None:
                continue  # nothing added to the image
            if items is None or unknown_base is not None:
                self.unknown_contents(runtime, key, items or (), unknown_base)
                continue
            ordered = sorted(items, key=lambda item: item.value)
            if image is not None:
                if ordered:
                    self.value(
                        key,
                        tw.array(item.value for item in ordered),
                        f"{what} added to the image, {_sources(ordered)}",
                    )
                continue
            origin = _sources(ordered) if ordered else f"none listed in {runtime.source}"
            self.value(key, tw.array(item.value for item in ordered), f"{what}, {origin}")
        if runtime.imports:
            ordered_imports = sorted(runtime.imports, key=lambda item: item.value)
            self.value(
                "imports",
                tw.array(item.value for item in ordered_imports),
                "Modules installed under names unlike their distributions', "
                + _sources(ordered_imports),
            )
        if runtime.installed and unknown_base is None and image is None:
            self.value(
                "complete",
                "true",
                f"Every distribution installed there is listed, from {runtime.source}: nothing "
                "else comes with them",
            )
        for label, fact in runtime.labels:
            self.value(label, tw.string(fact.value), f"from {fact.source}")
        for text in runtime.comments:
            self.comment(text)

    def official(self, runtime: RuntimeFact) -> OfficialImage | None:
        """The official image the runtime is built on, when the shipped table knows it."""
        if runtime.image is None:
            return None
        tag = official_tag(runtime.image.value)
        return official_image(tag) if tag is not None else None

    def image(self, runtime: RuntimeFact, image: OfficialImage) -> None:
        assert runtime.image is not None
        if runtime.python is not None and runtime.python.value != image.python:
            runs = Fact(image.python, f"{runtime.image.source}: {image.reference}")
            what = f"runtime {runtime.name!r} python"
            raise ConfigError(contradiction(what, runtime.python, runs))
        why = (
            f"from {runtime.image.source}: the official image, holding its "
            f"{len(image.providers)} providers and {len(image.packages)} packages (dagroute-lint's "
            "table of the official images)"
        )
        if not image.python_from_tag:
            why += f"; the tag names no Python, so it is the version's default, {image.python}"
        if image.slim:
            why += "; a slim image: no extras"
        self.value("image", tw.string(image.reference), why)

    def unknown_contents(
        self,
        runtime: RuntimeFact,
        key: str,
        added: Sequence[Fact[str]],
        unknown_base: str | None,
    ) -> None:
        where = unknown_base or "no source above lists what this runtime installs"
        why = (
            f"{where}; read the image with `inventory init --python` inside it, or pass "
            f"--requirements {runtime.name}=FREEZE (a pip freeze of it); until then the "
            f"checks that need its {key} say they could not decide"
        )
        if added:
            why += ". Added on top of the image: " + ", ".join(sorted(item.value for item in added))
        self.fill_in(f"[runtimes.{runtime.name}] {key}", why)
        self.comment(f"{key} = {tw.array(sorted(item.value for item in added))}")

    # --- [pools] --------------------------------------------------------------------------

    def pools(self) -> None:
        setting = self.settings.get(DEFAULT_POOL_SLOTS)
        undecided = self.facts.undecided.get(DEFAULT_POOL_SLOTS)
        if setting is None and undecided is not None:
            self.lines += [""]
            self.fill_in(
                "[pools] default_pool",
                f"its size is known only at deploy time ({undecided}); then uncomment",
            )
            self.comment("[pools]")
            self.comment("default_pool = 128")
            return
        if setting is None:
            return
        try:
            slots = int(setting.value.strip())
        except ValueError:
            raise ConfigError(f"{setting.source}: {setting.value!r} is not an integer") from None
        if slots < 1 and slots != -1:
            raise ConfigError(f"{setting.source}: pool size must be at least 1, or -1; got {slots}")
        self.lines += [""]
        self.comment("Declaring [pools] makes every pool not listed here unknown: add the others")
        self.comment("(`airflow pools list`). Airflow reads default_pool_task_slot_count only when")
        self.comment("it creates default_pool, so check the live size too.")
        self.lines.append("[pools]")
        self.value(
            DEFAULT_POOL, str(slots), _origin(setting, "[core] default_pool_task_slot_count")
        )

    # --- [environment] and [variables] ---------------------------------------------------

    def environment(self) -> None:
        found, left = self.facts.environment, self.facts.environment_left
        if not found and not left:
            return
        self.lines += ["", "[environment]"]
        self.comment(
            "What DAG files read with os.getenv at parse time: the variables every component "
            "that parses them shares (the DAG processor or scheduler, and the workers). The "
            "image sets others, so names not listed stay unknown; add `complete = true` once "
            "every variable DAG files read is here."
        )
        for name, fact in found.items():
            self.value(name, tw.string(fact.value), f"from {fact.source}")
        variables_from_environment = any(name.startswith(VARIABLE_PREFIX) for name in found)
        if variables_from_environment and SECRETS_BACKEND not in found:
            self.fill_in(
                f"[environment] {SECRETS_BACKEND}",
                f"the {VARIABLE_PREFIX}* above answer Variable.get only when no secrets backend "
                "is searched before them; no source above says whether [secrets] backend is "
                'set: write "" when it is not, or its class',
            )
            self.comment(f'{SECRETS_BACKEND} = ""')
        for name, why in left.items():
            self.comment(f"Left out: {name}: {why}")

    def variables(self) -> None:
        found, left = self.facts.variables, dict(self.facts.variables_left)
        if not found and not left:
            return
        self.lines += ["", "[variables]"]
        self.comment(
            "What Variable.get returns at parse time, from the metastore's export; "
            f"{VARIABLE_PREFIX}<KEY> in [environment] wins over it, as in Airflow. Variables "
            "not listed stay unknown; add `complete = true` once every Variable is here."
        )
        environment = self.facts.environment
        for key, fact in found.items():
            if key == "complete" and isinstance(fact.value, bool):
                left[key] = "its name and value would read as the table's `complete` flag"
                continue
            shadow = environment.get(VARIABLE_PREFIX + key.upper())
            if shadow is not None and not same_variable(shadow.value, fact.value):
                left[key] = f"{VARIABLE_PREFIX}{key.upper()} ({shadow.source}) wins over it"
                continue
            try:
                rendered = tw.json_value(fact.value)
            except ValueError:
                left[key] = "its value has no TOML form"
                continue
            self.value(key, rendered, f"from {fact.source}")
        for key, why in left.items():
            self.comment(f"Left out: {key}: {why}")


def _unknown_image(image: Fact[str]) -> str:
    """Why the contents of a runtime's image are not known."""
    tag = official_tag(image.value)
    if tag is None:
        return (
            f"its image {image.value} ({image.source}) is not an official apache/airflow image, "
            "so what it holds is not known"
        )
    if tag.airflow is None:
        return (
            f"its image {image.value} ({image.source}) is `latest`, a different image every "
            "release: name the version in the tag"
        )
    return (
        f"no official image {image.value} is known ({image.source}; dagroute-lint's table "
        f"covers Airflow {covered_range()} and the Pythons each was published for)"
    )


def _queue_name(queue: Setting) -> str:
    if not queue.value.strip():
        raise ConfigError(f"{queue.source}: the default queue must not be empty")
    if "," in queue.value:
        # `celery worker -q` splits on commas, so no worker could consume this queue.
        raise ConfigError(f"{queue.source}: {queue.value!r}: a queue name cannot hold ','")
    return queue.value


def _sources(facts: Sequence[Fact[str]]) -> str:
    """``from a.txt:3, b.txt:7``: each distinct source once, in order."""
    names = list(dict.fromkeys(fact.source for fact in facts))
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"from {shown}" if shown else "from no source"


def _runtime_kind(entry: ExecutorEntry) -> str:
    """The key of ``DeploymentFacts.executor_runtimes`` for an executor."""
    return "kubernetes" if entry.kind in ("kubernetes", "local_kubernetes") else entry.kind or ""


def _origin(setting: Setting | None, option: str) -> str:
    if setting is None or not setting.source:
        return f"{option} is not set in the sources above: Airflow's default"
    return f"from {setting.source}"


def _queue_note(entry: ExecutorEntry) -> str:
    if entry.kind == "edge":
        return "no queues: `airflow edge worker` without -q serves every queue"
    if entry.honours_queue is False:
        return f"{entry.display_name} ignores queues: it runs every task sent to it"
    return f"{entry.display_name}: list the queues it serves if it routes on them"


def _worker_name(entry: ExecutorEntry) -> str:
    """``CeleryExecutor`` → ``celery``; an alias stays as written."""
    if entry.alias and entry.alias != entry.class_name:
        return entry.alias
    name = entry.class_name
    return (name[: -len("Executor")] if name.endswith("Executor") else name).lower() or name


def _is_requirement(text: str) -> bool:
    try:
        parse_requirement(text)
    except ValueError:
        return False
    return True
