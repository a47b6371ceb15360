def save_link(url: str) -> str:
    return url.rstrip("/")
