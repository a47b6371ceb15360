from common.naming import table_name


def target() -> str:
    return table_name("orders")
