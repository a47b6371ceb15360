OWNER = "finance"
