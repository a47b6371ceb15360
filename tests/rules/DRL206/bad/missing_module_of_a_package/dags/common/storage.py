def upload(key: str) -> None:
    print(key)
