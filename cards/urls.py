"""Routes of the catalog API under /api/ (names like arsenalcard-list, arsenalcard-detail)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from cards import apis, extra_apis
from cards.battlefront import apis as battlefront_apis
from cards.the_war import apis as the_war_apis
from cards.tide_of_iron import apis as toi_apis

router = SimpleRouter()
router.register("nations", apis.NationViewSet, basename="nation")
router.register("theaters", apis.TheaterViewSet, basename="theater")
router.register("sets", apis.CardSetViewSet, basename="cardset")
router.register("arsenal-cards", apis.ArsenalCardViewSet, basename="arsenalcard")
router.register("conflict-cards", apis.ConflictCardViewSet, basename="conflictcard")
router.register("battlecards", apis.BattlecardViewSet, basename="battlecard")
router.register("battlefront/cards", battlefront_apis.BattlefrontCardViewSet, basename="battlefrontcard")
router.register(
    "battlefront/special-uses",
    battlefront_apis.BattlefrontSpecialUseViewSet,
    basename="battlefrontspecialuse",
)
router.register("the-war/cards", the_war_apis.TheWarCardViewSet, basename="thewarcard")
router.register("the-war/starters", the_war_apis.TheWarStarterViewSet, basename="thewarstarter")
router.register("tide-of-iron/cards", toi_apis.ToiCardViewSet, basename="toicard")
router.register("tide-of-iron/decks", toi_apis.ToiDeckViewSet, basename="toideck")
router.register("tide-of-iron/scenarios", toi_apis.ToiScenarioViewSet, basename="toiscenario")

extra = [
    ("arsenal-cards", "arsenalcard", extra_apis.ArsenalFaceApi, extra_apis.ArsenalRulingsApi),
    ("conflict-cards", "conflictcard", extra_apis.ConflictFaceApi, extra_apis.ConflictRulingsApi),
    ("battlecards", "battlecard", extra_apis.BattlecardFaceApi, extra_apis.BattlecardRulingsApi),
]

urlpatterns = [
    *(
        path(f"{prefix}/<str:code>/face.svg", face.as_view(), name=f"{name}-face")
        for prefix, name, face, _ in extra
    ),
    *(
        path(f"{prefix}/<str:code>/rulings/", rulings.as_view(), name=f"{name}-rulings")
        for prefix, name, _, rulings in extra
    ),
    path(
        "battlefront/cards/<str:code>/face.svg",
        battlefront_apis.BattlefrontFaceApi.as_view(),
        name="battlefrontcard-face",
    ),
    path("the-war/cards/<str:code>/face.svg", the_war_apis.TheWarFaceApi.as_view(), name="thewarcard-face"),
    path("the-war/changes/", the_war_apis.TheWarChangesApi.as_view(), name="thewar-changes"),
    path("tide-of-iron/cards/<str:code>/face.svg", toi_apis.ToiFaceApi.as_view(), name="toicard-face"),
    path("bulk/", extra_apis.BulkListApi.as_view(), name="bulk-list"),
    path("bulk/catalog.json.gz", extra_apis.BulkCatalogApi.as_view(), name="bulk-catalog"),
    path("catalog/changes/", extra_apis.CatalogChangesApi.as_view(), name="catalog-changes"),
    *router.urls,
]
