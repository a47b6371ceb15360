"""Generate the official ``apache/airflow`` image tables: what each image tag holds.

Writes ``dagroute_lint/catalog/data/official_images.tsv`` (the distributions and versions each
image holds) and ``official_image_tags.tsv`` (for each Airflow version: the Pythons it has
images for, the Python of the tag without ``-pythonX.Y``, the extras the image installs and
what could not be installed).

How the image is built, read from apache/airflow: the ``Dockerfile`` of each release installs
``apache-airflow[AIRFLOW_EXTRAS]==VERSION`` with the constraints file ``constraints-VERSION/
constraints-PYTHON.txt`` of that release, which pins every distribution to what the package
index held when the release was made; the ``slim-`` images install ``apache-airflow==VERSION``
with the same constraints and no extras. ``EXTRAS`` below holds the default extras of each
release line, with where they were read.

The constraints files live on branches of the Airflow repository, outside the package index, so
they are not used: each release is resolved instead by ``uv pip compile --universal`` from the
package index's metadata as it stood when that Airflow release was uploaded (``--exclude-newer``
at the release's upload time, read from the index's JSON API): one resolution for all its
Pythons, as the constraints files of one release pin nearly the same versions for each, whose
markers are then evaluated for CPython PYTHON on Linux x86_64 (the image's Debian bookworm). The
slim image is resolved with the regular image's resolution as constraints, as one constraints
file serves both. A provider with no release for a Python is then absent from that image, as in
the real one (the image changelog: no ``fab`` in the Python 3.13 image of Airflow 3.1.0). When
the universal resolution fails, each Python is resolved alone, without the extras that cannot be
resolved for it (named in ``official_image_tags.tsv``); a release whose Airflow itself needs a
distribution published after its upload (2.11.1) is resolved as of a week later, and the table
says as of when.

The Pythons of a release are those its ``Requires-Python`` allows, up to the newest its
classifiers or its ``<`` bound name (see ``_pythons``).

    pip install uv
    python scripts/generate_official_images.py [--jobs 2] [--only 2.10.2]

It takes 20 to 40 minutes (about 300 resolutions; uv caches the metadata it reads). Review the
diff of both tables and run the suite before committing them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import email.parser
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

DATA = Path(__file__).resolve().parents[1] / "dagroute_lint" / "catalog" / "data"
INDEX = "https://pypi.org/simple"
OLDEST = Version("2.9.0")
# How long after a release's upload the index is read: the image is built from the constraints
# of the release, made before it; LATE when Airflow itself cannot be resolved that early.
GRACE = datetime.timedelta(minutes=30)
LATE = datetime.timedelta(days=7)
CANDIDATE_PYTHONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14")

_EXTRAS_2_10 = (
    "aiobotocore,amazon,async,celery,cncf-kubernetes,common-io,docker,elasticsearch,fab,ftp,"
    "google,google-auth,graphviz,grpc,hashicorp,http,ldap,microsoft-azure,mysql,odbc,"
    "openlineage,pandas,postgres,redis,sendgrid,sftp,slack,snowflake,ssh,statsd,uv,virtualenv"
)
_EXTRAS_3_1 = (
    "aiobotocore,amazon,async,celery,cncf-kubernetes,common-io,common-messaging,docker,"
    "elasticsearch,fab,ftp,git,google,google-auth,graphviz,grpc,hashicorp,http,ldap,"
    "microsoft-azure,mysql,odbc,openlineage,pandas,postgres,redis,sendgrid,sftp,slack,"
    "snowflake,ssh,statsd,uv"
)
# (first version of the line, extras, where they were read). The Dockerfile's
# ``ARG AIRFLOW_EXTRAS`` as released with 2.10.2, 3.1.5 and 3.3.0; 2.9 has the 2.10 list (an
# apache/airflow issue of March 2024 quotes the main branch's list before 2.9.0 without ``fab``,
# which 2.9 requires anyway); the Dockerfile changelog for 3.0 says ``virtualenv`` is no longer
# installed.
EXTRAS: tuple[tuple[Version, str, str], ...] = (
    (Version("2.9.0"), _EXTRAS_2_10, "Dockerfile of 2.10.2"),
    (Version("3.0.0"), _EXTRAS_2_10.replace(",virtualenv", ""), "Dockerfile of 2.10.2 less "
     "virtualenv (docker-stack changelog, Airflow 3.0)"),
    (Version("3.1.0"), _EXTRAS_3_1, "Dockerfile of 3.1.5"),
    (Version("3.3.0"), _EXTRAS_3_1.replace("openlineage,", "openlineage,opensearch,"),
     "Dockerfile of 3.3.0"),
)  # fmt: skip
# The Python of ``apache/airflow:VERSION`` (no -pythonX.Y): the newest supported one since 2.9
# (docker-stack changelog, Airflow 2.9), the Dockerfile's AIRFLOW_PYTHON_VERSION from 3.1
# (3.12.12 in 3.1.5, 3.13.14 in 3.3.0).
DEFAULT_PYTHON = (
    (Version("2.9.0"), "3.12"),
    (Version("3.1.0"), "3.12"),
    (Version("3.3.0"), "3.13"),
)

IMAGES_HEADER = """\
# The distributions each official apache/airflow image holds, by Airflow version: `pythons`
# lists the Pythons whose regular image (apache/airflow:VERSION-pythonP) holds that version of
# the distribution, `slim_pythons` those whose slim image (slim-VERSION-pythonP) does. Resolved
# by uv from the package index as it stood when each release was uploaded (the image's
# constraints files are not on the index), for Linux x86_64; see the script.
# generated by scripts/generate_official_images.py — do not edit
airflow\tdistribution\tversion\tpythons\tslim_pythons
"""
TAGS_HEADER = """\
# The official apache/airflow images of each Airflow version: the Pythons they are built for,
# the Python of the tag without -pythonP, the default extras of the regular image (slim images
# have none) with where they were read, the moment the package index was read as of (a release's
# upload), and the extras that could not be resolved for a Python.
# generated by scripts/generate_official_images.py — do not edit
airflow\tpythons\tdefault_python\textras\textras_source\tindex_as_of\tleft_out
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="resolutions run at once")
    parser.add_argument(
        "--only",
        action="append",
        help="only this Airflow version (repeatable); the tables' other rows are kept",
    )
    arguments = parser.parse_args()
    uv = shutil.which("uv")
    if uv is None:
        sys.exit("uv is needed: pip install uv")
    releases = _releases()
    if arguments.only:
        releases = {v: r for v, r in releases.items() if str(v) in arguments.only}
    images: dict[tuple[Version, str, str], dict[str, str]] = {}
    tags: dict[Version, tuple[list[str], str, str, str, list[str]]] = {}
    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        futures = {
            pool.submit(_resolve_release, uv, version, release): version
            for version, release in sorted(releases.items())
        }
        for future in concurrent.futures.as_completed(futures):
            version = futures[future]
            found, left_out, as_of = future.result()
            for (python, variant), pins in found.items():
                images[version, python, variant] = pins
            pythons = sorted({python for python, _ in found}, key=Version)
            extras, _ = _extras(version)
            tags[version] = (pythons, extras, _extras_source(version), as_of, left_out)
            print(f"{version}: {', '.join(pythons)}", file=sys.stderr)
    _write(images, tags, keep_others=bool(arguments.only))


