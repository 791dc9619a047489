# Battlecards server. `make run` and `make test` are all a fresh machine needs.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL := postgres://postgres@127.0.0.1:5432/battlecards
PYTEST_ARGS ?=

WORKERS ?= 2
PROD := DJANGO_SETTINGS_MODULE=config.settings.production

.PHONY: run serve check-deploy test lint bench load venv migrate catalog admin clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

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

# Production on one machine: gunicorn managing $(WORKERS) uvicorn (ASGI) workers, production settings (they
# fail closed: SECRET_KEY and ALLOWED_HOSTS must be set, e.g. in .env), static files collected for WhiteNoise.
# The superuser "admin" is created on the first start (its password printed once, framed, before gunicorn
# starts). See README "Running in production".
serve: venv
	$(PROD) $(PY) manage.py check --deploy
	$(PY) -m config.createdb
	$(PROD) $(PY) manage.py migrate --noinput
	$(PROD) $(PY) manage.py createcachetable
	$(PROD) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(PROD) $(PY) manage.py load_catalog
	$(PROD) $(PY) manage.py ensure_admin
	$(PROD) $(VENV)/bin/gunicorn config.asgi:application -c config/gunicorn.conf.py \
	  --bind $(HOST):$(PORT) --workers $(WORKERS)

# Django's deployment checklist against the production settings (a throwaway secret and host, no database).
check-deploy: venv
	$(PROD) SECRET_KEY=$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))') \
	  ALLOWED_HOSTS=$${ALLOWED_HOSTS:-battlecards.example.org} \
	  $(PY) manage.py check --deploy --fail-level WARNING

# PostgreSQL when DATABASE_URL is set or a server answers at 127.0.0.1:5432; otherwise SQLite.
test: venv
	@if [ -n "$$DATABASE_URL" ]; then \
	  echo "make test: database from DATABASE_URL ($${DATABASE_URL%%://*})"; \
	elif $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 5432), 1).close()" 2>/dev/null; then \
	  export DATABASE_URL=$(PG_URL); echo "make test: PostgreSQL at 127.0.0.1:5432"; \
	else \
	  export DATABASE_URL=sqlite:///$(CURDIR)/test.sqlite3; echo "make test: no PostgreSQL answered at 127.0.0.1:5432; using SQLite"; \
	fi; \
	$(VENV)/bin/lint-imports && \
	$(PY) -m pytest $(PYTEST_ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

bench: venv
	@$(PY) -c 'import chess' 2>/dev/null || $(PY) -m pip install --quiet -e '.[bench]'
	$(PY) tests/bench/run_all.py

# Load test against the real server (loopback): 50 games vs bots, 200 event-stream listeners, verify_games.
load: venv
	$(PY) tests/bench/load_games.py

clean:
	rm -rf $(VENV) db.sqlite3 test.sqlite3 .pytest_cache
