"""Per-team settings; re-exports each team's defaults."""

from .analytics import ANALYTICS_ARGS, ANALYTICS_QUEUE

__all__ = ["ANALYTICS_ARGS", "ANALYTICS_QUEUE"]
