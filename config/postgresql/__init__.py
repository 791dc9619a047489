"""Django's PostgreSQL backend with a cheaper connection check for its pool (config.postgresql.base)."""
