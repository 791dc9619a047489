#!/usr/bin/env python3
"""Play one full game against the server's bot, using nothing but the Python standard library.

    python games/examples/play_vs_bot.py --server http://127.0.0.1:8000 --username alice --password secret \
        --register --deck gb-we-starter --bot-deck de-we-starter --bot heuristic

    # A team game (optional rule 3; uneven teams, rule 4, and combined sets work alike): I play the 2nd
    # British army, bots play my teammate and the two German armies:
    python games/examples/play_vs_bot.py --username alice --password secret --axis DE,DE --allies GB,GB \
        --me allies-2

    # Battlefront (one shared deck: no decks to choose; optional rules as JSON):
    python games/examples/play_vs_bot.py --username alice --password secret --game battlefront \
        --options '{"two_front_victory": true, "special_cards": {"west": "GB", "east": "DE"}}'

    # The War (each player his own deck: The War starters or saved The War decks by id):
    python games/examples/play_vs_bot.py --username alice --password secret --game the-war \
        --deck tw-starter-red-army --bot-deck tw-starter-wehrmacht

What it shows (see the "Client guide" in README.md):
  1. authenticate: POST /api/auth/token/ -> {"token": ...}, then send "Authorization: Token <token>"
  2. create a game against a bot: POST /api/games/ ({"game_type": "battlefront", ...} for Battlefront;
     {"armies": {"axis": [...], "allies": [...]}} for a team game: one seat per army, mine "me", bots others)
  3. read my seat's view: GET /api/games/{id}/view/ (pending decision + my legal actions + version)
  4. act: POST /api/games/{id}/actions/ {"version": n, "action": one of the legal actions}
     (409 stale_version: someone moved first; re-read the view and try again)
  5. follow what happened: GET /api/games/{id}/events/?since=<last seq seen>
  6. after the end: GET /api/games/{id}/replay/ (seed, salt and the whole log)

Exit status: 0 when the game was played to its end and its replay checks out (whoever won), 1 when the
revealed seed does not match its commitment, 3 on an API error.

The player here is deliberately simple: it fires whenever it can, deploys what it draws, and otherwise
takes the first legal action the server offers. It never needs to know the rules: the server is the
only authority and always lists what is legal.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

# The action types to take first, whatever the game (types the list does not name come after, in the order
# the server lists them): The War's (keep, build, attack, ...), then Battlecards' (fire, deploy, ...).
PREFERENCE = ["keep", "play_resource", "build", "tap", "convert", "improve", "wave", "attack", "target",
              "hit", "strike", "breakthrough", "block", "done",
              "autokill", "fire", "deploy", "draw", "support", "play_card", "choose", "take", "split",
              "retrieve", "emergency_deploy", "hold", "withdraw", "pass"]


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body
        super().__init__(f"HTTP {status}: {body.get('code')}: {body.get('detail')}")


class Client:
    def __init__(self, server: str, token: str | None = None, timeout: float = 30.0) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        if not self.server.startswith(("http://", "https://")):
            raise ValueError("the server URL must start with http:// or https://")
        req = urllib.request.Request(self.server + path, data=data, method=method)  # noqa: S310
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 - user-given server
                raw = resp.read()
                return json.loads(raw) if raw else None
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                payload = json.loads(raw)
            except ValueError:
                payload = {"code": "http_error", "detail": raw.decode(errors="replace")[:200]}
            raise ApiError(exc.code, payload) from None

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> Any:
        return self.request("POST", path, body if body is not None else {})


def authenticate(client: Client, args: argparse.Namespace) -> None:
    if args.token:
        client.token = args.token
        return
    if not (args.username and args.password):
        sys.exit("give --token, or --username and --password")
    if args.register:
        try:
            client.post("/api/auth/register/", {"username": args.username, "password": args.password})
            print(f"registered {args.username}")
        except ApiError as exc:
            print(f"register: {exc} (continuing: the account may exist already)")
    credentials = {"username": args.username, "password": args.password}
    client.token = client.post("/api/auth/token/", credentials)["token"]


def choose(legal: list[dict[str, Any]], view: dict[str, Any] | None = None) -> dict[str, Any]:
    """Whatever the game: a view that shows fronts with forces (a front game) plays by force
    (choose_by_force); else the first legal action of the most preferred type (PREFERENCE)."""
    if view is not None and "fronts" in view and all("card" in a or a["type"] == "pass" for a in legal):
        return choose_by_force(legal, view)
    rank = {name: i for i, name in enumerate(PREFERENCE)}
    return min(legal, key=lambda a: rank.get(str(a.get("type")), len(PREFERENCE)))


def choose_by_force(legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
    """A front game (Battlefront): play my strongest card onto the front where I trail the most; discard my
    weakest card at the hand limit; pass when nothing is worth playing. Forces come from my view (hand and
    fronts)."""
    force = {card["code"]: card["force"] or 0 for card in view["me"]["hand"]}
    me, them = view["seat"], view["opponent"]["seat"]
    margin = {front["front"]: front["force"][me] - front["force"][them] for front in view["fronts"]}
    plays = [a for a in legal if a["type"] == "play"]
    if plays:
        return max(plays, key=lambda a: (force.get(a["card"], 0), -margin.get(a["front"], 0)))
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        return min(discards, key=lambda a: force.get(a["card"], 0))
    return next((a for a in legal if a["type"] == "pass"), legal[0])


DEFAULT_DECKS = ("gb-we-starter", "de-we-starter")  # mine and the bot's, in a game whose players bring decks


def deck_ref(value: str) -> dict[str, Any]:
    """A deck: a saved deck's id (digits) or a starter code."""
    return {"deck_id": int(value)} if value.isdigit() else {"starter": value}


