"""Routes of the deck builder: `deck_patterns` under /api/decks/ (config.urls tries them before the catalog's
patterns, so a deck request, deck validation above all, resolves at once), the starters under /api/
(accounts: accounts.urls)."""

from django.urls import path

from decks import apis, print_apis, starter_apis, validation_apis, version_apis

deck_patterns = [
    path("", apis.DeckListApi.as_view(), name="deck-list"),
    path("validate/", validation_apis.DeckValidateApi.as_view(), name="deck-validate"),
    path("matchup/", validation_apis.DeckMatchupApi.as_view(), name="deck-matchup"),
    path("import/", apis.DeckImportApi.as_view(), name="deck-import"),
    path("<int:pk>/", apis.DeckDetailApi.as_view(), name="deck-detail"),
    path("<int:pk>/entries/", apis.DeckEntriesApi.as_view(), name="deck-entries"),
    path("<int:pk>/validation/", validation_apis.DeckValidationApi.as_view(), name="deck-validation"),
    path("<int:pk>/stats/", validation_apis.DeckStatsApi.as_view(), name="deck-stats"),
    path("<int:pk>/export/", apis.DeckExportApi.as_view(), name="deck-export"),
    path("<int:pk>/print.pdf", print_apis.DeckPrintApi.as_view(), name="deck-print"),
    path("<int:pk>/versions/", version_apis.DeckVersionListApi.as_view(), name="deck-version-list"),
    path(
        "<int:pk>/versions/diff/", version_apis.DeckVersionDiffApi.as_view(), name="deck-version-diff"
    ),
    path(
        "<int:pk>/versions/<int:number>/",
        version_apis.DeckVersionDetailApi.as_view(),
        name="deck-version-detail",
    ),
]

urlpatterns = [
    path("starters/", starter_apis.StarterListApi.as_view(), name="starter-list"),
    path("starters/<str:code>/", starter_apis.StarterDetailApi.as_view(), name="starter-detail"),
    path("starters/<str:code>/print.pdf", print_apis.StarterPrintApi.as_view(), name="starter-print"),
    path("starters/<str:code>/clone/", starter_apis.StarterCloneApi.as_view(), name="starter-clone"),
]
