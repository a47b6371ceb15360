"""Which installed distribution an ``import`` needs, and which imports need none.

An import names a module, an inventory lists distributions: ``import yaml`` is satisfied by
``PyYAML``, ``import sklearn`` by ``scikit-learn``. The names come from the distributions Airflow
itself installs (``data/airflow_dependencies.tsv``, read from real metadata), a small table of
well-known mismatches below, and the import name itself, canonicalized (``import requests`` ->
``requests``). Only when those do not settle it is ``packages_distributions()`` of the
environment running the linter asked (it knows whatever happens to be installed here).

Namespace packages (``google.cloud``, ``azure.storage.blob``) are judged on their first two
components, because their top-level name is shared by many distributions.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Collection
from dataclasses import dataclass

from dagroute_lint.catalog.data_files import data_lines, read_table
from dagroute_lint.catalog.providers import canonical_name

if sys.version_info >= (3, 10):
    from importlib.metadata import packages_distributions
else:  # pragma: no cover - exercised only on old interpreters
    from importlib_metadata import packages_distributions

STDLIB_FILE = "stdlib_modules.txt"
AIRFLOW_DEPENDENCIES_FILE = "airflow_dependencies.tsv"

# Import names whose distribution is named differently, for when the running environment does
# not have them installed. Several entries name alternatives: any one of them satisfies.
KNOWN_DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "yaml": ("PyYAML",),
    "sklearn": ("scikit-learn",),
    "skimage": ("scikit-image",),
    "cv2": (
        "opencv-python",
        "opencv-python-headless",
        "opencv-contrib-python",
        "opencv-contrib-python-headless",
    ),
    "PIL": ("Pillow",),
    "bs4": ("beautifulsoup4",),
    "dateutil": ("python-dateutil",),
    "dotenv": ("python-dotenv",),
    "jwt": ("PyJWT",),
    "jose": ("python-jose",),
    "attr": ("attrs",),
    "OpenSSL": ("pyOpenSSL",),
    "Crypto": ("pycryptodome", "pycrypto"),
    "psycopg2": ("psycopg2", "psycopg2-binary"),
    "MySQLdb": ("mysqlclient",),
    "git": ("GitPython",),
    "docx": ("python-docx",),
    "pptx": ("python-pptx",),
    "magic": ("python-magic",),
    "ldap": ("python-ldap",),
    "serial": ("pyserial",),
    "zmq": ("pyzmq",),
    "kafka": ("kafka-python",),
    "fitz": ("PyMuPDF",),
    "Bio": ("biopython",),
    "mpl_toolkits": ("matplotlib",),
    "pkg_resources": ("setuptools",),
    "googleapiclient": ("google-api-python-client",),
    "google.protobuf": ("protobuf",),
    "google.api": ("googleapis-common-protos",),
    "google.rpc": ("googleapis-common-protos",),
    "google.type": ("googleapis-common-protos",),
    "google.auth": ("google-auth",),
    "google.oauth2": ("google-auth",),
    "google.api_core": ("google-api-core",),
}

# Top-level names shared by many distributions; judged on ``top.second``.
NAMESPACES = frozenset(
    {
        "google",
        "azure",
        "snowflake",
        "backports",
        "jaraco",
        "zope",
        "ruamel",
        "sphinxcontrib",
        "opentelemetry",
    }
)

AIRFLOW = "airflow"


@dataclass(frozen=True)
class ImportNeed:
    """What one imported module asks of an environment.

    ``key`` is the part of the module name that decides the distribution (``sklearn``,
    ``google.cloud``). ``written`` are the distribution names the shipped tables give for it, as
    written there. ``prefix`` is set for namespace packages, where any distribution named
    ``prefix-...`` counts. ``ask_environment`` says whether the running environment's own
    mapping may add names: it is consulted only when the tables did not already settle the
    question, because scanning every installed distribution costs a noticeable fraction of a
    second in a large environment.
    """

    key: str
    written: tuple[str, ...]
    prefix: str | None = None
    ask_environment: bool = True

    @property
    def candidates(self) -> frozenset[str]:
        """Canonical names from the tables, and the import name itself."""
        return frozenset(canonical_name(name) for name in (*self.written, self.key))

    def met_by(self, distributions: Collection[str]) -> bool:
        """Whether an environment with these canonical distribution names can import it."""
        if self._named_in(distributions):
            return True
        return self.prefix is None and not self._from_environment().isdisjoint(distributions)

    def _named_in(self, distributions: Collection[str]) -> bool:
        if not self.candidates.isdisjoint(distributions):
            return True
        prefix = self.prefix
        return prefix is not None and any(
            name == prefix or name.startswith(prefix + "-") for name in distributions
        )

    @property
    def display(self) -> str:
        """How a message names the distribution: a table entry, else what the environment or
        the name itself suggests."""
        if self.prefix is not None:
            return f"{self.prefix}-*"
        environment = _environment_distributions().get(self.key, ())
        return (*self.written, *environment, self.key)[0]

    @property
    def airflow_brings_it(self) -> bool:
        """Whether installing Airflow installs it (then every Airflow environment has it)."""
        return self._named_in(airflow_dependencies())

    def _from_environment(self) -> frozenset[str]:
        if not self.ask_environment:
            return frozenset()
        return frozenset(canonical_name(n) for n in _environment_distributions().get(self.key, ()))


def is_stdlib(module: str) -> bool:
    """Whether the top-level module ships with CPython (any version from 3.9 on)."""
    top = module.partition(".")[0]
    return top in _stdlib() or top in getattr(sys, "stdlib_module_names", ())


def is_airflow(module: str) -> bool:
    """``airflow`` and everything under it, providers included: other rules check those."""
    return module.partition(".")[0] == AIRFLOW


@functools.cache
def import_need(module: str) -> ImportNeed | None:
    """The distributions that can satisfy ``import module``; ``None`` if the name says too little.

    A bare namespace (``import google``) names no distribution and gets ``None``.
    """
    parts = module.split(".")
    if parts[0] in NAMESPACES:
        if len(parts) < 2:
            return None
        key = ".".join(parts[:2])
        written = (*KNOWN_DISTRIBUTIONS.get(key, ()), *airflow_import_names().get(key, ()))
        if written:
            return ImportNeed(key, written, ask_environment=False)
        return ImportNeed(key, (), prefix=canonical_name(key), ask_environment=False)
    key = parts[0]
    return ImportNeed(
        key, (*KNOWN_DISTRIBUTIONS.get(key, ()), *airflow_import_names().get(key, ()))
    )


def airflow_dependencies() -> frozenset[str]:
    """Canonical names of every distribution installing Airflow (core and task SDK) brings."""
    return _airflow_table()[1]


# --- data ---------------------------------------------------------------------------------------


@functools.cache
def _stdlib() -> frozenset[str]:
    return frozenset(data_lines(STDLIB_FILE))


def airflow_import_names() -> dict[str, tuple[str, ...]]:
    """Import name -> the distributions Airflow brings that provide it."""
    return _airflow_table()[0]


@functools.cache
def _airflow_table() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    names: dict[str, tuple[str, ...]] = {}
    distributions = set()
    for name, distribution in read_table(
        AIRFLOW_DEPENDENCIES_FILE, ("import_name", "distribution")
    ):
        assert distribution is not None, f"{AIRFLOW_DEPENDENCIES_FILE}: a row without distribution"
        distributions.add(distribution)
        if name is not None:  # a distribution that names no import of its own
            names[name] = (*names.get(name, ()), distribution)
    return names, frozenset(distributions)


@functools.cache
def _environment_distributions() -> dict[str, tuple[str, ...]]:
    """What the environment running the linter knows; scanned once, only when needed."""
    return {name: tuple(dists) for name, dists in packages_distributions().items()}
