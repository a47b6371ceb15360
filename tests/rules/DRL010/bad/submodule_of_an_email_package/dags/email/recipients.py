OWNER = "team-reports"
