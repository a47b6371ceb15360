from settings import OWNER

OWNERS = [OWNER]
