"""Fixtures of the contract tests: the live OpenAPI schema, loaded by schemathesis from the WSGI app."""

from __future__ import annotations

import copy

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application

# schemathesis' response-conformance checks
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


# The served schema per catalog (its code filters list the catalog's codes): generated once a session, not
# for each of the tests that fuzz or play through it (about a second of CPU each).
_SERVED: dict[str, dict] = {}


@pytest.fixture
def live_schema(catalog_rows):
    """The schema the app serves at /api/schema/; cases sent through it reach the WSGI application."""
    # The WSGI handler would close the test's database connection at each request's end; as Django's
    # test client does, keep it open (the whole run is one test transaction).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        if catalog_rows not in _SERVED:
            # as JSON: the YAML the URL gives by default takes about a second more to read
            served = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
            _SERVED[catalog_rows] = served.raw_schema
        schema = schemathesis.openapi.from_dict(copy.deepcopy(_SERVED[catalog_rows]))
        schema.app, schema.location = application, "/api/schema/"
        yield schema
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