def _releases() -> dict[Version, dict[str, object]]:
    """Each final release from 2.9.0 on: its upload time and its wheel's core metadata."""
    request = urllib.request.Request(
        f"{INDEX}/apache-airflow/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    found: dict[Version, dict[str, object]] = {}
    for entry in files:
        name = entry["filename"]
        if not name.endswith(".whl") or entry.get("yanked"):
            continue
        version = Version(name.split("-")[1])
        if version < OLDEST or version.is_prerelease or version.is_devrelease:
            continue
        found[version] = {
            "uploaded": datetime.datetime.fromisoformat(
                entry["upload-time"].replace("Z", "+00:00")
            ),
            "requires_python": entry.get("requires-python") or "",
            "metadata": entry["url"] + ".metadata",
        }
    return found


def _pythons(release: dict[str, object]) -> list[str]:
    """The Pythons the release's images are built for: those ``Requires-Python`` allows, up to
    the newest its classifiers name or its ``<`` bound admits (2.9.0 classifies no 3.12 but
    allows it, and its images default to it; 3.0.4 allows 3.13 but classifies up to 3.12)."""
    allowed = SpecifierSet(str(release["requires_python"]))
    classified = []
    try:
        with urllib.request.urlopen(str(release["metadata"]), timeout=60) as response:
            text = response.read().decode("utf-8")
    except urllib.error.HTTPError:
        text = ""  # a wheel the index serves no metadata file for: Requires-Python alone
    if text:
        metadata = email.parser.Parser().parsestr(text)
        classified = [
            Version(value.rsplit("::", 1)[1].strip())
            for value in metadata.get_all("Classifier") or []
            if re.fullmatch(r"Programming Language :: Python :: 3\.[0-9]+", value)
        ]
    newest = max(classified, default=Version("3.99"))
    for specifier in allowed:
        if specifier.operator == "<":
            bound = Version(specifier.version)
            newest = max(newest, Version(f"{bound.major}.{bound.minor - 1}"))
    return [p for p in CANDIDATE_PYTHONS if allowed.contains(f"{p}.1") and Version(p) <= newest]


def _extras(version: Version) -> tuple[str, str]:
    chosen = [entry for entry in EXTRAS if entry[0] <= version][-1]
    return chosen[1], chosen[2]


def _extras_source(version: Version) -> str:
    return _extras(version)[1]


def default_python(version: Version) -> str:
    return [python for first, python in DEFAULT_PYTHON if first <= version][-1]


def _resolve_release(
    uv: str, version: Version, release: dict[str, object]
) -> tuple[dict[tuple[str, str], dict[str, str]], list[str], str]:
    """Every image of one release: one universal resolution for all its Pythons, or, when an
    extra cannot be resolved for one of them, one resolution per Python without that extra."""
    uploaded = release["uploaded"]
    assert isinstance(uploaded, datetime.datetime)
    extras = _extras(version)[0].split(",")
    pythons = _pythons(release)
    if _compile(uv, version, pythons[:1], uploaded, []) is None:
        # Airflow itself needs a distribution released after its upload (2.11.1 requires a
        # fab provider published the day after its release): the image, built at the
        # announcement with the constraints of then, is resolved as of a week later.
        print(f"{version}: resolved as of {LATE.days} days after its upload", file=sys.stderr)
        uploaded += LATE - GRACE
    found: dict[tuple[str, str], dict[str, str]] = {}
    left_out: list[str] = []
    universal = _newest_providers(uv, version, pythons, uploaded, extras)
    if universal is not None:
        slim = _compile(uv, version, pythons, uploaded, [], constraints=universal)
        if slim is None:
            raise RuntimeError(f"{version}: the slim images do not resolve")
        for python in pythons:
            found[python, "regular"] = _pins(universal, python)
            found[python, "slim"] = _pins(slim, python)
        return found, left_out, _stamp(uploaded + GRACE)
    for python in pythons:
        wanted = extras
        pins = _compile(uv, version, [python], uploaded, wanted)
        if pins is None:
            failing = [e for e in wanted if _compile(uv, version, [python], uploaded, [e]) is None]
            wanted = [extra for extra in wanted if extra not in failing]
            pins = _compile(uv, version, [python], uploaded, wanted)
            if pins is None:
                print(f"{version} python {python}: does not resolve, left out", file=sys.stderr)
                continue
            left_out.append(f"{python}: {','.join(failing)}")
        pins = _newest_providers(uv, version, [python], uploaded, wanted) or pins
        slim = _compile(uv, version, [python], uploaded, [], constraints=pins)
        if slim is None:
            raise RuntimeError(f"{version} python {python}: the slim image does not resolve")
        found[python, "regular"] = _pins(pins, python)
        found[python, "slim"] = _pins(slim, python)
    return found, left_out, _stamp(uploaded + GRACE)


def _newest_providers(
    uv: str, version: Version, pythons: list[str], uploaded: datetime.datetime, extras: list[str]
) -> list[Requirement] | None:
    """The resolution with each provider it holds at its newest compatible release, as the
    constraints files pin them (they are generated by upgrading every provider eagerly): uv
    alone may backtrack a provider instead of a dependency (Airflow 2.9.3's google extra
    resolves to provider 8.8.0; named first, as direct requirements, it is 10.21.0)."""
    first = _compile(uv, version, pythons, uploaded, extras)
    if first is None:
        return None
    providers = tuple(
        f"{pin.name} ; {pin.marker}" if pin.marker else pin.name
        for pin in first
        if canonicalize_name(pin.name).startswith("apache-airflow-providers-")
    )
    return _compile(uv, version, pythons, uploaded, extras, first=providers) or first


def _compile(
    uv: str,
    version: Version,
    pythons: list[str],
    uploaded: datetime.datetime,
    extras: list[str],
    constraints: list[Requirement] | None = None,
    first: tuple[str, ...] = (),
) -> list[Requirement] | None:
    """The pins uv resolves for all of ``pythons`` at once (``--universal``, each pin with the
    markers it holds under), or ``None`` when the requirement cannot be resolved."""
    cutoff = uploaded + GRACE
    # Airflow 3's meta package is uploaded with apache-airflow-core and -task-sdk, not always
    # before them.
    later = uploaded + datetime.timedelta(days=2)
    requirement = (
        f"apache-airflow[{','.join(extras)}]=={version}" if extras else f"apache-airflow=={version}"
    )
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder) / "requirements.in"
        project.write_text("".join(f"{line}\n" for line in [*first, requirement]), "utf-8")
        command = [
            uv, "pip", "compile", str(project), "--quiet", "--no-header", "--no-annotate",
            # x.y.1: a release may exclude x.y.0 (2.10.4 requires Python >=3.8.1).
            "--no-config", "--universal", "--python-version", f"{pythons[0]}.1",
            "--index-url", INDEX, "--exclude-newer", _stamp(cutoff),
            "--exclude-newer-package", f"apache-airflow-core={_stamp(later)}",
            "--exclude-newer-package", f"apache-airflow-task-sdk={_stamp(later)}",
        ]  # fmt: skip
        if constraints is not None:
            path = Path(folder) / "constraints.txt"
            path.write_text("".join(f"{pin}\n" for pin in constraints), "utf-8")
            command += ["--constraints", str(path)]
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        return None
    pins = []
    for written in completed.stdout.splitlines():
        line = written.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        parsed = Requirement(line)
        if not str(parsed.specifier).startswith("=="):
            raise RuntimeError(f"uv wrote an unpinned line: {line}")
        pins.append(parsed)
    return pins


