"""The War's part of the simulation jobs (its definition's deck_simulation and deck_balance hooks): its two
decks resolved (saved or starters) and checked as a pair, and the variants a job plays. The job itself is
built and queued by simulations.services.jobs, the same for every seat game."""

from typing import Any

from config.errors import ValidationFailed
from simulations.services.jobs import SeatJobPlan


def _war_casual(options: dict[str, Any] | None) -> bool:
    options = dict(options or {})
    if set(options) - {"casual"} or not isinstance(options.get("casual", False), bool):
        raise ValidationFailed("The War decks take only the option casual (true or false).",
                               code="invalid_options")
    return bool(options.get("casual", False))


def war_simulation_plan(
    *, user: Any, kind: Any, deck_a: Any, deck_b: Any, options: dict[str, Any] | None,
) -> SeatJobPlan:
    """The War bot games between two The War decks (saved or starters), p1 with deck_a, p2 with deck_b."""
    from games.the_war_glue import war_deck_resolve, war_decks_rules

    if deck_a is None or deck_b is None:
        raise ValidationFailed("Give deck_a and deck_b.", code="deck_required", field="deck_a")
    decks = {"p1": war_deck_resolve(user=user, ref=deck_a), "p2": war_deck_resolve(user=user, ref=deck_b)}
    rules = war_decks_rules(decks=decks, casual=_war_casual(options))
    return SeatJobPlan(
        request={"decks": {s: d.source | {"label": d.label, "nation": d.army} for s, d in decks.items()}},
        variants=[{"label": "as given", "setup": kind.new_setup(seed=0, options=rules).to_json()}],
    )


def war_balance_plan(
    *, user: Any, kind: Any, deck_id: int, opponent: dict[str, Any], options: dict[str, Any] | None,
    proposals: int,
) -> SeatJobPlan:
    """The War: swaps within the deck's army pool that keep it legal (decks.rules_the_war), each proposal
    (and the deck as it is, when the pair is legal) simulated against `opponent` (p1: the deck)."""
    from games.the_war_glue import war_deck_resolve, war_decks_rules
    from simulations.balance_the_war import war_propose_swaps
    from vocabulary.the_war import load_catalog

    casual = _war_casual(options)
    catalog = load_catalog()
    mine = war_deck_resolve(user=user, ref={"deck_id": deck_id}, catalog=catalog)
    theirs = war_deck_resolve(user=user, ref=opponent, catalog=catalog)
    variants: list[dict[str, Any]] = []
    try:
        current = war_decks_rules(decks={"p1": mine, "p2": theirs}, casual=casual, catalog=catalog)
    except ValidationFailed:
        current = None
    if current is not None:
        variants.append({
            "label": "current deck", "current": True,
            "proposal": {"remove": {}, "add": {}, "changes": 0, "card_difference": 0, "point_difference": 0},
            "setup": kind.new_setup(seed=0, options=current).to_json(),
        })
    found = war_propose_swaps(catalog, army=mine.army, entries=mine.entries, casual=casual, limit=proposals)
    for number, proposal in enumerate(found, start=1):
        swapped = type(mine)(army=mine.army, entries=proposal.entries, label=mine.label, source=mine.source)
        try:
            rules = war_decks_rules(decks={"p1": swapped, "p2": theirs}, casual=casual, catalog=catalog)
        except ValidationFailed:
            continue
        variants.append({
            "label": f"proposal {number}", "current": False, "proposal": proposal.to_dict(),
            "setup": kind.new_setup(seed=0, options=rules).to_json(),
        })
    if not variants:
        raise ValidationFailed("No swap within the deck's army pool makes these decks a legal pair.",
                               code="no_legal_swap")
    return SeatJobPlan(
        request={
            "deck": mine.source | {"label": mine.label, "nation": mine.army, "side": "p1"},
            "opponent": theirs.source | {"label": theirs.label, "nation": theirs.army, "side": "p2"},
        },
        outcome={"matchup_legal": current is not None, "violations": []},
        variants=variants,
    )
