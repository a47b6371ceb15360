BASE = "report"

from common.second import NAME  # noqa: E402
