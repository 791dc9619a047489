from django.urls import include, path

from games import (
    analysis_apis,
    apis,
    game_type_apis,
    rating_apis,
    spectator_apis,
    stream_ticket_apis,
    takeback_apis,
)

# One game's URLs, under /api/games/<id>/. Grouped by prefix (here and in config.urls, which routes
# /api/games/ before the catalog's and decks' URLs), so resolving a game request tries a handful of
# patterns instead of every API pattern in turn (issue 26: ~130 us of a game view's ~2 ms).
game_patterns = [
    path("", apis.GameDetailApi.as_view(), name="game-detail"),
    path("join/", apis.GameJoinApi.as_view(), name="game-join"),
    path("resign/", apis.GameResignApi.as_view(), name="game-resign"),
    path("view/", apis.GameSeatViewApi.as_view(), name="game-view"),
    path("actions/", apis.GameActionSubmitApi.as_view(), name="game-actions"),
    path("events/", apis.GameEventsApi.as_view(), name="game-events"),
    path("events/stream/", apis.game_event_stream, name="game-event-stream"),
    path(
        "events/stream-ticket/",
        stream_ticket_apis.StreamTicketApi.as_view(),
        name="game-event-stream-ticket",
    ),
    path("replay/", apis.GameReplayApi.as_view(), name="game-replay"),
    path("analysis/", analysis_apis.GameAnalysisApi.as_view(), name="game-analysis"),
    path("spectate/", spectator_apis.GameSpectatorViewApi.as_view(), name="game-spectate"),
    path(
        "spectate/events/",
        spectator_apis.GameSpectatorEventsApi.as_view(),
        name="game-spectate-events",
    ),
    path("spectate/stream/", spectator_apis.game_spectator_stream, name="game-spectate-stream"),
    path("takeback/", takeback_apis.GameTakebackApi.as_view(), name="game-takeback"),
    path("takeback/answer/", takeback_apis.GameTakebackAnswerApi.as_view(), name="game-takeback-answer"),
]

# Under /api/games/.
games_patterns = [
    path("", apis.GameListCreateApi.as_view(), name="game-list"),
    path("live/", spectator_apis.WatchListApi.as_view(), name="game-watch-list"),
    path("<uuid:game_id>/", include(game_patterns)),
]

# The rest of the games app's API, under /api/.
urlpatterns = [
    path("game-types/", game_type_apis.GameTypeListApi.as_view(), name="game-type-list"),
    path("feed/", spectator_apis.FeedListApi.as_view(), name="feed"),
    path("feed/stream/", spectator_apis.feed_stream, name="feed-stream"),
    # ratings (games.rating_apis)
    path("leaderboards/<str:game_type>/", rating_apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("users/<str:username>/ratings/", rating_apis.UserRatingsApi.as_view(), name="user-ratings"),
    path("users/<str:username>/games/", rating_apis.PlayerGamesApi.as_view(), name="user-games"),
    path("bots/ratings/", rating_apis.BotRatingsApi.as_view(), name="bot-ratings"),
]
