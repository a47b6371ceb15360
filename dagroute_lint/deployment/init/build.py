"""Build a starting inventory (``inventory init``) from what a deployment knows about itself.

Three sources, each optional beyond the first:

- an installed Python environment (``environment.py``): the Airflow version, the providers with
  their versions and every other distribution, as one runtime;
- ``airflow.cfg`` and ``AIRFLOW__*`` variables (``airflow_cfg.py``): executors, default queue and
  the ``default_pool`` size;
- the queues of Celery workers as given on the command line (``--worker NAME=QUEUES``).

The result is commented TOML that says where each value came from, and it is read back with the
inventory loader before anyone sees it, so what ``init`` writes always passes ``inventory check``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dagroute_lint.catalog.airflow_defaults import DEFAULT_POOL
from dagroute_lint.catalog.airflow_defaults import DEFAULT_QUEUE as AIRFLOW_DEFAULT_QUEUE
from dagroute_lint.catalog.providers import PROVIDER_PREFIX
from dagroute_lint.deployment.executors import (
    DEFAULT_EXECUTOR_2,
    DEFAULT_EXECUTOR_3,
    ExecutorConfigError,
    ExecutorEntry,
    parse_executor_list,
)
from dagroute_lint.deployment.init import toml_writer as tw
from dagroute_lint.deployment.init.airflow_cfg import (
    DEFAULT_POOL_SLOTS,
    DEFAULT_QUEUE,
    EXECUTOR,
    AirflowConfig,
    Setting,
)
from dagroute_lint.deployment.init.environment import Environment
from dagroute_lint.deployment.inventory import (
    SUPPORTED_AIRFLOW_MAJORS,
    Inventory,
    load_inventory_text,
)
from dagroute_lint.deployment.requirements import parse_requirement, release_tuple
from dagroute_lint.errors import ConfigError

# Airflow itself rather than a provider or a business dependency (``apache-airflow-core`` carries
# the version in Airflow 3, ``apache-airflow`` in Airflow 2).
AIRFLOW_CORE_DISTRIBUTIONS = ("apache-airflow-core", "apache-airflow")
AIRFLOW_DISTRIBUTIONS = frozenset({*AIRFLOW_CORE_DISTRIBUTIONS, "apache-airflow-task-sdk"})
DEFAULT_RUNTIME = "base"
# Executors whose workers are ``airflow celery worker -q QUEUES`` (the 2.x hybrid runs them too).
CELERY_KINDS = frozenset({"celery", "celery_kubernetes"})
WORKER_SYNTAX = "NAME=QUEUE[,QUEUE...], e.g. general=default,imports"


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Generated:
    """The inventory text and what it holds, for the summary line."""

    text: str
    inventory: Inventory


def build_inventory(
    environment: Environment,
    environment_label: str,
    config: AirflowConfig,
    workers: Sequence[WorkerSpec] = (),
    runtime: str = DEFAULT_RUNTIME,
) -> Generated:
    """The commented inventory text, validated by the loader; ``ConfigError`` for bad input."""
    if not runtime.strip():
        raise ConfigError("--runtime: the runtime name must not be empty")
    if not runtime.isprintable():
        raise ConfigError(f"--runtime: {runtime!r} holds unprintable characters")
    builder = _Builder(environment, config, runtime)
    builder.header(environment_label)
    builder.deployment()
    builder.workers(workers)
    builder.runtime()
    builder.pools()
    text = "\n".join(builder.lines) + "\n"
    return Generated(text, _read_back(text))


def _read_back(text: str) -> Inventory:
    try:
        return load_inventory_text(text, "dagroute.toml")
    except ConfigError as error:
        # The inputs were checked on the way in, so this is a defect here, not the user's.
        raise RuntimeError(f"the generated inventory does not validate: {error}") from None


def provider_id(distribution: str) -> str:
    """``apache-airflow-providers-cncf-kubernetes`` → ``cncf.kubernetes`` (semantics 6.1)."""
    return distribution[len(PROVIDER_PREFIX) :].replace("-", ".")


class _Builder:
    """Accumulates the TOML lines, section by section."""

    def __init__(self, environment: Environment, config: AirflowConfig, runtime: str) -> None:
        self.environment = environment
        self.config = config
        self.runtime_name = runtime
        self.lines: list[str] = []
        self.airflow_major: int | None = None
        self.executors: tuple[ExecutorEntry, ...] = ()
        self.default_queue = AIRFLOW_DEFAULT_QUEUE

    def comment(self, text: str) -> None:
        self.lines.extend(tw.comment_lines(text))

    def value(self, name: str, rendered: str, why: str | None = None) -> None:
        if why:
            self.comment(why)
        self.lines.append(f"{tw.key(name)} = {rendered}")

    def header(self, environment_label: str) -> None:
        self.comment(
            "Deployment inventory for dagroute-lint, written by `dagroute-lint inventory init`"
        )
        self.comment("from:")
        for source in (environment_label, *self.config.sources):
            self.comment(f"  - {source}")
        self.comment("A starting point: compare every value with the deployment, then validate")
        self.comment("with `dagroute-lint inventory check`.")
        for note in self.config.notes:
            self.comment(f"NOTE: {note}")

    # --- [deployment] ---------------------------------------------------------------------

    def deployment(self) -> None:
        self.lines += ["", "[deployment]"]
        self.airflow_version()
        self.executor_list()
        queue = self.config.settings.get(DEFAULT_QUEUE)
        if queue is not None:
            if not queue.value.strip():
                raise ConfigError(f"{queue.source}: the default queue must not be empty")
            if "," in queue.value:
                # `celery worker -q` splits on commas, so no worker could consume this queue.
                raise ConfigError(f"{queue.source}: {queue.value!r}: a queue name cannot hold ','")
            self.default_queue = queue.value
        self.value(
            "default_queue",
            tw.string(self.default_queue),
            _origin(queue, "[operators] default_queue"),
        )
        self.value(
            "dag_processor",
            f"{{ runtime = {tw.string(self.runtime_name)} }}",
            "DAG files are parsed in the runtime described below; change it if they are not.",
        )
        self.comment("Uncomment when a triggerer runs (deferrable tasks wait for one):")
        self.comment(f"triggerer = {{ runtime = {tw.string(self.runtime_name)} }}")

    def airflow_version(self) -> None:
        installed = {d.name: d for d in self.environment.distributions}
        found = next((installed[n] for n in AIRFLOW_CORE_DISTRIBUTIONS if n in installed), None)
        if found is None:
            self.comment("airflow_version: no apache-airflow(-core) distribution is installed in")
            self.comment('the environment read; set it to the deployment\'s version, e.g. "3.3".')
            return
        try:
            release = release_tuple(found.version)
        except ValueError:
            release = None
        if release is None or release[0] not in SUPPORTED_AIRFLOW_MAJORS:
            self.comment(
                f"airflow_version: {found.name} {found.version} is installed, which "
                "dagroute-lint does not support (Airflow 2 or 3 only)"
            )
            return
        self.airflow_major = release[0]
        self.value(
            "airflow_version", tw.string(found.version), f"{found.name} {found.version} installed"
        )

    def executor_list(self) -> None:
        setting = self.config.settings.get(EXECUTOR)
        if setting is None:
            default = DEFAULT_EXECUTOR_2 if self.airflow_major == 2 else DEFAULT_EXECUTOR_3
            setting = Setting(default, "")
        try:
            self.executors = parse_executor_list(setting.value, self.airflow_major)
        except ExecutorConfigError as error:
            raise ConfigError(f"{setting.source}: {error}") from None
        self.value(
            "executors",
            tw.array(entry.written for entry in self.executors),
            _origin(setting, "[core] executor") + "; the first is the default executor",
        )

    # --- [[workers]] ----------------------------------------------------------------------

    def workers(self, specs: Sequence[WorkerSpec]) -> None:
        celery = next((entry for entry in self.executors if entry.kind in CELERY_KINDS), None)
        if specs and celery is None:
            configured = ", ".join(entry.written for entry in self.executors)
            raise ConfigError(
                f"--worker describes Celery workers, but the configured executors ({configured}) "
                "include no CeleryExecutor; pass --airflow-cfg or set AIRFLOW__CORE__EXECUTOR"
            )
        names: set[str] = set()
        for spec in specs:
            self.worker(spec.name, celery, spec.queues, f"from --worker {spec.name}", names)
        for entry in self.executors:
            if specs and entry is celery:
                continue
            queues = (self.default_queue,) if entry.kind in CELERY_KINDS else None
            why = (
                "`airflow celery worker` without -q consumes the default queue only"
                if queues
                else _queue_note(entry)
            )
            self.worker(_worker_name(entry), entry, queues, why, names)

    def worker(
        self,
        name: str,
        executor: ExecutorEntry | None,
        queues: tuple[str, ...] | None,
        why: str,
        names: set[str],
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
        self.value("runtime", tw.string(self.runtime_name))

    # --- [runtimes.NAME] ------------------------------------------------------------------

    def runtime(self) -> None:
        providers: list[str] = []
        packages: list[str] = []
        unpinned: list[str] = []
        skipped: list[str] = []
        for distribution in sorted(self.environment.distributions, key=lambda d: d.name):
            name = distribution.name
            if name in AIRFLOW_DISTRIBUTIONS:
                continue
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
                target.append(pinned)
            else:
                target.append(written)
                unpinned.append(f"{name} {distribution.version}")
        self.lines += ["", f"[runtimes.{tw.key(self.runtime_name)}]"]
        self.value("python", tw.string(self.environment.python))
        self.value(
            "providers",
            tw.array(sorted(providers)),
            "Airflow providers installed (apache_airflow_provider entry point or provider name)",
        )
        self.value(
            "packages",
            tw.array(packages),
            "Every other installed distribution; trim it to what the DAGs import if you like",
        )
        if unpinned:
            self.comment(
                "Installed versions that are not PEP 440 versions, listed without one: "
                + ", ".join(unpinned)
            )
        if skipped:
            self.comment("Left out, not valid distribution names: " + ", ".join(skipped))

    # --- [pools] --------------------------------------------------------------------------

    def pools(self) -> None:
        setting = self.config.settings.get(DEFAULT_POOL_SLOTS)
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
