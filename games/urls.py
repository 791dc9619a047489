from django.urls import path

from games import apis, rating_apis, spectator_apis, stream_ticket_apis, takeback_apis

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
    path(
        "games/<uuid:game_id>/spectate/", spectator_apis.GameSpectatorViewApi.as_view(), name="game-spectate"
    ),
    path(
        "games/<uuid:game_id>/spectate/events/",
        spectator_apis.GameSpectatorEventsApi.as_view(),
        name="game-spectate-events",
    ),
    path(
        "games/<uuid:game_id>/spectate/stream/",
        spectator_apis.game_spectator_stream,
        name="game-spectate-stream",
    ),
    path("feed/", spectator_apis.FeedListApi.as_view(), name="feed"),
    path("feed/stream/", spectator_apis.feed_stream, name="feed-stream"),
    path("games/<uuid:game_id>/takeback/", takeback_apis.GameTakebackApi.as_view(), name="game-takeback"),
    path(
        "games/<uuid:game_id>/takeback/answer/",
        takeback_apis.GameTakebackAnswerApi.as_view(),
        name="game-takeback-answer",
    ),
    # ratings (games.rating_apis)
    path("leaderboards/<str:game_type>/", rating_apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("users/<str:username>/ratings/", rating_apis.UserRatingsApi.as_view(), name="user-ratings"),
    path("bots/ratings/", rating_apis.BotRatingsApi.as_view(), name="bot-ratings"),
]
