import owners

TEAM = "lab"
