"""Deployment acceptance: what the DAGs need that an inventory lacks, and what a change loses."""
