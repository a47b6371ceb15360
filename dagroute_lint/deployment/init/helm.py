"""``--helm-values FILE`` (repeatable): the official ``apache-airflow`` chart's values.

Files are merged as Helm merges ``-f a.yaml -f b.yaml``: later files win, mappings merge key by
key, lists are replaced whole. What the chart renders from them:

- ``executor`` → ``[core] executor`` (the chart's default is ``CeleryExecutor``);
- ``config:`` sections become ``airflow.cfg``, and ``env`` entries become environment variables,
  which win over ``airflow.cfg`` in Airflow;
- Celery workers run only when the executor list holds a Celery executor; their queues come from
  ``-q`` in ``workers.command`` / ``workers.args`` (the chart's own command has none: the default
  queue). ``replicas`` are copies of one worker, so they make one worker entry;
- ``triggerer.enabled`` (chart default: true) and ``dagProcessor.enabled``;
- ``images.airflow`` (else ``defaultAirflowRepository:defaultAirflowTag``) names the runtime, and
  ``images.pod_template`` (unless ``[kubernetes_executor] worker_container_repository`` / ``_tag``
  override it) the pods of KubernetesExecutor tasks;
- ``airflowVersion`` → ``airflow_version``.

Values the chart fills in from templates (``{{ ... }}``) are not rendered: they are named in a note
and left for the user.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dagroute_lint.catalog.official_images import official_tag
from dagroute_lint.deployment.executors import ExecutorConfigError, parse_executor_list
from dagroute_lint.deployment.init.airflow_cfg import (
    DEFAULT_POOL_SLOTS,
    DEFAULT_QUEUE,
    EXECUTOR,
    OPTIONS,
    Setting,
    environment_variable,
)
from dagroute_lint.deployment.init.built_image import (
    Dockerfiles,
    dockerfile_facts,
    read_option_dockerfile,
)
from dagroute_lint.deployment.init.commands import CommandError, component, deferred
from dagroute_lint.deployment.init.dockerfile import Dockerfile
from dagroute_lint.deployment.init.facts import (
    DeploymentFacts,
    Fact,
    RuntimeFact,
    WorkerFact,
    combine,
)
from dagroute_lint.deployment.init.import_roots import dags_folder, pythonpath_roots, roots_note
from dagroute_lint.deployment.init.parse_values import shared_environment
from dagroute_lint.deployment.init.requirements_file import sort
from dagroute_lint.deployment.init.yaml_file import describe, line_of, read_yaml
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import replace

CHART_DEFAULT_EXECUTOR = "CeleryExecutor"
# Keys only the chart's values have; a file with none of them is some other YAML.
CHART_KEYS = frozenset(
    {
        "executor", "airflowVersion", "defaultAirflowRepository", "defaultAirflowTag", "images",
        "workers", "triggerer", "dagProcessor", "scheduler", "config", "env", "webserver",
        "apiServer", "redis", "postgresql", "pgbouncer", "flower", "statsd",
    }
)  # fmt: skip
WORKER_NAME = "celery-workers"
# The official image's entrypoint pip-installs this variable's requirements at start-up.
PIP_ADDITIONAL = "_PIP_ADDITIONAL_REQUIREMENTS"
# Each chart release's ``appVersion``, its ``defaultAirflowTag`` and ``airflowVersion`` default
# (chart/Chart.yaml and chart/RELEASE_NOTES.rst: "Default Airflow image is updated to ...").
CHART_APP_VERSIONS = {"1.14.0": "2.9.2", "1.15.0": "2.9.3", "1.17.0": "3.0.2"}
POD_TEMPLATE_RUNTIME = "pod-template"
# The option names of the pod image changed section in Airflow 2.5 ([kubernetes] →
# [kubernetes_executor]); the chart passes whichever the values use.
POD_IMAGE_SECTIONS = ("kubernetes_executor", "kubernetes")
POD_IMAGE_OPTIONS = ("worker_container_repository", "worker_container_tag")


def merge_values(documents: Sequence[tuple[Path, Any]]) -> dict[str, Any]:
    """Helm's merge of several ``-f`` files (later wins; mappings merge, lists replace)."""
    merged: dict[str, Any] = {}
    for path, document in documents:
        if document is None:
            continue
        if not isinstance(document, dict):
            raise ConfigError(
                f"{path}: expected the chart's values (a mapping), got {describe(document)}"
            )
        if not CHART_KEYS & set(document):
            raise ConfigError(
                f"{path}: none of the apache-airflow chart's keys (executor, workers, config, "
                "images, ...) is set: is this a Helm values file of the official chart?"
            )
        merged = _deep_merge(merged, document)
    return merged


