def columns() -> list[str]:
    return ["x", "y"]
