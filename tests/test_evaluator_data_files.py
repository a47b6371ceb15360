"""The repository's own data files, read as the DAG file reads them when DagBag imports it:
each call computed from the files (inside the repository, bounded), unknown with why otherwise,
and a summary or result made from a file made again when that file changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.resolve.tasks import Field
from dagroute_lint.sources import data_files
from tests.helpers import CELERY_K8S, SETTINGS_WITH_DAGS, lint_repo, routes, write_repo

HEADER = """
import glob
import json
import os
from pathlib import Path

import yaml
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

HERE = os.path.dirname(__file__)
"""
DATA = {
    "dags/conf/a.yaml": "queue: from_yaml\nnames: [one, two]\n",
    "dags/conf/b.json": '{"queue": "from_json", "n": 2}',
    "dags/conf/c.txt": "plain_text\n",
    "dags/conf/all.yaml": "queue: first\n---\nqueue: second\n",
    "dags/sql/load_users.sql": "select 1",
    "dags/sql/load_orders.sql": "select 2",
    "dags/sql/deep/nested.sql": "select 3",
}


def _queue(tmp_path: Path, expression: str, setup: str = "") -> Field:
    """The queue of a task given ``expression``, after ``setup`` ran at module level."""
    source = (
        HEADER
        + setup
        + f'\nwith DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue={expression})\n'
    )
    return routes(tmp_path, source, DATA)["t"].fields["queue"]


# Each way of reading, run at module level before the DAG (one name each).
READS = """
with open(os.path.join(HERE, "conf", "c.txt")) as f:
    WITH_OPEN = f.read()
OPEN_READ = open(HERE + "/conf/c.txt", "r", encoding="utf-8").read()
JSON_LOAD = json.load(open(os.path.join(HERE, "conf/b.json")))
JSON_LOADS = json.loads('{"q": "lit"}')
with open(os.path.join(HERE, "conf/a.yaml")) as f:
    SAFE_LOAD = yaml.safe_load(f)
