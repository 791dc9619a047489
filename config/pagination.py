from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    """Page-number pagination with absolute next/previous links and a total `count`."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
