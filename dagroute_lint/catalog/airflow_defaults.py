"""Airflow's own defaults, for what a task leaves unset and a deployment leaves unconfigured."""

from __future__ import annotations

# ``[operators] default_queue`` (semantics §1.2): the queue of a task that sets none.
DEFAULT_QUEUE = "default"
# ``BaseOperator(pool=None)`` means this pool; it always exists: it is created at DB init with
# ``[core] default_pool_task_slot_count`` slots and cannot be deleted (semantics §4).
DEFAULT_POOL = "default_pool"
DEFAULT_POOL_SIZE = 128
# ``BaseOperator(pool_slots=1)``.
DEFAULT_POOL_SLOTS = 1
# The Airflow major version checks assume when the inventory names none.
DEFAULT_AIRFLOW_MAJOR = 3
# Names Airflow's secrets masker hides the value of (``DEFAULT_SENSITIVE_FIELDS``, 3.3.2): a
# name holding one of them, in any case, names a secret.
SENSITIVE_FIELDS = frozenset(
    {
        "access_key", "access_token", "api_key", "apikey", "auth_header", "authorization",
        "bearer", "connection_string", "dsn", "passphrase", "passwd", "password", "private_key",
        "proxy", "proxy_password", "proxies", "secret", "service_account", "service_key", "token",
        "keyfile_dict", "webhook_url",
    }
)  # fmt: skip
