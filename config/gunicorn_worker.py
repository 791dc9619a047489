"""The uvicorn worker of `make serve`, with uvicorn's own proxy-header rewriting turned off.

Django alone decides who the client is (REMOTE_ADDR, or X-Forwarded-For through TRUSTED_PROXIES for the
throttles) and whether the request came over HTTPS (X-Forwarded-Proto, SECURE_PROXY_SSL_HEADER), so one
setting governs each, whatever the server in front.
"""

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False, "server_header": False}
