"""Errors that stop a run with exit code 2: bad usage, configuration or inventory."""

from __future__ import annotations

from pathlib import Path


class ConfigError(Exception):
    """A problem the user must fix in a file or on the command line; printed without traceback."""


def read_user_file(path: Path, missing: str = "no such file") -> str:
    """The UTF-8 text of a file the user named, or the one-line ``ConfigError`` saying why not."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: {missing}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
