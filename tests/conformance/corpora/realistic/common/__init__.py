"""Shared building blocks of the data platform's DAG repository."""
