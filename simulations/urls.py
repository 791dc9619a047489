from django.urls import path

from simulations import apis

urlpatterns = [
    path("simulations/", apis.SimulationListCreateApi.as_view(), name="simulation-list"),
    path("simulations/<uuid:job_id>/", apis.SimulationDetailApi.as_view(), name="simulation-detail"),
    path("decks/<int:pk>/balance/", apis.DeckBalanceApi.as_view(), name="deck-balance"),
]
