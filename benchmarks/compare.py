"""Side-by-side cost of linting generated DAG repositories, against the parse-only floor.

Usage: python benchmarks/compare.py [--sizes 100,1000,5000] [--repeats 3,3,1] [--work DIR]
                                    [--dagbag-max 1000] [--airflow-python PATH]
                                    [--real-repeats 3] [--server-edits 20]

Run it with the interpreter of the virtual environment where dagroute-lint is installed (its
``dagroute-lint`` and ``ruff`` scripts are taken from beside that interpreter). For every size it
writes a corpus (``corpus.py``) and measures, each as a separate process (start-up included):
wall time, CPU time (user + system of the process and every worker it waited for) and peak
memory (the largest sum of proportional set sizes over the process and its children, sampled
every 20 ms, so that pages a forked worker shares with its parent count once; at least the
largest single process's peak resident size). The configurations run round-robin,
``--repeats`` times, so that drift in the machine's load hits all of them alike; the table shows
medians and the spread of CPU time. ``--repeats`` is one count for every size or one per size.
The processes of well under a second (the one-file rows and their floor, ``import libcst``) run
``QUICK_ROUNDS`` times more per repeat, side by side, since their CPU time moves most.

Beside the generated sizes: the language server's time from ``didChange`` to
``publishDiagnostics`` on each generated repository (``server_latency.py``, one edit of the
one-file row's file at a time), and the real-file corpus, the example and system-test DAG files
the conformance suite harvests from Airflow's wheels (``tests/conformance/airflow_env.py``),
with DagBag beside it (``--real-repeats 0`` leaves it out).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import dagroute_lint

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import INVENTORY, write_corpus  # noqa: E402
from server_latency import measure as server_latency  # noqa: E402

REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "conformance"))

BIN = Path(sys.executable).parent
# The conformance suite's Airflow 3.3.2 venv, in its cache inside this virtual environment.
DEFAULT_AIRFLOW = Path(sys.prefix) / "dagroute-lint-cache/airflow-3.3.2-venv/bin/python"


SHARED_CHANGED = "dagroute-lint warm, common/routing.py changed"
LIBCST_PROCESS = 'python -c "import libcst" (floor of a libcst process)'
ONE_FILE = "one file (pre-commit), no cache"
ONE_FILE_CACHED = "one file (pre-commit), cache warm, the file changed"
QUICK_ROUNDS = 4


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float
    peak_mb: float


@dataclass(frozen=True)
class Config:
    name: str
    command: Callable[[int], list[str]]  # from the repeat number
    prepare: Callable[[int], None] = lambda repeat: None
    # A process of well under a second, whose CPU time moves by a quarter from run to run on
    # this kind of machine: measured QUICK_ROUNDS more times per repeat, alternating with the
    # other quick rows, so that the medians of the one-file rows and of their floor (the
    # `import libcst` process) come from many samples taken side by side.
    quick: bool = False


def _tree_pss_mb(root: int) -> float:
    """Proportional set size of ``root`` and all its descendants, in MB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, IndexError, ValueError):
            continue
    return total / 1024


