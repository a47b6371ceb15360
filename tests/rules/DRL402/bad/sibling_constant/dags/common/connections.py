WAREHOUSE = "warehouse_v2"
