"""Settling a battle: the battlecard to the winner (counterattacks CA1), the occupying force (Optional Rule
5.1), Scorched Earth (C17), the victory check."""
from __future__ import annotations

from ...core.errors import required
from ...core.machine import RuleBook, emit
from ...core.order import put_by_id
from ..actions import Action, PlayCard
from ..behaviour import SCORCHED, Window, card_effect, window_of, window_options
from ..book import RULES
from ..common import KPass, KPlayCard
from ..frames import BattleFrame
from ..outcome import check_victory
from ..state import Decision, GameState
from ..zones import discard_kept, ref_of, remove_deployed, stated_aggressor


def stage_settle(st: GameState, fr: BattleFrame) -> Decision | None:
    RULES.move(fr, "scorch" if _settle(st, fr) else "done")
    return None


def _settle(st: GameState, fr: BattleFrame) -> bool:
    """The battlecard to the winner; True when the loser may now play Scorched Earth (fr.loser)."""
    card, winner = fr.card, fr.winner
    if not fr.mode.decides_winner:  # an Air Raid: no battlecard, nobody wins
        return False
    assert card is not None  # a battlecard's battle
    if fr.ignored:
        if not fr.counter:
            st.conflict_discard.append(card)
        return False
    assert winner is not None  # settled by a win, a stalemate (the defender) or uncontested
    agg, dfd = fr.aggressor, fr.defender
    if fr.counter:
        if winner == agg:  # the counterattacker takes the card from the holder
            st.team(dfd)["won"].remove(card)
            st.team(agg)["won"].append(card)
            left = st.players[dfd]["occupied"].pop(card, None)
            if left:  # units that withdrew from the lost occupied stack go back to the usual stacks
                for c in left:
                    st.players[dfd]["stacks"][st.defs[c].kind][0].append(c)
    else:
        st.team(winner)["won"].append(card)
    if st.setup.options.occupying_force and winner == agg and stated_aggressor(st, card) == st.side(winner) \
            and card not in st.players[winner]["occupied"]:
        # Optional Rule 5.1: the battlecard becomes a deployed stack holding the victorious units
        survivors = list(fr.units[winner])
        if fr.joined is not None:  # a homeland battle: the commander's own survivors (teammates' stay put)
            survivors = [c for c in survivors if ref_of(st, winner, c) is not None]
        for c in survivors:
            remove_deployed(st, winner, c)
        put_by_id(st.players[winner]["occupied"], card, survivors)  # id order (state.new_army)
        emit(st, "occupied", {"seat": winner, "card": card,
                              "units": [[c, st.code[c]] for c in survivors]})
    loser = st.foe(winner)
    emit(st, "battle_won", {"winner": winner, "card": card, "code": st.code[card],
                           "victory_points": 0 if card in st.scorched else st.defs[card].victory_points})
    if card not in st.scorched and st.team(loser)["kept"]:
        fr.loser = loser
        return True
    return False


def stage_scorch(st: GameState, fr: BattleFrame) -> Decision | None:
    assert fr.loser is not None and fr.card is not None
    return Decision(fr.loser, "scorched_earth", {"battlecard": fr.card, "code": st.code[fr.card]})


def legal_scorched_earth(st: GameState, fr: BattleFrame) -> list[tuple]:
    seat = required(fr.loser, "loser asked for scorched earth")
    return [KPass(seat)] + window_options(st, fr, seat, SCORCHED)


def act_scorched_earth(st: GameState, fr: BattleFrame, a: Action) -> None:
    if isinstance(a, PlayCard):
        discard_kept(st, a.seat, a.card)
        window_of(st, a.card, SCORCHED).resolve(st, fr, a)
    RULES.move(fr, "done")


def _scorch_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid, target=fr.card)]


def _scorch(st: GameState, fr: BattleFrame, a: PlayCard) -> None:
    st.scorched.append(required(fr.card, "lost battlecard"))  # C17: stays scorched when re-fought
    emit(st, "scorched_earth", {"seat": a.seat, "card": fr.card})


card_effect("scorched-earth", kept=True, rulings="C17", scorched_earth=Window(_scorch_options, _scorch))


def stage_done(st: GameState, fr: BattleFrame) -> Decision | None:
    st.frames.pop()
    emit(st, "battle_over", {"winner": fr.winner, "card": fr.card})
    if fr.winner is not None:
        check_victory(st, fr.winner)
    return None


def register(book: RuleBook) -> None:
    """Register this module's frames and decisions (called once, by battlecards.machine)."""
    book.decision("scorched_earth", legal=legal_scorched_earth, act=act_scorched_earth)
