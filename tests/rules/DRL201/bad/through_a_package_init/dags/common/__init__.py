try:
    import yaml
except ImportError:
    yaml = None

from airflow.providers.amazon.aws.hooks.s3 import S3Hook

HOOK = S3Hook
