ROUTING_QUEUE = "reports"