def measure(command: list[str], cwd: Path, ok: tuple[int, ...] = (0, 1)) -> Sample:
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0.0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_pss_mb(process.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stderr = process.stderr.read() if process.stderr is not None else b""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in ok:
        raise SystemExit(
            f"{' '.join(command)} exited {process.returncode}:\n{stderr.decode()[-2000:]}"
        )
    peak = max(peak, usage.ru_maxrss / 1024)
    return Sample(wall, usage.ru_utime + usage.ru_stime, peak)


def configs(
    root: Path, cores: int, airflow: Path | None, size: int, dagbag_max: int
) -> list[Config]:
    lint = [str(BIN / "dagroute-lint"), "dags", "--inventory", "dagroute.toml"]
    caches = root / "caches"
    warm_cache = caches / "warm"
    changed = sorted((root / "dags").glob("team_*/classic_*.py"))[0]
    original = changed.read_bytes()
    shared = root / "dags" / "common" / "routing.py"
    shared_original = shared.read_bytes()

    def fresh(label: str) -> Callable[[int], list[str]]:
        def command(repeat: int) -> list[str]:
            folder = caches / f"{label}-{repeat}"
            shutil.rmtree(folder, ignore_errors=True)
            return ["--cache-dir", str(folder)]

        return command

    cold_1, cold_n = fresh("cold1"), fresh("coldn")

    def change_one(repeat: int) -> None:
        changed.write_bytes(original + f"# edit {repeat}\n".encode())

    def change_one_afresh(repeat: int) -> None:
        """An edit no earlier row made: with ``change_one``'s text, the summary of the changed
        file would already be in the cache, and the one-file run would not extract it."""
        changed.write_bytes(original + f"# one-file edit {repeat}\n".encode())

    def change_shared(repeat: int) -> None:
        changed.write_bytes(original)
        shared.write_bytes(shared_original + f"# edit {repeat}\n".encode())

    def restore(repeat: int) -> None:
        changed.write_bytes(original)
        shared.write_bytes(shared_original)

    def restore_and_settle(repeat: int) -> None:
        """Nothing changed since the cache was written: the result cache keeps one entry per
        file, so the edits earlier rows made (and undid) must be linted once, unmeasured."""
        restore(repeat)
        measure([*lint, "--cache-dir", str(warm_cache)], root)

    one_file = str(changed.relative_to(root))
    found = [
        Config(
            "floor: libcst.parse_module, 1 process",
            lambda r: [sys.executable, str(HERE / "floor.py"), "dags"],
        ),
        Config("dagroute-lint cold --jobs 1", lambda r: [*lint, "-j", "1", *cold_1(r)]),
        Config(
            f"dagroute-lint cold --jobs {cores}", lambda r: [*lint, "-j", str(cores), *cold_n(r)]
        ),
        Config(
            "dagroute-lint warm, nothing changed",
            lambda r: [*lint, "--cache-dir", str(warm_cache)],
            restore_and_settle,
        ),
        Config(
            "dagroute-lint warm, 1 file changed",
            lambda r: [*lint, "--cache-dir", str(warm_cache)],
            change_one,
        ),
        Config(
            ONE_FILE,
            lambda r: [
                str(BIN / "dagroute-lint"),
                one_file,
                "--inventory",
                "dagroute.toml",
                "--no-cache",
            ],
            restore,
            quick=True,
        ),
        Config(
            ONE_FILE_CACHED,
            lambda r: [
                str(BIN / "dagroute-lint"),
                one_file,
                "--inventory",
                "dagroute.toml",
                "--cache-dir",
                str(warm_cache),
            ],
            change_one_afresh,
            quick=True,
        ),
        Config(
            SHARED_CHANGED,
            lambda r: [*lint, "--cache-dir", str(warm_cache)],
            change_shared,
        ),
        Config(
            LIBCST_PROCESS,
            lambda r: [sys.executable, "-c", "import libcst"],
            restore,
            quick=True,
        ),
        Config(
            "ruff check --select AIR (reference)",
            lambda r: [
                str(BIN / "ruff"),
                "check",
                "--select",
                "AIR",
                "--no-cache",
                "--quiet",
                "dags",
            ],
        ),
    ]
    if airflow is not None and size <= dagbag_max:
        found.append(
            Config(
                "Airflow DagBag import (own venv)",
                lambda r: [str(airflow), str(HERE / "dagbag.py"), "dags"],
            )
        )
    return found


def bench_size(
    size: int, work: Path, repeats: int, cores: int, airflow: Path | None, dagbag_max: int
) -> dict[str, list[Sample]]:
    root = work / f"repo-{size}"
    shutil.rmtree(root, ignore_errors=True)
    write_corpus(root, size)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    found = configs(root, cores, airflow, size, dagbag_max)
    # Fill the warm cache once, outside the measurements.
    measure(
        [
            str(BIN / "dagroute-lint"),
            "dags",
            "--inventory",
            "dagroute.toml",
            "--cache-dir",
            str(root / "caches" / "warm"),
        ],
        root,
    )
    results: dict[str, list[Sample]] = {config.name: [] for config in found}
    for repeat in range(repeats):
        for config in found:
            config.prepare(repeat)
            results[config.name].append(measure(config.command(repeat), root))
            print(f"  {size} files, run {repeat + 1}/{repeats}: {config.name}", file=sys.stderr)
    quick = [config for config in found if config.quick]
    for number in range(repeats, repeats * (1 + QUICK_ROUNDS)):
        for config in quick:
            config.prepare(number)  # a number no earlier edit used
            results[config.name].append(measure(config.command(number), root))
    print(f"  {size} files: quick rows, {repeats * QUICK_ROUNDS} more runs", file=sys.stderr)
    found[3].prepare(0)  # restore the changed file
    return results


def bench_server(size: int, work: Path, edits: int) -> list[float]:
    """Seconds from each ``didChange`` to its ``publishDiagnostics``, on the repository of
    ``size`` files and the file of the one-file rows."""
    root = work / f"repo-{size}"
    changed = sorted((root / "dags").glob("team_*/classic_*.py"))[0]
    _, changes = asyncio.run(server_latency(root, changed, edits))
    print(f"  {size} files: server, {edits} edits", file=sys.stderr)
    return changes


def real_corpus(work: Path) -> Path | None:
    """A repository of the real DAG files the conformance suite reads (its own code fetches and
    caches the wheels' examples), copied beside the benchmark inventory; ``None`` without the
    Airflow venv."""
    from airflow_env import ensure_airflow_venv, ensure_example_corpora

    try:
        folders = ensure_example_corpora(ensure_airflow_venv())
    except Exception as error:  # no network, no venv: the row is left out, and said so
        print(f"real-file corpus not available: {error}", file=sys.stderr)
        return None
    root = work / "repo-real"
    shutil.rmtree(root, ignore_errors=True)
    # The examples of Airflow's wheels, and the suite's own corpus of realistic DAG files.
    folders["realistic"] = REPO / "tests" / "conformance" / "corpora" / "realistic"
    for name, folder in sorted(folders.items()):
        shutil.copytree(folder, root / "dags" / name, ignore=shutil.ignore_patterns(".extracted"))
    (root / "dagroute.toml").write_text(INVENTORY.lstrip("\n"), encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def bench_real(
    root: Path, repeats: int, cores: int, airflow: Path | None
) -> dict[str, list[Sample]]:
    """The floor, cold, warm and one-changed runs, and DagBag, on the real-file corpus."""
    lint = [str(BIN / "dagroute-lint"), "dags", "--inventory", "dagroute.toml"]
    caches = root / "caches"
    changed = sorted((root / "dags").rglob("example_*.py"))[0]
    original = changed.read_bytes()

    def fresh(label: str, repeat: int) -> list[str]:
        folder = caches / f"{label}-{repeat}"
        shutil.rmtree(folder, ignore_errors=True)
        return ["--cache-dir", str(folder)]

    def change_one(repeat: int) -> None:
        changed.write_bytes(original + f"# edit {repeat}\n".encode())

    def restore(repeat: int) -> None:
        changed.write_bytes(original)

    warm = ["--cache-dir", str(caches / "warm")]

    def settle(repeat: int) -> None:
        restore(repeat)
        measure([*lint, *warm], root)  # the edit undone is linted once, unmeasured

    found = [
        Config(
            "floor: libcst.parse_module, 1 process",
            lambda r: [sys.executable, str(HERE / "floor.py"), "dags"],
        ),
        Config("dagroute-lint cold --jobs 1", lambda r: [*lint, "-j", "1", *fresh("c1", r)]),
        Config(
            f"dagroute-lint cold --jobs {cores}",
            lambda r: [*lint, "-j", str(cores), *fresh("cn", r)],
        ),
        Config(
            "dagroute-lint warm, nothing changed",
            lambda r: [*lint, *warm],
            settle,
        ),
        Config("dagroute-lint warm, 1 file changed", lambda r: [*lint, *warm], change_one),
        Config("dagroute-lint --jobs 1 --no-cache", lambda r: [*lint, "-j", "1", "--no-cache"]),
    ]
    if airflow is not None:
        found.append(
            Config(
                "Airflow DagBag import (own venv)",
                lambda r: [str(airflow), str(HERE / "dagbag.py"), "dags"],
            )
        )
    measure([*lint, *warm], root)
    results: dict[str, list[Sample]] = {config.name: [] for config in found}
    for repeat in range(repeats):
        for config in found:
            config.prepare(repeat)
            results[config.name].append(measure(config.command(repeat), root))
            print(f"  real files, run {repeat + 1}/{repeats}: {config.name}", file=sys.stderr)
    restore(0)
    return results


def median(samples: list[Sample], field: str) -> float:
    return statistics.median(getattr(sample, field) for sample in samples)


def report(
    all_results: dict[int, dict[str, list[Sample]]],
    repeats: dict[int, int],
    servers: dict[int, list[float]],
) -> None:
    for size, results in all_results.items():
        runs = "1 run" if repeats[size] == 1 else f"medians of {repeats[size]} runs"
        table(f"{size} files ({runs})", results)
        if size in servers:
            changes = sorted(servers[size])
            print(
                f"| server: didChange -> publishDiagnostics, {len(changes)} edits (ms) | "
                f"{1000 * statistics.median(changes):.1f} ms | | "
                f"{1000 * changes[0]:.1f}-{1000 * changes[-1]:.1f} ms | | |"
            )
    targets(all_results, servers)
    growth(all_results)


def table(title: str, results: dict[str, list[Sample]]) -> None:
    floor = median(next(iter(results.values())), "cpu")
    print(f"\n### {title}\n")
    print("| measure | runs | wall s | CPU s | CPU spread | peak MB | CPU x floor |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, samples in results.items():
        cpus = sorted(sample.cpu for sample in samples)
        cpu = median(samples, "cpu")
        print(
            f"| {name} | {len(samples)} | {median(samples, 'wall'):.2f} | {cpu:.2f} | "
            f"{cpus[0]:.2f}-{cpus[-1]:.2f} | {median(samples, 'peak_mb'):.0f} | "
            f"{cpu / floor:.2f} |"
        )


def real_report(results: dict[str, list[Sample]], files: int, repeats: int) -> None:
    runs = "1 run" if repeats == 1 else f"median of {repeats} runs"
    table(f"real-file corpus: {files} files ({runs})", results)
    names = list(results)
    cold1, warm, warm1 = (median(results[name], "cpu") for name in names[1:2] + names[3:5])
    print("\n| real files: ratio | figure |\n|---|---:|")
    print(f"| warm / cold --jobs 1 | {warm / cold1:.3f} |")
    print(f"| warm, 1 changed / cold --jobs 1 | {warm1 / cold1:.3f} |")
    dagbag = [name for name in names if "DagBag" in name]
    if dagbag:
        bag = median(results[dagbag[0]], "cpu")
        nocache = median(results["dagroute-lint --jobs 1 --no-cache"], "cpu")
        print(f"| DagBag CPU / dagroute-lint --jobs 1 --no-cache CPU | {bag / nocache:.2f} |")
        print(f"| DagBag CPU / warm CPU | {bag / warm:.1f} |")


def targets(
    all_results: dict[int, dict[str, list[Sample]]], servers: dict[int, list[float]]
) -> None:
    print("\n### Targets\n")
    print("| size | target | figure | met |")
    print("|---|---|---:|---|")
    for size, results in all_results.items():
        names = list(results)
        floor, cold1, _, warm, warm1 = (median(results[name], "cpu") for name in names[:5])
        one = median(results[ONE_FILE], "cpu")
        one_cached = median(results[ONE_FILE_CACHED], "cpu")
        libcst = median(results[LIBCST_PROCESS], "cpu")
        shared = median(results[SHARED_CHANGED], "cpu")
        rows = [
            ("cold --jobs 1 CPU ≤ 1.8x floor", cold1 / floor, cold1 / floor <= 1.8),
            ("warm CPU ≤ 5% of cold --jobs 1", warm / cold1, warm / cold1 <= 0.05),
            ("warm, 1 changed, CPU ≤ 8% of cold --jobs 1", warm1 / cold1, warm1 / cold1 <= 0.08),
            ("warm, shared module changed, CPU / cold --jobs 1 (no target)", shared / cold1, True),
            ("one file CPU ≤ 1.6x the import-libcst process", one / libcst, one / libcst <= 1.6),
            (
                "one file, cache warm, file changed, CPU ≤ 1.6x the import-libcst process",
                one_cached / libcst,
                one_cached / libcst <= 1.6,
            ),
        ]
        if size in servers:
            server = statistics.median(servers[size])
            cli = median(results[ONE_FILE], "wall")
            rows.append(
                (
                    "server re-lint ≤ 10% of the one-file CLI wall time",
                    server / cli,
                    server <= cli / 10,
                )
            )
        peak = max(
            median(samples, "peak_mb") for name, samples in results.items() if "dagroute" in name
        )
        rows.append(("peak memory ≤ 300 MB", peak, peak <= 300))
        dagbag = [n for n in names if "DagBag" in n]
        if dagbag:
            bag = median(results[dagbag[0]], "cpu")
            rows.append(("DagBag CPU ≥ 5x cold --jobs 1", bag / cold1, bag / cold1 >= 5))
            rows.append(("DagBag CPU ≥ 50x warm", bag / warm, bag / warm >= 50))
        for target, figure, met in rows:
            print(f"| {size} | {target} | {figure:.3g} | {'yes' if met else 'NO'} |")


def growth(all_results: dict[int, dict[str, list[Sample]]]) -> None:
    sizes = sorted(all_results)
    if len(sizes) < 2:
        return
    print("\n### Growth: CPU ms per file, and peak MB\n")
    header = " | ".join(f"{size} files" for size in sizes)
    print(f"| measure | {header} |")
    print("|---|" + "---:|" * len(sizes))
    for name in all_results[sizes[0]]:
        cells = []
        for size in sizes:
            samples = all_results[size].get(name)
            if samples is None:
                cells.append("not run")
                continue
            per_file = 1000 * median(samples, "cpu") / size
            cells.append(f"{per_file:.1f} ms, {median(samples, 'peak_mb'):.0f} MB")
        print(f"| {name} | {' | '.join(cells)} |")


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}; load average at start {load[0]:.2f}"
    )


def _revision() -> str:
    found = subprocess.run(
        ["git", "-C", str(HERE), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() or "unknown revision"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--repeats", default="3,3,1")
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument("--dagbag-max", type=int, default=1000)
    parser.add_argument("--airflow-python", type=Path, default=DEFAULT_AIRFLOW)
    parser.add_argument("--real-repeats", type=int, default=3)
    parser.add_argument("--server-edits", type=int, default=20)
    arguments = parser.parse_args()
    # Installed tools run from byte-compiled modules; an environment that forbids writing
    # bytecode would charge every measured process for compiling its imports again.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(dagroute_lint.__file__).parent)],
        check=True,
    )
    airflow = arguments.airflow_python if arguments.airflow_python.exists() else None
    work = arguments.work or Path(tempfile.mkdtemp(prefix="dagroute-bench-"))
    cores = (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )
    print(f"machine: {machine()}")
    print(f"dagroute-lint: {_revision()}")
    if airflow is None:
        print("Airflow venv not found: DagBag not measured (--airflow-python)")
    sizes = [int(size) for size in arguments.sizes.split(",")]
    counts = [int(count) for count in arguments.repeats.split(",")]
    repeats = dict(zip(sizes, counts if len(counts) == len(sizes) else counts[:1] * len(sizes)))
    results = {
        size: bench_size(size, work, repeats[size], cores, airflow, arguments.dagbag_max)
        for size in sizes
    }
    servers = (
        {size: bench_server(size, work, arguments.server_edits) for size in sizes}
        if arguments.server_edits > 0
        else {}
    )
    real = real_corpus(work) if arguments.real_repeats > 0 else None
    real_results = (
        bench_real(real, arguments.real_repeats, cores, airflow) if real is not None else None
    )
    report(results, repeats, servers)
    if real is not None and real_results is not None:
        files = sum(1 for _ in (real / "dags").rglob("*.py"))
        real_report(real_results, files, arguments.real_repeats)
    print(f"\nload average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
