"""``--compose FILE``: a docker-compose file like the one Airflow's quick start ships.

Services are recognised by the Airflow command they run (``celery worker`` with its
``-q`` / ``--queues``, ``triggerer``, ``dag-processor``, ``scheduler``); the rest (databases,
brokers, ``airflow-init``) are passed over. Each Airflow service's ``AIRFLOW__SECTION__KEY``
environment entries are its ``airflow.cfg`` overrides, and all services must agree on them. Its
``image`` (an official ``apache/airflow:X.Y.Z`` tag names the Airflow and Python versions) or its
``build`` context names the runtime; the requirements file the build's Dockerfile copies and the
``_PIP_ADDITIONAL_REQUIREMENTS`` the quick start installs at start-up are its packages.

A value compose fills in from the shell (``${AIRFLOW_IMAGE_NAME:-...}``, an entry without a value)
is not guessed: it is named in a note.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import Any

from dagroute_lint.deployment.init.airflow_cfg import OPTIONS, Setting, environment_variable
from dagroute_lint.deployment.init.commands import (
    CommandError,
    Component,
    component,
    deferred,
    official_image,
)
from dagroute_lint.deployment.init.facts import (
    DeploymentFacts,
    Fact,
    RuntimeFact,
    WorkerFact,
    combine,
    contradiction,
)
from dagroute_lint.deployment.init.requirements_file import requirements_facts, sort
from dagroute_lint.deployment.init.yaml_file import describe, read_yaml
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record

PIP_ADDITIONAL = "_PIP_ADDITIONAL_REQUIREMENTS"
_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(?P<image>\S+)", re.IGNORECASE)
_COPY = re.compile(r"^\s*(?:COPY|ADD)\s+(?:--\S+\s+)*(?P<args>.+)$", re.IGNORECASE)


@record(frozen=False)
class _Service:
    name: str
    component: Component
    environment: dict[str, str | None]
    runtime_key: str
    where: str


@record(frozen=False)
class _Runtime:
    name: str
    key: str
    python: Fact[str] | None = None
    label: Fact[str] | None = None
    providers: list[Fact[str]] = field(default_factory=list)
    packages: list[Fact[str]] = field(default_factory=list)
    copies_requirements: bool = False


def compose_facts(path: Path, runtime: str) -> DeploymentFacts:
    """What the compose file runs: workers and their queues, components, options, runtimes."""
    document = read_yaml(path, "--compose")
    if not isinstance(document, dict) or not isinstance(document.get("services"), dict):
        raise ConfigError(f"{path}: services: expected a compose file with a services mapping")
    return _Reader(path, runtime).read(document["services"])


class _Reader:
    def __init__(self, path: Path, runtime: str) -> None:
        self.path = path
        self.runtime = runtime
        self.notes: list[str] = []
        self.runtimes: dict[str, _Runtime] = {}
        self.extra: list[DeploymentFacts] = []
        self.undecided: dict[tuple[str, str], str] = {}

    def read(self, services: dict[str, Any]) -> DeploymentFacts:
        found = [
            service
            for name, body in services.items()
            if (service := self.service(str(name), body)) is not None
        ]
        if not found:
            raise ConfigError(
                f"{self.path}: services: no service runs an Airflow component (celery worker, "
                "scheduler, triggerer, dag-processor)"
            )
        options = self.options(found)
        workers = tuple(
            self.worker(service, options)
            for service in found
            if service.component.kind == "celery-worker"
        )
        by_kind = {service.component.kind: service for service in reversed(found)}
        triggerer = by_kind.get("triggerer")
        parser = by_kind.get("dag-processor") or by_kind.get("scheduler")
        executor_runtimes = {}
        scheduler = by_kind.get("scheduler")
        if scheduler is not None:
            # LocalExecutor runs tasks as subprocesses of the scheduler, in its container.
            executor_runtimes["local"] = Fact(self.name_of(scheduler), scheduler.where)
        versions = [
            fact
            for runtime in self.runtimes.values()
            if (fact := self.version(runtime)) is not None
        ]
        for later in versions[1:]:
            if later.value != versions[0].value:
                raise ConfigError(contradiction("Airflow version", versions[0], later))
        own = DeploymentFacts(
            sources=(f"compose file {self.path}",),
            options=options,
            undecided={k: v for k, v in self.undecided.items() if k not in options},
            airflow_version=versions[0] if versions else None,
            triggerer=(
                Fact(True, triggerer.where)
                if triggerer is not None
                else Fact(False, f"{self.path}: no service runs `airflow triggerer`")
            ),
            dag_processor_runtime=(
                Fact(self.name_of(parser), parser.where) if parser is not None else None
            ),
            workers=workers,
            executor_runtimes=executor_runtimes,
            runtimes=tuple(self.runtime_fact(runtime) for runtime in self.runtimes.values()),
            notes=tuple(self.notes),
        )
        return combine([own, *self.extra])

    # --- services --------------------------------------------------------------------------

    def service(self, name: str, body: object) -> _Service | None:
        where = f"{self.path}: services.{name}"
        if not isinstance(body, dict):
            raise ConfigError(f"{where}: expected a mapping, got {describe(body)}")
        command = body.get("command")
        if command is not None and not isinstance(command, (str, list)):
            raise ConfigError(
                f"{where}.command: expected a string or a list, got {describe(command)}"
            )
        try:
            found = component(command)
        except CommandError as error:
            raise ConfigError(f"{where}.command: {error}") from None
        if found is None:
            return None
        # `environment` wins over `env_file`, as compose merges them.
        environment = {
            **self.env_files(body.get("env_file"), f"{where}.env_file"),
            **self.environment(body.get("environment"), f"{where}.environment"),
        }
        key = self.runtime_of(name, body, where, environment)
        return _Service(name, found, environment, key, f"{where}.command")

    def env_files(self, value: object, where: str) -> dict[str, str | None]:
        """The variables of ``env_file`` entries (a path, or ``{path, required}``), in order."""
        entries = value if isinstance(value, list) else [] if value is None else [value]
        found: dict[str, str | None] = {}
        for entry in entries:
            path, required = entry, True
            if isinstance(entry, dict):
                path, required = entry.get("path"), entry.get("required", True)
            if not isinstance(path, str):
                raise ConfigError(f"{where}: expected a path or {{path, required}}")
            file = self.path.parent / path
            try:
                text = file.read_text(encoding="utf-8")
            except OSError:
                if required is False:
                    continue  # compose skips an optional file that is missing
                raise ConfigError(
                    f"{where}: {file} cannot be read (compose would fail too)"
                ) from None
            for line in text.splitlines():
                name, equals, raw = line.strip().partition("=")
                if not equals or name.startswith("#"):
                    continue
                found[name.strip()] = raw.strip().strip("'\"")
        return found

    def environment(self, value: object, where: str) -> dict[str, str | None]:
        if value is None:
            return {}
        if isinstance(value, dict):
            return {str(k): None if v is None else str(v) for k, v in value.items()}
        if isinstance(value, list):
            result: dict[str, str | None] = {}
            for item in value:
                name, equals, text = str(item).partition("=")
                result[name] = text if equals else None
            return result
        raise ConfigError(
            f"{where}: expected a mapping or a list of NAME=value, got {describe(value)}"
        )

    def options(self, services: list[_Service]) -> dict[tuple[str, str], Setting]:
        found: dict[tuple[str, str], Setting] = {}
        for service in services:
            for section, option in OPTIONS:
                variable = environment_variable(section, option)
                if variable not in service.environment:
                    continue
                where = f"{self.path}: services.{service.name}.environment.{variable}"
                value = service.environment[variable]
                if value is None or deferred(value):
                    self.undecided[section, option] = f"{where} is taken from the shell"
                    continue
                setting = Setting(value, where)
                earlier = found.get((section, option))
                if earlier is not None and earlier.value != value:
                    raise ConfigError(contradiction(variable, earlier, setting))
                found.setdefault((section, option), setting)
        return found

    def worker(self, service: _Service, options: dict[tuple[str, str], Setting]) -> WorkerFact:
        undecided = None
        if service.component.deferred is not None:
            undecided = f"-q {service.component.deferred} is filled in from the shell"
        queue = options.get(("operators", "default_queue"))
        return WorkerFact(
            service.name,
            service.component.queues,
            service.where,
            self.name_of(service),
            default_queue=Fact(queue.value, queue.source) if queue is not None else None,
            undecided=undecided,
        )

    # --- runtimes --------------------------------------------------------------------------

    def runtime_of(
        self, service: str, body: dict[str, Any], where: str, environment: dict[str, str | None]
    ) -> str:
        image = body.get("image")
        build = body.get("build")
        if image is not None and not isinstance(image, str):
            raise ConfigError(f"{where}.image: expected an image name, got {describe(image)}")
        key = image if image is not None else f"build {build!r}"
        if image is None and build is None:
            key = "(no image)"
        runtime = self.runtimes.get(key)
        if runtime is None:
            name = self.runtime if not self.runtimes else service
            runtime = self.runtimes[key] = _Runtime(name, key)
            self.describe_runtime(runtime, image, build, where)
        additional = environment.get(PIP_ADDITIONAL)
        if additional is not None and additional.strip():
            self.pip_additional(runtime, additional, f"{where}.environment.{PIP_ADDITIONAL}")
        return key

    def describe_runtime(
        self, runtime: _Runtime, image: str | None, build: object, where: str
    ) -> None:
        source = f"{where}.image"
        if build is not None:
            context, dockerfile = self.build(build, where)
            base = self.dockerfile(runtime, context / dockerfile, context, f"{where}.build")
            if image is None and base is not None:
                image, source = base, f"{context / dockerfile} FROM"
        if image is None:
            self.notes.append(f"{where}: no image or build, so runtime {runtime.name!r} is unknown")
            return
        if deferred(image):
            self.notes.append(
                f"{source} is {image!r}, filled in from the shell: runtime_version is as written"
            )
        runtime.label = Fact(image, source)
        official = official_image(image)
        if official is not None and official.python is not None:
            runtime.python = Fact(official.python, f"{source} (the official image's tag)")

    def build(self, build: object, where: str) -> tuple[Path, str]:
        if isinstance(build, str):
            return self.path.parent / build, "Dockerfile"
        if isinstance(build, dict):
            context = build.get("context", ".")
            dockerfile = build.get("dockerfile", "Dockerfile")
            if isinstance(context, str) and isinstance(dockerfile, str):
                return self.path.parent / context, dockerfile
        raise ConfigError(f"{where}.build: expected a context path or {{context, dockerfile}}")

    def dockerfile(self, runtime: _Runtime, path: Path, context: Path, where: str) -> str | None:
        """The base image, and the requirements files the Dockerfile copies into the image."""
        try:
            lines = path.read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
        except OSError:
            self.notes.append(f"{where}: {path} cannot be read: the image's packages are unknown")
            return None
        base = None
        for line in lines:
            match = _FROM.match(line)
            if match and base is None:
                base = match.group("image")
            copy = _COPY.match(line)
            if copy is None or copy.group("args").lstrip().startswith("["):
                continue
            for source in copy.group("args").split()[:-1]:
                if "requirements" in Path(source).name or "constraints" in Path(source).name:
                    facts = requirements_facts(context / source, runtime.name)
                    self.extra.append(facts)
                    runtime.copies_requirements = True
        if base is not None and deferred(base):
            self.notes.append(f"{path}: FROM {base} takes its image from a build argument")
        return base

    def pip_additional(self, runtime: _Runtime, text: str, where: str) -> None:
        if deferred(text):
            self.notes.append(
                f"{where} is {text!r}, filled in from the shell: those packages are not listed"
            )
            return
        airflow: list[Fact[str]] = []
        for word in text.split():
            try:
                parsed = parse_requirement(word)
            except ValueError as error:
                raise ConfigError(f"{where}: {error}") from None
            sort(parsed.name, parsed.specifier, where, runtime.providers, runtime.packages, airflow)

    def version(self, runtime: _Runtime) -> Fact[str] | None:
        if runtime.label is None:
            return None
        official = official_image(runtime.label.value)
        if official is None:
            return None
        return Fact(official.airflow, f"{runtime.label.source} (the official image's tag)")

    def name_of(self, service: _Service) -> str:
        return self.runtimes[service.runtime_key].name

    def runtime_fact(self, runtime: _Runtime) -> RuntimeFact:
        labels = () if runtime.label is None else (("runtime_version", runtime.label),)
        providers = tuple(runtime.providers) if runtime.providers else None
        packages = tuple(runtime.packages) if runtime.packages else None
        comments: tuple[str, ...] = ()
        if runtime.label is not None and (providers or packages or runtime.copies_requirements):
            comments = (
                f"The distributions the image {runtime.label.value} brings itself are not listed: "
                "read them with `inventory init --python` inside the image",
            )
        return RuntimeFact(
            runtime.name, str(self.path), runtime.python, providers, packages, labels, comments
        )
