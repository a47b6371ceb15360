OWNER = "analytics"
