# The import back into the DAG file is guarded: its ImportError is caught, the file loads.
try:
    from report import SCHEDULE
except ImportError:
    SCHEDULE = "@daily"

OWNER = "team-" + SCHEDULE.strip("@")
