"""Queue names and default arguments the team's DAGs share."""

IMPORTS_QUEUE = "imports"
REPORTS_QUEUE = "reports"

DEFAULT_ARGS = {
    "owner": "data-platform",
    "retries": 2,
}
