"""Generate dagroute_lint/catalog/data/package_dependencies.tsv: what installing a package brings.

The roots are the third-party distributions the shipped tables name (the providers'
requirements in ``provider_dependencies.tsv``, the distributions of ``import_names.tsv``) and
the extras Airflow images commonly install (``EXTRAS`` below). For each, the newest release's
wheel for CPython 3.11 on Linux x86_64 is fetched by pip (``pip install --dry-run --no-deps
--report``: pip downloads the wheel, reads its ``METADATA`` and installs nothing) and its
``Requires-Dist`` lines are kept: the requirements installed without extras, markers evaluated
for Linux and Python 3.11. Every distribution so named is fetched in turn, until the table is
closed or ``BOUND`` distributions are read (the header says which). A distribution without such
a wheel is read from its sdist instead (pip builds its metadata on this machine, which must then
be Linux with Python 3.11); one whose metadata cannot be built either is named in the header and
has no rows: its dependencies are not known.

    python scripts/generate_package_dependencies.py

Review the diff of the table and run the suite before committing it.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterable
from pathlib import Path

from generate_runtime_data import DATA, canonical
from packaging.requirements import Requirement

# Extras Airflow images commonly install beside the providers, whose own dependencies a DAG
# file may import (``humanize`` through flower).
EXTRAS: tuple[str, ...] = (
    "flower",
    "celery",
    "kombu",
    "redis",
    "psycopg2-binary",
    "pandas",
    "numpy",
    "requests",
    "boto3",
    "google-cloud-storage",
    "google-cloud-bigquery",
    "sqlalchemy",
    "pyarrow",
    "virtualenv",
    "gunicorn",
    "statsd",
    "sentry-sdk",
    "kubernetes",
    "apache-beam",
)

# At most this many distributions are read; the closure of the roots above is far smaller.
BOUND = 3000
# Distributions fetched by one pip call; a call that fails is split to find the culprit.
BATCH = 40

# Airflow and its providers: what they bring is in airflow_dependencies.tsv and
# provider_dependencies.tsv, which the linter follows on its own.
AIRFLOW_PREFIX = "apache-airflow"

ENVIRONMENT = {
    "implementation_name": "cpython",
    "implementation_version": "3.11.0",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "platform_release": "",
    "platform_system": "Linux",
    "platform_version": "",
    "python_full_version": "3.11.0",
    "python_version": "3.11",
    "sys_platform": "linux",
    "extra": "",
}

PIP = (
    sys.executable,
    "-m",
    "pip",
    "--disable-pip-version-check",
    "--no-input",
    "install",
    "--dry-run",
    "--no-deps",
    "--ignore-installed",
    "--only-binary=:all:",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
    "--abi",
    "cp311",
    "--abi",
    "abi3",
    "--abi",
    "none",
    "--platform",
    "manylinux_2_28_x86_64",
    "--platform",
    "manylinux_2_17_x86_64",
    "--platform",
    "manylinux2014_x86_64",
    "--platform",
    "linux_x86_64",
    "--platform",
    "any",
)


def table_names(file: str, column: int) -> set[str]:
    lines = (DATA / file).read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")][1:]
    return {canonical(row[column]) for row in rows if row[column] != "-"}


def roots() -> set[str]:
    names = table_names("provider_dependencies.tsv", 2) | table_names("import_names.tsv", 1)
    names |= {canonical(name) for name in EXTRAS}
    return {name for name in names if not name.startswith(AIRFLOW_PREFIX)}


def requirements(requires_dist: Iterable[str]) -> list[str]:
    """The canonical names a wheel requires without extras on Linux and Python 3.11."""
    wanted = set()
    for text in requires_dist:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate(ENVIRONMENT):
            continue
        wanted.add(canonical(requirement.name))
    return sorted(wanted)


# For a distribution with no wheel: its sdist's metadata, built by pip here.
SDIST_PIP = (
    *PIP[: PIP.index("--only-binary=:all:")],
    "--no-binary=:all:",
)


def fetch(names: list[str], work: Path, from_sdist: list[str]) -> dict[str, tuple[str, list[str]]]:
    """Name -> (version, requirements) for each of ``names`` pip finds a wheel (or else an
    sdist whose metadata builds) for; the names read from sdists are added to ``from_sdist``."""
    found = _report([*PIP, "--target", str(work / "target"), *names], work)
    if found is not None:
        return found
    if len(names) > 1:
        half = len(names) // 2
        return {**fetch(names[:half], work, from_sdist), **fetch(names[half:], work, from_sdist)}
    found = _report([*SDIST_PIP, *names], work)
    if found is None:
        return {}
    from_sdist.extend(found)
    return found


def _report(command: list[str], work: Path) -> dict[str, tuple[str, list[str]]] | None:
    """What pip's installation report says of the distributions it would install, or ``None``
    when pip fails."""
    report = work / "report.json"
    completed = subprocess.run(
        [*command, "--report", str(report)], capture_output=True, text=True, check=False
    )
    if completed.returncode != 0:
        return None
    found = {}
    for item in json.loads(report.read_text(encoding="utf-8"))["install"]:
        metadata = item["metadata"]
        found[canonical(metadata["name"])] = (
            str(metadata["version"]),
            requirements(metadata.get("requires_dist") or ()),
        )
    return found


def closure(
    start: set[str], from_sdist: list[str]
) -> tuple[dict[str, tuple[str, list[str]]], list[str], bool]:
    """Every distribution reached from ``start``, the ones neither a wheel nor an sdist gave
    metadata for, and whether the bound stopped the walk."""
    read: dict[str, tuple[str, list[str]]] = {}
    missing: list[str] = []
    pending = sorted(start)
    with tempfile.TemporaryDirectory() as folder:
        while pending and len(read) + len(missing) < BOUND:
            room = min(BATCH, BOUND - len(read) - len(missing))
            batch, pending = pending[:room], pending[room:]
            found = fetch(batch, Path(folder), from_sdist)
            missing.extend(name for name in batch if name not in found)
            read.update(found)
            seen = set(read) | set(missing) | set(pending)
            fresh = {
                dependency
                for _, dependencies in found.values()
                for dependency in dependencies
                if dependency not in seen and not dependency.startswith(AIRFLOW_PREFIX)
            }
            pending.extend(sorted(fresh))
            print(f"{len(read)} read, {len(missing)} without a wheel, {len(pending)} to go")
    return read, sorted(missing), bool(pending)


def header(missing: list[str], from_sdist: list[str], bounded: bool) -> list[str]:
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    stop = f"stopped at the bound of {BOUND}: not closed" if bounded else "closed"
    text = (
        "What installing each third-party distribution brings: the Requires-Dist lines (no "
        f"extras; markers for Linux x86_64, CPython 3.11) of its newest wheel on PyPI on {today}, "
        "whose version is the version column. Roots: the third-party distributions that "
        "provider_dependencies.tsv and import_names.tsv name, and the script's EXTRAS, followed "
        f"transitively: {stop}. Without a wheel for Linux and Python 3.11, read from the "
        f"metadata pip built from the sdist: {', '.join(sorted(from_sdist)) or 'none'}. Neither "
        f"(dependencies not known): {', '.join(missing) or 'none'}."
    )
    lines = [f"# {line}" for line in textwrap.wrap(text, 96, break_on_hyphens=False)]
    lines.append("# generated by scripts/generate_package_dependencies.py — do not edit")
    lines.append("distribution\tversion\tdependency")
    return lines


def main() -> None:
    from_sdist: list[str] = []
    read, missing, bounded = closure(roots(), from_sdist)
    rows = [
        f"{name}\t{version}\t{dependency}"
        for name, (version, dependencies) in sorted(read.items())
        for dependency in dependencies or ["-"]
    ]
    text = "\n".join([*header(missing, from_sdist, bounded), *rows]) + "\n"
    (DATA / "package_dependencies.tsv").write_text(text, encoding="utf-8")
    print(f"{len(read)} distributions, {len(rows)} rows, {len(missing)} without a wheel")


if __name__ == "__main__":
    main()
