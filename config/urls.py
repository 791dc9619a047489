from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api_root import api_root
from decks.urls import deck_patterns
from games.urls import games_patterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api_root, name="api-root"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/games/", include(games_patterns)),  # first: a game request does not try the catalog's URLs
    path("api/decks/", include(deck_patterns)),  # as are deck requests (deck validation: issue 42)
    path("api/", include("cards.urls")),
    path("api/", include("accounts.urls")),
    path("api/", include("decks.urls")),
    path("api/", include("games.urls")),
    path("api/", include("simulations.urls")),
    path("", include("web.urls")),  # the site: home, cards, decks (web/)
]

handler400 = "config.exceptions.json_400"
handler404 = "web.views.not_found"  # JSON under /api/, the site's page elsewhere
handler500 = "config.exceptions.json_500"