SAFE_LOADER = yaml.load(open(HERE + "/conf/a.yaml"), Loader=yaml.SafeLoader)
C_LOADER = yaml.load(open(HERE + "/conf/a.yaml"), yaml.CSafeLoader)
ALL = list(yaml.safe_load_all(open(HERE + "/conf/all.yaml")))
PATH_JSON = json.loads((Path(__file__).parent / "conf" / "b.json").read_text())
JOINED = Path(__file__).parent.joinpath("conf", "c.txt")
SQL = Path(HERE).joinpath("sql")
"""
KNOWN_READS = {
    "WITH_OPEN.strip() + OPEN_READ.strip()": "plain_textplain_text",
    'JSON_LOAD["queue"] + JSON_LOADS["q"] + PATH_JSON["queue"]': "from_jsonlitfrom_json",
    'SAFE_LOAD["queue"] + SAFE_LOADER["names"][1] + C_LOADER["queue"]': "from_yamltwofrom_yaml",
    'ALL[1]["queue"]': "second",
    "JOINED.read_text(encoding='utf8').strip() + JOINED.suffix + JOINED.parent.name": (
        "plain_text.txtconf"
    ),
    'str(os.path.exists(HERE + "/conf/a.yaml")) + str(os.path.isdir(HERE + "/conf"))': "TrueTrue",
    'str(os.path.isfile(HERE + "/conf")) + str(SQL.is_dir())': "FalseTrue",
    '",".join(sorted(os.listdir(SQL)))': "deep,load_orders.sql,load_users.sql",
    '",".join(os.path.basename(p) for p in sorted(glob.glob(HERE + "/sql/*.sql")))': (
        "load_orders.sql,load_users.sql"
    ),
    'str(len(glob.glob(HERE + "/sql/**/*.sql", recursive=True)))': "3",
    '",".join(p.stem for p in sorted(SQL.rglob("*.sql")))': "nested,load_orders,load_users",
    "str(len(list(SQL.iterdir())))": "3",
    'JOINED.open().read().strip() + os.path.normpath(HERE + "/./sql/../conf")[-4:]': (
        "plain_textconf"
    ),
    '"+".join(sorted(os.path.basename(p) for p in glob.iglob(HERE + "/sql/*.sql")))': (
        "load_orders.sql+load_users.sql"
    ),
}


@pytest.mark.parametrize("expression", sorted(KNOWN_READS))
def test_reads_of_the_repository_are_computed(tmp_path: Path, expression: str) -> None:
    queue = _queue(tmp_path, expression, READS)
    assert queue.known and queue.value == KNOWN_READS[expression], queue.reason


def test_one_task_per_file_found_by_os_walk(tmp_path: Path) -> None:
    source = HEADER + (
        'with DAG("d"):\n'
        '    for folder, _, files in os.walk(os.path.join(HERE, "sql")):\n'
        "        for name in files:\n"
        '            BashOperator(task_id=name.split(".")[0], bash_command="x")\n'
    )
    assert sorted(routes(tmp_path, source, DATA)) == ["load_orders", "load_users", "nested"]


def test_a_generator_of_files_is_iterated_once(tmp_path: Path) -> None:
    """``os.walk``, ``Path.glob`` and ``glob.iglob`` give generators: a second loop over one
    builds nothing in Python, so never its tasks again."""
    source = HEADER + (
        'SQL = Path(HERE) / "sql"\n'
        'found = SQL.glob("*.sql")\n'
        "walked = os.walk(str(SQL))\n"
        'listed = glob.iglob(HERE + "/sql/*.sql")\n'
        'with DAG("d"):\n'
        "    for path in found:\n"
        '        BashOperator(task_id="a_" + path.stem, bash_command="x")\n'
        "    for path in found:\n"
        '        BashOperator(task_id="b_" + path.stem, bash_command="x")\n'
        "    for _, _, files in walked:\n"
        "        pass\n"
        "    for _, _, files in walked:\n"
        '        BashOperator(task_id="c_" + str(len(files)), bash_command="x")\n'
        "    for path in listed:\n"
        "        pass\n"
        "    for path in listed:\n"
        '        BashOperator(task_id="d_" + os.path.basename(path), bash_command="x")\n'
    )
    # A second loop is walked once under a condition (a DRL106 place): ids not known, "?".
    known = sorted(task_id for task_id in routes(tmp_path, source, DATA) if task_id != "?")
    assert known == ["a_load_orders", "a_load_users"]


@pytest.mark.parametrize(
    ("write", "why"),
    [
        ('open(HERE + "/conf/c.txt", "w").write("other")', "for writing before"),
        ('(Path(HERE) / "conf/c.txt").write_text("other", encoding="latin-1")', "write_text()"),
        ('Path(HERE).joinpath("conf").rmdir()', "rmdir()"),
    ],
)
def test_a_read_after_the_file_writes_files_is_unknown(
    tmp_path: Path, write: str, why: str
) -> None:
    """The walked code changed the repository's files: a later read is not the repository's."""
    setup = f'BEFORE = open(HERE + "/conf/c.txt").read()\n{write}\n'
    setup += 'AFTER = open(HERE + "/conf/c.txt").read()\n'
    assert _queue(tmp_path / "a", "BEFORE.strip()", setup).value == "plain_text"
    after = _queue(tmp_path / "b", "AFTER", setup)
    assert not after.known and why in (after.reason or ""), after.reason


UNKNOWN_READS = {
    'glob.glob(HERE + "/sql/*.sql")[0]': "file system's order",
    "list(enumerate(os.listdir(HERE)))": "enumerate",
    'open("/etc/hostname").read()': "outside the repository",
    'open("dags/conf/c.txt").read()': "working directory, which is not known",
    'glob.glob("dags/sql/*.sql")': "working directory, which is not known",
    'os.path.abspath("dags/conf/c.txt")': "working directory, which is not known",
    'open(HERE + "/../../outside.txt").read()': "outside the repository",
    'yaml.load(open(HERE + "/conf/a.yaml"), Loader=yaml.Loader)["queue"]': "Python objects",
    'yaml.unsafe_load(open(HERE + "/conf/a.yaml"))': "yaml.unsafe_load",
    'pickle.load(open(HERE + "/conf/c.txt", "rb"))': "pickle.load",
    'subprocess.check_output(["cat", HERE + "/conf/c.txt"], text=True)': "subprocess",
    'open(HERE + "/conf/missing.yaml").read()': "cannot be read",
    'open(HERE + "/conf/c.txt", "w").read()': "other than reading text",
    'open(HERE + "/conf/c.txt", encoding="latin-1").read()': "UTF-8 only",
    'json.loads("{not json")': "raises",
}


@pytest.mark.parametrize("read", sorted(UNKNOWN_READS))
def test_reads_the_walk_does_not_make_are_unknown_with_why(tmp_path: Path, read: str) -> None:
    (tmp_path / "outside.txt").write_text("secret")
    queue = _queue(tmp_path / "repo", "X", f"import pickle, subprocess\nX = {read}")
    assert not queue.known and UNKNOWN_READS[read] in (queue.reason or ""), queue.reason


def test_a_file_over_the_bound_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data_files, "MAX_FILE_BYTES", 4)
    source = HEADER + (
        'with DAG("d"):\n'
        '    for name in json.load(open(HERE + "/conf/b.json"))["names"]:\n'
        '        BashOperator(task_id=name, bash_command="x")\n'
    )
    report = lint_repo(tmp_path, {"dags/dag.py": source, **DATA}, inventory=None)
    said = [d.message for d in report.diagnostics if d.code == "DRL106"]
    assert len(said) == 1 and "larger than 4 bytes (the bound)" in said[0], said


def test_yaml_without_pyyaml_says_to_install_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "yaml", None)  # ``import yaml`` raises ImportError
    source = HEADER.replace("import yaml\n", "") + (
        'import yaml\nC = yaml.safe_load(open(HERE + "/conf/a.yaml"))\n'
        'with DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue=C["queue"])\n'
    )
    queue = routes(tmp_path, source, DATA)["t"].fields["queue"]
    assert not queue.known and "install dagroute-lint[deploy]" in (queue.reason or "")


CONFIG_DAG = """
import os
import yaml
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with open(os.path.join(os.path.dirname(__file__), "conf.yaml")) as handle:
    CONF = yaml.safe_load(handle)

