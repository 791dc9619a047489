from django.urls import path

from games import apis, rating_apis

urlpatterns = [
    path("games/", apis.GameListCreateApi.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", apis.GameDetailApi.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/join/", apis.GameJoinApi.as_view(), name="game-join"),
    path("games/<uuid:game_id>/resign/", apis.GameResignApi.as_view(), name="game-resign"),
    path("games/<uuid:game_id>/view/", apis.GameSeatViewApi.as_view(), name="game-view"),
    path("games/<uuid:game_id>/actions/", apis.GameActionSubmitApi.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/events/", apis.GameEventsApi.as_view(), name="game-events"),
    path("games/<uuid:game_id>/events/stream/", apis.game_event_stream, name="game-event-stream"),
    path("games/<uuid:game_id>/replay/", apis.GameReplayApi.as_view(), name="game-replay"),
    # ratings (games.rating_apis)
    path("leaderboards/<str:game_type>/", rating_apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("users/<str:username>/ratings/", rating_apis.UserRatingsApi.as_view(), name="user-ratings"),
    path("bots/ratings/", rating_apis.BotRatingsApi.as_view(), name="bot-ratings"),
]
