from report import SCHEDULE

OWNER = "team-" + SCHEDULE.strip("@")
