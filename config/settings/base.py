"""Base settings. Every deploy-time value comes from the environment (django-environ).

DATABASE_URL defaults to an embedded SQLite file so `make run` works on a fresh machine.
"""
import sys
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from redis.backoff import NoBackoff
from redis.retry import Retry

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env(
    DEBUG=(bool, True),
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost", "testserver"]),
)
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
DEBUG = env("DEBUG")
ALLOWED_HOSTS = env("ALLOWED_HOSTS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_guid",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "cards.apps.CardsConfig",
    "accounts.apps.AccountsConfig",  # registration and API tokens (DRF's authtoken)
    "decks.apps.DecksConfig",
    "games.apps.GamesConfig",
    "simulations.apps.SimulationsConfig",
    "web.apps.WebConfig",  # the site at / (server-rendered pages over the same services and selectors)
]

MIDDLEWARE = [
    "config.request_log.RequestIdMiddleware",  # the request id (X-Request-ID) of every log line
    "config.health.OpsMiddleware",  # /health/live, /health/ready, /metrics: before host check and redirect
    "config.metrics.RequestMetricsMiddleware",  # latency per URL pattern
    "config.middleware.DisallowedHostHintMiddleware",  # under DEBUG: which host to add to ALLOWED_HOSTS
    "config.middleware.CorsMiddleware",  # CORS of /api/ (CORS_ALLOWED_ORIGINS): before any answer
    "config.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.throttling.LoginThrottleMiddleware",  # the session and admin log-in forms (POST) are throttled
    "web.middleware.SiteNotFoundMiddleware",  # under DEBUG: the site's own 404 page, not the URL list
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
# Persistent connections with a health check before reuse under a server whose threads live on (gunicorn's
# threaded workers with DB_POOL=false, `manage.py` commands). Not under the development server
# (`make run`): it serves each connection in a new thread, and a dying thread's persistent connection was
# left open until the garbage collector found it (42 idle connections after ~700 requests, the oldest idle
# 6 minutes), so there CONN_MAX_AGE defaults to 0, as Django's documentation advises. The production server
# uses a connection pool instead (config/settings/production.py).
DEVELOPMENT_SERVER = sys.argv[1:2] == ["runserver"]
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0 if DEVELOPMENT_SERVER else 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves several clients at once: writers queue for the lock (IMMEDIATE + a busy
    # timeout) instead of failing with "database is locked", and WAL lets readers go on while one writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# The browsable API's session login (/api/auth/session/login/) lands on the API root, not on a 404. The
# site's own log-in and log-out (web/urls.py) go back to the page they came from, else to the home page.
LOGIN_REDIRECT_URL = "/api/"
LOGOUT_REDIRECT_URL = "/api/"
LOGIN_URL = "/accounts/login/"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# The cache holds the throttles' counters, the per-user count of open event streams and the rendered
# catalog responses. It must be shared by every worker process for the limits to hold across them:
# CACHE_URL=redis://127.0.0.1:6379/0 (recommended) or dbcache://django_cache (run `manage.py
# createcachetable`). The default, a per-process memory cache, suits the one-process development server.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://battlecards")}
# Every wait on Redis is bounded: a connection attempt and a command each give up after
# CACHE_SOCKET_TIMEOUT seconds, and a failed command is retried once, at once (redis-py's default retries
# three times with back-off). During an outage the throttles let requests through; what needs the cache to
# be right answers 503 `cache_unavailable` (docs/production.md, "A cache outage").
REDIS_CACHE_OPTIONS = {
    "socket_connect_timeout": env.float("CACHE_SOCKET_TIMEOUT", default=1.0),
    "socket_timeout": env.float("CACHE_SOCKET_TIMEOUT", default=1.0),
    "retry": Retry(NoBackoff(), 1),
}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "config.redis_cache.RedisCache"  # one redis-py client per pool
    CACHES["default"]["OPTIONS"] = {**REDIS_CACHE_OPTIONS, **CACHES["default"].get("OPTIONS", {})}

# Largest request body accepted (oversized requests get a 413-style 400 in the common error shape).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=256 * 1024)

# Deepest JSON body accepted (config.parsers); deeper is a 400 malformed_request.
MAX_JSON_DEPTH = env.int("MAX_JSON_DEPTH", default=32)
# A query string or form body with more fields is a 400 too_many_fields (Django's own limit).
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
# Longest value of one query parameter (search terms, filters): longer is a 400 query_value_too_long, on every
# database (SQLite refuses LIKE patterns of 50,000 bytes).
MAX_QUERY_VALUE_LENGTH = env.int("MAX_QUERY_VALUE_LENGTH", default=1000)

# API tokens expire this many hours after they were issued (0: never); POST /api/auth/logout/ revokes one.
AUTH_TOKEN_TTL_HOURS = env.float("AUTH_TOKEN_TTL_HOURS", default=30 * 24)

# Games: how many open games (waiting for an opponent) one user may have at once, and how long an open game
# waits before it expires (hidden from the lobby at once; `manage.py expire_open_games` cancels it).
GAMES_MAX_OPEN_PER_USER = env.int("GAMES_MAX_OPEN_PER_USER", default=5)
GAMES_OPEN_TTL_HOURS = env.float("GAMES_OPEN_TTL_HOURS", default=24.0)
# Ratings: of the rated games between the same two players (users, or a user and a bot) in one game type, at
# most GAMES_RATED_PAIR_LIMIT rated within the last GAMES_RATED_PAIR_WINDOW_HOURS count (0: no limit).
GAMES_RATED_PAIR_LIMIT = env.int("GAMES_RATED_PAIR_LIMIT", default=5)
GAMES_RATED_PAIR_WINDOW_HOURS = env.float("GAMES_RATED_PAIR_WINDOW_HOURS", default=24.0)

REST_FRAMEWORK = {
    # JSON bodies only (bounded depth): several inputs are nested objects, which forms cannot carry, and the
    # schema advertises exactly what the server reads
    "DEFAULT_PARSER_CLASSES": ["config.parsers.BoundedJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.SearchFilter",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.StandardPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.exceptions.api_exception_handler",
    # Scoped rates (config/throttling.py): each key is a throttle scope; "anon" and "user" are DRF's defaults.
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("THROTTLE_ANON", default="120/min"),
        "user": env("THROTTLE_USER", default="600/min"),
        "game_create": env("THROTTLE_GAME_CREATE", default="30/min"),
        "game_action": env("THROTTLE_GAME_ACTION", default="600/min"),
        "deck_validate": env("THROTTLE_DECK_VALIDATE", default="120/min"),
        "deck_import": env("THROTTLE_DECK_IMPORT", default="30/min"),
        # 10 an hour per client (failures included); under DEBUG (`make run`) 1000, so a developer scripting
        # accounts is not locked out. Production settings force DEBUG off, and 10/hour with it.
        "register": env("THROTTLE_REGISTER", default="1000/hour" if DEBUG else "10/hour"),
        "token": env("THROTTLE_TOKEN", default="20/min"),
        "stream_ticket": env("THROTTLE_STREAM_TICKET", default="60/min"),  # single-use event-stream tickets
        "login": env("THROTTLE_LOGIN", default="10/min"),
        "simulations": env("THROTTLE_SIMULATIONS", default="30/hour"),  # simulation/balance job submissions
        "deck_print": env("THROTTLE_DECK_PRINT", default="30/min"),  # printable PDFs of decks and starters
        # a finished game's replay (GET /api/games/{id}/replay/ and each step of the site's replay page) and a
        # spectator view at a ?delay= of its own (and the site's watch page as loaded, not as refreshed)
        "replay": env("THROTTLE_REPLAY", default="120/min"),
        "spectate_delay": env("THROTTLE_SPECTATE_DELAY", default="60/min"),
    },
    # Throttles key anonymous clients on REMOTE_ADDR. Behind N reverse proxies that each append to
    # X-Forwarded-For, set TRUSTED_PROXIES=N: the client is then the N-th address from the right. With 0
    # (the default) X-Forwarded-For is ignored, so a client cannot pick its own throttle key.
    "NUM_PROXIES": env.int("TRUSTED_PROXIES", default=0),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Battlecards server API",
    "DESCRIPTION": (
        "Card catalog, deck builder and rules-validated games for BATTLECARDS: World Conflict (2002). "
        "Every error response has the shape {status, code, detail, ...}."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        # The War's (cards.the_war): named apart so they never take another catalog's enum name
        "TheWarCategoryEnum": "cards.the_war.models.THE_WAR_CATEGORY_CHOICES",
        "TheWarArmyEnum": "cards.the_war.models.THE_WAR_ARMY_CHOICES",
        "TheWarLineEnum": "cards.the_war.models.THE_WAR_LINE_CHOICES",
        "TheWarFeatureEnum": "cards.the_war.models.THE_WAR_FEATURES",
        "TheWarRestrictionEnum": "cards.the_war.models.THE_WAR_RESTRICTIONS",
        "CategoryEnum": "cards.models.CATEGORY_CHOICES",  # a conflict card's, named as before The War's
        "UnitKindEnum": "cards.models.KIND_CHOICES",
        "SetKindEnum": "cards.models.SET_KIND_CHOICES",
        "SeatEnum": "games.models.SeatName",  # every game's seats
        "DeckGameEnum": "games.game_type_fields.deck_game_choices",  # the games whose players build decks
        # a Battlecards seat: a 1v1 game's axis/allies, or a team game's army
        # (games.view_serializers_battlecards, games.decision_schemas)
        "BattlecardsSeatEnum": [
            "axis", "allies", *(f"{side}-{n}" for side in ("axis", "allies") for n in range(1, 5))
        ],
        "BattlecardsSideEnum": ["axis", "allies"],
        # a game's winner (games.models.SIDE_SEATS)
        "SideEnum": ["axis", "allies", "west", "east", "p1", "p2"],
        "BattlefrontSeatEnum": ["west", "east"],
        "BattlefrontFrontEnum": ["R", "CR", "C", "CL", "L"],
        "SeatKindEnum": "games.models.SeatKind",
        "LogKindEnum": "games.models.LogKind",
        "GameStatusEnum": "games.models.GameStatus",
        "BotEnum": "games.models.BotKind",  # a seat's bot in a game (search levels where a game has them)
        "SimulationBotEnum": "games.simulation.BOTS",  # the bots simulations and balance jobs play
        "ShotTypeEnum": ["fire", "autokill"],
        "EngineStatusEnum": ["active", "finished"],
        "ResultKindEnum": ["total", "standard", "all-battles-decided", "turn-limit"],
        # Tide of Iron's (cards.tide_of_iron, games.view_serializers_toi)
        "TideOfIronCardPhaseEnum": "cards.tide_of_iron.models.TOI_PHASE_CHOICES",
        "TideOfIronPhaseEnum": ["action", "command", "status"],
        "TideOfIronDirectionEnum": ["ne", "e", "se", "sw", "w", "nw"],
        "TheWarSeatEnum": ["p1", "p2"],  # The War's seats (games.view_serializers_the_war)
    },
}

# Catalog responses (config/http_cache.py): kept in the cache this long, and clients may reuse them this long
# without asking (they revalidate with If-None-Match afterwards). Each worker re-reads the catalog's version
# token at most every CATALOG_TOKEN_SECONDS, so a change made elsewhere shows within that delay.
HTTP_CACHE_SECONDS = env.int("HTTP_CACHE_SECONDS", default=3600)
HTTP_CACHE_MAX_AGE = env.int("HTTP_CACHE_MAX_AGE", default=60)
HTTP_CACHE_LOCAL_ENTRIES = env.int("HTTP_CACHE_LOCAL_ENTRIES", default=2000)  # per-process copies (LRU)
HTTP_CACHE_LOCAL_BYTES = env.int("HTTP_CACHE_LOCAL_BYTES", default=32 * 1024 * 1024)  # their bodies, in all
CATALOG_TOKEN_SECONDS = env.float("CATALOG_TOKEN_SECONDS", default=1.0)

# Printable proxies (GET .../print.pdf): a deck of more card copies is a 400 too_many_cards_to_print. 225
# holds the largest official deck (four copies of a 50-card starter plus every expansion of its nation, 223).
# A PDF is kept in the cache per deck version (or starter), paper and catalog version, HTTP_CACHE_SECONDS.
PRINT_MAX_CARDS = env.int("PRINT_MAX_CARDS", default=225)

# Browser clients of other sites (django-cors-headers): the origins allowed to call /api/ from a page, comma
# separated, e.g. CORS_ALLOWED_ORIGINS=https://client.example.org (scheme and host, no path). None by default,
# in development and production alike. No cookies cross origins: such clients send `Authorization: Token ...`
# and open event streams with a single-use ticket (POST /api/games/{id}/events/stream-ticket/).
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (
    "accept", "authorization", "content-type", "if-none-match", "last-event-id", "x-request-id",
)
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After", "X-Request-ID")
CORS_PREFLIGHT_MAX_AGE = 3600

# The hot path of play (games/fastpath/: prepared reads, the one-statement write, kept states and spliced JSON
# answers); off: the plain reference path (ORM and serializers), the same answers and rows, slower.
GAMES_FAST_PATH = env.bool("GAMES_FAST_PATH", default=True)

# The game row's state column is rewritten by an action POST only when this many log entries lie after the
# stored state (or the game ends); in between, a read applies the engine actions logged since
# (games.selectors.game_state). 1: at every action (issue 42: the state's JSON, ~14 KB, was encoded, sent,
# parsed into jsonb, compressed and TOASTed at every action).
GAMES_STATE_EVERY = env.int("GAMES_STATE_EVERY", default=8)
if GAMES_STATE_EVERY < 1:
    raise ImproperlyConfigured(f"GAMES_STATE_EVERY must be 1 or more, not {GAMES_STATE_EVERY}")

# Event streams (GET /api/games/{id}/events/stream/): at most this many open at once per user (429 beyond).
GAMES_SSE_MAX_STREAMS_PER_USER = env.int("GAMES_SSE_MAX_STREAMS_PER_USER", default=8)
GAMES_SSE_KEEPALIVE_SECONDS = env.float("GAMES_SSE_KEEPALIVE_SECONDS", default=15.0)  # comment line if idle
# A stream ticket (POST /api/games/{id}/events/stream-ticket/) opens one stream of one game once, this long.
GAMES_STREAM_TICKET_SECONDS = env.int("GAMES_STREAM_TICKET_SECONDS", default=60)
GAMES_SSE_POLL_SECONDS = env.float("GAMES_SSE_POLL_SECONDS", default=0.5)  # without NOTIFY (SQLite)
# The bus that wakes event streams when a game's log grows (games/event_bus.py): "" = the database's own
# (PostgreSQL LISTEN/NOTIFY; SQLite polls) or redis://host:port/db for Redis pub/sub (README "The event bus")
EVENT_BUS_URL = env("EVENT_BUS_URL", default="")

# Every log line carries the request id (config/request_log.py): the proxy's X-Request-ID or a new one, also
# returned in the X-Request-ID response header.
DJANGO_GUID = {"GUID_HEADER_NAME": "X-Request-ID", "VALIDATE_GUID": True, "EXPOSE_HEADER": False}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.request_log.RequestIdFilter"}},
    "formatters": {
        "request_id": {"format": "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"}
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": "request_id"}
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
    "loggers": {"django_guid": {"level": "WARNING"}},  # not a line per request saying it made an id
}

# Operators' endpoints (config/health.py): each readiness check (database, cache, broker) gets this many
# seconds; /metrics needs `Authorization: Bearer METRICS_TOKEN` when set, else only loopback clients get it
# (and in production nobody: the token is required there).
HEALTH_CHECK_TIMEOUT = env.float("HEALTH_CHECK_TIMEOUT", default=2.0)
METRICS_TOKEN = env("METRICS_TOKEN", default="")
# Without METRICS_TOKEN, /metrics answers a loopback client that came through no proxy (development only:
# production requires the token, config/settings/production.py).
METRICS_LOOPBACK_WITHOUT_TOKEN = True

# Simulation jobs (simulations/). With CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) chunks go to Celery
# workers (`celery -A config worker -Q simulations`); without it they run in a background thread of the web
# process (the embedded default). SIMULATION_RUNNER: auto | celery | thread | inline.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
SIMULATION_RUNNER = env("SIMULATION_RUNNER", default="auto")
SIMULATION_QUEUE = env("SIMULATION_QUEUE", default="simulations")
CELERY_TASK_DEFAULT_QUEUE = SIMULATION_QUEUE
CELERY_TASK_ACKS_LATE = True  # a chunk's message is acknowledged only once its outcomes are recorded
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # a worker process killed mid-chunk: the chunk is delivered again
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # one chunk at a time per worker process: fair over many workers
CELERY_TASK_IGNORE_RESULT = True  # results live in the database, not in a result backend
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The broker's bookkeeping of delivered, unacknowledged messages lives under these Redis keys, global to the
# Redis database: CELERY_UNACKED_KEY_PREFIX gives deployments (or test runs) sharing one database their own.
_UNACKED = env("CELERY_UNACKED_KEY_PREFIX", default="unacked")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A message not acknowledged within this many seconds (its worker machine died) is delivered again.
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600),
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,
    "unacked_key": _UNACKED,
    "unacked_index_key": f"{_UNACKED}_index",
    "unacked_mutex_key": f"{_UNACKED}_mutex",
    # The periodic restore's lock: a worker killed while holding it blocks every restore until it expires.
    "unacked_mutex_expire": env.int("CELERY_UNACKED_MUTEX_EXPIRE", default=300),
}
# Game clocks (games.clock_timer): a game whose clock ran out is ended by a sweep every
# GAMES_CLOCK_SWEEP_SECONDS. GAMES_CLOCK_RUNNER: auto (celery with a broker, else thread) | celery (Celery
# beat sends games.expire_clocks to GAMES_CLOCK_QUEUE: run `celery -A config beat` and a worker with
# -Q clocks) | thread (a daemon thread of each server process) | command (`manage.py expire_clocks --loop`).
GAMES_CLOCK_RUNNER = env("GAMES_CLOCK_RUNNER", default="auto")
GAMES_CLOCK_SWEEP_SECONDS = env.float("GAMES_CLOCK_SWEEP_SECONDS", default=1.0)
GAMES_CLOCK_QUEUE = env("GAMES_CLOCK_QUEUE", default="clocks")
# A Celery job with no chunk recorded for SIMULATION_STALL_SECONDS gets the chunks it lacks sent again (a
# message can be lost between the broker and a killed worker: simulations/services/stalled.py); beat sweeps
# every SIMULATION_STALL_SWEEP_SECONDS. The stall must be longer than any one chunk takes to play.
SIMULATION_STALL_SECONDS = env.float("SIMULATION_STALL_SECONDS", default=1800.0)
SIMULATION_STALL_SWEEP_SECONDS = env.float("SIMULATION_STALL_SWEEP_SECONDS", default=300.0)
CELERY_BEAT_SCHEDULE = {
    "simulations-redispatch-stalled": {
        "task": "simulations.redispatch_stalled",
        "schedule": SIMULATION_STALL_SWEEP_SECONDS,
        "options": {"queue": SIMULATION_QUEUE, "expires": SIMULATION_STALL_SWEEP_SECONDS},
    },
    "games-expire-clocks": {
        "task": "games.expire_clocks",
        "schedule": GAMES_CLOCK_SWEEP_SECONDS,
        # a sweep nobody picked up in time is dropped: the next one does its work
        "options": {"queue": GAMES_CLOCK_QUEUE, "expires": max(5.0, 5 * GAMES_CLOCK_SWEEP_SECONDS)},
    },
}
SIMULATION_CHUNK_GAMES = env.int("SIMULATION_CHUNK_GAMES", default=10)
SIMULATION_MAX_GAMES_PER_JOB = env.int("SIMULATION_MAX_GAMES_PER_JOB", default=2000)
SIMULATION_MAX_ACTIVE_JOBS = env.int("SIMULATION_MAX_ACTIVE_JOBS", default=3)
SIMULATION_MAX_GAMES_PER_DAY = env.int("SIMULATION_MAX_GAMES_PER_DAY", default=20000)
# Without a broker (CELERY_BROKER_URL empty) the web processes play the jobs: at most this many at once over
# every process and host sharing the database (the others wait queued, oldest first), in threads of low CPU
# priority (nice SIMULATION_LOCAL_NICE, Linux). A slot not renewed (after each chunk) for
# SIMULATION_LOCAL_LEASE_SECONDS, or held by a process of this host that is gone, is taken over and its job
# resumed. See simulations/README.md.
SIMULATION_LOCAL_CONCURRENCY = env.int("SIMULATION_LOCAL_CONCURRENCY", default=1)
SIMULATION_LOCAL_NICE = env.int("SIMULATION_LOCAL_NICE", default=19)
SIMULATION_LOCAL_LEASE_SECONDS = env.int("SIMULATION_LOCAL_LEASE_SECONDS", default=120)
SIMULATION_LOCAL_POLL_SECONDS = env.float("SIMULATION_LOCAL_POLL_SECONDS", default=1.0)
# The analysis of a finished game (issue 41, games.services.analysis): a job per game, run as the simulations
# are (GAMES_ANALYSIS_RUNNER: auto = Celery on SIMULATION_QUEUE with a broker, else a background thread;
# thread | celery | inline | none), GAMES_ANALYSIS_ITERATIONS search iterations per ply at most, fewer when a
# ply would take more than GAMES_ANALYSIS_PLY_SECONDS of one core (measured at the game's start: a 300-ply
# game within about 4 minutes; Battlefront gets the 200, about 0.45 s a ply), at most
# GAMES_ANALYSIS_MAX_ACTIVE_PER_USER queued or running per user, at most GAMES_ANALYSIS_LOCAL_CONCURRENCY
# running in one process without a broker. A job without progress for GAMES_ANALYSIS_STALE_SECONDS (its
# process died) is started again, from the ply it reached, by the next request for it.
GAMES_ANALYSIS_RUNNER = env("GAMES_ANALYSIS_RUNNER", default="auto")
GAMES_ANALYSIS_ITERATIONS = env.int("GAMES_ANALYSIS_ITERATIONS", default=200)
GAMES_ANALYSIS_PLY_SECONDS = env.float("GAMES_ANALYSIS_PLY_SECONDS", default=0.8)
GAMES_ANALYSIS_MAX_ACTIVE_PER_USER = env.int("GAMES_ANALYSIS_MAX_ACTIVE_PER_USER", default=1)
GAMES_ANALYSIS_LOCAL_CONCURRENCY = env.int("GAMES_ANALYSIS_LOCAL_CONCURRENCY", default=1)
GAMES_ANALYSIS_STALE_SECONDS = env.int("GAMES_ANALYSIS_STALE_SECONDS", default=300)
