"""The pipeline that ties the stages: targets, parallel extraction, the cache, the runner."""
