"""Which distribution an ``import`` needs, and which imports need none.

An import names a module, an inventory lists distributions: ``import yaml`` is satisfied by
``PyYAML``, ``import cloudvolume`` by ``cloud-volume``. The answer never depends on what is
installed beside the linter. In order: what the runtime itself says (its ``imports``, written by
``inventory init --python``; see ``rules/parse_boundary.has_package``); the shipped tables, read
from real metadata: the distributions Airflow installs (``data/airflow_dependencies.tsv``) and
those DAG code commonly imports (``data/import_names.tsv``, from their wheels' RECORD); then the
normalisation that covers most of PyPI: the names compared without case, ``-``, ``_`` and ``.``,
and without a ``python``/``py`` prefix or suffix (``cloudvolume`` is ``cloud-volume``,
``kafka`` is ``kafka-python``). When none of these decides, a message says "unknown
distribution" rather than assert a name.

Namespace packages (``google.cloud``, ``azure.storage.blob``) are judged on their first two
components, because their top-level name is shared by many distributions.

What installing a distribution brings (``brought_by``) is read from the ``Requires-Dist`` of
real wheels: the providers' (``data/provider_dependencies.tsv``) and the third-party
distributions' (``data/package_dependencies.tsv``), followed transitively; a distribution
neither table knows brings nothing known, and ``unknown_dependencies`` names it so that a
message can say so.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence

from dagroute_lint.catalog.data_files import data_lines, read_table
from dagroute_lint.catalog.providers import canonical_name
from dagroute_lint.records import record

STDLIB_FILE = "stdlib_modules.txt"
AIRFLOW_DEPENDENCIES_FILE = "airflow_dependencies.tsv"
IMPORT_NAMES_FILE = "import_names.tsv"
PROVIDER_DEPENDENCIES_FILE = "provider_dependencies.tsv"
PACKAGE_DEPENDENCIES_FILE = "package_dependencies.tsv"
# How many answers the lookups keyed by a module or distribution name keep, least recently used
# out first. The names come from the files a run reads (imports, virtualenv requirements), and
# in the language server from what is being typed, where every half-written import is a new
# name: unbounded, these caches grew for as long as the session. Airflow's 545 example DAG files
# ask about 75 names at most, so a run keeps an unbounded cache's hit rate, and a miss costs a
# few microseconds; a full cache is under 0.1 MB (an answer and its key are 200-400 bytes).
NAMES_KEPT = 256
# Sets of distributions (each runtime's, each virtualenv task's requirements) whose closure is
# kept: an answer can hold hundreds of names, and an inventory has a handful of runtimes.
SETS_KEPT = 32

# Import names whose distributions publish no wheel to read (sdists only), and namespace parts
# that no RECORD names on their own; several entries name alternatives: any one satisfies.
KNOWN_DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "MySQLdb": ("mysqlclient",),
    "ldap": ("python-ldap",),
    "Crypto": ("pycryptodome", "pycrypto"),
    "psycopg2": ("psycopg2", "psycopg2-binary"),
    "google.api": ("googleapis-common-protos",),
    "google.rpc": ("googleapis-common-protos",),
    "google.type": ("googleapis-common-protos",),
}
_AFFIXES = ("python", "py")

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
        "mpl_toolkits",
    }
)

# Namespace packages inside a namespace: ``google.cloud.batch_v1`` comes from
# ``google-cloud-batch``, ``google.cloud.bigquery`` from ``google-cloud-bigquery``. Judged on
# three components; the distribution is the components joined, without an API version suffix.
SUBNAMESPACES = frozenset({"google.cloud"})
_API_VERSION = re.compile(r"_v\d+(?:(?:p\d+)?(?:alpha|beta)\d*)?$")

AIRFLOW = "airflow"
# Airflow itself: what installing it brings is data/airflow_dependencies.tsv.
# Every distribution of Airflow and its providers is named so (apache-airflow-providers-*).
AIRFLOW_PREFIX = "apache-airflow"
AIRFLOW_DISTRIBUTIONS = frozenset(
    {"apache-airflow", "apache-airflow-core", "apache-airflow-task-sdk"}
)


@record
class ImportNeed:
    """What one imported module asks of an environment.

    ``key`` is the part of the module name that decides the distribution (``sklearn``,
    ``google.cloud``). ``written`` are the distribution names the shipped tables give for it, as
    written there; when they give none, the normalised import name decides. ``prefix`` is set for
    namespace packages, where any distribution named ``prefix-...`` counts.
    """

    key: str
    written: tuple[str, ...]
    prefix: str | None = None

    @property
    def candidates(self) -> frozenset[str]:
        """Canonical names from the tables, and the import name itself."""
        return frozenset(canonical_name(name) for name in (*self.written, self.key))

    def met_by(self, distributions: Collection[str]) -> bool:
        """Whether an environment with these canonical distribution names can import it."""
        if not self.candidates.isdisjoint(distributions):
            return True
        prefix = self.prefix
        if prefix is not None:
            return any(name == prefix or name.startswith(prefix + "-") for name in distributions)
        if self.written:
            return False
        wanted = squashed(self.key)
        return any(wanted in spellings(name) for name in distributions)

    @property
    def known(self) -> bool:
        """Whether a table names the distribution (else only the normalisation guesses it)."""
        return bool(self.written) or self.prefix is not None

    @property
    def display(self) -> str:
        """How a message names the distribution: a table's name, or says it is unknown."""
        if self.prefix is not None:
            # Inside a namespace in a namespace (google.cloud.batch_v1), the prefix is the name.
            return self.prefix if self.key.count(".") > 1 else f"{self.prefix}-*"
        if self.written:
            return self.written[0]
        return f"an unknown distribution providing '{self.key}'"

    @property
    def distribution(self) -> str:
        """The distribution as a diagnostic's facts name it: as ``display`` does when a table
        knows it, else by the import name that decides it (which is all that is known)."""
        return self.display if self.known else self.key

    @property
    def airflow_brings_it(self) -> bool:
        """Whether installing Airflow installs it (then every Airflow environment has it)."""
        dependencies = airflow_dependencies()
        if not self.candidates.isdisjoint(dependencies):
            return True
        prefix = self.prefix
        return prefix is not None and any(
            name == prefix or name.startswith(prefix + "-") for name in dependencies
        )


