REPORTS = "reporting"
