OWNER = "orders"
