"""Queue, pool and executor names the platform team provisions workers for."""

ETL_QUEUE = "etl"
REPORTS_QUEUE = "reports"
GPU_QUEUE = "ml-gpu"
IO_QUEUE = "io-heavy"

TEAM = "finance"
REGION = "eu"
QUEUE_TEMPLATE = "{team}-{region}"
SIZE_SUFFIX = "-large"

WAREHOUSE_POOL = "warehouse"
PARTNER_API_POOL = "partner_api"
WAREHOUSE_SLOTS = 2

K8S_EXECUTOR = "KubernetesExecutor"
LOCAL_EXECUTOR = "LocalExecutor"

SHARDS = ["shard_a", "shard_b", "shard_c"]
PARTNERS = (
    ("acme", PARTNER_API_POOL, 2),
    ("globex", WAREHOUSE_POOL, 1),
)
