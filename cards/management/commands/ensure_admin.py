"""manage.py ensure_admin: create the superuser "admin" with a generated password, printed once."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import IntegrityError, transaction


class Command(BaseCommand):
    help = 'Create the superuser "admin" if missing, with a random password printed once.'

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, **options):
        username = options["username"]
        user_model = get_user_model()
        exists = f'superuser "{username}" already exists (password unchanged)'
        try:
            with transaction.atomic():
                if user_model.objects.filter(username=username).exists():
                    self.stdout.write(exists)
                    return
                password = secrets.token_urlsafe(18)
                user_model.objects.create_superuser(username=username, email="", password=password)
        except IntegrityError:  # another host's `make serve` created it at the same moment
            self.stdout.write(exists)
            return
        # Framed and last (make run calls this right before the server starts), so it is not lost in the
        # output of the install, the migrations and the catalog load.
        rule = "=" * 72
        lines = [
            "",
            rule,
            f'  Created the superuser "{username}" for /admin/ (shown once: store it now)',
            f"      username: {username}",
            f"      password: {password}",
            f"  Reset it with: python manage.py changepassword {username}",
            rule,
            "",
        ]
        self.stdout.write(self.style.SUCCESS("\n".join(lines)))
