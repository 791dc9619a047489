"""What an operator and a developer see: health endpoints, metrics, the request id in the logs, the hint
of a DisallowedHost under DEBUG, the registration throttle of `make run`, the admin account of `make serve`
and gunicorn's control socket."""

from __future__ import annotations

import json
import logging
import os
import runpy
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.test import Client
from prometheus_client import REGISTRY

from config.request_log import LOG_FORMAT, RequestIdFilter
from tests.games.conftest import alice, api, bob, create_game, make_user, two_player_game  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
UNREACHABLE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                 "LOCATION": "redis://127.0.0.1:1/0"}}


# ----------------------------------------------------------------------------------------------- health


@pytest.mark.django_db
def test_liveness_and_readiness_answer_a_load_balancer_probing_by_ip_over_http(settings):
    """Neither ALLOWED_HOSTS nor the HTTPS redirect stands between the probe and the answer."""
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["cards.example.org"]
    client = Client(HTTP_HOST="10.0.0.5:8000")
    live = client.get("/health/live")
    assert live.status_code == 200 and live.json() == {"status": "ok"}
    ready = client.get("/health/ready/")
    assert ready.status_code == 200, ready.json()
    assert ready.json()["checks"].keys() == {"database", "cache"}
    assert all(check["ok"] for check in ready.json()["checks"].values())
    assert client.get("/api/").status_code in (301, 400)  # everything else still goes through both checks


def _ready_in_a_process(**env: str) -> tuple[int, dict]:
    """GET /health/ready in a fresh process with these settings (a database URL cannot change in-process)."""
    script = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/health/ready'); print(json.dumps([r.status_code, r.json()]))"
    )
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "HEALTH_CHECK_TIMEOUT": "1",
               **env}
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", script], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    status, body = json.loads(done.stdout.strip().splitlines()[-1])
    return status, body


@pytest.mark.parametrize("silent", [False, True], ids=["refused", "silent"])
def test_readiness_is_503_naming_the_database_when_it_is_unreachable(silent):
    """Refused at once, or a server that never answers (the check gives up after HEALTH_CHECK_TIMEOUT, not
    after the driver's connect_timeout of 30 s)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        if silent:
            listener.listen(8)  # the kernel accepts the connection; nobody ever answers on it
        port = listener.getsockname()[1]  # not listening: refused
        url = f"postgres://postgres@127.0.0.1:{port}/nothing?connect_timeout=30"
        status, body = _ready_in_a_process(DATABASE_URL=url)
    error = "timeout" if silent else "OperationalError"
    assert status == 503
    assert body["status"] == 503 and body["code"] == "not_ready" and "database" in body["detail"]
    assert body["failed"] == ["database"]
    assert body["checks"]["database"]["ok"] is False and body["checks"]["cache"]["ok"] is True
    assert body["checks"]["database"]["error"] == error
    assert "127.0.0.1" not in json.dumps(body)  # the error's text stays in the log


@pytest.mark.django_db
def test_readiness_checks_the_cache_and_a_configured_broker(settings):
    settings.HEALTH_CHECK_TIMEOUT = 1
    settings.CACHES = UNREACHABLE_CACHE
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = Client().get("/health/ready")
    assert response.status_code == 503 and response["Retry-After"]
    body = response.json()
    assert body["failed"] == ["cache", "broker"] and body["checks"]["database"]["ok"] is True


# ------------------------------------------------------------------------------------------- request id


@pytest.mark.django_db
def test_every_log_line_of_a_request_carries_its_request_id(settings):
    """The proxy's X-Request-ID (or a new one) is returned and printed on each line the request logs."""
    settings.CACHES = UNREACHABLE_CACHE  # the readiness probe logs why it fails
    settings.HEALTH_CHECK_TIMEOUT = 1
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(handler.format(record))
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    logger = logging.getLogger("config.health")
    logger.addHandler(handler)
    try:
        given = uuid.uuid4().hex
        response = Client().get("/health/ready", HTTP_X_REQUEST_ID=given)
        assert response["X-Request-ID"] == given
        made = Client().get("/health/ready")["X-Request-ID"]
        assert made and made != given
        logging.getLogger("config.health").warning("outside any request")
    finally:
        logger.removeHandler(handler)
    assert len(lines) == 3
    assert f"[{given}]" in lines[0] and f"[{made}]" in lines[1] and "[-]" in lines[2]
    forged = Client().get("/api/", HTTP_X_REQUEST_ID="evil\nline")["X-Request-ID"]
    assert "\n" not in forged and forged != "evil\nline"  # only a UUID is taken from outside


