"""Quincunx: every action a player can take and its options, labelled from the tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.mechanics import ActionSpec, OptionSpec
from app.rulesets.quincunx.schema import Tables

if TYPE_CHECKING:
    pass
from app.rulesets.quincunx.rules import FORMED, SKIRMISH, leader_choices

# --------------------------------------------------------------------------- actions


def action_specs(t: Tables) -> tuple[ActionSpec, ...]:
    """Every Quincunx action with its options (choices come from the tables)."""
    lead = leader_choices(t)

    def flag(key: str, label: str, help: str = "") -> OptionSpec:
        return OptionSpec(key, label, "bool", False, help=help)

    def leader(key: str, label: str) -> OptionSpec:
        return OptionSpec(key, label, "choice", "attached", lead, help="attached: as the unit")

    weapons = ("auto", *t.missile_ranges.weapons)
    bonus_rounds = max((len(tr.new_target_bonus) for tr in t.melee.tracks.values()), default=0)
    melee = ActionSpec(
        "melee",
        "Melee",
        "pair",
        (
            OptionSpec(
                "initial_attack",
                "Initial attack round (the attacker charged into contact)",
                "choice",
                "auto",
                ("auto", "yes", "no"),
                help="auto: yes unless the two units are still in contact from last round",
            ),
            flag("flank", "Attacker on the enemy's flank"),
            flag("defender_flank", "Defender on the attacker's flank"),
            flag("downhill", "Attacker fighting downhill"),
            flag("defender_downhill", "Defender fighting downhill"),
            flag("wood_edge", "Defender at the edge of a wood (attacker outside)"),
            flag("attacker_crossing", "Attacker on the far shore of a stream it is crossing"),
            flag("defender_crossing", "Defender on the far shore of a stream it is crossing"),
            flag("attacker_volleyed", "Attacking peltasts loosed javelins before the melee"),
            flag("defender_volleyed", "Defending peltasts loosed javelins before the melee"),
            OptionSpec(
                "pre_melee",
                "Lost the pre-melee volley",
                "choice",
                "status",
                ("status", "none", "attacker", "defender"),
                help="status: as recorded by the pre-melee action",
            ),
            leader("attacker_leader", "Attacker's leader bonus"),
            leader("defender_leader", "Defender's leader bonus"),
            OptionSpec(
                "elephant_round",
                "Elephants' round against this target (0: from the unit's record)",
                "int",
                0,
                minimum=0,
                maximum=bonus_rounds + 1,
            ),
        ),
        odds=True,
        help="Each side casts its die by rings plus modifiers; each 2 points of "
        "difference is a casualty to the lower side, which recoils 4 MF.",
    )
    shoot = ActionSpec(
        "shoot",
        "Shoot",
        "pair",
        (
            OptionSpec("weapon", "Weapon", "choice", "auto", weapons),
            OptionSpec("range", "Range", "choice", "short", ("short", "long")),
            OptionSpec(
                "distance",
                "Distance in inches (0: use the range option)",
                "int",
                0,
                minimum=0,
            ),
            OptionSpec("firing", "Figures firing (0: the whole unit)", "int", 0, minimum=0),
            flag("cover", "Overhead fire, or target behind a wall or in cover (wood's edge)"),
            flag("crossing", "Target is crossing a stream"),
            flag("flank", "Shooting at the enemy's flank"),
            leader("leader", "Firing unit's leader bonus"),
            flag("pass_through", "Pass-through fire (no fire next round)"),
            flag("before_melee", "Peltasts loosing javelins before a melee closes"),
        ),
        odds=True,
        help="A pair of dice by number firing and range; casualties are the difference "
        "(with modifiers) halved.",
    )
    pre = ActionSpec(
        "pre_melee",
        "Pre-melee volley",
        "pair",
        odds=True,
        help="Pila (d12) against javelins (d10) before the first melee round: the lower "
        "cast is -1 on its melee die in that round; no volley loses.",
    )
    evade = ActionSpec(
        "evade",
        "Evade",
        "pair",
        (
            OptionSpec("needed", "Move factors needed to get clear", "int", 1, minimum=0),
            OptionSpec("exit_open", "A clear route out is open", "bool", True),
        ),
        odds=True,
        help="Skirmishers (actor) contacted by a formed unit (target): d10 against d6.",
    )
    trample = ActionSpec(
        "trample",
        "Trample",
        "pair",
        odds=True,
        help="A berserk elephant (actor) fights a unit in its path with d12+2.",
    )
    rampage = ActionSpec(
        "rampage",
        "Rampage",
        "unit",
        help="A berserk elephant casts d8 for direction and d6 for move factors and "
        "tramples every unit in its path.",
    )
    command = ActionSpec(
        "command_check",
        "Command check",
        "unit",
        (
            flag("commander_detached", "The commander stands apart (give his position)"),
            OptionSpec("commander_x", "Commander x (inches)", "int", 0),
            OptionSpec("commander_y", "Commander y (inches)", "int", 0),
        ),
        help="Within 4 MF of the commander or a 2 MF chain of the battlegroup's units "
        "(the others); otherwise out of command and unable to move.",
    )
    formation = ActionSpec(
        "formation",
        "Change formation",
        "unit",
        (
            OptionSpec("to", "Formation", "choice", FORMED, (FORMED, SKIRMISH)),
            OptionSpec(
                "move_class",
                "Moves as",
                "choice",
                "own",
                ("own", *t.movement.classes),
                help="own: the troop's own class; or with a battleline / battlegroup",
            ),
        ),
    )
    order = ActionSpec(
        "order",
        "Move or counter-move",
        "side",
        (OptionSpec("choose", "Choice", "choice", "move", ("move", "counter_move")),),
        help="The initiative winner chooses to move first or second.",
    )
    return (melee, shoot, pre, evade, trample, rampage, command, formation, order)