def squashed(name: str) -> str:
    """A name without case, ``-``, ``_`` and ``.``: ``cloud-volume`` and ``cloudvolume`` agree."""
    return re.sub(r"[-_.]+", "", name).lower()


@functools.lru_cache(maxsize=NAMES_KEPT)
def spellings(distribution: str) -> frozenset[str]:
    """The import names the normalisation accepts for a distribution: its squashed name, its
    leading words (``traceloop-sdk`` provides ``traceloop``), its words after a vendor's prefix
    (``apache-airflow-client``: ``airflow_client``), and that name without a
    ``python``/``py`` prefix or suffix (``python-dotenv``, ``opensearch-py``, ``kafka-python``)."""
    name = squashed(distribution)
    found = {name}
    # A distribution named after its package and a suffix (``traceloop-sdk``,
    # ``llama-index-core``) provides the package of its leading words.
    words = canonical_name(distribution).split("-")
    found.update(squashed("-".join(words[:cut])) for cut in range(1, len(words)))
    if len(words) > 2:  # a vendor's prefix: ``apache-airflow-client`` provides ``airflow_client``
        found.add(squashed("-".join(words[1:])))
    for affix in _AFFIXES:
        if name.startswith(affix) and len(name) > len(affix):
            found.add(name[len(affix) :])
        if name.endswith(affix) and len(name) > len(affix):
            found.add(name[: -len(affix)])
    return frozenset(found)


def is_stdlib(module: str) -> bool:
    """Whether the top-level module ships with CPython (any version from 3.9 on)."""
    top = module.partition(".")[0]
    return top in _stdlib() or top in getattr(sys, "stdlib_module_names", ())


def is_airflow(module: str) -> bool:
    """``airflow`` and everything under it, providers included: other rules check those."""
    return module.partition(".")[0] == AIRFLOW


@functools.lru_cache(maxsize=NAMES_KEPT)
def import_need(module: str) -> ImportNeed | None:
    """The distributions that can satisfy ``import module``; ``None`` if the name says too little.

    A bare namespace (``import google``) names no distribution and gets ``None``.
    """
    parts = module.split(".")
    if ".".join(parts[:2]) in SUBNAMESPACES and len(parts) > 2:
        key = ".".join(parts[:3])
        written = _written(key)
        if written:
            return ImportNeed(key, written)
        distribution = "-".join((*parts[:2], _API_VERSION.sub("", parts[2])))
        return ImportNeed(key, (), prefix=canonical_name(distribution))
    if parts[0] in NAMESPACES:
        if len(parts) < 2:
            return None
        key = ".".join(parts[:2])
        written = _written(key)
        if written:
            return ImportNeed(key, written)
        return ImportNeed(key, (), prefix=canonical_name(key))
    key = parts[0]
    return ImportNeed(key, _written(key))


def imported_modules(module: str, names: Collection[str]) -> tuple[str, ...]:
    """The modules ``from module import names`` needs: ``module`` itself, or, when ``module`` is
    a namespace package, whose names can only be its submodules (``from google.cloud import
    batch_v1``), each ``module.name``."""
    if names and (module in NAMESPACES or module in SUBNAMESPACES):
        return tuple(f"{module}.{name}" for name in names)
    return (module,)


