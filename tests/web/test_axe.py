"""Issue 38: axe-core (vendored in tests/web/vendor/, never fetched at test time) reports 0 serious and 0
critical violations on a listed crawl of the site, in Debian's headless Chromium: home, the account pages,
card list, search and detail, the deck pages, starters, the lobby, each game's play, watch and replay
pages, a leaderboard, a player page and the watch list."""

from __future__ import annotations

from pathlib import Path

from tests.web.test_in_browser import PASSWORD, in_browser, site, sync_api  # noqa: F401 (fixtures)
from tests.web.test_in_browser import pytestmark as browser_marks

pytestmark = browser_marks

AXE = (Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js").read_text()
GAME_TYPES = ("battlecards", "battlefront", "the-war", "tide-of-iron")

# The violations axe rates serious or critical, each with a few of its elements.
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return {
    passed: result.passes.length,
    violations: result.violations.filter(v => v.impact === "serious" || v.impact === "critical")
      .map(v => `${v.id} (${v.impact}): ${v.help}: `
        + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | ")),
  };
}"""


def _games(django_db_blocker) -> tuple[dict[str, str], dict[str, str], dict]:
    """A player (browser-axe-a, with a password) and his games: one live and one finished (resigned) of
    each game type (Tide of Iron against browser-axe-b, the others against the random bot), and a clone of a
    starter deck. Made through the site's own forms with Django's test client."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    def created(response) -> str:
        assert response.status_code == 302, response.content[:500]
        return response["Location"].strip("/").split("/")[-1]

    with django_db_blocker.unblock():
        users = get_user_model().objects
        a = users.create_user(username="browser-axe-a", password=PASSWORD)
        b = users.create_user(username="browser-axe-b", password=PASSWORD)
        client, other = Client(), Client()
        client.force_login(a)
        other.force_login(b)
        bodies = {
            "battlecards": {"game_type": "battlecards", "opponent": "bot", "bot": "random",
                            "my_deck": "starter:gb-we-starter", "opponent_deck": "starter:de-we-starter"},
            "battlefront": {"game_type": "battlefront", "opponent": "bot", "bot": "random"},
            "the-war": {"game_type": "the-war", "opponent": "bot", "bot": "random",
                        "war_p1": "tw-starter-red-army", "war_p2": "tw-starter-wehrmacht"},
            "tide-of-iron": {"game_type": "tide-of-iron", "opponent": "human", "spectators": "yes"},
        }
        live, finished = {}, {}
        for game_type, body in bodies.items():
            for into in (live, finished):
                game = created(client.post("/play/new/", body))
                if game_type == "tide-of-iron":
                    assert other.post(f"/play/{game}/join/", {}).status_code == 302
                into[game_type] = game
            client.post(f"/play/{finished[game_type]}/resign/", {})
        _analysed(finished["battlefront"], a)  # its replay page draws the analysis graph and flagged moves
        deck = created(client.post("/decks/starters/gb-we-starter/clone/", {}))
        # a Tide of Iron match where the player is to confirm or dispute the other's report (the live one
        # above has his `act` decision): he passes, the other reports his command points
        confirm = created(client.post("/play/new/", bodies["tide-of-iron"]))
        assert other.post(f"/play/{confirm}/join/", {}).status_code == 302
        for who, body in ((client, {"action": '{"type": "pass_turn", "seat": "allies"}'}),
                          (other, {"report": "report_command", "points": "5"})):
            version = who.get(f"/api/games/{confirm}/view/").json()["version"]
            assert who.post(f"/play/{confirm}/act/", {**body, "version": version}).status_code == 302
        return live, finished, {"deck": deck, "toi_confirm": confirm}


def _analysed(game_id: str, user) -> None:
    from games.models import AnalysisStatus, Game, GameAnalysis

    def ply(n: int, seat: str, flagged: bool) -> dict:
        move = {"type": "pass", "seat": seat}
        return {"ply": n, "seat": seat, "wins": {seat: 0.4, "east" if seat == "west" else "west": 0.6},
                "played": move, "played_value": 0.2, "best": move, "best_value": 0.4, "flagged": flagged,
                "choices": 3}

    GameAnalysis.objects.create(
        game=Game.objects.get(pk=game_id), requested_by=user, status=AnalysisStatus.DONE, iterations=4,
        plies_total=2, plies_done=2, plies=[ply(0, "west", False), ply(1, "east", True)],
    )


def test_axe_finds_no_serious_or_critical_violation_on_the_crawl(in_browser, django_db_blocker):  # noqa: F811
    live, finished, made = _games(django_db_blocker)
    anonymous = ["/", "/accounts/signup/", "/accounts/login/"]
    signed_in = [
        "/",
        "/cards/",
        "/cards/arsenal/",
        "/cards/arsenal/?q=nation:de%20kind:air%20points%3C15",
        "/cards/arsenal/gb-montgomery/",
        "/decks/",
        "/decks/new/",
        "/decks/import/",
        "/decks/starters/",
        f"/decks/{made['deck']}/",
        f"/decks/{made['deck']}/versions/",
        "/play/",
        *(f"/play/{live[g]}/" for g in GAME_TYPES),
        f"/play/{made['toi_confirm']}/",
        *(f"/play/{live[g]}/watch/" for g in GAME_TYPES),
        *(f"/play/{finished[g]}/" for g in GAME_TYPES),
        *(f"/play/{finished[g]}/replay/?ply=1" for g in GAME_TYPES),
        "/leaderboards/battlecards/",
        "/players/browser-axe-a/",
        "/watch/",
        "/accounts/logout/",
    ]

    def steps(page):
        page.context.add_init_script(script=AXE)  # devtools injects it: the site's own scripts stay as served
        found = {}

        def check(path, who):
            response = page.goto(path)
            assert response.status == 200, (path, response.status)
            page.wait_for_load_state("load")
            found[f"{who} {path}"] = page.evaluate(RUN_AXE)

        for path in anonymous:
            check(path, "visitor")
        page.get_by_label("Username").fill("browser-axe-a")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("button", name="Log out").wait_for()
        for path in signed_in:
            check(path, "player")
        kinds = set()  # the Tide of Iron play pages crawled draw the player's pending decision
        for game in (live["tide-of-iron"], made["toi_confirm"]):
            page.goto(f"/play/{game}/")
            kinds.add(page.locator("#board .decision ul.actions").get_attribute("data-decision"))
        assert kinds == {"act", "confirm"}, kinds
        return found

    found = in_browser(steps)
    assert len(found) == len(anonymous) + len(signed_in)
    assert all(result["passed"] > 5 for result in found.values())  # axe ran its rules on every page
    bad = {path: result["violations"] for path, result in found.items() if result["violations"]}
    assert not bad, "\n".join(f"{path}: {v}" for path, vs in bad.items() for v in vs)
