def table_name(kind: str) -> str:
    return ("raw_" + kind
