"""What the deployment provides: the inventory, executors, requirements; ``init`` builds one."""
