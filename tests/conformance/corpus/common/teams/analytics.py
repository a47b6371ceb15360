"""Defaults of the analytics team, built from the shared ones with relative imports."""

from ..defaults import BASE_ARGS
from ..routing import PARTNER_API_POOL, REPORTS_QUEUE

ANALYTICS_QUEUE = REPORTS_QUEUE + "-analytics"

ANALYTICS_ARGS = {
    **BASE_ARGS,
    "queue": ANALYTICS_QUEUE,
    "pool": PARTNER_API_POOL,
}
