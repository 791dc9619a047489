"""Production settings (`make serve`: gunicorn managing uvicorn ASGI workers). They fail closed.

Required: SECRET_KEY (50+ random characters) and ALLOWED_HOSTS; DEBUG is always off; cookies are secure,
HTTPS is enforced (SECURE_SSL_REDIRECT, HSTS) and TLS is expected to end at a reverse proxy that sets
X-Forwarded-Proto. See README "Running in production".
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, LOGGING, MIDDLEWARE, REST_FRAMEWORK, env


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip() or env.str(name, default="").strip()
    if not value:
        raise ImproperlyConfigured(f"{name} must be set in the environment for production settings.")
    return value


DEBUG = False
# base.py relaxes the registration throttle when the environment says DEBUG: not here.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["register"] = env("THROTTLE_REGISTER", default="10/hour")
SECRET_KEY = _required("SECRET_KEY")
if SECRET_KEY.startswith(("dev-only-", "django-insecure-")) or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured(
        "SECRET_KEY must be a real secret of 50+ characters, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = [h.strip() for h in _required("ALLOWED_HOSTS").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS: the reverse proxy ends TLS and says so in X-Forwarded-Proto (it must overwrite a client's value).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

SILENCED_SYSTEM_CHECKS = [
    # security.W021 (HSTS preload not set): submitting a domain to the browsers' preload list is a one-way
    # decision of the domain's owner, not of this project; set SECURE_HSTS_PRELOAD=true once that is done.
    "security.W021",
]

# /metrics needs METRICS_TOKEN (Authorization: Bearer <token>): a proxy on the same host that sends no
# forwarding header cannot be told apart from a loopback scraper, so "loopback without a token" is off here.
METRICS_LOOPBACK_WITHOUT_TOKEN = False

# Static files (admin, browsable API, Swagger UI): collected by `make serve`, served by WhiteNoise.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
MIDDLEWARE = [
    *MIDDLEWARE[: MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1],
    "whitenoise.middleware.WhiteNoiseMiddleware",
    *MIDDLEWARE[MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1 :],
]

# Database connections. Under ASGI each request's synchronous part runs in its own thread, so Django's
# per-thread persistent connections (CONN_MAX_AGE) would never be reused: PostgreSQL gets a psycopg
# connection pool per worker process instead, whose connections are checked before each reuse
# (CONN_HEALTH_CHECKS=True becomes the pool's `check`: config.postgresql's, which sends a statement only
# when the connection is not idle or has something waiting on its socket, e.g. PostgreSQL ending it).
# DB_POOL=false falls back to persistent connections (CONN_MAX_AGE) with CONN_HEALTH_CHECKS.
#
# A database outage (a restart, a failover, killed backends): a dead pooled connection fails the check and is
# dropped, and the pool connects anew. psycopg_pool retries a failed connection with a doubling delay (1, 2,
# 4, 8 ... s) until `reconnect_timeout`, so after a long outage it could wait most of a minute before
# trying again while requests wait for it; here each attempt gives up after DB_POOL_RECONNECT_TIMEOUT and
# `reconnect_failed` starts a new one at once (pool.check() grows the pool again), so a connection is tried
# at least every ~2 s and requests are served within seconds of the database coming back. New connections
# give up after DB_CONNECT_TIMEOUT (libpq's connect_timeout) instead of hanging on an unreachable host.
#
# Every wait on the database is bounded (issue 34: requests hung as long as a network partition lasted):
# - DB_STATEMENT_TIMEOUT (seconds, default 30; 0: none): PostgreSQL cancels a longer statement, and the
#   request is a 503 `database_timeout` (config.middleware) instead of holding a thread and a connection;
# - TCP keepalives (DB_KEEPALIVES_IDLE / _INTERVAL / _COUNT, default 10 / 5 / 3 s) and DB_TCP_USER_TIMEOUT
#   (seconds, default 20): a connection whose server vanished without closing it (a partition, a host
#   gone) fails within about 20 s, whether it was idle, waiting for an answer or sending, instead of after
#   the kernel's retransmissions (15 minutes);
# DATABASE_URL's own parameters (e.g. ?keepalives_idle=60) win.
#
# Prepared statements (DB_PREPARE_THRESHOLD, default 2; "off": none): the hot path's statements, whose SQL
# text is the same at every run (config.prepared: the token read, the game row and its seats, the progress
# write), are prepared on the server once a connection has run one that many times, so PostgreSQL plans
# each once per connection instead of at every request (issue 42: planning was about 0.8 ms of PostgreSQL's
# CPU per action POST). Django's own queries bind on the client and are never prepared. Set it to "off"
# behind a pooler that shares server sessions between clients (PgBouncer in transaction mode before 1.21).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _prepare = env("DB_PREPARE_THRESHOLD", default="2").strip().lower()
    if _prepare not in ("off", "none", "") and not _prepare.isdigit():
        raise ImproperlyConfigured(f"DB_PREPARE_THRESHOLD must be a whole number or 'off', not {_prepare!r}")
    _options.setdefault("prepare_threshold", int(_prepare) if _prepare.isdigit() else None)
    _options.setdefault("connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5))
    _options.setdefault("keepalives", 1)
    _options.setdefault("keepalives_idle", env.int("DB_KEEPALIVES_IDLE", default=10))
    _options.setdefault("keepalives_interval", env.int("DB_KEEPALIVES_INTERVAL", default=5))
    _options.setdefault("keepalives_count", env.int("DB_KEEPALIVES_COUNT", default=3))
    _options.setdefault("tcp_user_timeout", int(1000 * env.float("DB_TCP_USER_TIMEOUT", default=20.0)))
    _statement_ms = int(1000 * env.float("DB_STATEMENT_TIMEOUT", default=30.0))
    if _statement_ms > 0 and "statement_timeout" not in _options.get("options", ""):
        _options["options"] = f"{_options.get('options', '')} -c statement_timeout={_statement_ms}".strip()


def _reconnect_now(pool) -> None:
    """psycopg_pool's reconnect_failed: a reconnection gave up; start a new one with a short delay again."""
    pool.check()


if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool("DB_POOL", default=True):
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections
    # Django's backend, whose pool checks a connection with no round trip unless it shows something wrong
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=20),
        "timeout": env.float("DB_POOL_TIMEOUT", default=30.0),  # then 503 server_busy with Retry-After
        "reconnect_timeout": env.float("DB_POOL_RECONNECT_TIMEOUT", default=5.0),
        "reconnect_failed": _reconnect_now,
    }

LOGGING = {
    **LOGGING,  # the request id on every line (config/request_log.py)
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {**LOGGING["loggers"], "django.request": {"level": "ERROR"}},
}