def team_armies(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    """The armies form of a team game: --axis DE,DE --allies GB,GB --me allies-2 -> my seat is the 2nd
    allied army, a bot (--bot) plays every other army."""
    armies: dict[str, list[dict[str, Any]]] = {}
    for side, nations in (("axis", args.axis or ""), ("allies", args.allies or "")):
        armies[side] = [
            {"nation": nation.strip(), "player": "me" if f"{side}-{n}" == args.me else "bot"}
            | ({} if f"{side}-{n}" == args.me else {"bot": args.bot})
            for n, nation in enumerate(nations.split(","), start=1)
            if nation.strip()
        ]
    return armies


def describe(entry: dict[str, Any]) -> str:
    who = f"{entry['seat']}{' (bot)' if entry['by_bot'] else ''}"
    events = ", ".join(e.get("type", "?") for e in entry["events"]) or "-"
    return f"#{entry['seq']:>4} {who:<14} {entry['kind']:<6} events: {events}"


def play(args: argparse.Namespace) -> int:
    client = Client(args.server)
    authenticate(client, args)
    options = json.loads(args.options or "{}")
    if args.larger_standing_armies:
        options["larger_standing_armies"] = True
    if args.axis or args.allies:  # a team, uneven or combined game: one seat per army
        body: dict[str, Any] = {"armies": team_armies(args), "options": options}
        if args.theaters:
            body["conflict"] = {"theaters": args.theaters.split(",")}
    else:
        body = {"game_type": args.game, "opponent": {"kind": "bot", "bot": args.bot}, "options": options}
        kind = next((t for t in client.get("/api/game-types/") if t["id"] == args.game), None)
        if kind is None:
            sys.exit(f"the server plays no game {args.game!r}")
        decks = (args.deck, args.bot_deck)
        if kind["decks"] and not any(decks):  # players bring decks: the default starters
            decks = DEFAULT_DECKS
        if any(decks):  # each player his own deck (a starter code or a saved deck's id)
            body["my_deck"], body["opponent_deck"] = (deck_ref(d) for d in decks)
    if args.seed is not None:
        body["seed"] = args.seed
    game = client.post("/api/games/", body)
    gid = game["id"]
    print(f"game {gid}: I play {game['my_seat']}; seed commitment {game['seed_hash']}")
    if game.get("lineup"):
        mine = game["my_seat"].split("-")[0]
        for seat in game["seats"]:
            who = "me" if seat["seat"] == game["my_seat"] else seat["bot"] + " bot" if seat["bot"] else "open"
            role = "teammate" if seat["side"] == mine else "enemy"
            print(f"  {seat['seat']:<9} {seat['nation']} ({who}, {role if who != 'me' else 'you'})")

    seen = 0
    actions = 0
    while True:
        log = client.get(f"/api/games/{gid}/events/?since={seen}")
        for entry in log["entries"]:
            seen = entry["seq"]
            if args.verbose:
                print(describe(entry))
        state = client.get(f"/api/games/{gid}/view/")
        if state["status"] == "finished":
            break
        if not state["your_turn"]:
            time.sleep(1)  # a human opponent is thinking (against a bot this does not happen)
            continue
        # Battlecards, Battlefront: the decision lists the legal actions; The War: the view does.
        legal = state["view"]["decision"].get("legal_actions") or state["view"].get("legal_actions")
        action = choose(legal, state["view"])
        try:
            client.post(f"/api/games/{gid}/actions/", {"version": state["version"], "action": action})
            actions += 1
        except ApiError as exc:
            if exc.body.get("code") == "stale_version":
                continue  # re-read the view and decide again
            raise
        if args.max_actions and actions >= args.max_actions:
            print(f"stopping after {actions} actions; resigning")
            client.post(f"/api/games/{gid}/resign/")
            break

    final = client.get(f"/api/games/{gid}/")
    print(f"finished after {final['turn']} turns and {final['ply']} actions ({actions} mine): "
          f"winner {final['winner']} by {final['end_reason']}; result {final['result']}")
    replay = client.get(f"/api/games/{gid}/replay/")
    check = hashlib.sha256(f"{replay['seed']}:{replay['seed_salt']}".encode()).hexdigest()
    deal = int(hashlib.sha256(f"deal:{replay['seed']}:{replay['seed_salt']}".encode()).hexdigest()[:16], 16)
    verified = check == game["seed_hash"] and deal == replay["setup"]["seed"]
    verdict = "verified" if verified else "MISMATCH"
    print(f"seed {replay['seed']} revealed; commitment {verdict}; {len(replay['actions'])} engine actions")
    # A game that ended normally is a success whoever won (the bot often does); only a replay whose seed
    # does not match the commitment published at creation is a failure.
    return 0 if verified else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", help="An API token (else --username/--password get one).")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--register", action="store_true", help="Create the account first.")
    parser.add_argument("--game", default="battlecards", help="The game's id (GET /api/game-types/).")
    parser.add_argument("--options", help="The optional rules as a JSON object.")
    parser.add_argument("--deck", help="My deck: a starter code or a saved deck's id (default: "
                        f"{DEFAULT_DECKS[0]} when players bring decks; none in a shared-deck game).")
    parser.add_argument("--bot-deck", help=f"The bot's deck (default: {DEFAULT_DECKS[1]}, as --deck).")
    levels = [f"search-{n}" for n in range(1, 5)]
    parser.add_argument("--bot", choices=["random", "heuristic", *levels], default="heuristic",
                        help="The bot's level (search-N: the search bot; not for team armies, nor Tide of "
                        "Iron; GET /api/game-types/ lists each game's bots).")
    parser.add_argument("--axis", help="A team game: the axis armies' nations, e.g. DE,DE or DE,JP.")
    parser.add_argument("--allies", help="A team game: the allied armies' nations, e.g. GB,GB or GB,US.")
    parser.add_argument("--me", default="allies-1", help="A team game: the army I play (default allies-1).")
    parser.add_argument("--theaters", help="A team game: the conflict decks to add together, e.g. WE,PAC.")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--larger-standing-armies", action="store_true", help="Optional rule 1.")
    parser.add_argument("--max-actions", type=int, default=0, help="Resign after this many of my actions.")
    parser.add_argument("-v", "--verbose", action="store_true", help="Print every log entry I may see.")
    args = parser.parse_args(argv)
    try:
        return play(args)
    except ApiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
