"""Stage 1, sources: which files to lint, how to read them, what the repository provides."""
