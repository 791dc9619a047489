from django.urls import path

from games import apis, stream_ticket_apis

urlpatterns = [
    path("games/", apis.GameListCreateApi.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", apis.GameDetailApi.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/join/", apis.GameJoinApi.as_view(), name="game-join"),
    path("games/<uuid:game_id>/resign/", apis.GameResignApi.as_view(), name="game-resign"),
    path("games/<uuid:game_id>/view/", apis.GameSeatViewApi.as_view(), name="game-view"),
    path("games/<uuid:game_id>/actions/", apis.GameActionSubmitApi.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/events/", apis.GameEventsApi.as_view(), name="game-events"),
    path("games/<uuid:game_id>/events/stream/", apis.game_event_stream, name="game-event-stream"),
    path(
        "games/<uuid:game_id>/events/stream-ticket/",
        stream_ticket_apis.StreamTicketApi.as_view(),
        name="game-event-stream-ticket",
    ),
    path("games/<uuid:game_id>/replay/", apis.GameReplayApi.as_view(), name="game-replay"),
]
