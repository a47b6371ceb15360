"""Load and validate the deployment inventory (``dagroute.toml``) into typed objects."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from datetime import date, datetime, time
from pathlib import Path
from typing import NoReturn, TypeVar

from dagroute_lint.catalog.airflow_defaults import DEFAULT_POOL, DEFAULT_POOL_SIZE, DEFAULT_QUEUE
from dagroute_lint.catalog.official_images import (
    OfficialImage,
    covered_range,
    official_image,
    official_tag,
)
from dagroute_lint.catalog.providers import (
    PROVIDER_PREFIX,
    canonical_distribution,
    canonical_name,
    known_provider_ids,
)
from dagroute_lint.deployment.executors import (
    DEFAULT_EXECUTOR_2,
    DEFAULT_EXECUTOR_3,
    ExecutorConfigError,
    ExecutorEntry,
    parse_executor_entries,
    parse_executor_list,
    resolve_executor,
)
from dagroute_lint.deployment.parse_environment import (
    SECRETS_BACKEND,
    VARIABLE_PREFIX,
    ParseEnvironment,
    same_variable,
)
from dagroute_lint.deployment.requirements import parse_requirement, release_tuple
from dagroute_lint.deployment.toml import toml
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record
from dagroute_lint.wording import close_matches, did_you_mean

T = TypeVar("T")

# Multiple executors (AIP-61) and the ``alias:`` syntax arrived in Airflow 2.10.
MULTI_EXECUTOR_SINCE = (2, 10)
SUPPORTED_AIRFLOW_MAJORS = (2, 3)
# The module Airflow imports its cluster policies from (``[deployment] local_settings``).
LOCAL_SETTINGS_MODULE = "airflow_local_settings"
RUNTIME_LABELS = ("code_version", "runtime_version", "artifact_contract", "credential_source")

_TOP_KEYS = (
    "deployment", "workers", "runtimes", "pools", "connections", "environment", "variables",
)  # fmt: skip
# In ``[environment]`` and ``[variables]``, ``complete = true`` (a boolean, which neither an
# environment variable nor a Variable's text is) says the table lists every name.
COMPLETE = "complete"
_DEPLOYMENT_KEYS = (
    "airflow_version",
    "executors",
    "default_queue",
    "dag_processor",
    "triggerer",
    "local_settings",
)
_WORKER_KEYS = ("name", "executor", "queues", "runtime")
_RUNTIME_KEYS = (
    "image", "python", "providers", "packages", "packages_from", "imports", "complete",
    *RUNTIME_LABELS,
)  # fmt: skip
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_PYTHON_VERSION = re.compile(r"[0-9]+\.[0-9]+(?:\.[0-9]+)?")
_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)$")


@record
class Requirement:
    """A provider or package a runtime offers: canonical distribution name, PEP 440 specifier."""

    name: str
    specifier: str
    written: str
    extras: tuple[str, ...] = ()


@record
class Runtime:
    """An environment (image, virtualenv) that parses DAG files or runs tasks.

    ``imports`` are module names the runtime says it provides (``inventory init --python`` writes
    those its distributions install under names unlike their own): an import of one of them is
    satisfied whatever the tables say. Optional; it adds to ``packages``, never replaces them.
    """

    name: str
    python: str | None
    # ``None``: the inventory does not say (no key): never taken as "none installed".
    providers: tuple[Requirement, ...] | None
    packages: tuple[Requirement, ...] | None
    labels: dict[str, str] = field(default_factory=dict)
    imports: frozenset[str] = frozenset()
    # ``complete = true``: ``packages`` and ``providers`` list every distribution installed (as
    # ``inventory init --python`` reads an environment), so nothing else comes with them.
    complete: bool = False


@record
class Worker:
    """An execution target.

    ``queues`` is normalised: a Celery worker without ``queues`` serves ``(default_queue,)``; an
    Edge worker without ``queues`` and any worker of a queue-blind executor serve every queue,
    shown as ``None``. A worker of an executor we cannot classify (custom class, 2.x hybrid)
    keeps the queues it lists, or ``None`` when it lists none, so no rule guesses for it.
    """

    name: str
    executor: ExecutorEntry
    queues: tuple[str, ...] | None
    runtime: str


@record
class Inventory:
    """What the deployment provides.

    ``pools``, when declared, always holds ``default_pool`` (128 slots unless the file says
    otherwise), because Airflow creates that pool itself and never lets it be deleted.
    """

    path: str
    airflow_version: str | None
    executors: tuple[ExecutorEntry, ...]
    default_queue: str
    dag_processor_runtime: str | None  # None: not declared, parse-time checks are skipped
    triggerer_runtime: str | None
    has_triggerer: bool | None  # None: ``[deployment] triggerer`` is absent, so not known
    workers: tuple[Worker, ...]
    runtimes: dict[str, Runtime]
    pools: dict[str, int] | None
    connections: frozenset[str] | None
    # ``[deployment] local_settings``: the deployment's ``airflow_local_settings.py`` (an
    # absolute path), ``False`` when it has none, ``None`` when the inventory does not say (the
    # project's usual places are searched, ``pipeline/local_settings.py``).
    local_settings: str | bool | None = None
    # ``[environment]`` and ``[variables]`` (``None``: absent), what DAG files read at parse time.
    environment: Mapping[str, str] | None = None
    environment_complete: bool = False
    variables: Mapping[str, object] | None = None
    variables_complete: bool = False
    # The line of each table header (``deployment``, ``runtimes.base``), for reports about what
    # a table leaves open; not part of what the deployment is.
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def parse_environment(self) -> ParseEnvironment | None:
        """What ``os.getenv`` and ``Variable.get`` return in the DAG processor, as far as the
        inventory says; ``None`` when it has neither table (extraction is then as without one)."""
        if self.environment is None and self.variables is None:
            return None
        return ParseEnvironment(
            self.environment,
            self.environment_complete,
            self.variables,
            self.variables_complete,
        )

    def line_of(self, table: str) -> int:
        """The line of ``table``'s header, else of ``[deployment]``, else the first."""
        return self.lines.get(table) or self.lines.get("deployment") or 1

    @property
    def airflow_release(self) -> tuple[int, ...] | None:
        """Release segments of ``airflow_version`` (validated at load), ``None`` if unknown."""
        return None if self.airflow_version is None else release_tuple(self.airflow_version)

    @property
    def airflow_major(self) -> int | None:
        """2 or 3, or ``None`` when the inventory does not say (callers then assume 3)."""
        release = self.airflow_release
        return None if release is None else release[0]

    @property
    def default_executor(self) -> ExecutorEntry:
        """The executor of tasks that leave ``executor`` unset: the first one configured."""
        return self.executors[0]

    def resolve_executor(self, name: str) -> ExecutorEntry | None:
        """The configured executor a task's ``executor=name`` selects, as Airflow looks it up."""
        return resolve_executor(self.executors, name)


