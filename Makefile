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
# pytest-xdist workers of `make test` (auto: one per CPU core; 0: no workers, one process)
TEST_WORKERS ?= auto
PYTEST_ARGS ?=

# `make serve`: the API's threaded WSGI workers on PORT (one per core), the event streams' uvicorn (ASGI)
# workers on STREAM_PORT; the proxy routes the stream paths there (docs/production.md, "Worker layout").
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
STREAM_PORT ?= $(shell echo $$(($(PORT) + 1)))
STREAM_WORKERS ?= 1
PROD := DJANGO_SETTINGS_MODULE=config.settings.production

.PHONY: run serve check-deploy test test-fast lint lock bench load venv migrate catalog admin clean

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

# Production on one machine: the API on $(PORT) from $(WORKERS) threaded WSGI workers and the event streams on
# $(STREAM_PORT) from $(STREAM_WORKERS) uvicorn (ASGI) worker(s), both stopped together; a proxy in front routes
# the stream paths to $(STREAM_PORT) (docs/production.md, "Worker layout"). Production settings (they
# fail closed: SECRET_KEY and ALLOWED_HOSTS must be set, e.g. in .env), static files collected for WhiteNoise.
# The superuser "admin" is created on the first start (its password printed once, framed, before gunicorn
# starts). See docs/production.md.
serve: venv
	$(PROD) $(PY) manage.py check --deploy
	$(PY) -m config.createdb
	$(PROD) $(PY) manage.py migrate --noinput
	$(PROD) $(PY) manage.py createcachetable
	$(PROD) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(PROD) $(PY) manage.py load_catalog
	$(PROD) $(PY) manage.py ensure_admin
	$(PROD) $(VENV)/bin/gunicorn config.asgi:application -c config/gunicorn.conf.py \
	  -k config.gunicorn_worker.Worker --bind $(HOST):$(STREAM_PORT) --workers $(STREAM_WORKERS) & \
	  streams=$$!; trap 'kill $$streams 2>/dev/null' EXIT INT TERM; \
	  $(PROD) $(VENV)/bin/gunicorn config.wsgi:application -c config/gunicorn.conf.py \
	  --bind $(HOST):$(PORT) --workers $(WORKERS)

# Django's deployment checklist against the production settings (a throwaway secret and host, no database).
check-deploy: venv
	$(PROD) SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
	  ALLOWED_HOSTS=$${ALLOWED_HOSTS:-battlecards.example.org} \
	  $(PY) manage.py check --deploy --fail-level WARNING

# The whole suite on $(TEST_WORKERS) xdist workers, on one database: DB=postgresql, DB=sqlite, or (default)
# DATABASE_URL when set, else PostgreSQL when a server answers at 127.0.0.1:5432 (database $(PG_DB), this
# checkout's own), else SQLite (never under CI=true: CI runs both, `DB=postgresql` then `DB=sqlite`).
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
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

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

# Load test against the real server (loopback): 50 games vs bots, 200 event-stream listeners, verify_games.
load: venv
	$(PY) tests/bench/load_games.py

clean:
	rm -rf $(VENV) db.sqlite3 test.sqlite3 .pytest_cache
