from report import SCHEDULE

LEVEL = "high"
