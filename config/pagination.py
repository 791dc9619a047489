from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    """Page-number pagination with absolute next/previous links and a total `count`.

    A page_size that is not a positive integer is a 400 (the common error shape), not a silent default;
    values above max_page_size are capped.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None or raw == "":
            return self.page_size
        try:
            value = int(raw)
        except ValueError:
            raise ValidationError({"page_size": ["A positive integer is required."]}) from None
        if value < 1:
            raise ValidationError({"page_size": ["A positive integer is required."]})
        return min(value, self.max_page_size)
