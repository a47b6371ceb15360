"""The evaluator of the pure subset of Python that DAG files are written in, one part per module."""