with DAG("config"):
    BashOperator(task_id="t", bash_command="x", queue=CONF["queue"])
"""


def _lint(*args: str) -> str:
    result = CliRunner().invoke(main, ["dags", "--inventory", "dagroute.toml", "-j", "1", *args])
    return result.stdout


def test_editing_a_data_file_lints_the_dag_built_from_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_repo(
        tmp_path,
        {
            "pyproject.toml": SETTINGS_WITH_DAGS,
            "dagroute.toml": CELERY_K8S,
            "dags/config.py": CONFIG_DAG,
            "dags/conf.yaml": "queue: default\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    clean = _lint()
    assert "DRL101" not in clean and _lint() == clean  # cold, then warm from the cache
    (tmp_path / "dags/conf.yaml").write_text("queue: nowhere\n")
    changed = _lint()
    assert "DRL101" in changed and "nowhere" in changed
    assert changed == _lint("--no-cache")
    assert os.path.isdir(tmp_path / ".dagroute_cache")


@pytest.mark.parametrize(
    "call",
    [
        'dagfactory.DagFactory(os.path.join(HERE, "conf/a.yaml")).generate_dags(globals())',
        'dagfactory.load_yaml_dags(globals_dict=globals(), dags_folder=HERE + "/conf")',
    ],
)
def test_dag_factory_is_said_not_seen(tmp_path: Path, call: str) -> None:
    """dag-factory's YAML schema is not modelled: the file says so rather than reading clean."""
    source = HEADER + f"import dagfactory\n{call}\n"
    report = lint_repo(tmp_path, {"dags/dag.py": source, **DATA}, inventory=None)
    said = [d.message for d in report.diagnostics if d.code == "DRL106"]
    assert len(said) == 1 and "is given globals()" in said[0] and "dag-factory" in said[0]


