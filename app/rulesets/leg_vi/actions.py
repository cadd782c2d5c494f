"""Leg VI Carthago: every action a player can take, declared once (:mod:`app.rules.actions`):
its options and labels built from the tables (a house-rules copy shows its own numbers), the
step that needs no dice (``prepare``) and the one that throws them (``play``). Resolving an
action and counting its exact odds both run that ``play``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.rules.actions import Action
from app.rules.mechanics import OptionSpec
from app.rulesets.leg_vi.base import AUTO, inches
from app.rulesets.leg_vi.control import ORDER_OPTIONS

if TYPE_CHECKING:
    from app.rulesets.leg_vi.mechanics import LegVIMechanics

# --------------------------------------------------------------------------- actions


def _opt(key: str, label: str, default: bool, help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "bool", default, help=help)


def _int(key: str, label: str, default: int, lo: int, hi: int, help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "int", default, minimum=lo, maximum=hi, help=help)


def _choice(key: str, label: str, choices: tuple[str, ...], help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "choice", choices[0], choices=choices, help=help)


_GRADES = ("unit", "A", "B", "C", "D")


def declare_actions(m: LegVIMechanics) -> tuple[Action[Any], ...]:
    """Every action, its labels built from the tables (a house-rules copy shows its
    own numbers)."""
    t = m.t
    rng = int(t.charges.range)
    return (
        Action(
            "melee",
            "Combat",
            "pair",
            play=m._melee_play,
            prepare=m._melee_prepare,
            options=(
                _choice(
                    "charge",
                    "Who charged",
                    ("attacker", "defender", "both", "none"),
                    "This round's charge; 'none' for a combat that goes on",
                ),
                _choice(
                    "follow_up", "Who followed up into contact", ("none", "attacker", "defender")
                ),
                _choice(
                    "pursued",
                    "Who pursued into contact",
                    ("none", "attacker", "defender"),
                    "A pursuit earns MI, MC and elephants their charge bonus, not HI",
                ),
                _choice("aspect", "Where the charged unit was struck", ("front", "flank", "rear")),
                _choice(
                    "ground",
                    "Advantage of ground",
                    ("none", "attacker", "defender"),
                    "Defending a wood edge, higher ground or field works",
                ),
                _opt("a_supported", "Attacker supported", False),
                _opt("d_supported", "Defender supported", False),
                _int("a_bases", "Attacker engaged bases (0 = from formation)", 0, 0, 20),
                _int("d_bases", "Defender engaged bases (0 = from formation)", 0, 0, 20),
                _choice("a_grade", "Attacker grade (average of several units)", _GRADES),
                _choice("d_grade", "Defender grade (average of several units)", _GRADES),
                _choice(
                    "countercharged",
                    "Infantry that charged and was charged by cavalry or elephants",
                    ("none", "attacker", "defender"),
                ),
                _int("round", "Round of this combat", 1, 1, 20),
            ),
            help="Resolve a round of combat between two units.",
        ),
        Action(
            "shoot",
            "Shoot",
            "pair",
            play=m._shoot_play,
            prepare=m._shoot_prepare,
            options=(
                _int("bases", "Shooting bases in range (0 = all)", 0, 0, t.unit_sizes.max_bases),
                _opt("cover", "Target in cover", False),
                _choice("aspect", "Side of the target shot at", ("front", "flank", "rear")),
            ),
            help=f"Light troops shoot at the nearest enemy within {inches(t.shooting.range)}.",
        ),
        Action(
            "charge",
            "Charge",
            "pair",
            play=m._charge_play,
            prepare=m._charge_prepare,
            options=(
                _choice("response", "Target's response", ("stand", "evade")),
                _opt("mutual", "Target charged too (meet half way)", False),
                _int(
                    "distance", "Inches between the units when the charge is declared", rng, 0, rng
                ),
                _opt("halt_on_vacated", "A/B formed infantry halt on the vacated ground", False),
                _int(
                    "engaged_bases", "Bases hacking evaders caught (0 = from formation)", 0, 0, 20
                ),
            ),
            help=f"Charge an enemy within {inches(t.charges.range)}; the target responds.",
            odds=False,
        ),
        Action(
            "free_hack",
            "Free hack",
            "pair",
            play=m._free_hack_play,
            prepare=m._hack_prepare,
            options=(_int("engaged_bases", "Engaged bases (0 = from formation)", 0, 0, 20),),
            help="Pursuers or chargers catch routing or evading enemy: a free hack.",
        ),
        Action(
            "leader_move",
            "Leader: move",
            "unit",
            play=m._leader_move,
            help=f"Move the leader up to {inches(t.command.actions['move'].move or 0)}.",
            odds=False,
        ),
        Action(
            "steady",
            "Leader: steady",
            "unit",
            play=m._steady,
            help="Take a DP off the leader's unit.",
            odds=False,
        ),
        Action(
            "inspire",
            "Leader: inspire",
            "unit",
            play=m._inspire,
            help=f"Combat dice this turn (at most +{t.command.inspire_max_dice}).",
            odds=False,
        ),
        Action(
            "control_test",
            "Control test",
            "unit",
            play=m._control_play,
            prepare=m._control_prepare,
            options=(
                _opt("impetus", "Charging, looting, routing or pursuing", False),
                _choice(
                    "prefer",
                    "Result the attached leader aims for",
                    ("free", "halt", "repeat", "none"),
                ),
            ),
            help="A unit out of control, or stopping rout, pursuit or looting, tests.",
        ),
        Action(
            "dice_move",
            "Dice move",
            "unit",
            play=m._dice_move_play,
            prepare=m._dice_move_prepare,
            options=(
                _choice(
                    "kind",
                    "Kind of move",
                    ("move", "charge_on", "evade", "rout", "retire", "pursue"),
                ),
                _opt("extra_d6", "Add the optional D6", True),
                _opt("third_d6", "Cavalry: add the third D6 (moved earlier)", False),
                _opt("moved_earlier", "The unit moved earlier this turn", False),
                _opt("first", "First rout or retire move (+1 inch a die)", True),
            ),
            help=f"A move within {inches(t.movement.march_beyond)} of enemy; evade, rout, pursue.",
        ),
        Action(
            "redress",
            "Redress ranks",
            "unit",
            play=m._redress,
            options=(
                _choice("enemy_near", f"Enemy within {inches(t.redress.enemy_distance)}", AUTO),
                _opt("in_combat", "The unit is in combat", False),
            ),
            help="Stand still to remove DPs (not shaken units).",
            odds=False,
        ),
        Action(
            "rally",
            "Rally",
            "unit",
            play=m._rally,
            options=(
                _choice("halted_all_turn", "Halted the whole turn", AUTO),
                _choice(
                    "enemy_beyond",
                    f"Beyond {inches(t.rally.halted_beyond)} of unbroken enemy",
                    AUTO,
                ),
            ),
            help=f"A shaken unit rallies with {t.rally.dps_after} DPs (the rally phase does it).",
            odds=False,
        ),
        Action(
            "reform",
            "Reform",
            "unit",
            play=m._reform,
            options=(_choice("formation", "New formation", ("line", "column", "quincunx")),),
            help="Unformed troops reform once the cause has passed (a full move).",
            odds=False,
        ),
        Action(
            "relieve_ranks",
            "Relieve ranks",
            "unit",
            play=m._relieve_ranks,
            help="Legion: bring up a fresh line.",
            odds=False,
        ),
        Action(
            "manoeuvre",
            "Manoeuvre or rough terrain",
            "unit",
            play=m._manoeuvre,
            options=(
                _choice(
                    "kind",
                    "Manoeuvre",
                    (
                        "wheel",
                        "change_formation",
                        "about_face",
                        "passage_of_lines",
                        "side_step",
                        "open_ranks",
                        "rough_terrain",
                        "light_cover",
                    ),
                ),
                _choice("enemy_near", f"Enemy within {inches(t.manoeuvres.dp_range)}", AUTO),
                _opt("exempt", "Passage: one unit unformed or stationary, none routing", False),
            ),
            help=f"Manoeuvre DPs within {inches(t.manoeuvres.dp_range)} of enemy; rough terrain.",
            odds=False,
        ),
        Action(
            "leader_captured",
            "Leader captured",
            "unit",
            play=m._leader_captured,
            help="An unattached leader contacted by enemy troops is captured.",
            odds=False,
        ),
        Action(
            "after_combat_move",
            "After-combat move",
            "unit",
            play=m._after_combat_move,
            options=(
                _choice(
                    "move",
                    "Move",
                    (
                        "halt",
                        "fall_back",
                        "follow_up",
                        "pass_through",
                        "retire",
                        "retire_behind_triarii",
                        "rout",
                        "pursue",
                    ),
                ),
                _opt("blocked", "Unable to make the move", False),
            ),
            help="Make (or choose) the move a combat result calls for.",
            odds=False,
        ),
        Action(
            "morale",
            "Morale DPs",
            "unit",
            play=m._morale,
            options=(
                _choice(
                    "event",
                    "Cause",
                    (
                        "friend_routed",
                        "friend_retiring",
                        "leader_lost",
                        "general_lost",
                        "elephant_burst",
                    ),
                ),
                _int("count", "How many times", 1, 1, 10),
            ),
            help="DPs for friends routed or retiring, leaders lost, elephants bursting through.",
            odds=False,
        ),
        Action(
            "rampage",
            "Elephant rampage",
            "unit",
            play=m._rampage_play,
            prepare=m._rampage_prepare,
            help="Roll the rampaging elephant's direction and move.",
        ),
        Action(
            "move_order",
            "Initiative: move first or second",
            "side",
            play=m.play_order,
            prepare=m.prepare_order,
            options=ORDER_OPTIONS,
            help="The initiative winner chooses to act first or second in every phase.",
            odds=False,
        ),
        Action(
            "done",
            "Done: the other side acts",
            "side",
            play=m.play_done,
            prepare=m.prepare_done,
            help="The side acting first in this phase is done; the other side acts now.",
            odds=False,
        ),
        Action(
            "stop_rampage",
            "Stop a rampage",
            "unit",
            play=m._stop_rampage_play,
            prepare=m._rampage_prepare,
            help="The mahout tries to kill a rampaging elephant.",
        ),
    )
