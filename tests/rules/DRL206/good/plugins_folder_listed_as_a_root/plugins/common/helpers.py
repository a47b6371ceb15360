OWNER = "data"
