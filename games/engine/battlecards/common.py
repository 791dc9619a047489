"""Small shared vocabulary of the Battlecards rules: legal-action keys and a few constants."""
from __future__ import annotations


# Legal actions are enumerated as compact keys (type, seat, *fields), which are cheap to build, and
# turned into Action values only when asked for (legal_actions) or chosen.
def KDraw(seat): return ("draw", seat)  # noqa: E704
def KEmergencyDeploy(seat): return ("emergency_deploy", seat)  # noqa: E704
def KDeploy(seat, card, stack): return ("deploy", seat, card, stack)  # noqa: E704
def KPlayCard(seat, card, target=None, option=None): return ("play_card", seat, card, target, option)  # noqa: E704
def KChoose(seat, option, army=None, card=None, stack=None):  # the typed fields of actions.Choose
    return ("choose", seat, option, army, card, stack)


def KPass(seat): return ("pass", seat)  # noqa: E704
def KFire(seat, unit, target): return ("fire", seat, unit, target)  # noqa: E704
def KAutokill(seat, unit, target): return ("autokill", seat, unit, target)  # noqa: E704
def KHold(seat, unit): return ("hold", seat, unit)  # noqa: E704
def KWithdraw(seat, unit): return ("withdraw", seat, unit)  # noqa: E704
def KSplit(seat, card): return ("split", seat, card)  # noqa: E704
def KRetrieve(seat, card): return ("retrieve", seat, card)  # noqa: E704
def KTake(seat, card, stack): return ("take", seat, card, stack)  # noqa: E704


SUPPORT_KINDS = ("infantry_support", "artillery_support", "ship_support")
# Special victory conditions: "if all <aggressor> ground units are destroyed, the defender wins" (Normandy).
# CA2: it always concerns the aggressor of THIS battle, so a counterattack by the other side reverses it.
GROUND_SPECIALS = frozenset({"defender-wins-if-aggressor-ground-destroyed", "aggressor-loses-if-no-ground"})
KIDX = {"ground": 0, "air": 1, "sea": 2}  # the index of a unit kind in the values tables
