"""The Celery app of simulation jobs: `celery -A config worker -Q simulations` (settings CELERY_*)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("battlecards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
