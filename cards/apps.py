from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"

    def ready(self) -> None:
        from config import json_lookups

        json_lookups.register()  # JSONField `contains` on SQLite too (the catalog's list filters use it)
