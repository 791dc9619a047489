# Battlecards server. `make run` and `make test` are all a fresh machine needs.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
LOCK := requirements.lock
UV_VERSION := 0.13.9
# `make test`'s PostgreSQL database (pytest-django creates test_<name>, one per xdist worker): one per checkout,
# named after a hash of its absolute path, so two checkouts on one machine never share a test database.
# (computed once, when first used: the $(eval) makes it a simple variable then)
PG_DB = $(eval PG_DB := battlecards_$(shell $(PYTHON) -c 'import hashlib, sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest()[:8])' '$(CURDIR)'))$(PG_DB)
PG_URL = postgres://postgres@127.0.0.1:5432/$(PG_DB)
# pytest-xdist workers of `make test`: two more than the CPU cores (many tests wait on a browser, a server, a
# clock or an outage, and the extra workers fill that time: on 2 cores PostgreSQL took 11:00 with three workers
# and 8:53 with four, the cores 1 % idle; a fifth has no idle time left to fill); 0: one process
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 2 )))
PYTEST_ARGS ?=

# `make serve`: nginx on PORT in front of the API's threaded WSGI workers (one per core) and the event streams'
# uvicorn (ASGI) worker(s), both on unix sockets in RUN_DIR (config/front.py; docs/production.md, "Worker
# layout"). UNBUFFERED=1: no nginx, the API on PORT and the streams on STREAM_PORT answer clients directly.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
STREAM_PORT ?= $(shell echo $$(($(PORT) + 1)))
STREAM_WORKERS ?= 1
RUN_DIR ?= $(CURDIR)/.run/serve-$(PORT)
UNBUFFERED ?=
PROD := DJANGO_SETTINGS_MODULE=config.settings.production

.PHONY: run serve check-deploy test test-fast lint lock bench bench-table load venv migrate catalog admin clean screenshots

# Installs exactly the pinned, hash-checked versions of $(LOCK) (runtime, dev and bench extras, pip and the
# build backend), then the project itself without its dependencies. Reinstalls only when the lock changes.
$(STAMP): $(LOCK) pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $(STAMP)

venv: $(STAMP)

# Refresh $(LOCK) after changing the dependencies in pyproject.toml (keeps the other pins; `make lock
# UPGRADE=1` moves every pin to the newest allowed release). uv resolves for every platform, Python >= 3.11.
lock:
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv==$(UV_VERSION)'
	$(PY) -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], "pip", sep="\n")' | \
	  $(VENV)/bin/uv pip compile --quiet pyproject.toml - --all-extras --universal --python-version 3.11 \
	  --generate-hashes --custom-compile-command 'make lock' $(if $(UPGRADE),--upgrade) -o $(LOCK)

migrate: venv
	$(PY) manage.py migrate --noinput

catalog: migrate
	$(PY) manage.py load_catalog

admin: migrate
	$(PY) manage.py ensure_admin

# Serve on SQLite (the embedded default) unless DATABASE_URL says otherwise.
# The admin password (first run only) is printed last, framed, right before the server starts.
run: catalog
	@if [ "$(HOST)" != 127.0.0.1 ] && [ "$(HOST)" != localhost ] && [ -z "$$ALLOWED_HOSTS" ]; then \
	  echo "make run: other machines are answered only for host names in ALLOWED_HOSTS (env or .env; default" \
	    "127.0.0.1,localhost,testserver), e.g. ALLOWED_HOSTS=127.0.0.1,localhost,192.168.1.20 make run HOST=$(HOST)"; \
	fi
	$(PY) manage.py ensure_admin
	$(PY) manage.py runserver $(HOST):$(PORT)

# Production on one machine: nginx on $(HOST):$(PORT) buffers every request (headers and body, with client
# timeouts) and hands it whole to the API's $(WORKERS) threaded WSGI workers or, for the stream paths, to
# $(STREAM_WORKERS) uvicorn (ASGI) worker(s), all stopped together (config/front.py). Without nginx it refuses
# to start (a few slow clients would hold every worker) unless UNBUFFERED=1, which serves the API on $(PORT)
# and the streams on $(STREAM_PORT) directly. Production settings (they fail closed: SECRET_KEY and
# ALLOWED_HOSTS must be set, e.g. in .env), static files collected for WhiteNoise. The superuser "admin" is
# created on the first start (its password printed once, framed, before the servers start). Migrations run
# without the statement timeout (DB_STATEMENT_TIMEOUT=0). See docs/production.md.
serve: venv
	@if [ -z "$(UNBUFFERED)" ] && ! $(PY) -c 'import sys; from config.front import nginx_binary; sys.exit(nginx_binary() is None)'; then \
	  echo "make serve: nginx is not installed. It reads each request whole before a worker sees it, so slow" \
	    "clients cannot hold the workers (docs/production.md). Install it (as root): apt-get install nginx." \
	    "To serve without it anyway (not for the internet): make serve UNBUFFERED=1" >&2; \
	  exit 1; \
	fi
	$(PROD) $(PY) manage.py check --deploy
	$(PY) -m config.createdb
	DB_STATEMENT_TIMEOUT=0 $(PROD) $(PY) manage.py migrate --noinput
	$(PROD) $(PY) manage.py createcachetable
	$(PROD) $(PY) manage.py collectstatic --noinput --verbosity 0
	DB_STATEMENT_TIMEOUT=0 $(PROD) $(PY) manage.py load_catalog
	$(PROD) $(PY) manage.py ensure_admin
	@if [ -z "$(UNBUFFERED)" ]; then \
	  $(PROD) $(PY) -m config.front --host $(HOST) --port $(PORT) --workers $(WORKERS) \
	    --stream-workers $(STREAM_WORKERS) --run-dir $(RUN_DIR); \
	else \
	  echo "make serve: UNBUFFERED=1: gunicorn answers clients directly, without nginx (slow clients can hold" \
	    "every worker); streams on $(HOST):$(STREAM_PORT)" >&2; \
	  $(PROD) $(VENV)/bin/gunicorn config.asgi:application -c config/gunicorn.conf.py \
	    -k config.gunicorn_worker.Worker --bind $(HOST):$(STREAM_PORT) --workers $(STREAM_WORKERS) & \
	    streams=$$!; trap 'kill $$streams 2>/dev/null' EXIT INT TERM; \
	    $(PROD) $(VENV)/bin/gunicorn config.wsgi:application -c config/gunicorn.conf.py \
	    --bind $(HOST):$(PORT) --workers $(WORKERS); \
	fi

