PREFIX = "lab"
