from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

# The largest row offset both databases take (PostgreSQL's bigint, SQLite's INTEGER): a page whose rows would
# end past it is past the last page of any list, and its OFFSET/LIMIT would not even bind (a 500, issue 34).
MAX_ROW_OFFSET = 2**63 - 1


def addressable(number: int, size: int) -> bool:
    """Whether page `number` (of `size` rows) can be read with one OFFSET/LIMIT on every database; a page
    that is not takes the paginator's own path, which counts the rows first and answers past the end: 404."""
    return number >= 1 and number * size <= MAX_ROW_OFFSET


class StandardPagination(PageNumberPagination):
    """Page-number pagination with absolute next/previous links and a total `count`.

    A page_size that is not a positive integer is a 400 (the common error shape), not a silent default;
    values above max_page_size are capped.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:  # what get_page_size and the paginator enforce
            parameter["schema"] = {**parameter["schema"], "minimum": 1}
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = (
                    f"Results per page, at least 1 (default {self.page_size}; above {self.max_page_size} is "
                    f"capped to {self.max_page_size})."
                )
        return parameters

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