@pytest.mark.parametrize("given", [
    "4f6c0b2a9d8e4b1c8a7f6e5d4c3b2a19",  # nginx's $request_id
    "4F6C0B2A-9D8E-4B1C-8A7F-6E5D4C3B2A19",
    "{4f6c0b2a-9d8e-4b1c-8a7f-6e5d4c3b2a19}",  # what uuid.UUID (django-guid's check) also takes
    "urn:uuid:4f6c0b2a-9d8e-4b1c-8a7f-6e5d4c3b2a19",
])
def test_a_request_id_in_any_uuid_spelling_is_kept(given):
    from config.request_log import request_id

    assert request_id(given) == given


@pytest.mark.parametrize(
    "given", [None, "", "abc", "4f6c0b2a9d8e4b1c8a7f6e5d4c3b2a1", "4f6c0b2a9d8e4b1c8a7f6e5d4c3b2a19\n"]
)
def test_a_missing_or_foreign_request_id_is_replaced_by_a_new_uuid(given):
    from config.request_log import request_id

    made = request_id(given)
    assert made != given and uuid.UUID(made).version == 4 and len(made) == 32


# ---------------------------------------------------------------------------------------------- metrics


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_are_served_to_the_monitoring_system_only(settings):
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 200  # loopback (the test client's 127.0.0.1)
    assert Client(REMOTE_ADDR="10.0.0.9").get("/metrics").status_code == 403
    proxied = Client().get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.7")  # came through the proxy
    assert proxied.status_code == 403 and proxied.json()["code"] == "forbidden"
    settings.METRICS_TOKEN = "s3cret-token"
    assert Client().get("/metrics").status_code == 403
    scraped = Client(REMOTE_ADDR="10.0.0.9").get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert scraped.status_code == 200 and scraped["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize("header", ["HTTP_X_REAL_IP", "HTTP_FORWARDED", "HTTP_X_FORWARDED_HOST", "HTTP_VIA"])
def test_metrics_are_refused_through_a_proxy_that_sends_no_forwarded_for(settings, header):
    """Issue 34: a same-host proxy that sends only X-Real-IP or Forwarded got 1.4 MB of metrics."""
    settings.METRICS_TOKEN = ""
    settings.METRICS_LOOPBACK_WITHOUT_TOKEN = True  # make run, tests
    proxied = Client().get("/metrics", **{header: "for=203.0.113.7"})
    assert proxied.status_code == 403 and proxied.json()["code"] == "forbidden"


def test_production_requires_the_metrics_token_even_from_loopback(settings):
    """A proxy on the same host that sends no forwarding header at all looks like a loopback scraper: in
    production only the token opens /metrics."""
    assert _settings_value("config.settings.production", "settings.METRICS_LOOPBACK_WITHOUT_TOKEN") == "False"
    assert _settings_value("config.settings.base", "settings.METRICS_LOOPBACK_WITHOUT_TOKEN") == "True"
    settings.METRICS_LOOPBACK_WITHOUT_TOKEN = False
    settings.METRICS_TOKEN = ""
    refused = Client().get("/metrics")  # loopback, no proxy header: the production server still refuses
    assert refused.status_code == 403 and "METRICS_TOKEN" in refused.json()["detail"]
    assert b"battlecards_" not in refused.content
    settings.METRICS_TOKEN = "s3cret-token"
    assert Client().get("/metrics").status_code == 403
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200


def test_metrics_time_requests_per_url_pattern_and_count_actions_streams_and_queued_chunks(
    two_player_game, api, alice, bob, django_capture_on_commit_callbacks, settings  # noqa: F811
):
    from simulations.services import simulation_create
    from tests.games.test_actions_api import _mover

    gid = two_player_game["id"]
    route = "/api/games/<uuid:game_id>/actions/"
    counted = "battlecards_http_request_duration_seconds_count"
    timed = _sample(counted, method="POST", route=route, status="200")
    applied = _sample("battlecards_game_actions_applied_total", game_type="battlecards")
    _seat, mover, _other, view = _mover(two_player_game, api, alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = mover.post(
            f"/api/games/{gid}/actions/",
            {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]},
            format="json",
        )
    assert response.status_code == 200, response.json()
    assert _sample(counted, method="POST", route=route, status="200") == timed + 1
    assert _sample("battlecards_game_actions_applied_total", game_type="battlecards") == applied + 1

    open_before = _sample("battlecards_event_streams_open")
    stream = api(alice).get(f"/api/games/{gid}/events/stream/?timeout=0.2&since=0")
    assert _sample("battlecards_event_streams_open") == open_before + 1
    b"".join(stream.streaming_content)  # read to its end: the test client closes it, as a server would
    assert _sample("battlecards_event_streams_open") == open_before

    settings.SIMULATION_RUNNER = "none"  # queued, nobody plays it
    simulation_create(user=alice, deck_a={"starter": "gb-we-starter"}, deck_b={"starter": "de-we-starter"},
                      bots=("random", "random"), games=6, seed=1, chunk_games=2)
    text = Client().get("/metrics").content.decode()
    assert "battlecards_simulation_chunks_queued 3.0" in text
    assert f'route="{route}"' in text


# -------------------------------------------------------------------------------- DEBUG and make run


@pytest.mark.parametrize("path", ["/api/", "/admin/"])
def test_under_debug_a_disallowed_host_is_a_400_that_names_it_and_allowed_hosts(settings, path):
    settings.DEBUG = True
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    response = Client(HTTP_HOST="192.168.1.20:8000").get(path)
    assert response.status_code == 400
    body = response.json()
    assert body["status"] == 400 and body["code"] == "disallowed_host" and body["host"] == "192.168.1.20:8000"
    assert "'192.168.1.20:8000'" in body["detail"] and "ALLOWED_HOSTS=127.0.0.1,localhost,192.168.1.20" in (
        body["detail"]
    )


def test_without_debug_a_disallowed_host_is_a_plain_400(settings):
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["cards.example.org"]
    response = Client(HTTP_HOST="192.168.1.20").get("/api/")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request" and "192.168.1.20" not in response.content.decode()


def _settings_value(module: str, expression: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("THROTTLE_", "DEBUG"))}
    environ.update({"DJANGO_SETTINGS_MODULE": module, "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "a.example",
                    **env})
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", f"from django.conf import settings; print({expression})"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_registration_throttle_is_relaxed_under_debug_only():
    rate = 'settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["register"]'
    assert _settings_value("config.settings.base", rate, DEBUG="true") == "1000/hour"  # make run
    assert _settings_value("config.settings.base", rate, DEBUG="false") == "10/hour"
    assert _settings_value("config.settings.production", rate, DEBUG="true") == "10/hour"  # DEBUG forced off
    assert _settings_value("config.settings.base", rate, DEBUG="true", THROTTLE_REGISTER="3/min") == "3/min"


