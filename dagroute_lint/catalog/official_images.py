"""The official ``apache/airflow`` images: which tag is which Airflow and Python, and what it holds.

A deployment built on ``apache/airflow:2.10.2`` runs the providers and packages the Airflow
project put in that image, so a runtime that names it needs no list of its own
(``data/official_images.tsv`` and ``data/official_image_tags.tsv``, written by
``scripts/generate_official_images.py``). Tags follow the Docker image reference of the Airflow
docs: ``VERSION``, ``VERSION-pythonP``, and the ``slim-`` variants, which install no extras. A
tag such as ``latest`` names a different image every release, so it says nothing here.
"""

from __future__ import annotations

import re
from functools import cache

from dagroute_lint.catalog.data_files import SortedTable, read_table
from dagroute_lint.catalog.providers import PROVIDER_PREFIX
from dagroute_lint.records import record

IMAGES_FILE = "official_images.tsv"
TAGS_FILE = "official_image_tags.tsv"
REPOSITORY = "apache/airflow"
# Airflow itself: the inventory's airflow_version, not a package of the runtime.
AIRFLOW_ITSELF = frozenset({"apache-airflow", "apache-airflow-core", "apache-airflow-task-sdk"})
IMAGES_COLUMNS = ("airflow", "distribution", "version", "pythons", "slim_pythons")
_TAGS_COLUMNS = (
    "airflow", "pythons", "default_python", "extras", "extras_source", "index_as_of", "left_out",
)  # fmt: skip
# Docker Hub's own names for the repository (``docker pull`` treats them as one).
_REFERENCE = re.compile(
    r"^(?:(?:docker\.io|index\.docker\.io|registry-1\.docker\.io)/)?apache/airflow"
    r"(?::(?P<tag>[A-Za-z0-9_][A-Za-z0-9_.-]*))?(?:@sha256:[0-9a-f]{64})?$"
)
_TAG = re.compile(
    r"^(?P<slim>slim-)?(?P<airflow>[0-9]+\.[0-9]+\.[0-9]+|latest)(?:-python(?P<python>[0-9]+\.[0-9]+))?$"
)


@record
class ImageTag:
    """What a tag of the official image says: the Airflow version (``None`` for ``latest``),
    the Python when the tag names one, and whether it is a slim image."""

    tag: str
    airflow: str | None
    python: str | None
    slim: bool


@record
class OfficialImage:
    """One official image: its canonical reference, Airflow and Python, and what it holds
    (``(distribution, version)`` pairs; providers by distribution name)."""

    reference: str
    airflow: str
    python: str
    slim: bool
    providers: tuple[tuple[str, str], ...]
    packages: tuple[tuple[str, str], ...]
    python_from_tag: bool


def official_tag(reference: str) -> ImageTag | None:
    """The tag of an ``apache/airflow`` reference; ``None`` for another repository or a tag of
    another form. A reference without a tag is ``latest``, as for ``docker pull``."""
    match = _REFERENCE.match(reference.strip())
    if match is None:
        return None
    tag = match.group("tag") or "latest"
    parts = _TAG.match(tag)
    if parts is None:
        return None
    airflow = parts.group("airflow")
    return ImageTag(
        tag,
        None if airflow == "latest" else airflow,
        parts.group("python"),
        bool(parts.group("slim")),
    )


@record
class ImageVersion:
    """The images of one Airflow version: the Pythons, the default one, the regular image's
    extras and which could not be installed for a Python."""

    airflow: str
    pythons: tuple[str, ...]
    default_python: str
    extras: tuple[str, ...]
    left_out: str | None


@cache
def image_versions() -> dict[str, ImageVersion]:
    """Every Airflow version the table covers."""
    found = {}
    for airflow, pythons, default, extras, _source, _as_of, left_out in read_table(
        TAGS_FILE, _TAGS_COLUMNS
    ):
        assert airflow and pythons and default and extras
        found[airflow] = ImageVersion(
            airflow, tuple(pythons.split(",")), default, tuple(extras.split(",")), left_out
        )
    return found


def covered_range() -> str:
    """``2.9.0 to 3.3.2``: for messages about a tag the table lacks."""
    versions = sorted(image_versions(), key=lambda v: tuple(int(p) for p in v.split(".")))
    return f"{versions[0]} to {versions[-1]}" if versions else "none"


def official_image(tag: ImageTag) -> OfficialImage | None:
    """The contents of the image a tag names, or ``None`` when the table does not have it
    (``latest``, a version or Python the Airflow project published no image for)."""
    if tag.airflow is None:
        return None
    version = image_versions().get(tag.airflow)
    if version is None:
        return None
    python = tag.python or version.default_python
    if python not in version.pythons:
        return None
    column = 4 if tag.slim else 3
    providers: list[tuple[str, str]] = []
    packages: list[tuple[str, str]] = []
    for row in _images().rows(tag.airflow):
        pythons = row[column]
        if pythons is None or python not in pythons.split(","):
            continue
        name, pinned = row[1], row[2]
        assert name is not None and pinned is not None
        if name in AIRFLOW_ITSELF:
            continue
        (providers if name.startswith(PROVIDER_PREFIX) else packages).append((name, pinned))
    slim = "slim-" if tag.slim else ""
    reference = f"{REPOSITORY}:{slim}{tag.airflow}-python{python}"
    return OfficialImage(
        reference, tag.airflow, python, tag.slim, tuple(providers), tuple(packages),
        tag.python is not None,
    )  # fmt: skip


@cache
def _images() -> SortedTable:
    return SortedTable(IMAGES_FILE, IMAGES_COLUMNS)
