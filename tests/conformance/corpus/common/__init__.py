"""Shared settings for the data-platform pipelines; re-exports the names most files need."""

from .defaults import BASE_ARGS, WAREHOUSE_ARGS
from .routing import ETL_QUEUE, REPORTS_QUEUE

__all__ = ["BASE_ARGS", "ETL_QUEUE", "REPORTS_QUEUE", "WAREHOUSE_ARGS"]
