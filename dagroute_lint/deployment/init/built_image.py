"""``--dockerfile [IMAGE=]PATH``: the Dockerfile that builds an image compose or Helm only names.

A deployment often runs a pushed image (``image: myorg/airflow:production``, Helm's
``images.airflow``) that CI builds from a Dockerfile of the same repository. Nothing in the
compose file or the values ties the two, so the user says it: ``IMAGE=PATH`` for one image (the
tag may be left out), a bare ``PATH`` for every image that is not an official ``apache/airflow``
one, and with neither compose nor Helm values, for the runtime itself. The Dockerfile is read as
``docker build -f PATH DIR`` reads it, its folder the build context, the ``ARG`` defaults as
build arguments.

When the Airflow version is left open and none was given, ``likely_sources`` names the
repository's Dockerfiles built on an official image, for the note that suggests the option.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from dagroute_lint.catalog.official_images import official_tag
from dagroute_lint.deployment.init.dockerfile import Dockerfile, read_dockerfile
from dagroute_lint.deployment.init.facts import (
    DeploymentFacts,
    Fact,
    RuntimeFact,
    built_version,
    combine,
)
from dagroute_lint.deployment.init.requirements_file import requirements_facts, sort
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record, replace

OPTION = "--dockerfile"
# The walk that looks for Dockerfiles stays small: a repository's own folders, not its vendored
# trees or environments.
MAX_DEPTH = 4
MAX_ENTRIES = 5000
_SKIPPED = frozenset({"node_modules", "venv", "site-packages", "__pycache__", "build", "dist"})


@record
class DockerfileOption:
    """One ``--dockerfile``: the image it builds (``None``: any non-official one) and the file."""

    image: str | None
    path: Path


def parse_option(text: str) -> DockerfileOption:
    """``myorg/airflow:prod=docker/Dockerfile`` or ``docker/Dockerfile``."""
    image, equals, path = text.partition("=")
    if equals and image and path:
        return DockerfileOption(image.strip(), Path(path))
    return DockerfileOption(None, Path(text))


class Dockerfiles:
    """Which ``--dockerfile`` builds which image, each option used or refused by name."""

    def __init__(self, options: Sequence[DockerfileOption]) -> None:
        self.options = list(options)
        self.used: dict[int, set[str]] = {index: set() for index in range(len(self.options))}
        self.seen: set[str] = set()
        for option in self.options:
            if not option.path.is_file():
                raise ConfigError(f"{OPTION} {option.path}: no such file")

    def __bool__(self) -> bool:
        return bool(self.options)

    def for_image(self, image: str) -> Path | None:
        """The Dockerfile that builds ``image``: one named for it, else a bare one when the
        image is not an official ``apache/airflow`` one."""
        self.seen.add(image)
        for index, option in enumerate(self.options):
            if option.image is not None and option.image in (image, _repository(image)):
                self.used[index].add(image)
                return option.path
        if official_tag(image) is not None:
            return None
        for index, option in enumerate(self.options):
            if option.image is None:
                self.used[index].add(image)
                if len(self.used[index]) > 1:
                    names = " and ".join(sorted(self.used[index]))
                    raise ConfigError(
                        f"{OPTION} {option.path}: the sources run two images not built on an "
                        f"official one ({names}); say which it builds with "
                        f"{OPTION} IMAGE={option.path}"
                    )
                return option.path
        return None

    def check_used(self) -> None:
        """Every ``IMAGE=PATH`` must name an image the sources run."""
        for index, option in enumerate(self.options):
            if option.image is not None and not self.used[index]:
                seen = ", ".join(sorted(self.seen)) or "none"
                raise ConfigError(
                    f"{OPTION} {option.image}={option.path}: no source runs the image "
                    f"{option.image} (the images they run: {seen})"
                )

    def unused_bare(self) -> list[Path]:
        return [
            option.path
            for index, option in enumerate(self.options)
            if option.image is None and not self.used[index]
        ]


def _repository(image: str) -> str:
    """``myorg/airflow:prod`` → ``myorg/airflow`` (a registry port's colon kept)."""
    name = image.split("@", 1)[0]
    slash = name.rfind("/")
    colon = name.rfind(":")
    return name[:colon] if colon > slash else name


def read_option_dockerfile(path: Path) -> Dockerfile:
    """The image ``path`` builds from its own folder, with its ``ARG`` defaults."""
    return read_dockerfile(path, path.parent, {})


def dockerfile_facts(dockerfile: Dockerfile, runtime: str, built_as: str | None) -> DeploymentFacts:
    """The runtime a Dockerfile builds: its official base (and so its Airflow version), what
    its installs add, and what they leave open. ``built_as`` is the image name the deployment
    runs it under, kept as the runtime's label."""
    if dockerfile.base is None:
        raise ConfigError(f"{dockerfile.base_where}: FROM scratch holds no Airflow")
    providers: list[Fact[str]] = []
    packages: list[Fact[str]] = []
    airflow: list[Fact[str]] = []
    extra: list[DeploymentFacts] = []
    for item in dockerfile.installed:
        if item.file is not None:
            facts = requirements_facts(item.file, runtime)
            if facts.airflow_version is not None:
                airflow.append(facts.airflow_version)  # in install order: the last one wins
            extra.append(replace(facts, airflow_version=None))
        elif item.requirement is not None:
            try:
                parsed = parse_requirement(item.requirement)
            except ValueError as error:
                raise ConfigError(f"{item.where}: {error}") from None
            sort(parsed.name, parsed.specifier, item.where, providers, packages, airflow)
    image = Fact(dockerfile.base, dockerfile.base_where)
    tag = official_tag(dockerfile.base)
    python = None
    if tag is not None and tag.python is not None:
        python = Fact(tag.python, f"{dockerfile.base_where} (the official image's tag)")
    from_tag = None
    if tag is not None and tag.airflow is not None:
        from_tag = Fact(tag.airflow, f"{dockerfile.base_where} (the official image's tag)")
    version, replaced = built_version(from_tag, airflow)
    label = Fact(built_as or dockerfile.base, f"{OPTION} {dockerfile.base_where.split(':')[0]}")
    own = DeploymentFacts(
        sources=(f"{dockerfile.base_where.split(':')[0]} (the Dockerfile of runtime {runtime!r})",),
        airflow_version=version,
        runtimes=(
            RuntimeFact(
                runtime,
                dockerfile.base_where,
                python=python,
                providers=tuple(providers),
                packages=tuple(packages),
                labels=(("runtime_version", label),),
                image=image,
                open=dockerfile.open,
            ),
        ),
        notes=(*dockerfile.notes, *([replaced] if replaced else [])),
    )
    return combine([own, *extra])


def likely_sources(roots: Iterable[Path]) -> list[tuple[Path, str]]:
    """``(Dockerfile, base image)`` of each Dockerfile under ``roots`` built on an official
    ``apache/airflow`` image: the likely source of a version no option gave. The walk is
    bounded (depth and entries) and reads nothing but the Dockerfiles."""
    found: dict[Path, str] = {}
    seen = 0
    for root in dict.fromkeys(root.resolve() for root in roots):
        for folder, names, files in os.walk(root):
            depth = len(Path(folder).relative_to(root).parts)
            names[:] = sorted(
                n
                for n in names
                if not n.startswith(".") and n not in _SKIPPED and depth < MAX_DEPTH
            )
            seen += len(files) + len(names)
            if seen > MAX_ENTRIES:
                break
            for name in sorted(files):
                if (
                    name == "Dockerfile"
                    or name.startswith("Dockerfile.")
                    or name.endswith((".Dockerfile", ".dockerfile"))
                ):
                    path = Path(folder) / name
                    base = _official_base(path)
                    if base is not None:
                        found[path] = base
    return sorted(found.items())


def _official_base(path: Path) -> str | None:
    try:
        base = read_option_dockerfile(path).base
    except ConfigError:
        return None  # a Dockerfile that does not read is no hint
    tag = official_tag(base) if base is not None else None
    return base if tag is not None and tag.airflow is not None else None
