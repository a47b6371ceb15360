"""Catalogue ingestion jobs."""
