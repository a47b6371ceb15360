"""``--requirements FILE``: a runtime's providers and packages from requirements, constraints or
``pip freeze`` output, with their versions.

The file lists what an image installs (or, for constraints and ``pip freeze``, exactly what it
holds), so every distribution named is in the runtime: ``apache-airflow-providers-*`` under
``providers`` (by provider id), Airflow itself as the Airflow version, everything else under
``packages``. ``-r`` / ``-c`` includes are followed relative to the including file, as pip does.
"""

from __future__ import annotations

import re
from pathlib import Path

from dagroute_lint.catalog.providers import PROVIDER_PREFIX, canonical_name
from dagroute_lint.deployment.init.facts import DeploymentFacts, Fact, RuntimeFact
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.errors import ConfigError, read_user_file

AIRFLOW_CORE = ("apache-airflow-core", "apache-airflow")
SKIPPED = frozenset({"apache-airflow-task-sdk"})
MAX_INCLUDE_DEPTH = 10
_INCLUDE = re.compile(r"^(?:-r|--requirement|-c|--constraint)(?:\s+|=)(?P<path>\S+)$")
# pip's per-requirement options (``--hash=sha256:...``) follow the requirement on its line.
_TRAILING_OPTIONS = re.compile(r"\s+--[a-z-]+(?:[= ]\S+)?")
# ``name @ url`` (pip freeze of a local or VCS install): the name is what is installed.
_DIRECT = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*@\s*\S+$")


def requirements_facts(path: Path, runtime: str) -> DeploymentFacts:
    """The providers, packages and Airflow version a requirements-style file installs."""
    providers: list[Fact[str]] = []
    packages: list[Fact[str]] = []
    airflow: list[Fact[str]] = []
    notes: list[str] = []
    for where, line in _lines(path, 0, set()):
        requirement = _requirement(where, line, notes)
        if requirement is not None:
            sort(requirement[0], requirement[1], where, providers, packages, airflow)
    versions = {fact.value for fact in airflow}
    if len(versions) > 1:
        raise ConfigError(
            f"{path}: Airflow is pinned to several versions: " + ", ".join(sorted(versions))
        )
    return DeploymentFacts(
        sources=(f"{path} (requirements of runtime {runtime!r})",),
        airflow_version=airflow[0] if airflow else None,
        runtimes=(
            # A file that pins Airflow itself (a constraints file, a pip freeze) lists the whole
            # environment; one that does not lists what is added to a base image.
            RuntimeFact(
                runtime,
                str(path),
                providers=_unique(providers),
                packages=_unique(packages),
                complete=bool(airflow),
            ),
        ),
        notes=tuple(notes),
    )


def sort(
    name: str,
    specifier: str,
    where: str,
    providers: list[Fact[str]],
    packages: list[Fact[str]],
    airflow: list[Fact[str]],
) -> None:
    """File one installed distribution: a provider (by id), Airflow's version, or a package."""
    name = canonical_name(name)
    if name in SKIPPED:
        return
    if name in AIRFLOW_CORE:
        if specifier.startswith("==") and "*" not in specifier:
            airflow.append(Fact(specifier[2:], f"{where} {name}{specifier}"))
        return
    if name.startswith(PROVIDER_PREFIX):
        provider_id = name[len(PROVIDER_PREFIX) :].replace("-", ".")
        providers.append(Fact(f"{provider_id}{specifier}", where))
    else:
        packages.append(Fact(f"{name}{specifier}", where))


def _unique(items: list[Fact[str]]) -> tuple[Fact[str], ...]:
    """One entry per distribution; a later, pinned line (a constraints file) refines a bare one."""
    by_name: dict[str, Fact[str]] = {}
    for item in items:
        name = canonical_name(parse_requirement(item.value).name)
        earlier = by_name.get(name)
        if earlier is None or not parse_requirement(earlier.value).specifier:
            by_name[name] = item
        elif parse_requirement(item.value).specifier not in (
            "",
            parse_requirement(earlier.value).specifier,
        ):
            raise ConfigError(
                f"{item.source}: {item.value!r} contradicts {earlier.value!r} from {earlier.source}"
            )
    return tuple(by_name.values())


def _lines(path: Path, depth: int, seen: set[Path]) -> list[tuple[str, str]]:
    """``(file:line, text)`` for each logical line, includes expanded in place."""
    resolved = path.resolve()
    if resolved in seen or depth > MAX_INCLUDE_DEPTH:
        raise ConfigError(f"{path}: included again from itself (a -r / -c loop)")
    seen = {*seen, resolved}
    text = read_user_file(path)
    result: list[tuple[str, str]] = []
    pending = ""
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not pending:
            start = number
        if raw.endswith("\\"):
            pending += raw[:-1] + " "
            continue
        line = (pending + raw).split(" #", 1)[0].strip()
        pending = ""
        if not line or line.startswith("#"):
            continue
        include = _INCLUDE.match(line)
        if include:
            result.extend(_lines(path.parent / include.group("path"), depth + 1, seen))
            continue
        result.append((f"{path}:{start}", line))
    return result


def _requirement(where: str, line: str, notes: list[str]) -> tuple[str, str] | None:
    """``(canonical name, specifier)`` of one line; ``None`` for a pip option line."""
    if line.startswith("-e ") or line.startswith("--editable"):
        notes.append(f"{where}: an editable install ({line}) is left out: its name is unknown")
        return None
    if line.startswith("-"):
        return None  # --index-url, --find-links, --no-binary ...: where from, not what
    line = _TRAILING_OPTIONS.sub("", line).strip()
    if ";" in line:
        requirement, marker = (part.strip() for part in line.split(";", 1))
        notes.append(
            f"{where}: {requirement} is listed with the marker {marker!r}, which is not "
            "evaluated: it is counted as installed"
        )
        line = requirement
    direct = _DIRECT.match(line)
    if direct:
        return canonical_name(direct.group("name")), ""
    try:
        parsed = parse_requirement(line)
    except ValueError as error:
        raise ConfigError(f"{where}: not a requirement: {error}") from None
    return canonical_name(parsed.name), parsed.specifier
