FORMAT = "local"
