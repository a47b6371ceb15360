"""Queues, pools and default_args of the data platform, and the builders every team uses."""

import enum
from datetime import timedelta


class QUEUES:
    DEFAULT = "default"
    INGEST = "ingest"
    TRANSFORM = "transform"
    EXPORT = "export"

    class GPU:
        SMALL = "gpu-small"
        LARGE = "gpu-large"


class POOLS:
    WAREHOUSE = "warehouse"
    PARTNER_API = "partner_api"
    SFTP = "sftp"


class Tier(enum.Enum):
    GOLD = "gold"
    SILVER = "silver"
    BRONZE = "bronze"


TIER_QUEUES = {Tier.GOLD: "tier-gold", Tier.SILVER: "tier-silver", Tier.BRONZE: "tier-bronze"}

BASE_ARGS = {
    "owner": "data-platform",
    "retries": 2,
    "retry_delay": timedelta(minutes=5),
    "depends_on_past": False,
}


def get_default_args(**overrides):
    args = BASE_ARGS.copy()
    args.update(overrides)
    return args


def team_args(team, queue=QUEUES.DEFAULT, pool=None):
    args = dict(BASE_ARGS, owner=team, queue=queue)
    if pool is not None:
        args["pool"] = pool
    return args
