import common.second


def name() -> str:
    return common.second.NAME
