"""Shared default_args that one DAG file changes in place after importing them."""

SHARED = {"owner": "finance", "queue": "finance"}