def _pins(pins: list[Requirement], python: str) -> dict[str, str]:
    """``{distribution: version}`` of the pins that hold on CPython ``python``, Linux x86_64."""
    environment = dict(default_environment())
    environment.update(
        python_version=python,
        python_full_version=f"{python}.1",
        sys_platform="linux",
        platform_system="Linux",
        platform_machine="x86_64",
        os_name="posix",
        implementation_name="cpython",
        platform_python_implementation="CPython",
    )
    found = {}
    for pin in pins:
        if pin.marker is None or pin.marker.evaluate(environment):
            found[canonicalize_name(pin.name)] = str(pin.specifier)[2:]
    return found


def _stamp(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _write(
    images: dict[tuple[Version, str, str], dict[str, str]],
    tags: dict[Version, tuple[list[str], str, str, str, list[str]]],
    keep_others: bool,
) -> None:
    """Both tables; with ``keep_others`` (``--only``) the rows of the other versions stay."""
    rows: dict[tuple[str, str, str], dict[str, list[str]]] = defaultdict(
        lambda: {"regular": [], "slim": []}
    )
    for (version, python, variant), pins in images.items():
        for name, pinned in pins.items():
            rows[str(version), name, pinned][variant].append(python)
    lines = []
    for (version, name, pinned), pythons in rows.items():
        cells = [",".join(sorted(p, key=Version)) or "-" for p in pythons.values()]
        lines.append("\t".join([version, name, pinned, *cells]))
    tag_lines = []
    for version, (pythons, extras, source, as_of, left_out) in tags.items():
        if not pythons:
            continue
        cells = [str(version), ",".join(pythons), default_python(version), extras, source, as_of]
        tag_lines.append("\t".join([*cells, "; ".join(left_out) or "-"]))
    done = {str(version) for version in tags}
    for name, header, written in (
        ("official_images.tsv", IMAGES_HEADER, lines),
        ("official_image_tags.tsv", TAGS_HEADER, tag_lines),
    ):
        kept = _kept_rows(DATA / name, done) if keep_others else []
        (DATA / name).write_text(
            header + "".join(f"{line}\n" for line in sorted(written + kept)), encoding="utf-8"
        )


def _kept_rows(path: Path, replaced: set[str]) -> list[str]:
    """The data rows of an existing table whose Airflow version is not being replaced."""
    if not path.exists():
        return []
    rows = [line for line in path.read_text("utf-8").splitlines() if line and line[0] != "#"]
    return [row for row in rows[1:] if row.split("\t", 1)[0] not in replaced]  # after columns


if __name__ == "__main__":
    main()
