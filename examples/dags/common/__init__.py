"""Routing conventions shared by every DAG of the team."""