def _deep_merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = _deep_merge(result[key], value)
        else:
            result[key] = value
    return result


def helm_facts(
    paths: Sequence[Path],
    runtime: str,
    chart_version: str | None = None,
    dockerfiles: Dockerfiles | None = None,
) -> DeploymentFacts:
    """What the chart (of ``chart_version``, when given) deploys with these values files;
    ``dockerfiles`` say which Dockerfile builds an image the values name."""
    documents = [(path, read_yaml(path, "--helm-values")) for path in paths]
    values = merge_values(documents)
    label = " + ".join(str(path) for path in paths)
    reader = _Reader(values, documents, label, runtime, chart_version)
    reader.dockerfiles = dockerfiles or Dockerfiles(())
    return combine([reader.facts(), *reader.built])


class _Reader:
    def __init__(
        self,
        values: dict[str, Any],
        documents: Sequence[tuple[Path, Any]],
        label: str,
        runtime: str,
        chart_version: str | None = None,
    ) -> None:
        self.chart_version = chart_version
        self.values = values
        self.documents = documents
        self.label = label
        self.runtime = runtime
        self.notes: list[str] = []
        self.undecided: dict[tuple[str, str], str] = {}
        self.dockerfiles = Dockerfiles(())
        # Why the KubernetesExecutor pod image is known only at deploy time.
        self.pod_undecided: list[str] = []
        # What the Dockerfiles of the images (--dockerfile) say about their runtimes.
        self.built: list[DeploymentFacts] = []
        # The Dockerfile of the Airflow image, for the folders its PYTHONPATH names.
        self.airflow_build: Dockerfile | None = None

    def at(self, key: str) -> str:
        """``file:line: key`` of the value at ``key``, for an error about it."""
        where = self.where(key)
        path, _, dotted = where.partition(": ")
        keys: list[str | int] = [
            int(p) if p.isdigit() else p for p in re.split(r"[.\[\]]+", dotted) if p
        ]
        line = line_of(Path(path), keys) if Path(path).is_file() else None
        return f"{path}:{line}: {dotted}" if line is not None else where

    def where(self, key: str) -> str:
        """The last file that sets ``key`` (a dotted path): that file's value is the one used."""
        for path, document in reversed(self.documents):
            node: Any = document
            for part in key.split("."):
                if not isinstance(node, dict) or part not in node:
                    break
                node = node[part]
            else:
                return f"{path}: {key}"
        return f"{self.label}: {key}"

    def get(self, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        node: Any = self.values
        for part in key.split("."):
            if not isinstance(node, dict):
                raise ConfigError(
                    f"{self.where(key)}: expected a mapping above it, got {describe(node)}"
                )
            if part not in node or node[part] is None:
                return None
            node = node[part]
        if not isinstance(node, kind) or (isinstance(node, bool) and bool not in _kinds(kind)):
            raise ConfigError(f"{self.at(key)}: expected {what}, got {describe(node)}")
        return node

    def facts(self) -> DeploymentFacts:
        options = self.options()
        executor_text = self.executor(options)
        image = self.image()
        version = self.airflow_version(image)
        runtimes = [self.added(self.image_runtime(self.runtime, self.label, image))]
        executor_runtimes: dict[str, Fact[str]] = {}
        kinds = self.executor_kinds(executor_text)
        workers: tuple[WorkerFact, ...] = ()
        if kinds & {"celery", "celery_kubernetes"}:
            workers = (self.worker(),)
        if kinds & {"kubernetes", "local_kubernetes", "celery_kubernetes"}:
            pod_image = self.pod_image(options, image)
            if self.pod_undecided and pod_image is image:
                # The pods' image is a template: their runtime is left to fill in.
                runtimes.append(
                    RuntimeFact(POD_TEMPLATE_RUNTIME, self.label, open=tuple(self.pod_undecided))
                )
                executor_runtimes["kubernetes"] = Fact(POD_TEMPLATE_RUNTIME, self.pod_undecided[0])
            elif pod_image is not None and (image is None or pod_image.value != image.value):
                runtimes.append(
                    self.image_runtime(POD_TEMPLATE_RUNTIME, pod_image.source, pod_image)
                )
                executor_runtimes["kubernetes"] = Fact(POD_TEMPLATE_RUNTIME, pod_image.source)
        environment, left = self.parsed_in(kinds)
        return DeploymentFacts(
            sources=(f"Helm values {self.label} (apache-airflow chart)",),
            options=options,
            undecided=self.undecided,
            airflow_version=version,
            triggerer=self.enabled("triggerer.enabled", chart_default=True),
            dag_processor_runtime=self.dag_processor(),
            workers=workers,
            executor_runtimes=executor_runtimes,
            runtimes=tuple(runtimes),
            notes=tuple(self.notes),
            settings=self.import_roots(),
            environment=environment,
            environment_left=left,
        )

    def import_roots(self) -> tuple[str, ...]:
        """The ``roots`` line the Airflow image's ``PYTHONPATH`` (the chart's ``env``, else
        the image's ``ENV``) implies, through the folders its ``--dockerfile`` copies."""
        build = self.airflow_build
        if build is None:
            return ()
        variables = {name: (value, where) for name, value, where in self.environment("scheduler")}
        chart: tuple[str | None, str] | None = variables.get("PYTHONPATH")
        pythonpath, where = chart or build.env.get("PYTHONPATH") or (None, "")
        if not pythonpath:
            return ()
        placed = [(inside, local) for inside, local in build.copies.items() if local.is_dir()]
        dags = dags_folder(None, build.env.get("AIRFLOW_HOME", (None, ""))[0])
        found = pythonpath_roots(pythonpath, placed, dags, Path.cwd())
        return roots_note({folder: f"{entry} ({where})" for entry, folder in found}, Path.cwd())

    # --- airflow.cfg -----------------------------------------------------------------------

    def options(self) -> dict[tuple[str, str], Setting]:
        """``config:`` options, then the environment entries that win over them."""
        config = self.get("config", dict, "a mapping of airflow.cfg sections") or {}
        found: dict[tuple[str, str], Setting] = {}
        for section, body in config.items():
            if body is None:
                continue
            if not isinstance(body, dict):
                raise ConfigError(
                    f"{self.where(f'config.{section}')}: expected a mapping of options, "
                    f"got {describe(body)}"
                )
            for option, value in body.items():
                key = (str(section).lower(), str(option).lower())
                # Only what decides routing and runtimes is read: the chart's other templated
                # defaults ([kubernetes_executor] namespace: '{{ .Release.Namespace }}') matter
                # to no check, and are passed over.
                pod_image = key[0] in POD_IMAGE_SECTIONS and key[1] in POD_IMAGE_OPTIONS
                if key in OPTIONS or pod_image:
                    where = self.where(f"config.{section}.{option}")
                    text = self.scalar(value, f"config.{section}.{option}")
                    if text is not None:
                        found[key] = Setting(text, where)
                    elif pod_image:
                        self.pod_undecided.append(f"{where} is a template")
                    else:
                        self.undecided[key] = f"{where} is a template"
        # The scheduler reads [core] executor and the pool size; DAG files are parsed, and
        # [operators] default_queue read, in the DAG processor when it runs, else the scheduler.
        parser = (
            "dagProcessor"
            if self.get("dagProcessor.enabled", bool, "true or false")
            else "scheduler"
        )
        for option, reader in (
            (EXECUTOR, "scheduler"),
            (DEFAULT_QUEUE, parser),
            (DEFAULT_POOL_SLOTS, "scheduler"),
        ):
            for name, value, where in self.environment(reader):
                if name != environment_variable(*option):
                    continue
                if value is None:
                    found.pop(option, None)
                    self.undecided[option] = where
                else:
                    found[option] = Setting(value, where, environment=True)
                    self.undecided.pop(option, None)
        return found

    def scalar(self, value: object, key: str) -> str | None:
        if isinstance(value, bool):
            return str(value)
        if not isinstance(value, (str, int, float)):
            raise ConfigError(f"{self.at(key)}: expected a value, got {describe(value)}")
        text = str(value)
        if deferred(text):
            rendered = self.reference(text)
            if rendered is not None:
                return rendered
            self.notes.append(
                f"{self.where(key)} is a template ({text}), not rendered here: check it by hand"
            )
            return None
        return text

    def reference(self, text: str) -> str | None:
        """The value of the one template form the chart's own values use for options:
        ``{{ .Values.a.b }}``, optionally ``| default .Values.c``; ``None`` for anything else."""
        match = _REFERENCE.fullmatch(text.strip())
        if match is None:
            return None
        for path in (match.group("first"), match.group("fallback")):
            if path is None:
                continue
            found = self.get(path, (str, int, float), "a value")
            if found is not None and found != "":
                return str(found)
        return None

    def environment(self, component: str, every: bool = False) -> list[tuple[str, str | None, str]]:
        """The variables a component's containers get: ``env``, then ``extraEnv`` (a YAML list
        in a string, as the chart takes it), then the component's own ``env`` (``workers.env``),
        later entries winning, as Kubernetes takes the last of one name. Those that matter to
        routing and runtimes, or ``every`` one."""
        entries = self.get("env", list, "a list of {name, value} entries") or []
        result = self.entries(entries, "env", every)
        result += self.extra_environment(every)
        own = self.get(f"{component}.env", list, "a list of {name, value} entries") or []
        return result + self.entries(own, f"{component}.env", every)

    def parsed_in(self, kinds: set[str]) -> tuple[dict[str, Fact[str]], dict[str, str]]:
        """The environment DAG files are parsed in: what the DAG processor (or the scheduler,
        or both while the chart's default decides) and what runs tasks, which parses each file
        again first, share: the Celery workers, the scheduler of a local executor (Kubernetes
        pods are not compared). Variables from Kubernetes secrets are not read."""
        enabled = self.get("dagProcessor.enabled", bool, "true or false")
        names = ["dagProcessor"] if enabled else ["scheduler"]
        if enabled is None:
            names.append("dagProcessor")
        if kinds & {"celery", "celery_kubernetes"}:
            names.append("workers")
        if kinds & {"local", "local_kubernetes", "sequential"}:
            names.append("scheduler")
        components = [
            (name, {n: (value, where) for n, value, where in self.environment(name, every=True)})
            for name in dict.fromkeys(names)
        ]
        environment, left = shared_environment(components)
        for index, entry in enumerate(self.get("secret", list, "a list of secret entries") or []):
            if isinstance(entry, dict) and isinstance(entry.get("envName"), str):
                left[entry["envName"]] = (
                    f"from a Kubernetes secret ({self.where('secret')}[{index}])"
                )
        if self.get("extraEnvFrom", str, "a string of envFrom entries") is not None:
            self.notes.append(
                f"{self.where('extraEnvFrom')} adds variables from config maps or secrets, not "
                "read here: add those DAG files read to [environment] by hand"
            )
        return environment, left

    def extra_environment(self, every: bool = False) -> list[tuple[str, str | None, str]]:
        result: list[tuple[str, str | None, str]] = []
        extra = self.get("extraEnv", str, "a string holding a list of {name, value} entries")
        if extra is not None:
            if deferred(extra):
                self.notes.append(
                    f"{self.where('extraEnv')} holds templates, not rendered here: check any "
                    "AIRFLOW__ variable it sets by hand"
                )
                for section, option in OPTIONS:
                    name = environment_variable(section, option)
                    if name in extra:
                        result.append((name, None, f"{self.where('extraEnv')} sets {name}"))
            else:
                import yaml  # read_yaml has imported it already: the values were YAML

                try:
                    parsed = yaml.safe_load(extra)
                except yaml.YAMLError:
                    raise ConfigError(f"{self.at('extraEnv')}: not a YAML list") from None
                if not isinstance(parsed, list):
                    raise ConfigError(
                        f"{self.where('extraEnv')}: expected a list of {{name, value}} entries"
                    )
                result += self.entries(parsed, "extraEnv", every)
        return result

    def entries(
        self, entries: list[Any], key: str, every: bool = False
    ) -> list[tuple[str, str | None, str]]:
        """``(name, value, where)``; ``value`` is ``None`` when only the cluster knows it."""
        result: list[tuple[str, str | None, str]] = []
        routing = {environment_variable(section, option) for section, option in OPTIONS}
        routing |= {PIP_ADDITIONAL, "PYTHONPATH"}
        for index, entry in enumerate(entries):
            where = f"{self.where(key)}[{index}]"
            if not isinstance(entry, dict) or "name" not in entry:
                raise ConfigError(f"{where}: expected {{name, value}}, got {describe(entry)}")
            name = str(entry["name"])
            if name not in routing and not every:
                continue
            if "value" not in entry:
                result.append((name, None, f"{where} takes {name} from a secret or config map"))
                continue
            value = self.scalar(entry["value"], f"{key}[{index}]")
            result.append((name, value, f"{where} {name}"))
        return result

    def executor(self, options: dict[tuple[str, str], Setting]) -> str:
        value = self.get("executor", str, 'a string such as "CeleryExecutor"')
        if value is not None:
            options.setdefault(("core", "executor"), Setting(value, self.where("executor")))
        elif ("core", "executor") not in options:
            options["core", "executor"] = Setting(
                CHART_DEFAULT_EXECUTOR, f"{self.label}: executor not set, the chart's default"
            )
        return options["core", "executor"].value

    def executor_kinds(self, text: str) -> set[str]:
        try:
            return {entry.kind or "" for entry in parse_executor_list(text, None)}
        except ExecutorConfigError as error:
            raise ConfigError(f"{self.at('executor')}: {error}") from None

    # --- images and versions ---------------------------------------------------------------

    def image(self) -> Fact[str] | None:
        """``images.airflow``, each part falling back to the chart-wide default."""
        parts = []
        for own, default in (
            ("images.airflow.repository", "defaultAirflowRepository"),
            ("images.airflow.tag", "defaultAirflowTag"),
        ):
            value = self.get(own, (str, int, float), "an image repository or tag")
            key = own
            if value is None:
                value = self.get(default, (str, int, float), "an image repository or tag")
                key = default
            if value is None:
                return self.chart_image(own, default)
            parts.append((str(value), self.where(key)))
        (repository, first), (tag, second) = parts
        return Fact(f"{repository}:{tag}", f"{first} and {second.split(': ', 1)[-1]}")

    def image_label(self, image: Fact[str] | None) -> tuple[tuple[str, Fact[str]], ...]:
        return () if image is None else (("runtime_version", image),)

    def added(self, runtime: RuntimeFact) -> RuntimeFact:
        """What the official image's entrypoint installs at start-up from the workers'
        ``_PIP_ADDITIONAL_REQUIREMENTS`` (``env``, ``extraEnv`` or ``workers.env``)."""
        providers: list[Fact[str]] = []
        packages: list[Fact[str]] = []
        airflow: list[Fact[str]] = []
        for name, value, where in self.environment("workers"):
            if name != PIP_ADDITIONAL or value is None:
                continue
            providers, packages = [], []  # the last entry of a name is the one set
            for word in value.split():
                try:
                    parsed = parse_requirement(word)
                except ValueError as error:
                    raise ConfigError(f"{where}: {error}") from None
                sort(parsed.name, parsed.specifier, where, providers, packages, airflow)
        if not providers and not packages:
            return runtime
        return replace(runtime, providers=tuple(providers), packages=tuple(packages))

    def image_runtime(self, name: str, source: str, image: Fact[str] | None) -> RuntimeFact:
        """A runtime that is an image: an official tag names its Python and its contents."""
        if image is not None and (path := self.dockerfiles.for_image(image.value)) is not None:
            # --dockerfile: the runtime is what that Dockerfile builds, under the pushed name.
            dockerfile = read_option_dockerfile(path)
            if name == self.runtime:
                self.airflow_build = dockerfile
            self.built.append(dockerfile_facts(dockerfile, name, image.value))
            return RuntimeFact(name, source)
        tag = official_tag(image.value) if image is not None else None
        python = None
        if image is not None and tag is not None and tag.python is not None:
            python = Fact(tag.python, f"{image.source} (the official image's tag)")
        return RuntimeFact(name, source, python=python, labels=self.image_label(image), image=image)

    def pod_image(
        self, options: Mapping[tuple[str, str], Setting], image: Fact[str] | None
    ) -> Fact[str] | None:
        for section in POD_IMAGE_SECTIONS:
            repository = options.get((section, "worker_container_repository"))
            tag = options.get((section, "worker_container_tag"))
            if repository is not None and tag is not None:
                return Fact(f"{repository.value}:{tag.value}", f"{repository.source} and _tag")
        repository = self.get("images.pod_template.repository", str, "an image repository")
        tag = self.get("images.pod_template.tag", (str, int, float), "an image tag")
        if repository and tag:
            return Fact(f"{repository}:{tag}", self.where("images.pod_template.repository"))
        return image

    def chart_image(self, own: str, default: str) -> Fact[str] | None:
        """The chart's own default image (``apache/airflow:APP_VERSION``) when its version is
        given and known; otherwise nothing is assumed."""
        app_version = CHART_APP_VERSIONS.get(self.chart_version or "")
        if app_version is None:
            why = (
                f"--helm-chart-version {self.chart_version} is not one whose defaults "
                f"dagroute-lint knows ({', '.join(CHART_APP_VERSIONS)})"
                if self.chart_version
                else "no --helm-chart-version says which chart's default it is"
            )
            self.notes.append(
                f"{self.label}: neither {own} nor {default} is set, so the image is the chart's "
                f"default, and {why}: set images.airflow or pass the chart version"
            )
            return None
        return Fact(
            f"apache/airflow:{app_version}",
            f"chart {self.chart_version}'s defaultAirflowRepository and defaultAirflowTag",
        )

    def airflow_version(self, image: Fact[str] | None) -> Fact[str] | None:
        version = self.get("airflowVersion", (str, int, float), 'a version such as "3.0.2"')
        if version is not None:
            return Fact(str(version), self.where("airflowVersion"))
        tag = official_tag(image.value) if image is not None else None
        if tag is not None and tag.airflow is not None and image is not None:
            return Fact(tag.airflow, f"{image.source} (the official image's tag)")
        return None

    # --- components ------------------------------------------------------------------------

    def enabled(self, key: str, chart_default: bool) -> Fact[bool]:
        value = self.get(key, bool, "true or false")
        if value is None:
            state = "enabled" if chart_default else "disabled"
            return Fact(
                chart_default, f"{self.label}: {key} not set, the chart's default ({state})"
            )
        return Fact(value, self.where(key))

    def dag_processor(self) -> Fact[str]:
        """Where DAG files are parsed: a standalone DAG processor or the scheduler, both run from
        ``images.airflow``."""
        enabled = self.get("dagProcessor.enabled", bool, "true or false")
        if enabled is None:
            how = "dagProcessor.enabled not set: the chart's default for its Airflow version"
        elif enabled:
            how = f"{self.where('dagProcessor.enabled')}: a standalone DAG processor"
        else:
            how = f"{self.where('dagProcessor.enabled')} is false: the scheduler parses DAG files"
        return Fact(self.runtime, f"{how}, from images.airflow")

    def worker(self) -> WorkerFact:
        if self.get("workers.keda.enabled", bool, "true or false"):
            # KEDA scales the one worker Deployment on the count of queued and running tasks;
            # every replica consumes the same queues, so the entry stays one worker.
            low = self.get("workers.keda.minReplicaCount", int, "a number")
            self.notes.append(
                f"{self.where('workers.keda.enabled')}: the Celery workers scale with KEDA"
                + (" from 0 replicas: queued tasks start them" if low == 0 else "")
            )
        for key in ("workers.args", "workers.command"):
            command = self.get(key, list, "a list of command words")
            if command is None:
                continue
            try:
                found = component(command)
            except CommandError as error:
                raise ConfigError(f"{self.at(key)}: {error}") from None
            if found is None or found.kind != "celery-worker":
                continue
            undecided = None
            if found.deferred is not None:
                undecided = f"-q {found.deferred} is known only at deploy time"
            return WorkerFact(
                WORKER_NAME,
                found.queues,
                self.where(key),
                self.runtime,
                default_queue=self.worker_queue(),
                undecided=undecided,
            )
        return WorkerFact(
            WORKER_NAME,
            None,
            f"{self.label}: no -q in workers.args / workers.command",
            self.runtime,
            default_queue=self.worker_queue(),
        )

    def worker_queue(self) -> Fact[str] | None:
        """The workers' own ``[operators] default_queue`` (``env``, ``extraEnv``, then
        ``workers.env``), which a worker started without ``-q`` consumes."""
        found = None
        for name, value, where in self.environment("workers"):
            if name == environment_variable(*DEFAULT_QUEUE) and value is not None:
                found = Fact(value, where)
        return found


_REFERENCE = re.compile(
    r"\{\{-?\s*\.Values\.(?P<first>[A-Za-z0-9_.]+)"
    r"(?:\s*\|\s*default\s+\.Values\.(?P<fallback>[A-Za-z0-9_.]+))?\s*-?\}\}"
)


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
