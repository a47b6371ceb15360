def owner() -> str:
    from report import SCHEDULE

    return "team-" + SCHEDULE.strip("@")
