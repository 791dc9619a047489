"""The site's pages at / (the API stays under /api/)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from web import views, views_cards, views_decks, views_play, views_players, views_watch

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="web/login.html", next_page="/"),
        name="login",
    ),
    path("accounts/logout/", views.logout, name="logout"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("cards/", views_cards.card_list, name="cards"),
    path("cards/<str:kind>/", views_cards.card_list, name="card-list"),
    path("cards/<str:kind>/<str:code>/", views_cards.card_detail, name="card-detail"),
    path("decks/", views_decks.deck_list, name="deck-list"),
    path("decks/new/", views_decks.deck_new, name="deck-new"),
    path("decks/import/", views_decks.deck_import, name="deck-import"),
    path("decks/starters/", views_decks.starter_list, name="starter-list"),
    path("decks/starters/<str:code>/clone/", views_decks.starter_clone, name="starter-clone"),
    path("decks/<int:pk>/", views_decks.deck_detail, name="deck-detail"),
    path("decks/<int:pk>/check/", views_decks.deck_check, name="deck-check"),
    path("decks/<int:pk>/edit/", views_decks.deck_edit, name="deck-edit"),
    path("decks/<int:pk>/save/", views_decks.deck_save, name="deck-save"),
    path("decks/<int:pk>/delete/", views_decks.deck_delete, name="deck-delete"),
    path("decks/<int:pk>/versions/", views_decks.deck_versions, name="deck-versions"),
    path("leaderboards/", views_players.leaderboard_default, name="leaderboards"),
    path("leaderboards/<str:game_type>/", views_players.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views_players.player, name="player"),
    path("watch/", views_players.watch_list, name="watch-list"),
    path("play/", views_play.lobby, name="lobby"),
    path("play/new/", views_play.game_new, name="game-new"),
    path("play/new-team/", views_play.game_new_team, name="game-new-team"),
    path("play/<uuid:game_id>/", views_play.game_page, name="game"),
    path("play/<uuid:game_id>/join/", views_play.game_join, name="game-join"),
    path("play/<uuid:game_id>/act/", views_play.game_act, name="game-act"),
    path("play/<uuid:game_id>/resign/", views_play.game_resign, name="game-resign"),
    path("play/<uuid:game_id>/takeback/", views_play.game_takeback, name="game-takeback"),
    path(
        "play/<uuid:game_id>/takeback/answer/", views_play.game_takeback_answer, name="game-takeback-answer"
    ),
    path("play/<uuid:game_id>/watch/", views_watch.game_watch, name="game-watch"),
    path("play/<uuid:game_id>/replay/", views_watch.game_replay, name="game-replay"),
    path("play/<uuid:game_id>/replay/analysis/", views_watch.game_analysis, name="game-analysis"),
]
