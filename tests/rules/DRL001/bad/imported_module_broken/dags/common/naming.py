def table_name(kind: str) -> str:
    return f"raw_{kind"
