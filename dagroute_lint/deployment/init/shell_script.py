"""The commands of a shell script a container starts with (``entrypoint: /opt/airflow/start.sh``).

Deployments often start Airflow from a script of the repository (``exec airflow standalone``,
``airflow scheduler &``). The script is read as text, never run: each line (continuations
joined, comments dropped) is split as the shell splits it, and each simple command between
``&&``, ``||``, ``;``, ``|`` and ``&`` is one word list. What a shell would compute (variables,
functions, ``if``) is not followed; a line that does not split is passed over. The reading is
bounded: a script larger than ``MAX_BYTES`` is read only up to there.

What a script does to the environment Airflow starts with is read too (``environment_step``):
``set -a`` / ``set -o allexport`` and their ``+`` forms, ``source FILE`` / ``. FILE`` and
``export NAME=value``, the forms start scripts load a project's settings file with.
"""

from __future__ import annotations

import posixpath
import shlex
from pathlib import Path

from dagroute_lint.errors import read_user_file
from dagroute_lint.records import record

MAX_BYTES = 256 * 1024
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", ";;"})
# Words that run the next one (``exec airflow standalone``, ``nohup airflow scheduler &``).
_PREFIXES = frozenset(
    {"exec", "nohup", "command", "time", "sudo", "gosu", "su-exec", "tini", "dumb-init", "--"}
)
SUFFIXES = (".sh", ".bash")


def script_commands(path: Path) -> list[tuple[int, list[str]]]:
    """``(line, words)`` of each simple command in the script, runner words dropped."""
    text = read_user_file(path)[:MAX_BYTES]
    found: list[tuple[int, list[str]]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        start = index
        line = lines[index]
        index += 1
        while line.rstrip().endswith("\\") and index < len(lines):
            line = line.rstrip()[:-1] + " " + lines[index]
            index += 1
        try:
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            tokens = list(lexer)
        except ValueError:
            continue  # a quote spanning lines (a heredoc, a multi-line string): not a command
        command: list[str] = []
        for token in [*tokens, ";"]:
            if token in _SEPARATORS:
                while command and posixpath.basename(command[0]) in _PREFIXES:
                    command.pop(0)
                if command:
                    found.append((start + 1, command))
                command = []
            else:
                command.append(token)
    return found


@record
class EnvironmentStep:
    """One command of a start script that changes the environment its children start with:
    ``allexport`` switched on or off, a file ``sourced``, or ``exported`` names (a value holding
    a ``$`` expansion is ``None``: only the running shell knows it)."""

    allexport: bool | None = None
    sourced: str | None = None
    exported: tuple[tuple[str, str | None], ...] = ()


def environment_step(words: list[str]) -> EnvironmentStep | None:
    """The change ``words`` make to the environment, or ``None`` when they make none."""
    if words[:1] == ["set"] and len(words) >= 2:
        if words[1:3] in (["-o", "allexport"], ["+o", "allexport"]):
            return EnvironmentStep(allexport=words[1] == "-o")
        if words[1] in ("-a", "+a"):
            return EnvironmentStep(allexport=words[1] == "-a")
        return None
    if words[0] in ("source", ".") and len(words) >= 2:
        return EnvironmentStep(sourced=words[1])
    if words[0] == "export":
        pairs = [word.partition("=") for word in words[1:] if not word.startswith("-")]
        exported = tuple(
            (name, None if "$" in value else value) for name, equals, value in pairs if equals
        )
        return EnvironmentStep(exported=exported) if exported else None
    return None
