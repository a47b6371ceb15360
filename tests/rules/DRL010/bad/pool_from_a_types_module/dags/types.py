POOL_NAME = "reports"
