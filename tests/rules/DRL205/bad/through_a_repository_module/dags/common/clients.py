import opensearchpy


def search_client() -> opensearchpy.OpenSearch:
    return opensearchpy.OpenSearch()