# Django's deployment checklist against the production settings (a throwaway secret and host, no database).
check-deploy: venv
	$(PROD) SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
	  ALLOWED_HOSTS=$${ALLOWED_HOSTS:-battlecards.example.org} \
	  $(PY) manage.py check --deploy --fail-level WARNING

# The whole suite on $(TEST_WORKERS) xdist workers, on one database: DB=postgresql, DB=sqlite, or (default)
# DATABASE_URL when set, else PostgreSQL when a server answers at 127.0.0.1:5432 (database $(PG_DB), this
# checkout's own), else SQLite (never under CI=true: CI runs both, `DB=postgresql` then `DB=sqlite`).
# The suite writes bytecode (__pycache__, git-ignored) even where PYTHONDONTWRITEBYTECODE is set: every xdist
# worker imports and assertion-rewrites all of it, 12.6 s of CPU a worker from source, 5.3 s from the cache.
DB ?=
test: venv
	@if [ "$(DB)" = sqlite ]; then \
	  export DATABASE_URL=sqlite:///$(CURDIR)/test.sqlite3; echo "make test: SQLite (DB=sqlite)"; \
	elif [ "$(DB)" = postgresql ] && [ -z "$$DATABASE_URL" ]; then \
	  export DATABASE_URL=$(PG_URL); echo "make test: PostgreSQL at 127.0.0.1:5432, database $(PG_DB) (DB=postgresql)"; \
	elif [ -n "$(DB)" ] && [ "$(DB)" != postgresql ]; then \
	  echo "make test: DB is postgresql or sqlite, not '$(DB)'" >&2; exit 2; \
	elif [ -n "$$DATABASE_URL" ]; then \
	  echo "make test: database from DATABASE_URL ($${DATABASE_URL%%://*})"; \
	elif $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 5432), 3).close()" 2>/dev/null; then \
	  export DATABASE_URL=$(PG_URL); echo "make test: PostgreSQL at 127.0.0.1:5432, database $(PG_DB) (test_$(PG_DB)*)"; \
	elif [ -n "$$CI" ] && [ "$$CI" != false ] && [ "$$CI" != 0 ]; then \
	  echo "make test: CI needs PostgreSQL and none answered at 127.0.0.1:5432" >&2; exit 1; \
	else \
	  export DATABASE_URL=sqlite:///$(CURDIR)/test.sqlite3; echo "make test: no PostgreSQL answered at 127.0.0.1:5432; using SQLite"; \
	fi; \
	$(VENV)/bin/lint-imports && \
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# A quicker local subset (never instead of `make test`): leaves out the tests marked slow.
test-fast:
	@$(MAKE) --no-print-directory test PYTEST_ARGS='-m "not slow" $(PYTEST_ARGS)'

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

bench: venv
	@$(PY) -c 'import chess' 2>/dev/null || $(PY) -m pip install --quiet -e '.[bench]'
	$(PY) tests/bench/run_all.py

# The before/after table of docs/production.md (tests/bench/issue26_table.py): this tree behind make serve's
# nginx against BEFORE served as BEFORE_LAYOUT, ROUNDS interleaved rounds, each row's median and range over
# them, the load average at each round's start. Results: tests/bench/results/issue26_table.json.
BEFORE ?= 7386b01
BEFORE_LAYOUT ?= asgi
ROUNDS ?= 3
bench-table: venv
	$(PY) tests/bench/issue26_table.py --rounds $(ROUNDS) --before $(BEFORE) --before-layout $(BEFORE_LAYOUT) \
	  --layout front --listeners 0

# Load test against the real server (loopback): 50 games vs bots, 200 event-stream listeners, verify_games.
load: venv
	$(PY) tests/bench/load_games.py

clean:
	rm -rf $(VENV) db.sqlite3 test.sqlite3 .pytest_cache

# The site's screenshots in docs/screenshots/ (docs/site.md): each game's table at desktop and phone width,
# through Playwright and /usr/bin/chromium, on DATABASE_URL's database (migrated, catalog loaded when empty).
screenshots: venv
	$(PY) -m tests.web.screenshots