def load_inventory(path: Path) -> Inventory:
    """Read and validate ``path``; raise ``ConfigError`` naming file, key path and position."""
    return _Loader(str(path)).load(path)


def load_inventory_text(text: str, filename: str) -> Inventory:
    """Validate inventory text not (yet) on disk; messages name it ``filename``."""
    loader = _Loader(filename)
    return loader.validate(loader.parse(text.encode("utf-8")))


_TABLE_HEADER = re.compile(r"^\s*\[\s*(?P<name>[^\[\]]+?)\s*\]\s*(#.*)?$")


def _table_lines(text: str) -> dict[str, int]:
    """The line of each ``[table]`` header, by its dotted name as written (the first one)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _TABLE_HEADER.match(line)
        if match is not None:
            name = ".".join(part.strip().strip("\"'") for part in match["name"].split("."))
            found.setdefault(name, number)
    return found


def _added(
    written: tuple[Requirement, ...] | None, image: tuple[tuple[str, str], ...]
) -> tuple[Requirement, ...]:
    """The image's distributions after those the inventory writes, which win: an image says
    everything it holds, so with one nothing is left open."""
    written = written or ()
    known = {requirement.name for requirement in written}
    return written + tuple(
        Requirement(name, f"=={version}", f"{name}=={version}")
        for name, version in image
        if name not in known
    )


def _quote(text: str) -> str:
    return f"'{text}'" if text.isprintable() and "'" not in text else json.dumps(text)


def _join(path: str, key: str) -> str:
    """A TOML key path, quoting keys that are not bare keys (``runtimes."my image"``)."""
    part = key if _BARE_KEY.fullmatch(key) else json.dumps(key)
    return f"{path}.{part}" if path else part


def _describe(value: object) -> str:
    """The TOML type of a value, with the value itself when it is short, for error messages."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"float {value}"
    if isinstance(value, str):
        return f"string {json.dumps(value)}"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    if isinstance(value, datetime):
        return "datetime"
    if isinstance(value, date):
        return "date"
    if isinstance(value, time):
        return "time"
    return type(value).__name__  # pragma: no cover - tomllib yields only the types above


