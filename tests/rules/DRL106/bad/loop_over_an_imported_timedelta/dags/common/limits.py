from datetime import timedelta

LIMIT = timedelta(hours=1)
