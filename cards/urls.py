"""Routes of the catalog API under /api/ (names like arsenalcard-list, arsenalcard-detail)."""

from rest_framework.routers import SimpleRouter

from cards import apis

router = SimpleRouter()
router.register("nations", apis.NationViewSet, basename="nation")
router.register("theaters", apis.TheaterViewSet, basename="theater")
router.register("sets", apis.CardSetViewSet, basename="cardset")
router.register("arsenal-cards", apis.ArsenalCardViewSet, basename="arsenalcard")
router.register("conflict-cards", apis.ConflictCardViewSet, basename="conflictcard")
router.register("battlecards", apis.BattlecardViewSet, basename="battlecard")

urlpatterns = router.urls
