BUCKET = "lab"
