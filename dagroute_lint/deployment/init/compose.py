"""``--compose FILE`` (repeatable): the services a compose project runs, as Airflow components.

The files are read as ``docker compose -f a.yaml -f b.yaml`` reads them (``compose_project.py``:
merging, ``.env``, interpolation, ``extends``, profiles). Services are recognised by the Airflow
command they run (``celery worker`` with its ``-q`` / ``--queues``, ``triggerer``,
``dag-processor``, ``scheduler``); the rest (databases, brokers, ``airflow-init``) are passed
over. A service's environment is its image's ``ENV``, then its ``env_file`` entries, then its
``environment``, each winning over the one before, as compose and Docker merge them; its
``AIRFLOW__SECTION__KEY`` entries win over any ``airflow.cfg``, as in Airflow, and the
``airflow.cfg`` its ``AIRFLOW_CONFIG`` names is read when a bind mount puts a project file there
(the Airflow 3 quick start mounts ``./config``).

Options are read where Airflow reads them: ``[core] executor`` and the default pool in the
scheduler, ``[operators] default_queue`` where DAG files are parsed (the DAG processor, else the
scheduler), and each Celery worker's own default queue for a worker started without ``-q``.

Each distinct ``image`` or ``build`` is a runtime. Built on an official ``apache/airflow`` tag,
it holds that image's providers and packages, plus what the build's Dockerfile installs
(``dockerfile.py``) and what ``_PIP_ADDITIONAL_REQUIREMENTS`` installs at start-up.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

from dagroute_lint.catalog.official_images import official_tag
from dagroute_lint.deployment.init.airflow_cfg import (
    DEFAULT_POOL_SLOTS,
    DEFAULT_QUEUE,
    EXECUTOR,
    OPTIONS,
    Setting,
    environment_variable,
    read_airflow_config,
)
from dagroute_lint.deployment.init.built_image import Dockerfiles, read_option_dockerfile
from dagroute_lint.deployment.init.commands import (
    CommandError,
    Component,
    component,
    deferred,
    words,
)
from dagroute_lint.deployment.init.compose_project import (
    ComposeProject,
    ComposeService,
    by_name,
    load_compose,
    locate,
)
from dagroute_lint.deployment.init.dockerfile import (
    Dockerfile,
    find_copied,
    pip_install,
    read_dockerfile,
)
from dagroute_lint.deployment.init.dotenv import read_dotenv
from dagroute_lint.deployment.init.facts import (
    DeploymentFacts,
    Fact,
    RuntimeFact,
    WorkerFact,
    built_version,
    combine,
    contradiction,
)
from dagroute_lint.deployment.init.import_roots import (
    DEFAULT_AIRFLOW_HOME,
    dags_folder,
    pythonpath_roots,
    roots_note,
)
from dagroute_lint.deployment.init.parse_values import shared_environment
from dagroute_lint.deployment.init.requirements_file import requirements_facts, sort
from dagroute_lint.deployment.init.shell_script import (
    SUFFIXES,
    EnvironmentStep,
    environment_step,
    script_commands,
)
from dagroute_lint.deployment.init.yaml_file import describe
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record, replace

PIP_ADDITIONAL = "_PIP_ADDITIONAL_REQUIREMENTS"
# The component whose value of a routing option decides, in order of preference when it does
# not run (semantics 1.2, 8): the scheduler routes; DAG files are parsed (and the default queue
# read) in the DAG processor, else the scheduler.
_READ_BY = {
    EXECUTOR: ("scheduler", "dag-processor", "triggerer", "celery-worker"),
    DEFAULT_QUEUE: ("dag-processor", "scheduler", "triggerer", "celery-worker"),
    DEFAULT_POOL_SLOTS: ("scheduler", "dag-processor", "triggerer", "celery-worker"),
}
# What `airflow standalone` runs (its DAG processor and web server are in the same container).
STANDALONE = ("scheduler", "triggerer")
LOCAL_EXECUTORS = frozenset({"LocalExecutor", "SequentialExecutor"})
MAX_SCRIPT_DEPTH = 2


@record(frozen=False)
class _Service:
    name: str
    component: Component
    environment: dict[str, tuple[str | None, str]]
    runtime_key: str
    where: str
    config: dict[tuple[str, str], Setting] = field(default_factory=dict)
    standalone: bool = False


@record(frozen=False)
class _Runtime:
    name: str
    key: str
    python: Fact[str] | None = None
    label: Fact[str] | None = None
    image: Fact[str] | None = None
    providers: list[Fact[str]] = field(default_factory=list)
    packages: list[Fact[str]] = field(default_factory=list)
    airflow: list[Fact[str]] = field(default_factory=list)
    installed: set[str] = field(default_factory=set)
    open: list[str] = field(default_factory=list)


def _bind(volume: object) -> tuple[str | None, str | None]:
    """``(host path, container path)`` of a bind mount (``./config:/opt/airflow/config:ro`` or
    the long form); ``(None, None)`` for a named volume or anything else."""
    if isinstance(volume, dict):
        if volume.get("type", "bind") != "bind":
            return None, None
        return _text_or_none(volume.get("source")), _text_or_none(volume.get("target"))
    if not isinstance(volume, str) or ":" not in volume:
        return None, None
    source, _, rest = volume.partition(":")
    if not source.startswith((".", "/", "~")):
        return None, None  # a named volume
    return source, rest.split(":", 1)[0]


def _words(value: object) -> list[str]:
    try:
        return words(value)
    except CommandError:
        return []


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def compose_facts(
    paths: Sequence[Path],
    runtime: str,
    environ: Mapping[str, str],
    profiles: Sequence[str] = (),
    dockerfiles: Dockerfiles | None = None,
    airflow_cfg_given: bool = False,
) -> DeploymentFacts:
    """What the compose project runs: workers and their queues, components, options, runtimes;
    ``dockerfiles`` say which Dockerfile builds an image a service only names, and
    ``airflow_cfg_given`` that ``--airflow-cfg`` stands in for an unmounted ``AIRFLOW_CONFIG``."""
    project = load_compose(paths, environ, profiles)
    reader = _Reader(project, runtime, dockerfiles or Dockerfiles(()))
    reader.airflow_cfg_given = airflow_cfg_given
    return reader.read()


class _Reader:
    def __init__(self, project: ComposeProject, runtime: str, dockerfiles: Dockerfiles) -> None:
        self.project = project
        self.dockerfiles = dockerfiles
        self.label = " + ".join(str(path) for path in project.files)
        self.runtime = runtime
        self.notes: list[str] = list(project.notes)
        self.runtimes: dict[str, _Runtime] = {}
        self.extra: list[DeploymentFacts] = []
        self.undecided: dict[tuple[str, str], str] = {}
        # The image name a service builds: other services naming it run what the build makes.
        self.builds: dict[str, object] = {}
        # The Dockerfile each service's image is built from, for the scripts it copies.
        self.dockerfiles_read: dict[str, Dockerfile] = {}
        # What was looked at for an Airflow command, for the message when nothing runs one.
        self.looked_at: list[str] = []
        self.airflow_cfg_given = False
        # The pip installs a service's start scripts run, by service.
        self.started_installs: dict[str, list[str]] = {}
        # What a service's start scripts do to the environment Airflow starts with, in order.
        self.script_steps: dict[str, list[_ScriptStep]] = {}
        # Repository folders a service's PYTHONPATH puts on sys.path → how, for one note.
        self.roots: dict[Path, str] = {}

    def read(self) -> DeploymentFacts:
        for each in self.project.services.values():
            image, build = each.body.get("image"), each.body.get("build")
            if isinstance(image, str) and build is not None:
                self.builds.setdefault(image, build)
        found = [
            service for body in self.project.services.values() for service in self.service(body)
        ]
        if not found:
            looked = "; ".join(self.looked_at) or "none"
            raise ConfigError(
                f"{self.label}: services: no service runs an Airflow component (celery worker, "
                "scheduler, triggerer, dag-processor, standalone) in its command, its entrypoint "
                f"or a script of the project they run (looked at: {looked}); describe it another "
                "way: the executor with --airflow-cfg or AIRFLOW__CORE__EXECUTOR, Celery workers "
                "with --worker NAME=QUEUES, the runtime with --dockerfile or --requirements"
            )
        options = self.options(found)
        self.standalone_executor(found, options)
        workers = tuple(
            self.worker(service) for service in found if service.component.kind == "celery-worker"
        )
        by_kind = {service.component.kind: service for service in reversed(found)}
        triggerer = by_kind.get("triggerer")
        parser = by_kind.get("dag-processor") or by_kind.get("scheduler")
        executor_runtimes = {}
        scheduler = by_kind.get("scheduler")
        if scheduler is not None:
            # LocalExecutor runs tasks as subprocesses of the scheduler, in its container.
            executor_runtimes["local"] = Fact(self.name_of(scheduler), scheduler.where)
        environment, left = self.parsed_in(found, options.get(EXECUTOR))
        versions = [fact for runtime in self.runtimes.values() for fact in self.versions(runtime)]
        for later in versions[1:]:
            if later.value != versions[0].value:
                raise ConfigError(contradiction("Airflow version", versions[0], later))
        own = DeploymentFacts(
            sources=(f"compose file {self.label}",),
            options=options,
            undecided={k: v for k, v in self.undecided.items() if k not in options},
            airflow_version=versions[0] if versions else None,
            triggerer=(
                Fact(True, triggerer.where)
                if triggerer is not None
                else Fact(False, f"{self.label}: no service runs `airflow triggerer`")
            ),
            dag_processor_runtime=(
                Fact(self.name_of(parser), parser.where) if parser is not None else None
            ),
            workers=workers,
            executor_runtimes=executor_runtimes,
            runtimes=tuple(self.runtime_fact(runtime) for runtime in self.runtimes.values()),
            notes=tuple(self.notes),
            settings=roots_note(self.roots, Path.cwd()),
            environment=environment,
            environment_left=left,
        )
        return combine([own, *self.extra])

    def parsed_in(
        self, services: list[_Service], executor: Setting | None
    ) -> tuple[dict[str, Fact[str]], dict[str, str]]:
        """The environment DAG files are parsed in: what the DAG processor (else the scheduler)
        and what runs tasks, which parses each file again first, share: the Celery workers, and
        the scheduler, whose subprocesses run a local executor's tasks. The pods of a Kubernetes
        executor are not compared: their environment is not in the compose file."""
        kinds = {"celery-worker"}
        if executor is None or any(
            entry.strip().rsplit(".", 1)[-1] in LOCAL_EXECUTORS
            for entry in executor.value.split(",")
        ):
            kinds.add("scheduler")  # no executor configured: Airflow's default, a local one
        parsers = [s for s in services if s.component.kind == "dag-processor"] or [
            s for s in services if s.component.kind == "scheduler"
        ]
        runners = [s for s in services if s.component.kind in kinds]
        components = {
            service.name: (f"{service.component.kind} {service.name}", service.environment)
            for service in (*parsers, *runners)
        }
        return shared_environment(list(components.values()))

    # --- services --------------------------------------------------------------------------

    def service(self, service: ComposeService) -> list[_Service]:
        """The Airflow components the service runs: its command's, else those the scripts its
        entrypoint or command runs start (``airflow standalone`` is several)."""
        body, where = service.body, service.where
        for key in ("command", "entrypoint"):
            if body.get(key) is not None and not isinstance(body[key], (str, list)):
                raise ConfigError(
                    f"{self.at(service, key)}: expected a string or a list, got "
                    f"{describe(body[key])}"
                )
        command = body.get("command")
        try:
            found = component(command)
        except CommandError as error:
            raise ConfigError(f"{self.at(service, 'command')}: {error}") from None
        started = [(found, f"{where}.command")] if found is not None else []
        if not started:
            started = self.container_started(service)
        if not started:
            return []
        key, image_env = self.runtime_of(service)
        self.runtimes[key].open.extend(self.started_installs.pop(service.name, ()))
        environment = dict(image_env)
        environment.update(self.env_files(body.get("env_file"), f"{where}.env_file"))
        try:
            written = by_name(body.get("environment") or {})
        except ConfigError as error:
            raise ConfigError(f"{self.at(service, 'environment')}: {error}") from None
        for name, value in written.items():
            # A bare name passes the shell's variable through, as compose does.
            given = self.project.variables.get(name) if value is None else value
            if f"services.{service.name}.environment.{name}" in self.project.from_shell:
                given = None
            environment[name] = (given, f"{where}.environment.{name}")
        self.script_environment(service, environment)
        additional = environment.get(PIP_ADDITIONAL)
        if additional is not None and additional[0] is not None and additional[0].strip():
            self.pip_additional(self.runtimes[key], additional[0], additional[1])
        named = environment.get("AIRFLOW_CONFIG")
        config = self.mounted_config(body, named or _home_config(environment), named is None)
        self.import_roots(service, environment)
        result = []
        for each, source in started:
            kinds = STANDALONE if each.kind == "standalone" else (each.kind,)
            result += [
                _Service(
                    service.name,
                    Component(kind, each.queues, each.deferred),
                    environment,
                    key,
                    source,
                    config,
                    standalone=each.kind == "standalone",
                )
                for kind in kinds
            ]
        return result

    def container_started(self, service: ComposeService) -> list[tuple[Component, str]]:
        """The components the container's whole command starts: itself, or the scripts of the
        project it runs."""
        words_run, sources = self.container_run(service)
        if not words_run:
            self.looked_at.append(f"{service.name} (no command)")
            return []
        try:
            found = component(words_run)
        except CommandError:
            found = None
        if found is not None:
            return [(found, f"{' + '.join(sources)} (run by {service.where})")]
        image = [source for source in sources if not source.startswith(service.where)]
        return self.scripted(service, words_run, " + ".join(image))

    def container_run(self, service: ComposeService) -> tuple[list[str], list[str]]:
        """The words the container runs and where each part was set, as Docker puts them
        together: compose's ``entrypoint`` over the image's ``ENTRYPOINT`` (and then none of the
        image's ``CMD``), compose's ``command`` over the image's ``CMD``. The image's are those of
        the Dockerfile compose builds it from; an image built elsewhere is not known here."""
        body, where = service.body, service.where
        own_entrypoint, own_command = body.get("entrypoint"), body.get("command")
        build = None
        if own_entrypoint is None or own_command is None:
            build = self.service_build(service)
        words_run: list[str] = []
        sources: list[str] = []
        if own_entrypoint is not None:
            words_run += _words(own_entrypoint)
            sources.append(f"{where}.entrypoint")
        elif build is not None and build.entrypoint is not None:
            words_run += build.entrypoint.words
            sources.append(build.entrypoint.where)
        if own_command is not None:
            words_run += _words(own_command)
            sources.append(f"{where}.command")
        elif own_entrypoint is None and build is not None and build.cmd is not None:
            words_run += build.cmd.words
            sources.append(build.cmd.where)
        return words_run, sources

    def scripted(
        self, service: ComposeService, words_run: list[str], image: str = ""
    ) -> list[tuple[Component, str]]:
        """Components started by the shell scripts of the project the service runs: the
        container's command words naming a script that a bind mount or the build's ``COPY``
        puts in the container (a script those run, too, up to ``MAX_SCRIPT_DEPTH``); ``image`` names
        the image's ``ENTRYPOINT`` / ``CMD`` lines among them."""
        run_by = f"run by {service.where}" + (f" through {image}" if image else "")
        found: list[tuple[Component, str]] = []
        pending = [(word, 0) for word in words_run]
        read: set[Path] = set()
        while pending:
            word, depth = pending.pop(0)
            script = self.script_file(service, word)
            if script is None or script in read or depth > MAX_SCRIPT_DEPTH:
                continue
            read.add(script)
            allexport = False
            for line, command in script_commands(script):
                step = environment_step(command)
                if step is not None:
                    if step.allexport is not None:
                        allexport = step.allexport
                    else:
                        steps = self.script_steps.setdefault(service.name, [])
                        steps.append(_ScriptStep(step, allexport, f"{script}:{line}"))
                    continue
                try:
                    started = component(command)
                except CommandError:
                    started = None
                if started is not None:
                    found.append((started, f"{script}:{line} ({run_by})"))
                elif pip_install(command) is not None:
                    # Installed at each start, from files this does not follow: left open.
                    self.started_installs.setdefault(service.name, []).append(
                        f"{script}:{line}: the start script runs pip install, which is not read"
                    )
                else:
                    pending += [(each, depth + 1) for each in command[:2]]
        shown = " ".join(words_run) or "no command"
        self.looked_at.append(
            f"{service.name} ({shown}"
            + (f"; read {', '.join(str(p) for p in sorted(read))}" if read else "")
            + ")"
        )
        return found

    def script_environment(
        self, service: ComposeService, environment: dict[str, tuple[str | None, str]]
    ) -> None:
        """Apply what the service's start scripts do to its environment before Airflow starts,
        as the shell does: ``export NAME=value``; ``source FILE`` of a project file (its
        ``NAME=value`` lines, interpolated with what is set), each name reaching Airflow when
        ``allexport`` is on or it is exported already. A file not found or not read so leaves
        what it sets unknown: said in a note."""
        for each in self.script_steps.pop(service.name, ()):
            for name, value in each.step.exported:
                environment[name] = (value, each.where)
            if each.step.sourced is None:
                continue
            path = self.project_file(service, each.step.sourced)
            known = {name: value for name, (value, _) in environment.items() if value is not None}
            try:
                if path is None:
                    raise ConfigError("no file of the project is there")
                found = read_dotenv(path, known)
            except ConfigError as error:
                self.notes.append(
                    f"{each.where} sources {each.step.sourced}, which is not read ({error}): "
                    "the variables it sets are not known; check the executor and [environment]"
                )
                continue
            for name, text in found.items():
                if each.allexport or name in environment:
                    environment[name] = (text, f"{path}: {name} (sourced at {each.where})")

    def script_file(self, service: ComposeService, word: str) -> Path | None:
        """The project file a script word names inside the container (``project_file``)."""
        if not word.endswith(SUFFIXES) and "/" not in word:
            return None
        return self.project_file(service, word)

    def project_file(self, service: ComposeService, word: str) -> Path | None:
        """The project file a path names inside the container, through the service's bind
        mounts or the files its build copies."""
        workdir = service.body.get("working_dir")
        build = self.dockerfiles_read.get(service.name) or self.service_build(service)
        base = workdir if isinstance(workdir, str) else build.workdir if build else "/opt/airflow"
        inside = posixpath.normpath(posixpath.join(base, word))
        for volume in service.body.get("volumes") or []:
            source, target = _bind(volume)
            if source is None or target is None:
                continue
            target = posixpath.normpath(target)
            if inside == target or inside.startswith(target + "/"):
                host = self.project.directory / source / inside[len(target) :].lstrip("/")
                if host.is_file():
                    return host
        if build is not None:
            copied = find_copied(build.copies, inside)
            if copied is not None and copied.is_file():
                return copied
        return None

    def service_build(self, service: ComposeService) -> Dockerfile | None:
        """The Dockerfile a service's image is built from, when compose builds it."""
        image, build = service.body.get("image"), service.body.get("build")
        if build is None and isinstance(image, str):
            build = self.builds.get(image)
        return self.build(build, f"{service.where}.build") if build is not None else None

    def standalone_executor(
        self, services: list[_Service], options: dict[tuple[str, str], Setting]
    ) -> None:
        """``airflow standalone`` runs a local executor: a configured one that is not local
        is replaced by LocalExecutor for its processes, as Airflow's standalone command does."""
        scheduler = next((s for s in services if s.component.kind == "scheduler"), None)
        if scheduler is None or not scheduler.standalone:
            return
        chosen = options.get(EXECUTOR)
        if chosen is None or chosen.value.rsplit(".", 1)[-1] in LOCAL_EXECUTORS:
            return
        options[EXECUTOR] = Setting(
            "LocalExecutor",
            f"{scheduler.where}: `airflow standalone` runs LocalExecutor in place of the "
            f"configured {chosen.value} ({chosen.source})",
            environment=True,
        )

    def import_roots(
        self, service: ComposeService, environment: Mapping[str, tuple[str | None, str]]
    ) -> None:
        """The repository folders the service's ``PYTHONPATH`` puts on ``sys.path``, through
        its bind mounts (which hide what the build copied there) and its build's ``COPY``."""
        pythonpath, where = environment.get("PYTHONPATH", (None, ""))
        if not pythonpath:
            return
        placed: list[tuple[str, Path]] = []
        for volume in service.body.get("volumes") or []:
            source, target = _bind(volume)
            if source is not None and target is not None:
                placed.append((target, self.project.directory / source))
        build = self.dockerfiles_read.get(service.name)
        if build is not None:
            placed += [(inside, local) for inside, local in build.copies.items() if local.is_dir()]
        dags = dags_folder(
            environment.get("AIRFLOW__CORE__DAGS_FOLDER", (None, ""))[0],
            environment.get("AIRFLOW_HOME", (None, ""))[0],
        )
        for entry, folder in pythonpath_roots(pythonpath, placed, dags, Path.cwd()):
            self.roots.setdefault(folder, f"{entry} ({where})")

    def mounted_config(
        self, body: dict[str, Any], variable: tuple[str | None, str], default: bool
    ) -> dict[tuple[str, str], Setting]:
        """The routing options of the ``airflow.cfg`` that ``AIRFLOW_CONFIG`` names (by default
        ``$AIRFLOW_HOME/airflow.cfg``), when a bind mount of the service puts a file of the
        project there. The default path unmounted, or mounted from no file, is the image's own
        configuration: nothing to say."""
        if not variable[0]:
            return {}
        inside = posixpath.normpath(variable[0])
        best: tuple[str, str] | None = None
        for volume in body.get("volumes") or []:
            source, target = _bind(volume)
            if source is None or target is None:
                continue
            target = posixpath.normpath(target)
            if (inside == target or inside.startswith(target + "/")) and (
                best is None or len(target) > len(best[1])
            ):
                best = (source, target)
        if best is None:
            if self.airflow_cfg_given or default:
                return {}  # the airflow.cfg passed is the one it names, as the user says
            self.notes.append(
                f"{variable[1]} names {inside}, which no bind mount of the service provides: "
                "pass that airflow.cfg with --airflow-cfg"
            )
            return {}
        host = self.project.directory / best[0] / inside[len(best[1]) :].lstrip("/")
        if not host.is_file():
            if default:
                return {}  # Airflow writes its defaults there on first start
            self.notes.append(
                f"{variable[1]} names {inside}, mounted from {host}, which does not exist here: "
                "Airflow's defaults apply unless the environment sets the options"
            )
            return {}
        return dict(read_airflow_config(host, {}).settings)

    def at(self, service: ComposeService, *keys: str | int) -> str:
        return locate(self.project, service.name, keys)

    def env_files(self, value: object, where: str) -> dict[str, tuple[str | None, str]]:
        """The variables of ``env_file`` entries (a path, or ``{path, required}``), in order."""
        entries = value if isinstance(value, list) else [] if value is None else [value]
        found: dict[str, tuple[str | None, str]] = {}
        for index, entry in enumerate(entries):
            path, required = entry, True
            if isinstance(entry, dict):
                path, required = entry.get("path"), entry.get("required", True)
            if not isinstance(path, str):
                raise ConfigError(f"{where}[{index}]: expected a path or {{path, required}}")
            file = self.project.directory / path
            if not file.is_file():
                if required is False:
                    continue  # compose skips an optional file that is missing
                raise ConfigError(
                    f"{where}[{index}]: {file} cannot be read (compose would fail too)"
                )
            for name, text in read_dotenv(file, self.project.variables).items():
                found[name] = (text, f"{file}: {name}")
        return found

    def options(self, services: list[_Service]) -> dict[tuple[str, str], Setting]:
        """Each routing option as the component that reads it sees it: its ``AIRFLOW__``
        variable, else the ``airflow.cfg`` its ``AIRFLOW_CONFIG`` names, else nothing (the
        other sources or Airflow's default decide)."""
        found: dict[tuple[str, str], Setting] = {}
        for option in OPTIONS:
            kind = next(k for k in _READ_BY[option] if any(s.component.kind == k for s in services))
            settings = [
                (s, setting) for s in services if (setting := self.setting(s, option)) is not None
            ]
            readers = [pair for pair in settings if pair[0].component.kind == kind]
            chosen = readers[0][1] if readers else None
            for other, setting in settings:
                if chosen is not None and setting.value == chosen.value:
                    continue
                if other.component.kind == kind and chosen is not None:
                    # Two services of one component: the same precedence, two answers.
                    raise ConfigError(contradiction(environment_variable(*option), chosen, setting))
                read = f"reads {chosen.value!r} ({chosen.source})" if chosen else "does not set it"
                self.notes.append(
                    f"{setting.source} is {setting.value!r}, but the {kind}, which decides "
                    f"[{option[0]}] {option[1]} here, {read}"
                )
            if chosen is None:
                continue
            if deferred(chosen.value):
                self.undecided[option] = f"{chosen.source} is taken from the shell"
                continue
            found[option] = chosen
        return found

    def setting(self, service: _Service, option: tuple[str, str]) -> Setting | None:
        """The option as the service's Airflow reads it: its variable, else its airflow.cfg.
        A variable only the shell that starts compose sets is written ``${NAME}``, a value
        known at deploy time (``deferred``)."""
        variable = environment_variable(*option)
        if variable in service.environment:
            value, where = service.environment[variable]
            written = f"${{{variable}}}" if value is None else value
            return Setting(written, where, environment=True)
        return service.config.get(option)

    def worker(self, service: _Service) -> WorkerFact:
        undecided = None
        if service.component.deferred is not None:
            undecided = f"-q {service.component.deferred} is filled in from the shell"
        own = self.setting(service, DEFAULT_QUEUE)
        queue = None
        if own is not None and not deferred(own.value):
            queue = Fact(own.value, own.source)
        return WorkerFact(
            service.name,
            service.component.queues,
            service.where,
            self.name_of(service),
            default_queue=queue,
            undecided=undecided,
        )

    # --- runtimes --------------------------------------------------------------------------

    def runtime_of(self, service: ComposeService) -> tuple[str, dict[str, tuple[str | None, str]]]:
        """The runtime's key and the image's own environment (a build's ``ENV`` lines)."""
        body, where = service.body, service.where
        image = body.get("image")
        build = body.get("build")
        if image is not None and not isinstance(image, str):
            raise ConfigError(
                f"{self.at(service, 'image')}: expected an image name, got {describe(image)}"
            )
        if build is None and image in self.builds:
            build = self.builds[image]  # compose tags the image another service builds
        key = image if image is not None else f"build {build!r}" if build else "(no image)"
        runtime = self.runtimes.get(key)
        dockerfile = None
        if build is not None:
            dockerfile = self.build(build, f"{where}.build")
        elif image is not None and (path := self.dockerfiles.for_image(image)) is not None:
            dockerfile = read_option_dockerfile(path)  # --dockerfile: a pushed image's build
        if runtime is None:
            name = self.runtime if not self.runtimes else service.name
            runtime = self.runtimes[key] = _Runtime(name, key)
            self.describe_runtime(runtime, image, dockerfile, where)
        env: dict[str, tuple[str | None, str]] = {}
        if dockerfile is not None:
            env.update(dockerfile.env)
            self.dockerfiles_read[service.name] = dockerfile
        return key, env

    def build(self, build: object, where: str) -> Dockerfile:
        args: dict[str, str | None] = {}
        target = None
        if isinstance(build, str):
            context, dockerfile = self.project.directory / build, "Dockerfile"
        elif isinstance(build, dict) and isinstance(build.get("context", "."), str):
            context = self.project.directory / build.get("context", ".")
            dockerfile = str(build.get("dockerfile", "Dockerfile"))
            try:
                args = by_name(build.get("args") or {})
            except ConfigError as error:
                raise ConfigError(f"{where}.args: {error}") from None
            args = {
                n: v if v is not None else self.project.variables.get(n) for n, v in args.items()
            }
            target = build.get("target")
        else:
            raise ConfigError(f"{where}: expected a context path or {{context, dockerfile}}")
        path = context / dockerfile
        if not path.is_file():
            raise ConfigError(
                f"{where}: the Dockerfile {path} cannot be read (the build would fail too)"
            )
        return read_dockerfile(path, context, args, target if isinstance(target, str) else None)

    def describe_runtime(
        self, runtime: _Runtime, image: str | None, dockerfile: Dockerfile | None, where: str
    ) -> None:
        if image is not None:
            runtime.label = Fact(image, f"{where}.image")
        base, source = image, f"{where}.image"
        if dockerfile is not None:
            self.notes.extend(dockerfile.notes)
            runtime.open.extend(dockerfile.open)
            base, source = dockerfile.base, f"{dockerfile.base_where}"
            for item in dockerfile.installed:
                if item.file is not None:
                    facts = requirements_facts(item.file, runtime.name)
                    # The version is the runtime's, decided against the image's tag below.
                    self.extra.append(replace(facts, airflow_version=None))
                    if facts.airflow_version is not None:
                        runtime.airflow.append(facts.airflow_version)
                elif item.requirement is not None:
                    self.requirement(runtime, item.requirement, item.where)
            if runtime.label is None and base is not None:
                runtime.label = Fact(base, source)
        if base is None:
            self.notes.append(f"{where}: no image or build, so runtime {runtime.name!r} is unknown")
            return
        runtime.image = Fact(base, source)
        tag = official_tag(base)
        if tag is not None and tag.python is not None:
            runtime.python = Fact(tag.python, f"{source} (the official image's tag)")

    def pip_additional(self, runtime: _Runtime, text: str, where: str) -> None:
        if deferred(text):
            self.notes.append(
                f"{where} is {text!r}, set at deploy time: those packages are not listed"
            )
            return
        for word in text.split():
            self.requirement(runtime, word, where)

    def requirement(self, runtime: _Runtime, word: str, where: str) -> None:
        try:
            parsed = parse_requirement(word)
        except ValueError as error:
            raise ConfigError(f"{where}: {error}") from None
        if word in runtime.installed:
            return  # the same start-up requirement of another service of the runtime
        runtime.installed.add(word)
        sort(
            parsed.name,
            parsed.specifier,
            where,
            runtime.providers,
            runtime.packages,
            runtime.airflow,
        )

    def versions(self, runtime: _Runtime) -> list[Fact[str]]:
        """The Airflow version the runtime runs: what its build or start-up installs last,
        else its image's tag (``built_version``)."""
        from_tag = None
        if runtime.image is not None:
            tag = official_tag(runtime.image.value)
            if tag is not None and tag.airflow is not None:
                from_tag = Fact(tag.airflow, f"{runtime.image.source} (the official image's tag)")
        version, replaced = built_version(from_tag, runtime.airflow)
        if replaced is not None:
            self.notes.append(replaced)
        return [] if version is None else [version]

    def name_of(self, service: _Service) -> str:
        return self.runtimes[service.runtime_key].name

    def runtime_fact(self, runtime: _Runtime) -> RuntimeFact:
        labels = () if runtime.label is None else (("runtime_version", runtime.label),)
        # On an image, what the build and start-up add; the builder decides whether the image
        # itself is known. Without one, nothing says what the runtime holds.
        known = runtime.image is not None
        providers = tuple(runtime.providers) if known or runtime.providers else None
        packages = tuple(runtime.packages) if known or runtime.packages else None
        return RuntimeFact(
            runtime.name,
            self.label,
            runtime.python,
            providers,
            packages,
            labels,
            image=runtime.image,
            open=tuple(runtime.open),
        )


@record
class _ScriptStep:
    """A start script's command that changes the environment (``EnvironmentStep``), whether
    ``allexport`` was on then, and where it is."""

    step: EnvironmentStep
    allexport: bool
    where: str


def _home_config(environment: Mapping[str, tuple[str | None, str]]) -> tuple[str, str]:
    """Where Airflow reads ``airflow.cfg`` when ``AIRFLOW_CONFIG`` is not set, with why:
    ``$AIRFLOW_HOME/airflow.cfg`` (``/opt/airflow`` in the official image). A project's file
    bind-mounted there (``./airflow.cfg:/opt/airflow/airflow.cfg``) configures the service."""
    home = environment.get("AIRFLOW_HOME", (None, ""))[0] or DEFAULT_AIRFLOW_HOME
    return posixpath.join(
        home, "airflow.cfg"
    ), "AIRFLOW_CONFIG's default, $AIRFLOW_HOME/airflow.cfg"
