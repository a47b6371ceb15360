# A guarded import above the one that comes back does not end the walk.
try:
    import yaml
except ImportError:
    yaml = None

from report import SCHEDULE

OWNER = "team-" + SCHEDULE.strip("@")
