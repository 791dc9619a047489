from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: registration and API tokens (DRF's authtoken model; the user is Django's own)."""

    name = "accounts"
