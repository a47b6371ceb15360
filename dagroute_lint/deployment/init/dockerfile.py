"""A Dockerfile read as BuildKit builds it: what the image's Python environment gets.

- ``ARG`` before the first ``FROM`` is global (seen by ``FROM`` lines and by stages that declare
  it again); build arguments (compose ``build.args``) override the defaults of declared ``ARG``s.
- ``FROM image AS name`` starts a stage; a later ``FROM name`` builds on it, so what that stage
  installed is in the image. The image is the last stage, or the build's ``target``.
- ``COPY`` / ``ADD`` sources are paths inside the build context: BuildKit resolves ``..`` within
  the context's root, so ``COPY ../shared/requirements.txt /`` copies ``shared/requirements.txt``
  of the context. ``COPY --from=stage`` copies what that stage holds.
- ``RUN pip install`` (``pip3``, ``python -m pip``, ``uv pip``) installs its requirement words
  and the files of ``-r FILE``; the files are found through the ``COPY`` that put them at that
  path, or the ``RUN --mount=type=bind`` that mounts them for that command. ``ENV`` variables
  are the image's environment (compose's ``environment`` wins over them).
- An install of the project itself (``pip install .``, ``pip install -e .[s3]``, ``poetry
  install``, ``uv sync``) installs what the project's metadata in the build context declares
  (``project_install.py``); what cannot be read (a ``setup.py``, a built wheel) leaves the image
  ``open``: it holds more than is listed, and no one may take the list for all of it.
- A wheel the build makes of the project (``uv build``, ``poetry build``, ``python -m build``,
  into the project's ``dist/`` or the folder ``-o`` names) is that project: installing it
  (``pip install dist/*.whl``, in the same stage or after ``COPY --from`` of that folder) brings
  what the project's metadata declares, as ``pip install .`` does.
- ``ENTRYPOINT`` and ``CMD`` are what the container runs when compose or Helm name no other
  command, in the exec form (a JSON list) or the shell form (``/bin/sh -c``); a stage inherits
  its base stage's, an official ``apache/airflow`` base brings its own (``dumb-init --
  /entrypoint`` with no ``CMD``), and an ``ENTRYPOINT`` resets the ``CMD`` inherited from the
  base, as Docker does.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path

from dagroute_lint.catalog.official_images import official_tag
from dagroute_lint.deployment.init.interpolation import InterpolationError, interpolate
from dagroute_lint.deployment.init.project_install import (
    ProjectInstall,
    Selection,
    project_install,
)
from dagroute_lint.errors import ConfigError, read_user_file
from dagroute_lint.records import record

_PIP_VALUE_OPTIONS = frozenset(
    {
        "-i", "--index-url", "--extra-index-url", "-f", "--find-links", "-t", "--target",
        "--prefix", "--root", "--trusted-host", "--python", "--platform", "--python-version",
        "--implementation", "--abi", "--progress-bar", "--cache-dir", "--src", "--upgrade-strategy",
        "--no-binary", "--only-binary", "--global-option", "--config-settings", "-C",
        "--index-strategy", "--resolution", "--prerelease", "--exclude-newer",
    }
)  # fmt: skip
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")"})
# Files a requirements option may name that are a project's metadata, read as the project.
_PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
_ARCHIVES = (".whl", ".tar.gz", ".zip")
# Installers of the project in the working folder (or ``--directory``), by their command words.
_PROJECT_INSTALLERS = {("poetry", "install"): "poetry", ("uv", "sync"): "uv"}
_OTHER_INSTALLERS = frozenset({("pipenv", "install"), ("pdm", "install"), ("hatch", "env")})
# Commands that build the project's wheel, by their command words: the options naming the
# output folder (``dist/`` of the project otherwise), and those naming the project's folder.
_WHEEL_BUILDERS = {
    ("uv", "build"): (("-o", "--out-dir"), ("--directory", "--project")),
    ("poetry", "build"): (("-o", "--output"), ("-C", "--directory", "-P", "--project")),
    ("-m", "build"): (("-o", "--outdir"), ()),
    ("pyproject-build",): (("-o", "--outdir"), ()),
}
# Options of those builders that take a value (not the project's folder as a positional word).
_BUILDER_VALUE_OPTIONS = frozenset(
    {"-o", "--out-dir", "--output", "--outdir", "--directory", "--project", "-P", "-f",
     "--format", "-C", "--config-setting", "--config-settings", "--package", "--python", "-p",
     "--index-url", "--extra-index-url"}
)  # fmt: skip
# What the official image runs: its ENTRYPOINT (Airflow's Dockerfile), with ``CMD []``.
OFFICIAL_ENTRYPOINT = ("/usr/bin/dumb-init", "--", "/entrypoint")
_ENV_LEGACY = re.compile(r"^(?P<name>\S+)\s+(?P<value>.*)$")


@record
class Installed:
    """What one ``pip install`` in the image installs: a requirement word or a context file."""

    where: str
    requirement: str | None = None
    file: Path | None = None


@record
class ImageCommand:
    """An ``ENTRYPOINT`` or ``CMD`` as the words Docker runs, and where it was set."""

    words: tuple[str, ...]
    where: str


@record(frozen=False)
class _Stage:
    name: str | None
    base: str
    where: str
    args: dict[str, str] = field(default_factory=dict)
    env: dict[str, tuple[str, str]] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)
    installed: list[Installed] = field(default_factory=list)
    open: list[str] = field(default_factory=list)
    workdir: str = "/"
    parent: _Stage | None = None
    # A folder in the image holding wheels the build made → the project folder (in the context).
    wheels: dict[str, Path] = field(default_factory=dict)
    entrypoint: ImageCommand | None = None
    cmd: ImageCommand | None = None
    cmd_set_here: bool = False


@record
class Dockerfile:
    """The image a Dockerfile builds: its base image (``None`` for ``scratch``), what its
    ``pip install`` lines install, its ``ENV`` (name → value, where) and notes; ``open`` says
    why it may hold more than ``installed`` lists (an install whose requirements cannot be
    read); ``copies`` maps a path in the image to the context file or folder copied there."""

    base: str | None
    base_where: str
    installed: tuple[Installed, ...]
    env: dict[str, tuple[str, str]]
    notes: tuple[str, ...]
    open: tuple[str, ...] = ()
    copies: dict[str, Path] = field(default_factory=dict)
    workdir: str = "/"
    entrypoint: ImageCommand | None = None
    cmd: ImageCommand | None = None


def read_dockerfile(
    path: Path, context: Path, build_args: Mapping[str, str | None], target: str | None = None
) -> Dockerfile:
    """The image ``path`` builds from ``context``; ``ConfigError`` naming file and line."""
    reader = _Reader(path, context, build_args)
    for number, instruction, argument in _instructions(path):
        reader.instruction(number, instruction, argument)
    return reader.image(target)


def _instructions(path: Path) -> list[tuple[int, str, str]]:
    """``(line, INSTRUCTION, arguments)``: continuation lines joined, comments and parser
    directives dropped, heredoc bodies (``<<EOF``) joined to their instruction."""
    lines = read_user_file(path).splitlines()
    found: list[tuple[int, str, str]] = []
    index = 0
    while index < len(lines):
        start = index
        text = lines[index]
        index += 1
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        while text.rstrip().endswith("\\") and index < len(lines):
            following = lines[index]
            index += 1
            if following.lstrip().startswith("#"):
                continue
            text = text.rstrip()[:-1] + " " + following
        heredoc = re.search(r"<<-?\s*[\"']?(?P<word>[A-Za-z_][A-Za-z0-9_]*)[\"']?", text)
        if heredoc is not None:
            body = []
            while index < len(lines) and lines[index].strip() != heredoc.group("word"):
                body.append(lines[index])
                index += 1
            index += 1
            text = text[: heredoc.start()] + "\n" + "\n".join(body)
        word, _, argument = text.strip().partition(" ")
        found.append((start + 1, word.upper(), argument.strip()))
    return found


class _Reader:
    def __init__(self, path: Path, context: Path, build_args: Mapping[str, str | None]) -> None:
        self.path = path
        self.context = context
        self.build_args = build_args
        self.global_args: dict[str, str] = {}
        self.stages: list[_Stage] = []
        self.notes: list[str] = []

    def where(self, number: int, instruction: str) -> str:
        return f"{self.path}:{number} {instruction}"

    def substitute(self, text: str, variables: Mapping[str, str], where: str) -> str:
        try:
            return interpolate(text, variables)
        except InterpolationError as error:
            raise ConfigError(f"{where}: {error}") from None

    def instruction(self, number: int, instruction: str, argument: str) -> None:
        where = self.where(number, instruction)
        if instruction == "ARG":
            self.arg(argument, where)
        elif instruction == "FROM":
            self.from_(argument, where)
        elif not self.stages:
            raise ConfigError(f"{where}: only ARG may come before the first FROM")
        elif instruction == "ENV":
            self.env(argument, where)
        elif instruction == "WORKDIR":
            stage = self.stages[-1]
            folder = self.substitute(argument, self.variables(stage), where)
            stage.workdir = posixpath.normpath(posixpath.join(stage.workdir, folder))
        elif instruction in ("COPY", "ADD"):
            self.copy(argument, where)
        elif instruction == "RUN":
            self.run(argument, where)
        elif instruction in ("ENTRYPOINT", "CMD"):
            self.command(instruction, argument, where)

    def command(self, instruction: str, argument: str, where: str) -> None:
        """``ENTRYPOINT`` / ``CMD``: the exec form's list, else ``/bin/sh -c`` and the text."""
        stage = self.stages[-1]
        words: tuple[str, ...] = ("/bin/sh", "-c", argument)
        if argument.startswith("["):
            try:
                parsed = json.loads(argument)
            except ValueError:
                parsed = None  # Docker runs a list that is not valid JSON in the shell form
            if isinstance(parsed, list) and all(isinstance(w, str) for w in parsed):
                words = tuple(parsed)
        if instruction == "CMD":
            stage.cmd, stage.cmd_set_here = ImageCommand(words, where), True
            return
        stage.entrypoint = ImageCommand(words, where)
        if not stage.cmd_set_here:
            stage.cmd = None  # the base image's CMD is reset by a new ENTRYPOINT

    def variables(self, stage: _Stage) -> dict[str, str]:
        chain: list[_Stage] = []
        current: _Stage | None = stage
        while current is not None:
            chain.append(current)
            current = current.parent
        found: dict[str, str] = {}
        for each in reversed(chain):
            found.update({name: value for name, (value, _) in each.env.items()})
        found.update(stage.args)
        return found

    def arg(self, argument: str, where: str) -> None:
        for word in self.words(argument, where):
            name, equals, default = word.partition("=")
            given = self.build_args.get(name)
            if not self.stages:
                value = given if given is not None else default if equals else None
                if value is not None:
                    self.global_args[name] = value
                continue
            stage = self.stages[-1]
            if given is not None:
                stage.args[name] = given
            elif equals:
                stage.args[name] = self.substitute(default, self.variables(stage), where)
            elif name in self.global_args:
                stage.args[name] = self.global_args[name]

    def from_(self, argument: str, where: str) -> None:
        words = [w for w in self.words(argument, where) if not w.startswith("--platform")]
        if not words:
            raise ConfigError(f"{where}: names no image")
        base = self.substitute(words[0], self.global_args, where)
        name = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else None
        parent = next((s for s in reversed(self.stages) if s.name == base.lower()), None)
        stage = _Stage(name, base, where, parent=parent)
        if parent is not None:
            stage.copies = dict(parent.copies)
            stage.wheels = dict(parent.wheels)
            stage.workdir = parent.workdir
            stage.entrypoint, stage.cmd = parent.entrypoint, parent.cmd
        tag = official_tag(base)
        if parent is None and tag is not None and tag.airflow is not None:
            # The official image sets ENV AIRFLOW_VERSION, which the image docs' own examples
            # pin Airflow with (`pip install "apache-airflow==${AIRFLOW_VERSION}" ...`).
            stage.env["AIRFLOW_VERSION"] = (tag.airflow, f"{where} (the official image's ENV)")
            stage.workdir = "/opt/airflow"
            official = f"{where} (the official image's ENTRYPOINT)"
            stage.entrypoint = ImageCommand(OFFICIAL_ENTRYPOINT, official)
        self.stages.append(stage)

    def env(self, argument: str, where: str) -> None:
        stage = self.stages[-1]
        legacy = _ENV_LEGACY.match(argument)
        if "=" not in argument.split(" ", 1)[0] and legacy is not None:
            pairs = [(legacy.group("name"), legacy.group("value"))]
        else:
            pairs = [tuple(w.split("=", 1)) for w in self.words(argument, where) if "=" in w]  # type: ignore[misc]
        for name, value in pairs:
            stage.env[name] = (self.substitute(value, self.variables(stage), where), where)

    def copy(self, argument: str, where: str) -> None:
        stage = self.stages[-1]
        words = self.words(argument, where)
        options = [w for w in words if w.startswith("--")]
        paths = [w for w in words if not w.startswith("--")]
        if argument.lstrip().startswith("["):
            try:
                paths = [str(p) for p in json.loads(argument.lstrip()[argument.find("[") :])]
            except ValueError:
                raise ConfigError(f"{where}: the JSON form is not a list of strings") from None
        if len(paths) < 2:
            raise ConfigError(f"{where}: expected sources and a destination")
        variables = self.variables(stage)
        *sources, destination = (self.substitute(p, variables, where) for p in paths)
        source_stage = next(
            (o.split("=", 1)[1].lower() for o in options if o.startswith("--from=")), None
        )
        into_folder = destination.endswith("/") or len(sources) > 1 or destination in (".", "/")
        target = posixpath.normpath(posixpath.join(stage.workdir, destination))
        for source in sources:
            if "://" in source:
                continue  # ADD of a URL: nothing from the context
            # BuildKit resolves a source inside the context root: `..` cannot leave it.
            inside = posixpath.normpath(posixpath.join("/", source)).lstrip("/")
            placed = posixpath.join(target, posixpath.basename(inside)) if into_folder else target
            if source_stage is not None:
                origin = next((s for s in self.stages if s.name == source_stage), None)
                found = (
                    find_copied(origin.copies, posixpath.normpath(posixpath.join("/", source)))
                    if origin
                    else None
                )
                if found is not None:
                    stage.copies[placed] = found
                if origin is not None:
                    self.copied_wheels(stage, origin, source, target, into_folder)
                continue
            local = self.context / inside if inside else self.context
            if local.is_dir():
                stage.copies[target] = local
            else:
                stage.copies[placed] = local

    def run(self, argument: str, where: str) -> None:
        stage = self.stages[-1]
        text = argument.lstrip()
        mounts: dict[str, Path] = {}
        # RUN's own flags come first: --mount=type=bind,source=...,target=... makes a context
        # file visible at the target for this command only (BuildKit's bind mount).
        while text.startswith("--"):
            flag, _, text = text.partition(" ")
            if flag.startswith("--mount="):
                mounts.update(self.bind_mount(flag[len("--mount=") :]))
            text = text.lstrip()
        if text.startswith("["):
            try:
                words = [str(w) for w in json.loads(text)]
            except ValueError:
                raise ConfigError(f"{where}: the JSON form is not a list of strings") from None
            text = " ".join(shlex.quote(w) for w in words)
        variables = self.variables(stage)
        try:
            lexer = shlex.shlex(text.replace("\n", " ; "), posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            tokens = list(lexer)
        except ValueError as error:
            raise ConfigError(f"{where}: cannot split the command into words: {error}") from None
        saved = dict(stage.copies)
        stage.copies.update(mounts)
        try:
            for command in _commands(tokens):
                install = pip_install(command)
                if install is not None:
                    self.pip(stage, install, variables, where)
                else:
                    self.project_command(stage, command, variables, where)
        finally:
            stage.copies = saved

    def copied_wheels(
        self, stage: _Stage, origin: _Stage, source: str, target: str, into_folder: bool
    ) -> None:
        """``COPY --from=builder /app/dist /wheels`` (or ``/app/dist/*.whl /tmp/``): the wheels
        the builder stage made are in ``stage`` now, still the builder's project."""
        path = posixpath.normpath(posixpath.join("/", source))
        for folder, project in origin.wheels.items():
            if path == folder:
                stage.wheels[target] = project  # a folder's content, into the destination
            elif path.startswith(folder + "/"):
                stage.wheels[target if into_folder else posixpath.dirname(target)] = project

    def bind_mount(self, spec: str) -> dict[str, Path]:
        """``{target: context path}`` of a ``type=bind`` mount of the build context."""
        fields = dict(part.partition("=")[::2] for part in spec.split(","))
        if fields.get("type", "bind") != "bind" or "from" in fields:
            return {}
        source = fields.get("source", fields.get("src", "."))
        target = fields.get("target", fields.get("dst", fields.get("destination", "")))
        if not target:
            return {}
        inside = posixpath.normpath(posixpath.join("/", source)).lstrip("/")
        return {posixpath.normpath(target): self.context / inside if inside else self.context}

    def project_command(
        self, stage: _Stage, words: list[str], variables: Mapping[str, str], where: str
    ) -> None:
        """``poetry install`` / ``uv sync``: the project in the working folder; another
        project installer (``pipenv install``) installs what is not read here."""
        names = [posixpath.basename(word) for word in words]
        if self.wheel_build(stage, words, names, variables, where):
            return
        for start in range(len(words) - 1):
            pair = (names[start], words[start + 1])
            if pair in _OTHER_INSTALLERS:
                stage.open.append(f"{where}: `{' '.join(pair)}` installs what is not read here")
                return
            tool = _PROJECT_INSTALLERS.get(pair)
            if tool is None:
                continue
            options = [self.substitute(w, variables, where) for w in words[start + 2 :]]
            folder = _option_value(options, ("-C", "--directory", "--project")) or "."
            selection = _selection(tool, options)
            self.project(stage, folder, selection, where, f"`{tool} {pair[1]}`")
            return

    def wheel_build(
        self,
        stage: _Stage,
        words: list[str],
        names: list[str],
        variables: Mapping[str, str],
        where: str,
    ) -> bool:
        """``uv build`` / ``poetry build`` / ``python -m build [DIR] [-o OUT]``: remember which
        project the wheels in the output folder are; whether ``words`` build one."""
        for start in range(len(words)):
            for key, (outputs, folders) in _WHEEL_BUILDERS.items():
                if tuple(names[start : start + len(key)]) != key:
                    continue
                options = [self.substitute(w, variables, where) for w in words[start + len(key) :]]
                folder = _option_value(options, folders) or _positional(options) or "."
                inside = posixpath.normpath(posixpath.join(stage.workdir, folder))
                output = _option_value(options, outputs) or posixpath.join(inside, "dist")
                found = self.project_folder(stage, inside)
                if found is not None:
                    out = posixpath.normpath(posixpath.join(stage.workdir, output))
                    stage.wheels[out] = found
                return True
        return False

    def project_folder(self, stage: _Stage, target: str) -> Path | None:
        """The build-context folder of the project at ``target`` in the image: where its
        metadata file was copied from (``COPY pyproject.toml poetry.lock ./``), else the
        folder copied there."""
        for name in _PROJECT_FILES:
            file = find_copied(stage.copies, posixpath.join(target, name))
            if file is not None and file.is_file():
                return file.parent
        found = find_copied(stage.copies, target)
        return found if found is not None and found.is_dir() else None

    def project(
        self,
        stage: _Stage,
        folder: str,
        selection: Selection,
        where: str,
        what: str,
        found: Path | None = None,
    ) -> None:
        """The dependencies of the project at ``folder`` (a path in the image) as installed;
        ``found`` is its context folder when already known (a wheel the build made of it)."""
        target = posixpath.normpath(posixpath.join(stage.workdir, folder))
        found = found or self.project_folder(stage, target)
        if found is None:
            stage.open.append(
                f"{where}: {what} installs the project at {target}, which is no folder the "
                "Dockerfile copies from the build context"
            )
            return
        result: ProjectInstall = project_install(found, selection)
        if result.unknown is not None:
            stage.open.append(
                f"{where}: {what} installs a project whose requirements "
                f"cannot be read: {result.unknown}"
            )
            return
        for requirement, source in result.requirements:
            stage.installed.append(Installed(f"{where} ({source})", requirement=requirement))

    def pip(
        self, stage: _Stage, words: list[str], variables: Mapping[str, str], where: str
    ) -> None:
        no_deps = "--no-deps" in words
        index = 0
        while index < len(words):
            word = self.substitute(words[index], variables, where)
            index += 1
            value: str | None = None
            if word in ("-r", "--requirement"):
                value = words[index] if index < len(words) else None
                index += 1
            elif word.startswith("--requirement="):
                value = word.split("=", 1)[1]
            elif word.startswith("-r") and len(word) > 2:
                value = word[2:]
            if value is not None:
                self.requirements_file(stage, self.substitute(value, variables, where), where)
                continue
            if word in ("-e", "--editable") and index < len(words):
                word = self.substitute(words[index], variables, where)
                index += 1
                if "://" in word or word.startswith("git+"):
                    stage.open.append(f"{where}: -e {word} installs what is not read here")
                    continue
            elif word in ("-c", "--constraint") or word in _PIP_VALUE_OPTIONS:
                index += 1
                continue
            if word.startswith("-"):
                continue
            path = word.partition("[")[0]
            if word.startswith((".", "/", "~")) or path.endswith(_ARCHIVES) or "*" in path:
                self.local(stage, word, no_deps, where)
                continue
            stage.installed.append(Installed(where, requirement=word))

    def local(self, stage: _Stage, word: str, no_deps: bool, where: str) -> None:
        """A local path: a project folder (``.``, ``/app[s3]``) or a built distribution."""
        path, _, extras = word.partition("[")
        selection = Selection(
            extras=tuple(e.strip() for e in extras.rstrip("]").split(",") if e.strip()),
            no_dependencies=no_deps,
        )
        inside = posixpath.normpath(posixpath.join(stage.workdir, path))
        built = stage.wheels.get(posixpath.dirname(inside))
        if built is not None and (path.endswith(".whl") or "*" in path):
            what = f"pip install {word} (the wheel the build made of {built})"
            self.project(stage, path, selection, where, what, found=built)
            return
        if path.endswith(_ARCHIVES) or "*" in path:
            if no_deps:
                return  # the distribution alone, without what it depends on
            stage.open.append(
                f"{where}: {word} is a built distribution: what it depends on is in its "
                "metadata, which is not read"
            )
            return
        self.project(stage, path, selection, where, f"pip install {word}")

    def requirements_file(self, stage: _Stage, value: str, where: str) -> None:
        target = posixpath.normpath(posixpath.join(stage.workdir, value))
        if posixpath.basename(target) in _PROJECT_FILES:
            # `uv pip install -r pyproject.toml`: the project's dependencies, not the project.
            self.project(stage, posixpath.dirname(target), Selection(), where, f"-r {value}")
            return
        found = find_copied(stage.copies, target)
        if found is None:
            self.notes.append(
                f"{where}: -r {value} is no file the Dockerfile copies from the build context: "
                "what it installs is unknown"
            )
            return
        if not found.is_file():
            raise ConfigError(
                f"{where}: {found} is not in the build context {self.context} (the build "
                "would fail too)"
            )
        stage.installed.append(Installed(where, file=found))

    def words(self, argument: str, where: str) -> list[str]:
        try:
            return shlex.split(argument, comments=False)
        except ValueError as error:
            raise ConfigError(f"{where}: cannot split into words: {error}") from None

    def image(self, target: str | None) -> Dockerfile:
        if not self.stages:
            raise ConfigError(f"{self.path}: no FROM line")
        stage = self.stages[-1]
        if target is not None:
            named = [s for s in self.stages if s.name == target.lower()]
            if not named:
                raise ConfigError(f"{self.path}: build target {target!r} is no stage of it")
            stage = named[0]
        chain = []
        current: _Stage | None = stage
        while current is not None:
            chain.append(current)
            current = current.parent
        root = chain[-1]
        installed = [item for each in reversed(chain) for item in each.installed]
        unread = [reason for each in reversed(chain) for reason in each.open]
        env: dict[str, tuple[str, str]] = {}
        for each in reversed(chain):
            env.update(each.env)
        base = None if root.base.lower() == "scratch" else root.base
        return Dockerfile(
            base,
            root.where,
            tuple(installed),
            env,
            tuple(self.notes),
            tuple(unread),
            dict(stage.copies),
            stage.workdir,
            stage.entrypoint,
            stage.cmd,
        )


def find_copied(copies: Mapping[str, Path], target: str) -> Path | None:
    """The context file at ``target`` in the image: copied there itself, or inside a folder
    copied above it."""
    if target in copies:
        return copies[target]
    for folder, local in copies.items():
        if local.is_dir() and target.startswith(folder.rstrip("/") + "/"):
            return local / target[len(folder.rstrip("/")) + 1 :]
    return None


def _option_value(words: Sequence[str], names: tuple[str, ...]) -> str | None:
    """The value of the last of ``names`` (``-C dir``, ``--directory=dir``) in ``words``."""
    found = None
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in names:
            found = value if equals else words[index + 1] if index + 1 < len(words) else None
    return found


def _positional(words: Sequence[str]) -> str | None:
    """The first word of a builder's arguments that is neither an option nor an option's value
    (``python -m build --wheel jobs/`` → ``jobs/``)."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = "=" not in word and word in _BUILDER_VALUE_OPTIONS
        else:
            return word
    return None


def _option_values(words: Sequence[str], names: tuple[str, ...]) -> tuple[str, ...]:
    """Every value of a repeatable option, comma lists split (``--with a,b --with c``)."""
    found: list[str] = []
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in names:
            given = value if equals else words[index + 1] if index + 1 < len(words) else ""
            found += [part for part in given.split(",") if part]
    return tuple(found)


def _selection(tool: str, options: Sequence[str]) -> Selection:
    """What ``poetry install`` / ``uv sync`` takes from the project, by its options: the main
    dependencies and every non-optional group (Poetry) or the ``dev`` group (uv) unless left out."""
    if tool == "poetry":
        only = _option_values(options, ("--only",))
        return Selection(
            tool,
            extras=_option_values(options, ("-E", "--extras")),
            groups=only or _option_values(options, ("--with",)),
            without=_option_values(options, ("--without",)),
            all_extras="--all-extras" in options,
            default_groups=not only and "--no-dev" not in options,
            no_dependencies="--only-root" in options,
        )
    return Selection(
        tool,
        extras=_option_values(options, ("--extra",)),
        groups=_option_values(options, ("--group", "--only-group")),
        all_extras="--all-extras" in options,
        default_groups=not {"--no-dev", "--no-default-groups", "--only-group"}
        & {o.partition("=")[0] for o in options},
    )


def _commands(tokens: list[str]) -> list[list[str]]:
    commands: list[list[str]] = [[]]
    for token in tokens:
        if token in _SEPARATORS:
            commands.append([])
        else:
            commands[-1].append(token)
    return [command for command in commands if command]


def pip_install(words: list[str]) -> list[str] | None:
    """The arguments after ``install`` when ``words`` run pip (or ``uv pip``) install."""
    for index, word in enumerate(words):
        # pip, pip3, pip3.12, /usr/bin/pip, `python -m pip` and `uv pip` all end in a pip word.
        if re.fullmatch(r"pip(3(\.[0-9]+)?)?", posixpath.basename(word)):
            rest = words[index + 1 :]
            if rest[:1] == ["install"]:
                return rest[1:]
    return None