def test_make_serve_creates_the_admin_account_right_before_serving():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nserve:", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip() for line in recipe.replace("\\\n", " ").splitlines()[1:] if line.strip()]
    assert "manage.py ensure_admin" in steps[-2] and "$(PROD)" in steps[-2]
    assert "config.front" in steps[-1] and "gunicorn" in steps[-1]  # nginx in front; UNBUFFERED=1: gunicorn


def test_make_serve_refuses_to_serve_unbuffered_without_nginx_unless_told(monkeypatch, capsys):
    """Issue 34: without nginx a few slow clients hold every worker; make serve says how to install it."""
    from config import front

    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nserve:", 1)[1].split("\n\n", 1)[0]
    first = recipe.replace("\\\n", " ").splitlines()[1]
    assert "nginx_binary" in first and "apt-get install nginx" in first and "UNBUFFERED=1" in first
    assert "exit 1" in first and '-z "$(UNBUFFERED)"' in first
    monkeypatch.setattr(front, "nginx_binary", lambda: None)
    assert front.main(["--port", "8000"]) == 2
    assert "apt-get install nginx" in capsys.readouterr().err
    production = (ROOT / "docs" / "production.md").read_text()  # the production guide
    assert "ensure_admin" in production and "createsuperuser" in production


# ------------------------------------------------------------------------------------------- gunicorn


