"""The pipeline that ties the stages: targets, the analysis (extraction, cache), the lint run."""
