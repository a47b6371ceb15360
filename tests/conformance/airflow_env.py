"""Create, once, the pinned Airflow virtualenv the conformance suite uses as its oracle.

The venv lives in the cache (``cache_root()``: ``$DAGROUTE_CONFORMANCE_CACHE``, or a folder inside
the virtual environment running the tests, never the user's home), or at
``$DAGROUTE_CONFORMANCE_VENV``, and is reused while its marker file records the same pin set. It
is built with plain ``pip`` from the package index: Airflow's official constraint files live on
GitHub, which is not reachable here, so the distributions that decide routing are pinned directly
and nothing else (no extras) is asked for.

There is one venv per oracle (``ORACLES``: Airflow 3.3.2 and 2.10.5). Run this file directly to
build or check them (all, or the versions named) and print how long that took::

    python tests/conformance/airflow_env.py [3.3.2] [2.10.5]
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Oracle:
    """One Airflow version the suite compares against: what to install and which wheels to mine.

    ``constraints`` names a file beside this module passed to pip with ``-c`` (its content is part
    of the venv's marker, so editing it rebuilds the venv); ``None`` installs the pins alone.
    """

    version: str
    pins: tuple[str, ...]
    constraints: str | None = None
    # Wheels whose ``example_dags`` folders form the "examples" corpora of this version:
    # corpus name -> (distribution pin, folder inside the wheel).
    example_wheels: tuple[tuple[str, str, str], ...] = ()
    # ``$DAGROUTE_CONFORMANCE_<venv_env>`` overrides where the venv lives.
    venv_env: str = "VENV"
    # The venv's folder under the cache; ``airflow-<version>-venv`` when ``None``.
    venv_name: str | None = None
    # ``uv`` (installed from PyPI into the venv first) for a large pin set, where pip takes half
    # an hour to fetch and install what uv does in minutes.
    installer: str = "pip"
    # Source distributions whose ``tests/system/`` folders (the providers' system-test DAGs) form
    # the "system-tests" corpus of this version; see ``ensure_system_tests``.
    system_tests: tuple[str, ...] = ()


# Providers' sdists carry their system-test DAGs (wheels do not). A mix of providers the 3.3.2
# venv has (cncf-kubernetes, common-sql) and lacks, large (google, amazon) and small; the
# versions are those of catalog/data/provider_dependencies.tsv. Both oracles load them: written
# for Airflow 3 with Airflow 2 fallbacks, they are real DAG files for either.
SYSTEM_TEST_SDISTS = (
    "apache-airflow-providers-amazon==9.39.0",
    "apache-airflow-providers-google==22.8.0",
    "apache-airflow-providers-microsoft-azure==15.2.1",
    "apache-airflow-providers-cncf-kubernetes==10.25.0",
    "apache-airflow-providers-common-sql==2.4.0",
    "apache-airflow-providers-databricks==7.23.0",
    "apache-airflow-providers-docker==4.6.1",
    "apache-airflow-providers-postgres==7.1.1",
    "apache-airflow-providers-http==6.3.0",
)

# The versions airflow-semantics.md was verified against. apache-airflow pins core and task-sdk
# exactly; the providers are pinned here so that a new provider release cannot change the oracle.
# cncf-kubernetes brings the ``kubernetes`` client that example_kubernetes_executor.py needs to
# build its DAG at all (it skips the DAG when the import fails).
AIRFLOW_3 = Oracle(
    version="3.3.2",
    pins=(
        "apache-airflow==3.3.2",
        "apache-airflow-core==3.3.2",
        "apache-airflow-task-sdk==1.3.2",
        "apache-airflow-providers-standard==1.21.0",
        "apache-airflow-providers-cncf-kubernetes==10.25.0",
    ),
    example_wheels=(
        ("airflow-core", "apache-airflow-core==3.3.2", "airflow/example_dags/"),
        (
            "providers-standard",
            "apache-airflow-providers-standard==1.21.0",
            "airflow/providers/standard/example_dags/",
        ),
    ),
    system_tests=SYSTEM_TEST_SDISTS,
)


# Airflow 2: most deployments in the field. The operators live in airflow.operators (the standard
# provider 1.21.0 needs Airflow >= 2.11), and common-compat brings ``common.compat.sdk``, the
# spelling every provider's system-test DAG uses. Everything else is pinned by the constraints
# file, the set pip resolved from PyPI, since the official constraints are on GitHub.
AIRFLOW_2 = Oracle(
    version="2.10.5",
    pins=("apache-airflow==2.10.5", "apache-airflow-providers-common-compat==1.9.0"),
    constraints="constraints-2.10.5.txt",
    example_wheels=(("airflow-2-examples", "apache-airflow==2.10.5", "airflow/example_dags/"),),
    venv_env="VENV_2",
    system_tests=SYSTEM_TEST_SDISTS,
)


# Airflow 3.3.2 with the providers that DRL204's replacements point into, to import every path
# ``--fix`` can write (tests/conformance/test_import_moves.py). Not an oracle of routing, so not in
# ORACLES. mysql, microsoft-winrm, samba and apache-hdfs are left out: their dependencies
# (mysqlclient, krb5, gssapi) build only against system libraries the CI machine lacks.
def frozen_pins(constraints: str, *others: str) -> tuple[str, ...]:
    """The Airflow distributions a frozen constraints file pins, and ``others`` of its names: what
    to install (the constraints pin the rest)."""
    pins = []
    for line in (HERE / constraints).read_text("utf-8").splitlines():
        name, _, version = line.partition("==")
        if version and (name.startswith("apache-airflow") or name in others):
            pins.append(f"{name}=={version}")
    return tuple(pins)


AIRFLOW_3_PROVIDERS = Oracle(
    version="3.3.2",
    pins=frozen_pins("constraints-3.3.2-providers.txt"),
    constraints="constraints-3.3.2-providers.txt",
    venv_env="VENV_3_PROVIDERS",
    venv_name="airflow-3.3.2-providers-venv",
    installer="uv",
)
# Airflow 3.3.2 in which DagBag builds the providers' system-test DAGs for real (``recall.py
# --system-tests``): every provider the DAGs of SYSTEM_TEST_SDISTS import, google at the version
# harvested, and pytest, which ``tests_common.test_utils.system_tests`` imports. ``tests_common``
# itself goes on the DagBag's PYTHONPATH only (``ensure_tests_common``), as Airflow's CI has it.
AIRFLOW_3_SYSTEM_TESTS = Oracle(
    version="3.3.2",
    pins=frozen_pins("constraints-3.3.2-system-tests.txt", "pytest"),
    constraints="constraints-3.3.2-system-tests.txt",
    venv_env="VENV_3_SYSTEM_TESTS",
    venv_name="airflow-3.3.2-system-tests-venv",
    installer="uv",
)
ORACLES: dict[str, Oracle] = {oracle.version: oracle for oracle in (AIRFLOW_3, AIRFLOW_2)}

MARKER_NAME = "dagroute-conformance.json"

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# The cache's folder inside the virtual environment running the tests.
CACHE_FOLDER = "dagroute-lint-cache"


def cache_root() -> Path:
    """Where the Airflow venvs, downloaded wheels and sdists, and extracted corpora are kept.

    ``$DAGROUTE_CONFORMANCE_CACHE``, else ``dagroute-lint-cache`` inside the virtual environment
    running the tests (``sys.prefix``): it belongs to that environment and goes with it, and
    nothing is written into the user's home. Outside a virtual environment the variable is
    required, since ``sys.prefix`` is then the system's.
    """
    env = os.environ.get("DAGROUTE_CONFORMANCE_CACHE")
    if env:
        return Path(env).expanduser()
    if sys.prefix == sys.base_prefix:
        raise RuntimeError(
            f"{sys.executable} runs in no virtual environment: run the tests from the one the "
            "README sets up (.venv), or set DAGROUTE_CONFORMANCE_CACHE to a folder for the "
            "Airflow venvs and downloads"
        )
    return Path(sys.prefix) / CACHE_FOLDER


def tool_environment() -> dict[str, str]:
    """This process's environment for pip and uv, with their own download caches off: what they
    fetch is kept in ``cache_root()`` only (the built venvs, ``wheels/``, ``sdists/``), never in
    the user's home."""
    return {**os.environ, "PIP_NO_CACHE_DIR": "1", "UV_NO_CACHE": "1"}


def airflow_home(folder: Path) -> dict[str, str]:
    """The variables that keep a process of an Airflow venv writing inside ``folder`` only:
    ``AIRFLOW_HOME`` (Airflow's configuration and logs, else ``~/airflow``) and ``HOME`` (where
    the libraries it imports keep their own files, such as ``~/.config``)."""
    (folder / "airflow").mkdir(parents=True, exist_ok=True)
    return {"AIRFLOW_HOME": str(folder / "airflow"), "HOME": str(folder)}


def venv_dir(oracle: Oracle = AIRFLOW_3) -> Path:
    env = os.environ.get(f"DAGROUTE_CONFORMANCE_{oracle.venv_env}")
    if env:
        return Path(env).expanduser()
    return cache_root() / (oracle.venv_name or f"airflow-{oracle.version}-venv")


@dataclass(frozen=True)
class AirflowEnv:
    """A ready venv: its interpreter, whether this call built it, and how long building took."""

    root: Path
    python: Path
    created: bool
    install_seconds: float | None
    version: str = AIRFLOW_3.version


def _marker_payload(oracle: Oracle) -> dict[str, object]:
    payload: dict[str, object] = {"airflow_version": oracle.version, "pins": list(oracle.pins)}
    if oracle.constraints is not None:
        text = (HERE / oracle.constraints).read_text(encoding="utf-8")
        payload["constraints"] = hashlib.sha256(text.encode()).hexdigest()
    return payload


def _read_marker(root: Path) -> dict[str, object] | None:
    try:
        data = json.loads((root / MARKER_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _marker_ok(oracle: Oracle, root: Path, python: Path) -> bool:
    marker = _read_marker(root)
    if marker is None or not python.exists():
        return False
    return all(marker.get(key) == value for key, value in _marker_payload(oracle).items())


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise concurrent builders (two pytest runs, xdist workers) on one lock file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def refuse_to_install() -> None:
    """Fail a test that downloads or installs packages where the suite runs without them: the
    extra legs of ``.ci/run`` deselect the tests marked ``installs`` and set
    ``DAGROUTE_TESTS_NO_INSTALLS``, so a test that installs and is not marked fails there."""
    if os.environ.get("DAGROUTE_TESTS_NO_INSTALLS"):
        raise RuntimeError("this test installs packages: mark it @pytest.mark.installs")


def _run(cmd: list[str], log: Log, env: dict[str, str] | None = None) -> None:
    refuse_to_install()
    log("$ " + " ".join(cmd))
    completed = subprocess.run(
        cmd, capture_output=True, text=True, check=False, env=env or tool_environment()
    )
    if completed.returncode != 0:
        tail = (completed.stdout + completed.stderr)[-4000:]
        raise RuntimeError(f"command failed ({completed.returncode}): {' '.join(cmd)}\n{tail}")


def _base_python() -> str:
    """The interpreter to build the venv from: ``$DAGROUTE_CONFORMANCE_PYTHON`` or this one."""
    return os.environ.get("DAGROUTE_CONFORMANCE_PYTHON") or sys.executable


def ensure_airflow_venv(log: Log = _stderr, oracle: Oracle = AIRFLOW_3) -> AirflowEnv:
    """Return the pinned Airflow venv of ``oracle``, building it first if absent or stale."""
    root = venv_dir(oracle)
    python = root / "bin" / "python"
    if _marker_ok(oracle, root, python):
        return AirflowEnv(root, python, False, None, oracle.version)
    with _locked(root.parent / f".{root.name}.lock"):
        if _marker_ok(oracle, root, python):  # another process finished it while we waited
            return AirflowEnv(root, python, False, None, oracle.version)
        if root.exists():
            log(f"removing stale or incomplete venv {root}")
            shutil.rmtree(root)
        log(f"building Airflow {oracle.version} venv at {root} (one-off, a few minutes)")
        started = time.monotonic()
        _run([_base_python(), "-m", "venv", str(root)], log)
        pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input"]
        _run([*pip, "install", "--upgrade", "pip"], log)
        constraints = ["-c", str(HERE / oracle.constraints)] if oracle.constraints else []
        if oracle.installer == "uv":
            _run([*pip, "install", "uv"], log)
            uv = [str(root / "bin" / "uv"), "pip", "install", "--python", str(python)]
            _run([*uv, *constraints, *oracle.pins], log)
        else:
            _run([*pip, "install", *constraints, *oracle.pins], log)
        _check_imports(python, log)
        seconds = time.monotonic() - started
        payload = _marker_payload(oracle)
        payload["install_seconds"] = round(seconds, 1)
        payload["built_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        (root / MARKER_NAME).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        log(f"Airflow {oracle.version} venv ready in {seconds:.0f} s")
        return AirflowEnv(root, python, True, seconds, oracle.version)


def _check_imports(python: Path, log: Log) -> None:
    """Refuse a venv whose Airflow does not import (a dependency pip resolved badly)."""
    with tempfile.TemporaryDirectory(prefix="dagroute-airflow-check-") as scratch:
        env = {**os.environ, **airflow_home(Path(scratch))}  # importing Airflow writes its logs
        _run([str(python), "-c", "import airflow, airflow.models.dagbag"], log, env)


def ensure_example_corpora(env: AirflowEnv, log: Log = _stderr) -> dict[str, Path]:
    """Download the wheels (``pip download --no-deps``) and extract their ``example_dags``.

    Returns corpus name -> DAG folder, for the oracle ``env`` belongs to. Both the wheels and the
    extracted folders are cached under ``cache_root()``; nothing of them is ever written into
    the repository.
    """
    oracle = ORACLES[env.version]
    corpora_dir = cache_root() / f"corpora-{oracle.version}"
    result: dict[str, Path] = {}
    with _locked(cache_root() / ".corpora.lock"):
        for name, requirement, prefix in oracle.example_wheels:
            target = corpora_dir / name
            _extract_once(
                target,
                lambda requirement=requirement: download_wheel(requirement, env.python, log),
                lambda wheel, target, prefix=prefix: extract_folder(wheel, prefix, target),
            )
            result[name] = target
    return result


def _extract_once(
    target: Path, download: Callable[[], Path], extract: Callable[[Path, Path], None]
) -> None:
    """Fill ``target`` from the archive ``download()`` gives, unless a finished extraction is
    there (its ``.extracted`` marker, written last). The caller holds the corpora lock."""
    if (target / ".extracted").exists():
        return
    archive = download()
    if target.exists():
        shutil.rmtree(target)
    extract(archive, target)
    (target / ".extracted").write_text(archive.name + "\n", encoding="utf-8")


SYSTEM_TESTS = "system-tests"
SYSTEM_PREFIX = "tests/system/"


def ensure_system_tests(env: AirflowEnv, log: Log = _stderr) -> Path | None:
    """Download the oracle's ``system_tests`` sdists and extract their ``tests/system/`` folders.

    All go into one DAG folder, ``<cache>/corpora-<version>/system-tests``, as ``system/<provider>``
    (each sdist's ``tests/`` folder is its DAG folder: the DAGs import ``system.<provider>...``).
    ``None`` when the oracle names no sdist. Re-extracted when the list of sdists changes.
    """
    oracle = ORACLES[env.version]
    if not oracle.system_tests:
        return None
    target = cache_root() / f"corpora-{oracle.version}" / SYSTEM_TESTS
    done = target / ".extracted"
    wanted = "".join(requirement + "\n" for requirement in oracle.system_tests)
    with _locked(cache_root() / ".corpora.lock"):
        if not done.exists() or done.read_text(encoding="utf-8") != wanted:
            sdists = [
                download_sdist(requirement, env.python, log) for requirement in oracle.system_tests
            ]
            if target.exists():
                shutil.rmtree(target)
            for sdist in sdists:
                extract_sdist_folder(sdist, SYSTEM_PREFIX, target / "system")
            done.write_text(wanted, encoding="utf-8")
    return target


PROVIDER_PREFIX = "apache-airflow-providers-"


def ensure_system_test_projects(python: Path | str, log: Log = _stderr) -> dict[str, Path]:
    """Each sdist of ``SYSTEM_TEST_SDISTS`` as its own DAG folder: provider -> its ``tests`` folder.

    ``<cache>/system-test-projects/<provider>-<version>/tests/system/<provider>/...``: the
    provider's ``tests/`` folder is what Airflow's CI puts on ``sys.path`` for its system tests
    (they import ``system.<provider>...``), so it is the DAG folder DagBag loads.
    """
    projects: dict[str, Path] = {}
    with _locked(cache_root() / ".corpora.lock"):
        for requirement in SYSTEM_TEST_SDISTS:
            dist, version = requirement.split("==")
            provider = dist.removeprefix(PROVIDER_PREFIX)
            tests = cache_root() / "system-test-projects" / f"{provider}-{version}" / "tests"
            _extract_once(
                tests,
                lambda requirement=requirement: download_sdist(requirement, python, log),
                lambda sdist, tests: extract_sdist_folder(sdist, SYSTEM_PREFIX, tests / "system"),
            )
            projects[provider] = tests
    return projects


# Airflow's test helpers (``devel-common/src/tests_common`` in Airflow's repository), which every
# system-test DAG imports: the one release on the package index. Its ``watcher``, ``get_test_run``
# and ``AIRFLOW_V_3_0_PLUS`` are those of Airflow's repository; it lacks the later
# ``api_client_helpers.create_airflow_connection``, so the few DAGs importing that fail to load.
TESTS_COMMON = "apache-airflow-devel-common==0.1.1"
TESTS_COMMON_PREFIX = "tests_common/"


def ensure_tests_common(python: Path | str, log: Log = _stderr) -> Path:
    """The folder holding the ``tests_common`` package of ``TESTS_COMMON``'s wheel, extracted in
    the cache: an import root for both DagBag (its PYTHONPATH) and the linter (a ``roots`` entry),
    never installed and never in the repository."""
    root = cache_root() / f"tests-common-{TESTS_COMMON.split('==')[1]}"
    with _locked(cache_root() / ".corpora.lock"):
        _extract_once(
            root,
            lambda: download_wheel(TESTS_COMMON, python, log),
            lambda wheel, root: extract_folder(wheel, TESTS_COMMON_PREFIX, root / "tests_common"),
        )
    return root


def download_sdist(
    requirement: str, python: Path | str = sys.executable, log: Log = _stderr
) -> Path:
    """The sdist of ``dist==version``, from the cache or ``pip download --no-binary`` into it.

    pip builds the sdist's metadata to check its name and version (a few seconds, with the build
    backend pip fetches); nothing is installed.
    """
    sdists_dir = cache_root() / "sdists"
    dist, version = requirement.split("==")
    sdist = _find_sdist(sdists_dir, dist, version)
    if sdist is None:
        pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
        _run(
            [
                *pip,
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(sdists_dir),
                requirement,
            ],
            log,
        )
        sdist = _find_sdist(sdists_dir, dist, version)
    if sdist is None:
        raise RuntimeError(f"pip download produced no sdist for {requirement}")
    return sdist


def _find_sdist(folder: Path, dist: str, version: str) -> Path | None:
    stem = dist.replace("-", "_")
    matches = sorted(folder.glob(f"{stem}-{version}.tar.gz")) if folder.exists() else []
    return matches[0] if matches else None


def extract_sdist_folder(sdist: Path, prefix: str, target: Path) -> None:
    """Write the regular files under ``prefix`` (below the sdist's top folder) to ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist, "r:gz") as archive:
        for member in archive.getmembers():
            _, _, inside = member.name.partition("/")
            if not member.isfile() or not inside.startswith(prefix):
                continue
            relative = inside[len(prefix) :]
            if not relative or "__pycache__" in relative or ".." in relative.split("/"):
                continue
            handle = archive.extractfile(member)
            if handle is None:
                continue
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(handle.read())


def download_wheel(
    requirement: str, python: Path | str = sys.executable, log: Log = _stderr
) -> Path:
    """The wheel of ``dist==version``, from the cache or ``pip download --no-deps`` into it."""
    wheels_dir = cache_root() / "wheels"
    dist, version = requirement.split("==")
    wheel = _find_wheel(wheels_dir, dist, version)
    if wheel is None:
        pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
        _run([*pip, "download", "--no-deps", "-d", str(wheels_dir), requirement], log)
        wheel = _find_wheel(wheels_dir, dist, version)
    if wheel is None:
        raise RuntimeError(f"pip download produced no wheel for {requirement}")
    return wheel


def _find_wheel(folder: Path, dist: str, version: str) -> Path | None:
    stem = dist.replace("-", "_")
    matches = sorted(folder.glob(f"{stem}-{version}-*.whl")) if folder.exists() else []
    return matches[0] if matches else None


def extract_folder(wheel: Path, prefix: str, target: Path) -> None:
    """Write the files under ``prefix`` in ``wheel`` to ``target`` (compiled caches skipped)."""
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.is_dir() or not info.filename.startswith(prefix):
                continue
            relative = info.filename[len(prefix) :]
            if not relative or "__pycache__" in relative:
                continue
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(archive.read(info))


def main(argv: list[str] | None = None) -> int:
    versions = (argv if argv is not None else sys.argv[1:]) or list(ORACLES)
    for version in versions:
        if version not in ORACLES:
            print(f"unknown Airflow version {version!r}; known: {', '.join(ORACLES)}")
            return 2
        env = ensure_airflow_venv(oracle=ORACLES[version])
        marker = _read_marker(env.root) or {}
        print(
            json.dumps(
                {
                    "airflow_version": version,
                    "venv": str(env.root),
                    "created": env.created,
                    "install_seconds": env.install_seconds,
                    "recorded_install_seconds": marker.get("install_seconds"),
                }
            )
        )
        for name, folder in ensure_example_corpora(env).items():
            print(f"{name}: {folder}")
        system = ensure_system_tests(env)
        if system is not None:
            print(f"{SYSTEM_TESTS}: {system}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