def test_a_module_built_from_a_data_file_keeps_its_importers_results_fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``shared/settings.py`` (at the repository root, not a reported file) reads the YAML; the
    DAG file imports a constant from it."""
    write_repo(
        tmp_path,
        {
            "pyproject.toml": SETTINGS_WITH_DAGS,
            "dagroute.toml": CELERY_K8S,
            "shared/__init__.py": "",
            "shared/settings.py": (
                "import os\nimport yaml\nHERE = os.path.dirname(__file__)\n"
                'QUEUE = yaml.safe_load(open(os.path.join(HERE, "q.yaml")))["q"]\n'
            ),
            "shared/q.yaml": "q: default\n",
            "dags/importer.py": (
                "from airflow.providers.standard.operators.bash import BashOperator\n"
                "from airflow.sdk import DAG\nfrom shared.settings import QUEUE\n"
                'with DAG("importer"):\n'
                '    BashOperator(task_id="t", bash_command="x", queue=QUEUE)\n'
            ),
        },
    )
    monkeypatch.chdir(tmp_path)
    clean = _lint()
    assert "DRL101" not in clean and "DRL105" not in clean and _lint() == clean
    (tmp_path / "shared/q.yaml").write_text("q: nowhere\n")
    changed = _lint()
    assert "DRL101" in changed and "nowhere" in changed
    assert changed == _lint("--no-cache")


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    """Opening a FIFO blocks until a writer comes: the walk refuses anything but a file."""
    (tmp_path / "dags").mkdir()
    os.mkfifo(tmp_path / "dags" / "pipe.yaml")
    queue = _queue(tmp_path, "X", 'X = open(HERE + "/pipe.yaml").read()')
    assert not queue.known and "not a regular file" in (queue.reason or "")


def test_walk_and_listing_bounds_are_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data_files, "MAX_ENTRIES", 2)
    walked = _queue(tmp_path / "a", "X", 'X = str(len(list(os.walk(HERE + "/sql"))))')
    listed = _queue(tmp_path / "b", "X", 'X = str(len(glob.glob(HERE + "/sql/*.sql")) + 1)')
    assert not walked.known and "(the bound)" in (walked.reason or ""), walked.reason
    assert listed.known and listed.value == "3"  # two matches: within the bound


def test_a_file_object_is_read_once(tmp_path: Path) -> None:
    """A second ``f.read()`` gives what is left (nothing): never the text again."""
    setup = 'f = open(HERE + "/conf/c.txt")\nFIRST = f.read()\nX = f.read()'
    assert _queue(tmp_path / "a", "FIRST.strip()", setup).value == "plain_text"
    again = _queue(tmp_path / "b", "X", setup)
    assert not again.known and "read or closed before" in (again.reason or "")
    loaded = _queue(tmp_path / "c", "X", 'X = json.load(HERE + "/conf/b.json")')
    assert not loaded.known  # json.load takes a file object, not its path


def test_path_glob_matches_as_pathlib_does(tmp_path: Path) -> None:
    """``Path.glob`` matches hidden files, which ``glob.glob`` leaves out."""
    data = {**DATA, "dags/sql/.hidden.sql": "select 0"}
    expression = 'str(len(list(SQL.glob("*.sql")))) + str(len(glob.glob(HERE + "/sql/*.sql")))'
    source = (
        HEADER
        + 'SQL = Path(HERE) / "sql"\n'
        + f'with DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue={expression})\n'
    )
    assert routes(tmp_path, source, data)["t"].fields["queue"].value == "32"


def test_a_module_imported_that_writes_files_makes_later_reads_unknown(tmp_path: Path) -> None:
    """``common.setup``'s body, walked when ``queue()`` is called, writes ``c.txt``: the read
    after it is not the repository's text."""
    source = (
        "import os\nfrom common.setup import queue\nfrom airflow.sdk import DAG\n"
        "from airflow.providers.standard.operators.empty import EmptyOperator\n"
        'Q = queue()\nTEXT = open(os.path.dirname(__file__) + "/c.txt").read()\n'
        'with DAG("d"):\n    EmptyOperator(task_id="t", queue=Q, pool=TEXT)\n'
    )
    setup = 'import os\nopen(os.path.dirname(__file__) + "/../c.txt", "w").write("x")\n'
    extra = {
        "dags/common/__init__.py": "",
        "dags/common/setup.py": setup + 'def queue():\n    return "q"\n',
        "dags/c.txt": "plain\n",
    }
    task = routes(tmp_path, source, extra)["t"]
    assert task.fields["queue"].value == "q"
    pool = task.fields["pool"]
    assert not pool.known
    assert "module common.setup, imported before, writes files" in (pool.reason or "")
