"""Errors that stop a run with exit code 2: bad usage, configuration or inventory."""

from __future__ import annotations


class ConfigError(Exception):
    """A problem the user must fix in a file or on the command line; printed without traceback."""
