def table_name(name: str) -> str:
    return f"raw_{name}"
