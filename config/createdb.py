"""`python -m config.createdb`: create the PostgreSQL database of DATABASE_URL if it does not exist yet.

Used by `make serve` so a fresh clone starts against an empty server; a no-op for SQLite.
"""

from __future__ import annotations

import os
import sys

import environ
import psycopg
from psycopg import sql


def main() -> int:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return 0
    db = environ.Env.db_url_config(url)
    params = {
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone():
            return 0
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
        print(f"created database {db['NAME']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
