from report import SCHEDULE

OWNER = "team"
