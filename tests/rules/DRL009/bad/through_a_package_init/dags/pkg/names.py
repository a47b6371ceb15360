PREFIX = "team_"
