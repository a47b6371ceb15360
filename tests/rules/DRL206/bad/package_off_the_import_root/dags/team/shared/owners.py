OWNER = "team"
