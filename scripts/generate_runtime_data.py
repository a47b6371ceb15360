"""Generate the standard-library and Airflow-dependency tables in dagroute_lint/catalog/data/.

``stdlib_modules.txt``: the top-level modules of CPython's standard library, from
``sys.stdlib_module_names`` of the interpreter running this script (3.10 or newer), plus the
modules Python 3.9 still had. Modules removed in later versions (``distutils``, ``cgi``...) stay
listed when the generating interpreter still has them, so run it with the oldest supported 3.10+.

``airflow_dependencies.tsv``: every distribution that installing ``apache-airflow-core`` and
``apache-airflow-task-sdk`` brings into an environment (the dependency closure, providers
excluded), with the top-level import names each one installs. Read from the metadata of an
environment where Airflow is installed, never by importing Airflow:

    python scripts/generate_runtime_data.py --site-packages VENV/lib/python3.11/site-packages
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "dagroute_lint" / "catalog" / "data"
ROOTS = ("apache-airflow-core", "apache-airflow-task-sdk")
PROVIDER_PREFIX = "apache-airflow-providers-"
# Present in Python 3.9, gone from 3.10's ``sys.stdlib_module_names``.
REMOVED_IN_3_10 = ("_bootlocale", "_peg_parser", "formatter", "parser", "symbol")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def write_stdlib() -> None:
    names = sorted(set(sys.stdlib_module_names) | set(REMOVED_IN_3_10))
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    header = (
        "# Top-level standard-library modules: sys.stdlib_module_names of CPython "
        f"{version},\n# plus {', '.join(REMOVED_IN_3_10)} (Python 3.9). "
        "Written by scripts/generate_runtime_data.py.\n"
    )
    (DATA / "stdlib_modules.txt").write_text(header + "\n".join(names) + "\n", encoding="utf-8")


def _module_name(part: str) -> str | None:
    """The importable name of one path component (``a.py``, ``_b.cpython-311-x86_64.so``, ``c``)."""
    if part.endswith(".py"):
        return part[: -len(".py")]
    if part.endswith((".so", ".pyd")):
        return part.split(".", 1)[0]
    if "." in part or part in ("__pycache__", "bin", "share", "etc"):
        return None
    return part


def import_names(dist: metadata.Distribution) -> list[str]:
    """What the distribution makes importable, from its RECORD.

    A top-level folder without ``__init__.py`` is a namespace package shared with other
    distributions (``google``, ``opentelemetry``): its entries are ``top.second`` instead.
    """
    files = [file.parts for file in dist.files or () if file.parts[0] != ".."]
    packages = {parts[:-1] for parts in files if parts[-1] == "__init__.py"}
    names = set()
    for parts in files:
        if parts[0].endswith((".dist-info", ".data")):
            continue
        top = _module_name(parts[0])
        if top is None or (len(parts) == 1 and not parts[0].endswith((".py", ".so", ".pyd"))):
            continue
        if len(parts) == 1 or parts[:1] in packages:
            names.add(top)
            continue
        # Inside a namespace: a module, or a regular package (a nested namespace such as
        # google.cloud is shared again, so it names nothing).
        second = _module_name(parts[1])
        is_module = len(parts) == 2 and parts[1].endswith((".py", ".so", ".pyd"))
        if second is not None and second != "__init__" and (is_module or parts[:2] in packages):
            names.add(f"{top}.{second}")
    return sorted(names)


def airflow_dependencies_table(site_packages: Path, python: str) -> str:
    """The text of ``airflow_dependencies.tsv`` for the Airflow installed in ``site_packages``."""
    dists = {
        canonical(d.metadata["Name"]): d for d in metadata.distributions(path=[str(site_packages)])
    }
    environment = {**default_environment(), "python_version": python}
    seen: set[tuple[str, str]] = set()
    pending = [(root, "") for root in ROOTS]
    while pending:
        name, extra = pending.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        dist = dists.get(name)
        if dist is None:
            raise SystemExit(f"{name} is required but not installed in {site_packages}")
        for text in dist.requires or ():
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not marker.evaluate({**environment, "extra": extra}):
                continue
            wanted = canonical(requirement.name)
            pending.append((wanted, ""))
            pending.extend((wanted, canonical(e)) for e in requirement.extras)
    installed = sorted({name for name, _ in seen})
    rows = []
    for name in installed:
        if name in ROOTS or name.startswith(PROVIDER_PREFIX) or name == "apache-airflow":
            continue
        # A distribution that only adds to namespaces shared again (google.cloud) is listed
        # with "-": it is still installed, whatever it can be imported as.
        rows.extend(f"{module}\t{name}" for module in import_names(dists[name]) or ["-"])
    core = dists["apache-airflow-core"].version
    sdk = dists["apache-airflow-task-sdk"].version
    header = (
        f"# What apache-airflow-core {core} and apache-airflow-task-sdk {sdk} install besides\n"
        "# themselves and providers (the dependency closure), by import name: the top-level\n"
        "# name, or the first two components inside a namespace package (google.protobuf).\n"
        "# Written by scripts/generate_runtime_data.py from installed metadata.\n"
        "import_name\tdistribution\n"
    )
    return header + "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-packages", type=Path, required=True)
    parser.add_argument("--python", default="3.11", help="the Python version markers assume")
    args = parser.parse_args()
    write_stdlib()
    table = airflow_dependencies_table(args.site_packages, args.python)
    (DATA / "airflow_dependencies.tsv").write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