def _choices(names: Iterable[str]) -> str:
    listed = ", ".join(sorted(names))
    return listed or "none"


class _Loader:
    """Validation state for one file: its display name for every message."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.lines: dict[str, int] = {}

    def fail(self, path: str, message: str) -> NoReturn:
        # One line whatever the user's strings hold, so editors and CI logs keep it whole.
        text = f"{self.filename}: {path}: {message}" if path else f"{self.filename}: {message}"
        raise ConfigError(text.replace("\r", "\\r").replace("\n", "\\n"))

    # --- reading ---------------------------------------------------------------------------

    def read(self, path: Path) -> dict[str, object]:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            self.fail("", "inventory file not found")
        except IsADirectoryError:
            self.fail("", "cannot read inventory: it is a directory")
        except OSError as exc:
            self.fail("", f"cannot read inventory: {exc.strerror or exc}")
        return self.parse(data)

    def parse(self, data: bytes) -> dict[str, object]:
        try:
            # TOML is UTF-8; a byte-order mark from a Windows editor is tolerated.
            text = data.decode("utf-8-sig")
            self.lines = _table_lines(text)
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            column = exc.start - data.rfind(b"\n", 0, exc.start)
            raise ConfigError(
                f"{self.filename}:{line}:{column}: invalid TOML: not UTF-8 text "
                f"(byte 0x{data[exc.start]:02x})"
            ) from None
        try:
            document: dict[str, object] = toml.loads(text)
        except toml.TOMLDecodeError as exc:
            raise ConfigError(self._syntax_error(text, exc)) from None
        except RecursionError:
            # The TOML parser recurses once per nested array or inline table.
            raise ConfigError(
                f"{self.filename}: invalid TOML: arrays or inline tables nested too deeply to read"
            ) from None
        return document

    def _syntax_error(self, text: str, exc: ValueError) -> str:
        # tomllib/tomli put the position only in the message: "... (at line 3, column 5)" or
        # "... (at end of document)".
        message = str(exc).splitlines()[0] if str(exc) else "syntax error"
        match = _TOML_POSITION.search(message)
        if match:
            line, column = int(match.group(1)), int(match.group(2))
            message = message[: match.start()]
        else:
            end = _TOML_AT_END.search(message)
            if end:
                message = message[: end.start()]
            content = text.rstrip()
            line = content.count("\n") + 1
            column = len(content) - content.rfind("\n")
        return f"{self.filename}:{line}:{column}: invalid TOML: {message}"

    # --- generic shape checks --------------------------------------------------------------

    def table(self, value: object, path: str, what: str = "a table") -> dict[str, object]:
        if not isinstance(value, dict):
            self.fail(path, f"expected {what}, got {_describe(value)}")
        return value

    def keys(self, table: Mapping[str, object], path: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                close = close_matches(key, allowed)
                hint = (
                    f"did you mean {_quote(close[0])}?"
                    if close
                    else f"allowed: {', '.join(allowed)}"
                )
                self.fail(_join(path, key), f"unknown key {_quote(key)} ({hint})")

    def string(self, value: object, path: str, example: str = "") -> str:
        if not isinstance(value, str):
            such_as = f" such as {json.dumps(example)}" if example else ""
            self.fail(path, f"expected a string{such_as}, got {_describe(value)}")
        return value

    def name(self, value: object, path: str) -> str:
        text = self.string(value, path)
        if not text.strip():
            self.fail(path, "must not be empty")
        return text

    def string_list(self, value: object, path: str, example: str) -> list[str]:
        if not isinstance(value, list):
            self.fail(
                path, f"expected an array of strings such as {example}, got {_describe(value)}"
            )
        return [self.string(item, f"{path}[{index}]") for index, item in enumerate(value)]

    def runtime_ref(self, value: object, path: str, runtimes: Mapping[str, Runtime]) -> str:
        name = self.string(value, path, "base")
        if name not in runtimes:
            defined = f"defined: {_choices(runtimes)}" if runtimes else "no [runtimes] are defined"
            hint = did_you_mean(name, runtimes, quote=_quote)
            self.fail(path, f"runtime {_quote(name)} is not defined ({defined}){hint}")
        return name

    # --- sections --------------------------------------------------------------------------

    def load(self, path: Path) -> Inventory:
        return self.validate(self.read(path))

    def validate(self, document: dict[str, object]) -> Inventory:
        self.keys(document, "", _TOP_KEYS)
        deployment = self.table(document.get("deployment", {}), "deployment")
        self.keys(deployment, "deployment", _DEPLOYMENT_KEYS)

        airflow_version, release = self.airflow_version(deployment)
        executors = self.executors(deployment, release)
        default_queue = DEFAULT_QUEUE
        if "default_queue" in deployment:
            default_queue = self.name(deployment["default_queue"], "deployment.default_queue")

        runtimes = self.runtimes(document.get("runtimes", {}))
        dag_processor_runtime = self.dag_processor(deployment, runtimes)
        has_triggerer, triggerer_runtime = self.triggerer(deployment, runtimes)
        workers = self.workers(document.get("workers", []), executors, default_queue, runtimes)
        tables = self.parse_tables(document)
        return Inventory(
            path=self.filename,
            airflow_version=airflow_version,
            executors=executors,
            default_queue=default_queue,
            dag_processor_runtime=dag_processor_runtime,
            triggerer_runtime=triggerer_runtime,
            has_triggerer=has_triggerer,
            workers=workers,
            runtimes=runtimes,
            pools=self.pools(document["pools"]) if "pools" in document else None,
            connections=(
                self.connections(document["connections"]) if "connections" in document else None
            ),
            local_settings=self.local_settings(deployment),
            environment=tables.environment,
            environment_complete=tables.environment_complete,
            variables=tables.variables,
            variables_complete=tables.variables_complete,
            lines=self.lines,
        )

    def airflow_version(
        self, deployment: Mapping[str, object]
    ) -> tuple[str | None, tuple[int, ...] | None]:
        if "airflow_version" not in deployment:
            return None, None
        path = "deployment.airflow_version"
        version = self.string(deployment["airflow_version"], path, "3.3")
        try:
            release = release_tuple(version)
        except ValueError:
            self.fail(path, f'{_quote(version)} is not a version such as "3.3" or "2.10.5"')
        if release[0] not in SUPPORTED_AIRFLOW_MAJORS:
            self.fail(path, f"Airflow {release[0]} is not supported (Airflow 2 or 3 only)")
        return version, release

    def executors(
        self, deployment: Mapping[str, object], release: tuple[int, ...] | None
    ) -> tuple[ExecutorEntry, ...]:
        path = "deployment.executors"
        major = None if release is None else release[0]
        raw = deployment.get("executors")
        try:
            if raw is None:
                # Airflow's own default when [core] executor is unset (semantics §3.1).
                default = DEFAULT_EXECUTOR_2 if major == 2 else DEFAULT_EXECUTOR_3
                entries = parse_executor_list(default, major)
            elif isinstance(raw, str):
                entries = parse_executor_list(raw, major)
            else:
                items = self.string_list(raw, path, '["CeleryExecutor", "KubernetesExecutor"]')
                entries = parse_executor_entries(items, major)
        except ExecutorConfigError as exc:
            where = path if exc.index is None or isinstance(raw, str) else f"{path}[{exc.index}]"
            self.fail(where, str(exc))
        if release is not None and release[:2] < MULTI_EXECUTOR_SINCE:
            # Before AIP-61 the whole value is one executor: "A,B" or "x:a.B" fail to import.
            version = ".".join(str(part) for part in release)
            if len(entries) > 1:
                self.fail(
                    path,
                    f"several executors need Airflow 2.10 or later (airflow_version {version})",
                )
            if ":" in entries[0].written:
                self.fail(
                    path if isinstance(raw, str) else f"{path}[0]",
                    f"executor aliases ('alias:module.path.Class') need Airflow 2.10 or later "
                    f"(airflow_version {version})",
                )
        return entries

    def local_settings(self, deployment: Mapping[str, object]) -> str | bool | None:
        """``local_settings``: the path of the deployment's ``airflow_local_settings.py`` (or
        of the folder holding it, as ``$AIRFLOW_HOME/config``), relative to the inventory, or
        ``false`` for none. Airflow imports the module by that name, so the file must bear it."""
        if "local_settings" not in deployment:
            return None
        path = "deployment.local_settings"
        value = deployment["local_settings"]
        if value is False:
            return False
        written = self.string(value, path, "config/airflow_local_settings.py")
        found = (Path(self.filename).parent / written).resolve()
        if found.is_dir():
            found = found / f"{LOCAL_SETTINGS_MODULE}.py"
        if found.name != f"{LOCAL_SETTINGS_MODULE}.py":
            self.fail(
                path,
                f"{_quote(written)} is not named {LOCAL_SETTINGS_MODULE}.py, the module Airflow "
                "imports its cluster policies from",
            )
        if not found.is_file():
            self.fail(path, f"{_quote(written)}: no such file ({found})")
        return str(found)

    def dag_processor(
        self, deployment: Mapping[str, object], runtimes: Mapping[str, Runtime]
    ) -> str | None:
        if "dag_processor" not in deployment:
            return None
        path = "deployment.dag_processor"
        table = self.table(
            deployment["dag_processor"], path, 'a table such as { runtime = "base" }'
        )
        self.keys(table, path, ("runtime",))
        if "runtime" not in table:
            self.fail(path, "missing required key 'runtime'")
        return self.runtime_ref(table["runtime"], f"{path}.runtime", runtimes)

    def triggerer(
        self, deployment: Mapping[str, object], runtimes: Mapping[str, Runtime]
    ) -> tuple[bool | None, str | None]:
        path = "deployment.triggerer"
        if "triggerer" not in deployment:
            return None, None
        value = deployment["triggerer"]
        if isinstance(value, bool):
            return value, None
        table = self.table(value, path, 'a table such as { runtime = "base" }, true or false')
        self.keys(table, path, ("runtime",))
        if "runtime" not in table:
            return True, None
        return True, self.runtime_ref(table["runtime"], f"{path}.runtime", runtimes)

    def runtimes(self, value: object) -> dict[str, Runtime]:
        section = self.table(value, "runtimes", "a table of [runtimes.NAME] tables")
        runtimes: dict[str, Runtime] = {}
        for name, body in section.items():
            path = _join("runtimes", name)
            if not name.strip():
                self.fail(path, "runtime name must not be empty")
            runtimes[name] = self.runtime(name, body, path)
        return runtimes

    def runtime(self, name: str, value: object, path: str) -> Runtime:
        table = self.table(value, path)
        self.keys(table, path, _RUNTIME_KEYS)
        python = None
        if "python" in table:
            python = self.string(table["python"], f"{path}.python", "3.11")
            if not _PYTHON_VERSION.fullmatch(python):
                self.fail(f"{path}.python", f'{_quote(python)} is not a version such as "3.11"')
        labels = {
            label: self.string(table[label], f"{path}.{label}")
            for label in RUNTIME_LABELS
            if label in table
        }
        providers = packages = None
        if "providers" in table:
            providers = self.requirements(table["providers"], f"{path}.providers", True)
        if "packages" in table:
            packages = self.requirements(table["packages"], f"{path}.packages", False)
        if "packages_from" in table:
            providers, packages = self.packages_from(
                table["packages_from"], f"{path}.packages_from", name, providers, packages
            )
        if "image" in table:
            image = self.image(table["image"], f"{path}.image", python)
            python = image.python
            providers = _added(providers, image.providers)
            packages = _added(packages, image.packages)
        return Runtime(
            name=name,
            python=python,
            providers=providers,
            packages=packages,
            labels=labels,
            imports=self.module_names(table.get("imports", []), f"{path}.imports"),
            complete=self.flag(table.get("complete", False), f"{path}.complete"),
        )

    def flag(self, value: object, path: str) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {_quote(str(value))}")
        return value

    def image(self, value: object, path: str, python: str | None) -> OfficialImage:
        """An official ``apache/airflow`` image the runtime is (or is built on): what it holds
        comes from the shipped table (``catalog/official_images``)."""
        reference = self.string(value, path, "apache/airflow:2.10.2-python3.12")
        tag = official_tag(reference)
        if tag is None:
            self.fail(
                path,
                f"{_quote(reference)} is not an official apache/airflow image tag "
                "(VERSION, VERSION-pythonP, slim-VERSION...); describe another image with "
                "providers and packages",
            )
        found = official_image(tag)
        if found is None:
            self.fail(
                path,
                f"no official image {_quote(reference)} is known (the table covers Airflow "
                f"{covered_range()}, the Pythons each was published for; `latest` is none)",
            )
        if python is not None and python != found.python:
            self.fail(
                f"{path.rsplit('.', 1)[0]}.python",
                f"{_quote(python)} contradicts the image {found.reference}, which runs "
                f"Python {found.python}",
            )
        return found

    def requirements(self, value: object, path: str, providers: bool) -> tuple[Requirement, ...]:
        example = '["standard", "amazon>=9"]' if providers else '["pandas>=2", "requests"]'
        items = self.string_list(value, path, example)
        seen: dict[str, int] = {}
        result = []
        for index, written in enumerate(items):
            item_path = f"{path}[{index}]"
            try:
                parsed = parse_requirement(written)
            except ValueError as exc:
                self.fail(item_path, str(exc))
            if providers:
                canonical = self.provider(parsed.name, item_path)
            else:
                canonical = canonical_name(parsed.name)
                if canonical.startswith(PROVIDER_PREFIX):
                    self.fail(
                        item_path,
                        f"{_quote(written)} is an Airflow provider; list it under providers",
                    )
            if canonical in seen:
                earlier = seen[canonical]
                key = path.rsplit(".", 1)[-1]
                self.fail(
                    item_path,
                    f"{canonical} is listed twice (also {key}[{earlier}] {_quote(items[earlier])})",
                )
            seen[canonical] = index
            result.append(Requirement(canonical, parsed.specifier, written, parsed.extras))
        return tuple(result)

    def packages_from(
        self,
        value: object,
        path: str,
        runtime: str,
        providers: tuple[Requirement, ...] | None,
        packages: tuple[Requirement, ...] | None,
    ) -> tuple[tuple[Requirement, ...], tuple[Requirement, ...]]:
        """Add what a requirements / ``pip freeze`` file installs (relative to this inventory) to
        the runtime's ``providers`` and ``packages``; an entry written in the inventory wins. A
        lock file says everything installed: what it leaves out is not there."""
        providers, packages = providers or (), packages or ()
        written = self.string(value, path, "requirements.lock")
        lock = Path(self.filename).parent / written
        if not lock.is_file():
            self.fail(path, f"{_quote(written)}: no such file ({lock})")
        # Imported here: the lock-file reader (and the inventory builder's facts it shares) is
        # for inventories that name one, not for every lint's start-up.
        from dagroute_lint.deployment.init.requirements_file import requirements_facts

        try:
            facts = requirements_facts(lock, runtime).runtimes[0]
        except ConfigError as error:
            self.fail(path, str(error))
        added_providers = list(providers)
        added_packages = list(packages)
        known = {r.name for r in (*providers, *packages)}
        for facts_list, target, is_provider in (
            (facts.providers or (), added_providers, True),
            (facts.packages or (), added_packages, False),
        ):
            for fact in facts_list:
                parsed = parse_requirement(fact.value)
                if is_provider:
                    canonical = self.provider(parsed.name, f"{path} ({fact.source})")
                else:
                    canonical = canonical_name(parsed.name)
                if canonical not in known:
                    known.add(canonical)
                    target.append(
                        Requirement(canonical, parsed.specifier, fact.value, parsed.extras)
                    )
        return tuple(added_providers), tuple(added_packages)

    def module_names(self, value: object, path: str) -> frozenset[str]:
        """``imports``: top-level module names, or ``namespace.part`` inside a namespace."""
        names = self.string_list(value, path, '["cloudvolume", "google.cloud"]')
        for index, name in enumerate(names):
            if not _MODULE_NAME.fullmatch(name):
                self.fail(
                    f"{path}[{index}]",
                    f"{_quote(name)} is not a module name such as 'cloudvolume' or 'google.cloud'",
                )
        return frozenset(names)

    def provider(self, name: str, path: str) -> str:
        """The distribution a ``providers`` entry names, or an error for a misspelt provider.

        ``standard`` and ``cncf.kubernetes`` are Apache provider ids, which must be known;
        ``common-sql`` (the id as pip spells it) is read as ``common.sql``. Other dashed names
        are distributions: ``apache-airflow-providers-<id>`` (an id newer than the shipped table
        is accepted, one close to a known id is called a typo) or a third-party provider
        (accepted unless it is close to a known id: ``amazn-aws``).
        """
        ids = known_provider_ids()
        lowered = name.lower()
        if "-" not in name and "_" not in name:
            if lowered not in ids:
                self.fail(path, f"unknown provider id {_quote(name)}{did_you_mean(lowered, ids)}")
            return canonical_distribution(lowered)
        dotted = re.sub(r"[-_.]+", ".", lowered).removeprefix("apache.airflow.providers.")
        if dotted in ids:
            return canonical_distribution(dotted)
        canonical = canonical_name(name)
        hint = did_you_mean(dotted, ids)
        if hint and canonical.startswith(PROVIDER_PREFIX):
            self.fail(path, f"unknown Apache Airflow provider {_quote(name)}{hint}")
        if hint:
            self.fail(
                path,
                f"{_quote(name)} is no provider id{hint} (a third-party provider is listed by "
                "its distribution name)",
            )
        return canonical

    def workers(
        self,
        value: object,
        executors: tuple[ExecutorEntry, ...],
        default_queue: str,
        runtimes: Mapping[str, Runtime],
    ) -> tuple[Worker, ...]:
        if not isinstance(value, list):
            self.fail("workers", f"expected an array of [[workers]] tables, got {_describe(value)}")
        names: dict[str, int] = {}
        workers = []
        for index, item in enumerate(value):
            path = f"workers[{index}]"
            worker = self.worker(item, path, executors, default_queue, runtimes)
            if worker.name in names:
                self.fail(
                    f"{path}.name",
                    f"duplicate worker name {_quote(worker.name)} "
                    f"(also workers[{names[worker.name]}])",
                )
            names[worker.name] = index
            workers.append(worker)
        return tuple(workers)

    def worker(
        self,
        value: object,
        path: str,
        executors: tuple[ExecutorEntry, ...],
        default_queue: str,
        runtimes: Mapping[str, Runtime],
    ) -> Worker:
        table = self.table(value, path)
        self.keys(table, path, _WORKER_KEYS)
        for required in ("name", "runtime"):
            if required not in table:
                self.fail(path, f"missing required key {_quote(required)}")
        name = self.name(table["name"], f"{path}.name")
        executor = self.worker_executor(table, path, executors)
        queues = self.queues(table["queues"], f"{path}.queues") if "queues" in table else None
        runtime = self.runtime_ref(table["runtime"], f"{path}.runtime", runtimes)
        if executor.honours_queue is False:
            # Local, Kubernetes and AWS executors never route on queue (semantics §2): whatever
            # the worker lists, it runs every task sent to its executor.
            queues = None
        elif queues is None and executor.kind == "celery":
            # `airflow celery worker` without -q consumes [operators] default_queue only.
            queues = (default_queue,)
        # Edge: `airflow edge worker` without -q serves all queues, so None stays None.
        return Worker(name=name, executor=executor, queues=queues, runtime=runtime)

    def worker_executor(
        self, table: Mapping[str, object], path: str, executors: tuple[ExecutorEntry, ...]
    ) -> ExecutorEntry:
        configured = ", ".join(entry.display_name for entry in executors)
        if "executor" not in table:
            if len(executors) == 1:
                return executors[0]
            self.fail(
                path,
                f"missing key 'executor', required when several executors are configured "
                f"(one of: {configured})",
            )
        name = self.string(table["executor"], f"{path}.executor", executors[0].display_name)
        entry = resolve_executor(executors, name)
        if entry is None:
            names = [e.display_name for e in executors] + [e.class_name for e in executors]
            same_but_case = [known for known in names if known.lower() == name.lower()]
            close = same_but_case or close_matches(name, names)
            hint = f"; did you mean {_quote(close[0])}?" if close else ""
            if same_but_case:
                # lookup_executor_name_by_str compares exact strings (semantics §3.2).
                hint = f"; names are case-sensitive, did you mean {_quote(close[0])}?"
            self.fail(
                f"{path}.executor",
                f"{_quote(name)} matches no configured executor (configured: {configured}){hint}",
            )
        return entry

    def queues(self, value: object, path: str) -> tuple[str, ...]:
        items = self.string_list(value, path, '["default"]')
        if not items:
            self.fail(
                path, "must list at least one queue (omit the key for the executor's default)"
            )
        seen: set[str] = set()
        for index, queue in enumerate(items):
            item_path = f"{path}[{index}]"
            if not queue.strip():
                self.fail(item_path, "queue name must not be empty")
            if "," in queue:
                # Workers take queues as one comma-separated -q value, so this name is two queues.
                self.fail(item_path, f"{_quote(queue)} holds ','; list each queue as its own item")
            if queue in seen:
                self.fail(item_path, f"queue {_quote(queue)} is listed twice")
            seen.add(queue)
        return tuple(items)

    def pools(self, value: object) -> dict[str, int]:
        section = self.table(value, "pools", "a table of pool name = slots")
        pools: dict[str, int] = {}
        for name, slots in section.items():
            path = _join("pools", name)
            if not name.strip():
                self.fail(path, "pool name must not be empty")
            if isinstance(slots, bool) or not isinstance(slots, int):
                self.fail(
                    path,
                    f"expected an integer (slots, or -1 for unlimited), got {_describe(slots)}",
                )
            # models/pool.py treats -1 as unlimited; anything else below 1 admits no task.
            if slots < 1 and slots != -1:
                self.fail(path, f"pool size must be at least 1, or -1 for unlimited; got {slots}")
            pools[name] = slots
        pools.setdefault(DEFAULT_POOL, DEFAULT_POOL_SIZE)
        return pools

    def connections(self, value: object) -> frozenset[str]:
        section = self.table(value, "connections")
        self.keys(section, "connections", ("ids",))
        if "ids" not in section:
            self.fail("connections", "missing required key 'ids'")
        ids = self.string_list(section["ids"], "connections.ids", '["aws_default"]')
        seen: set[str] = set()
        for index, conn_id in enumerate(ids):
            if not conn_id.strip():
                self.fail(f"connections.ids[{index}]", "connection id must not be empty")
            if conn_id in seen:
                self.fail(f"connections.ids[{index}]", f"{_quote(conn_id)} is listed twice")
            seen.add(conn_id)
        return frozenset(ids)

    def parse_tables(self, document: Mapping[str, object]) -> ParseEnvironment:
        """``[environment]`` and ``[variables]`` (``None`` each when absent)."""
        environment, environment_complete = self.named_table(
            document, "environment", self.environment_value
        )
        variables, variables_complete = self.named_table(document, "variables", self.variable_value)
        if environment is not None and variables is not None:
            self.agree(environment, variables)
        return ParseEnvironment(environment, environment_complete, variables, variables_complete)

    def named_table(
        self,
        document: Mapping[str, object],
        table: str,
        check: Callable[[str, object, str], T],
    ) -> tuple[dict[str, T] | None, bool]:
        """A table of names to values (``None`` when absent), each checked, and its
        ``complete`` flag."""
        if table not in document:
            return None, False
        section = self.table(document[table], table)
        found: dict[str, T] = {}
        for name, value in section.items():
            if name != COMPLETE or not isinstance(value, bool):
                found[name] = check(name, value, _join(table, name))
        return found, self.complete(section)

    def environment_value(self, name: str, value: object, path: str) -> str:
        if not name or "=" in name or "\0" in name:
            self.fail(path, f"{_quote(name)} is not an environment variable name")
        return self.string(value, path, "production")

    def complete(self, section: Mapping[str, object]) -> bool:
        value = section.get(COMPLETE, False)
        return value if isinstance(value, bool) else False

    def variable_value(self, name: str, value: object, path: str) -> object:
        if not name:
            self.fail(path, "a Variable key must not be empty")
        self.json_value(value, path)
        return value

    def json_value(self, value: object, path: str) -> None:
        """A Variable's value: its text, or a JSON value (no dates: JSON has none)."""
        if isinstance(value, (datetime, date, time)):
            self.fail(path, f"expected a string or a JSON value, got {_describe(value)}")
        if isinstance(value, list):
            for index, item in enumerate(value):
                self.json_value(item, f"{path}[{index}]")
        if isinstance(value, dict):
            for key, item in value.items():
                self.json_value(item, _join(path, key))

    def agree(self, environment: Mapping[str, str], variables: Mapping[str, object]) -> None:
        """A Variable the inventory gives two values: ``AIRFLOW_VAR_<KEY>`` in
        ``[environment]`` (which Airflow reads first) and another in ``[variables]``."""
        if environment.get(SECRETS_BACKEND, "").strip():
            return  # the backend is searched first: [variables] says what it holds
        for key, value in variables.items():
            name = VARIABLE_PREFIX + key.upper()
            if name not in environment:
                continue
            text = environment[name]
            if not same_variable(text, value):
                self.fail(
                    _join("variables", key),
                    f"contradicts environment.{name} {_quote(text)}, which Airflow reads first; "
                    "keep one",
                )
