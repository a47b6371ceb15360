IMPORTS_QUEUE = "imports"
REPORTS_QUEUE = "reports"