def test_two_servers_on_one_host_get_their_own_control_socket(tmp_path, monkeypatch):
    from gunicorn.config import Config, ControlSocket

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))  # the config file would make one
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py"))
    paths = []
    for bind in ("127.0.0.1:8000", "127.0.0.1:8001"):
        cfg = Config()
        cfg.set("bind", [bind])
        server = type("Arbiter", (), {"cfg": cfg})()
        conf["on_starting"](server)
        paths.append(cfg.control_socket)
    assert paths[0] != paths[1] and ControlSocket.default not in paths
    assert all(Path(p).parent == Path(ControlSocket.default).parent for p in paths)
    chosen = Config()  # an explicit --control-socket wins
    chosen.set("bind", ["127.0.0.1:8000"])
    chosen.set("control_socket", str(tmp_path / "mine.ctl"))
    conf["on_starting"](type("Arbiter", (), {"cfg": chosen})())
    assert chosen.control_socket == str(tmp_path / "mine.ctl")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str, host: str = "127.0.0.1") -> tuple[int, str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def _raw(port: int, request: bytes) -> tuple[int, str, bytes]:
    """(status, Content-Type, body) of a raw HTTP/1.1 request, read to the server's close."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), headers.get("Content-Type", ""), body


def test_two_servers_start_on_one_host_and_each_adds_up_its_workers_metrics(tmp_path):
    """`make serve`'s two gunicorn servers side by side (the API's threaded WSGI workers, the streams' uvicorn
    workers): each starts, with its own control socket and metrics directory, and a scrape counts the
    requests of all its workers."""
    import time

    access_log = tmp_path / "access.log"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "XDG_RUNTIME_DIR": str(tmp_path),
           "GUNICORN_ACCESS_LOG": str(access_log)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.pop("GUNICORN_CONTROL_SOCKET", None)
    given = int(os.environ.get("BATTLECARDS_TEST_PORT") or 0)  # a port you were given, and the next one
    ports = [given, given + 1] if given else [_free_port(), _free_port()]
    apps = [["config.wsgi:application"], ["config.asgi:application", "-k", "config.gunicorn_worker.Worker"]]
    servers = [
        subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "gunicorn", *app, "-c", "config/gunicorn.conf.py",
             "--bind", f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        for app, port in zip(apps, ports, strict=True)
    ]
    try:
        deadline = time.monotonic() + 60
        for port, server in zip(ports, servers, strict=True):
            while True:
                assert server.poll() is None, "a server stopped"
                try:
                    if _get(port, "/health/live", host="10.0.0.5")[0] == 200:  # a probe by IP address
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "a server did not start"
                time.sleep(0.2)
        sockets = sorted(p.name for p in tmp_path.glob("*.ctl"))
        assert sockets == sorted(f"battlecards-127.0.0.1-{port}.ctl" for port in ports)
        for _ in range(6):
            assert _get(ports[0], "/api/")[0] == 200
        status, text = _get(ports[0], "/metrics")
        assert status == 200
        label = 'route="/api/"'
        counts = [line for line in text.splitlines()
                  if line.startswith("battlecards_http_request_duration_seconds_count") and label in line]
        assert counts and counts[0].endswith(" 6.0"), counts  # every worker's requests, added up
        assert label not in _get(ports[1], "/metrics")[1]  # the other server counts its own

        # issue 34: gunicorn's own refusals in the error shape, not HTML
        too_long = _raw(ports[0], b"GET /api/" + b"a" * 5000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        too_large = _raw(ports[0], b"GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000
                         + b"\r\n\r\n")
        refusals = ((too_long, 414, "uri_too_long"), (too_large, 431, "request_header_fields_too_large"))
        for (status, content_type, body), expected, code in refusals:
            assert status == expected and content_type == "application/json", (status, content_type, body)
            parsed = json.loads(body)
            assert parsed["status"] == expected and parsed["code"] == code and parsed["detail"]
        # issue 34: a stream ticket is a credential: no query string in either server's access log
        secret = "s3cret-ticket-" + uuid.uuid4().hex
        assert _get(ports[0], f"/health/live?ticket={secret}")[0] == 200
        assert _get(ports[1], f"/api/feed/stream/?ticket={secret}")[0] in (401, 403)
        time.sleep(0.5)
        logged = access_log.read_text()
        assert "GET /health/live HTTP/1.1" in logged and "/api/feed/stream/" in logged
        assert secret not in logged
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
        for server in servers:
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(10)


# ------------------------------------------------------------------------------- database waits bounded


def test_production_bounds_every_database_wait_by_default():
    """Issue 34: a statement timeout, TCP keepalives and a TCP user timeout on every connection, from env."""
    url = "postgres://postgres@127.0.0.1:5432/anything"
    options = _production_db_options(DATABASE_URL=url)
    assert options["options"] == "-c statement_timeout=30000"
    assert options["keepalives"] == 1 and options["keepalives_idle"] == 10
    assert options["keepalives_interval"] == 5 and options["keepalives_count"] == 3
    assert options["tcp_user_timeout"] == 20000 and options["connect_timeout"] == 5
    tuned = _production_db_options(DATABASE_URL=url + "?keepalives_idle=60", DB_STATEMENT_TIMEOUT="2.5",
                                   DB_TCP_USER_TIMEOUT="9")
    assert tuned["options"] == "-c statement_timeout=2500" and tuned["keepalives_idle"] == 60
    assert tuned["tcp_user_timeout"] == 9000
    assert "options" not in _production_db_options(DATABASE_URL=url, DB_STATEMENT_TIMEOUT="0")


def _production_db_options(**env: str) -> dict:
    expression = (
        '__import__("json").dumps({k: v for k, v in settings.DATABASES["default"]["OPTIONS"].items()'
        ' if k != "pool"})'
    )
    return json.loads(_settings_value("config.settings.production", expression, **env))


@pytest.mark.django_db
@pytest.mark.postgresql_only(reason="statement_timeout is PostgreSQL's (SQLite has none to set)")
def test_a_statement_past_the_timeout_is_cancelled_and_answered_503_not_left_hanging():
    """Production's connection options against the real database: a pg_sleep(10) with DB_STATEMENT_TIMEOUT
    0.5 s is cancelled by PostgreSQL within about that, and the request is a 503 in the error shape."""
    from django.db import connection
    script = (
        "import json, time, django; django.setup()\n"
        "from django.db import connection\n"
        "from django.test import RequestFactory\n"
        "from config.middleware import ApiErrorMiddleware\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    with connection.cursor() as cursor:\n"
        "        cursor.execute('SELECT pg_sleep(10)')\n"
        "    raise SystemExit('not cancelled')\n"
        "except Exception as exc:\n"
        "    response = ApiErrorMiddleware(None).process_exception(RequestFactory().post('/api/x/'), exc)\n"
        "print(json.dumps([time.monotonic() - started, response.status_code, response['Retry-After'],\n"
        "                  json.loads(response.content)]))\n"
    )
    settings_dict = connection.settings_dict
    url = f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:{settings_dict['PORT']}/{settings_dict['NAME']}"
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DB_")}
    environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": "x" * 60,
                    "ALLOWED_HOSTS": "a.example", "DATABASE_URL": url, "DB_STATEMENT_TIMEOUT": "0.5"})
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", script], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seconds, status, retry_after, body = json.loads(done.stdout.strip().splitlines()[-1])
    assert seconds < 3, seconds  # cancelled at 0.5 s, not after the 10 s sleep
    assert status == 503 and retry_after == "5"
    assert body["status"] == 503 and body["code"] == "database_timeout" and body["retry_after"] == 5


# ---------------------------------------------------------------------- database connections per server

SERVERS = {
    # the development server (make run): a new thread per connection
    "runserver": lambda port: ["manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
    # gunicorn's threaded workers with persistent connections (production with DB_POOL=false)
    "gunicorn": lambda port: ["-m", "gunicorn", "config.wsgi:application", "-c", "config/gunicorn.conf.py",
                              "--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "4",
                              "--log-level", "warning"],
}


@pytest.mark.django_db
@pytest.mark.postgresql_only(reason="counts a database server's connections (pg_stat_activity)")
@pytest.mark.parametrize("server", SERVERS)
def test_database_connections_stay_bounded_under_each_server(server, tmp_path):
    """Issue 34: the development server held 42 idle connections after ~700 requests (each request's thread
    died with a persistent connection open). 150 requests that each query the database, one connection
    each: the server holds at most a few connections (runserver: none kept; gunicorn: one per thread)."""
    import time
    import urllib.error
    import urllib.request

    from django.db import connection

    app = f"bc_conn_test_{server}_{os.getpid()}"
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}?application_name={app}"
    environ = {k: v for k, v in os.environ.items() if k not in ("CONN_MAX_AGE", "PROMETHEUS_MULTIPROC_DIR")}
    environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base", "DATABASE_URL": url, "DEBUG": "false",
                    "XDG_RUNTIME_DIR": str(tmp_path)})
    port = _free_port()
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, *SERVERS[server](port)], cwd=ROOT, env=environ,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )

    def held() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [app])
            return cursor.fetchone()[0]

    def ask() -> int:  # a token lookup in the request's own thread, on a new HTTP connection
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games/",
                                         headers={"Authorization": "Token not-a-token"})
        try:
            return urllib.request.urlopen(request, timeout=10).status  # noqa: S310
        except urllib.error.HTTPError as refused:
            return refused.code

    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the server stopped"
            try:
                if _get(port, "/health/live")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        peak = 0
        for n in range(150):
            assert ask() == 401
            if n % 10 == 9:
                peak = max(peak, held())
        time.sleep(0.5)
        after = held()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
    bound = 1 if server == "runserver" else 4  # runserver: the request's own, closed at its end; 4 threads
    assert peak <= bound and after <= bound, (peak, after)


_ID = "4f6c0b2a9d8e4b1c8a7f6e5d4c3b2a19"


@pytest.mark.parametrize("given", [
    _ID, "4f6c0b2a-9d8e-4b1c-8a7f-6e5d4c3b2a19", f"{{{_ID}}}", f"urn:uuid:{_ID}", _ID[:-1], "g" * 32, "abc",
    "a b", f" {_ID}", f"{_ID}\n", f"{_ID[:4]}-{_ID[4:]}",
])
def test_the_request_id_keeps_what_django_guid_kept(given):
    """config.request_log's check of a proxy's id against django-guid's own (the plain path it replaced)."""
    from django_guid.utils import validate_guid

    from config.request_log import request_id

    assert (request_id(given) == given) == validate_guid(given)