def _written(key: str) -> tuple[str, ...]:
    tables = (KNOWN_DISTRIBUTIONS, common_import_names(), airflow_import_names())
    return tuple(dict.fromkeys(name for table in tables for name in table.get(key, ())))


@functools.lru_cache(maxsize=NAMES_KEPT)
def builds_no_tasks(module: str) -> bool:
    """Whether code of ``module`` cannot build an Airflow task: a table names the distribution
    providing it (or one named as the module is), and that distribution neither is Airflow nor
    requires it, transitively (code that builds a task imports Airflow, so its distribution
    requires it). ``docker.types.Mount`` and ``sqlalchemy.Column`` are such; a name no table
    knows is not. A namespace package's module (``google.cloud.batch_v1``) counts when the
    tables know distributions named as its prefix says (``google-cloud-batch``) and none of
    them is or requires Airflow."""
    need = import_need(module)
    if need is None:
        return False
    requirements = _requirements()
    airflow = airflow_dependencies()
    # No import table names it: the distribution named as the module is, if a table knows one.
    written = need.written or (need.key,)
    if need.prefix is not None:
        prefix = canonical_name(need.prefix)
        written = tuple(
            name
            for name in (*requirements, *airflow)
            if name == prefix or name.startswith(f"{prefix}-")
        )
    known = False  # one of the distributions providing it is in the tables
    for name in (canonical_name(each) for each in written):
        if name.startswith(AIRFLOW_PREFIX):
            return False
        if name in airflow:  # what Airflow brings is its closure: it cannot require Airflow
            known = True
            continue
        if name not in requirements:
            continue  # another build of the same package (psycopg2 beside psycopg2-binary)
        if any(each.startswith(AIRFLOW_PREFIX) for each in follow(requirements, [name])):
            return False
        known = True
    return known


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
def common_import_names() -> dict[str, tuple[str, ...]]:
    """Import name -> the commonly imported distributions that install it, from their wheels."""
    names: dict[str, tuple[str, ...]] = {}
    for name, distribution in read_table(IMPORT_NAMES_FILE, ("import_name", "distribution")):
        assert name is not None and distribution is not None, f"{IMPORT_NAMES_FILE}: empty cell"
        names[name] = (*names.get(name, ()), distribution)
    return names


def brought_by(distributions: Collection[str]) -> frozenset[str]:
    """Canonical names of what installing ``distributions`` brings, transitively: the
    requirements of each Apache provider (``data/provider_dependencies.tsv``) and of each
    third-party distribution (``data/package_dependencies.tsv``), each followed in turn. A
    distribution neither table knows brings nothing known (``unknown_dependencies`` names it)."""
    return _closure(frozenset(canonical_name(name) for name in distributions))


def unknown_dependencies(distributions: Collection[str]) -> tuple[str, ...]:
    """The distributions among ``distributions`` and what they bring whose own requirements no
    shipped table knows, sorted: an import missing from the rest may still come with them.
    Airflow and what it brings are known (``data/airflow_dependencies.tsv`` is its closure)."""
    listed = frozenset(canonical_name(name) for name in distributions)
    known = {*_requirements(), *airflow_dependencies(), *AIRFLOW_DISTRIBUTIONS}
    return tuple(sorted(name for name in listed | _closure(listed) if name not in known))


@functools.lru_cache(maxsize=SETS_KEPT)
def _closure(distributions: frozenset[str]) -> frozenset[str]:
    return follow(_requirements(), distributions)


def follow(table: Mapping[str, Sequence[str]], start: Iterable[str]) -> frozenset[str]:
    """Everything ``start`` requires in ``table``, transitively; each name is followed once, so
    a cycle ends. The starting names are in the answer only when something requires them."""
    found: set[str] = set()
    pending = list(start)
    while pending:
        for dependency in table.get(pending.pop(), ()):
            if dependency not in found:
                found.add(dependency)
                pending.append(dependency)
    return frozenset(found)


@functools.cache
def _requirements() -> dict[str, tuple[str, ...]]:
    """Canonical name -> the canonical names it requires, for providers and packages alike."""
    requirements: dict[str, tuple[str, ...]] = {}
    tables = (
        (PROVIDER_DEPENDENCIES_FILE, ("provider", "version", "dependency")),
        (PACKAGE_DEPENDENCIES_FILE, ("distribution", "version", "dependency")),
    )
    for filename, columns in tables:
        for distribution, _, dependency in read_table(filename, columns):
            assert distribution is not None, f"{filename}: a row without distribution"
            name = canonical_name(distribution)
            listed = requirements.setdefault(name, ())
            if dependency is not None:
                requirements[name] = (*listed, canonical_name(dependency))
    return requirements
