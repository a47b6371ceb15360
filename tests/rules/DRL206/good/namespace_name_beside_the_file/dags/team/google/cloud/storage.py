STORAGE = "local"
