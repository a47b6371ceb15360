from common.clients import search_client
