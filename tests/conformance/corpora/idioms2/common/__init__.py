"""Helpers shared by the DAG files of this repository (imported, never DAG files themselves)."""
