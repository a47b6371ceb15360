import os

EXPORT_QUEUE = os.environ.get("EXPORT_QUEUE", "default")
