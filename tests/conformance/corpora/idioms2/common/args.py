"""default_args builders: every DAG starts from BASE and adds its own keys."""

from datetime import timedelta

BASE = {"owner": "data-platform", "retries": 2, "retry_delay": timedelta(minutes=5)}


def get_default_args(**kw):
    a = BASE.copy()
    a.update(kw)
    return a


def team_args(team, queue=None):
    args = dict(BASE, owner=team)
    if queue:
        args["queue"] = queue
    return args


def merged(extra):
    return BASE | extra
