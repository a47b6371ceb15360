def search_client() -> object:
    import opensearchpy

    return opensearchpy.OpenSearch()
