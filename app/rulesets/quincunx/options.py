"""Quincunx: the options of each action a player can take, labelled from the tables (the
declarations themselves are in :mod:`app.rulesets.quincunx.mechanics`)."""

from __future__ import annotations

from app.rules.mechanics import OptionSpec
from app.rulesets.quincunx.rules import FORMED, SKIRMISH, leader_choices
from app.rulesets.quincunx.schema import Tables


def _flag(key: str, label: str, help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "bool", False, help=help)


def _leader(t: Tables, key: str, label: str) -> OptionSpec:
    return OptionSpec(
        key, label, "choice", "attached", leader_choices(t), help="attached: as the unit"
    )


def melee_options(t: Tables) -> tuple[OptionSpec, ...]:
    """Quincunx, Melee: the situations the players say (the initial attack, flanks,
    downhill, woods and streams, peltast volleys, the pre-melee loser, leaders, the
    elephants' round)."""
    bonus_rounds = max((len(tr.new_target_bonus) for tr in t.melee.tracks.values()), default=0)
    return (
        OptionSpec(
            "initial_attack",
            "Initial attack round (the attacker charged into contact)",
            "choice",
            "auto",
            ("auto", "yes", "no"),
            help="auto: yes unless the two units are still in contact from last round",
        ),
        _flag("flank", "Attacker on the enemy's flank"),
        _flag("defender_flank", "Defender on the attacker's flank"),
        _flag("downhill", "Attacker fighting downhill"),
        _flag("defender_downhill", "Defender fighting downhill"),
        _flag("wood_edge", "Defender at the edge of a wood (attacker outside)"),
        _flag("attacker_crossing", "Attacker on the far shore of a stream it is crossing"),
        _flag("defender_crossing", "Defender on the far shore of a stream it is crossing"),
        _flag("attacker_volleyed", "Attacking peltasts loosed javelins before the melee"),
        _flag("defender_volleyed", "Defending peltasts loosed javelins before the melee"),
        OptionSpec(
            "pre_melee",
            "Lost the pre-melee volley",
            "choice",
            "status",
            ("status", "none", "attacker", "defender"),
            help="status: as recorded by the pre-melee action",
        ),
        _leader(t, "attacker_leader", "Attacker's leader bonus"),
        _leader(t, "defender_leader", "Defender's leader bonus"),
        OptionSpec(
            "elephant_round",
            "Elephants' round against this target (0: from the unit's record)",
            "int",
            0,
            minimum=0,
            maximum=bonus_rounds + 1,
        ),
    )


def shoot_options(t: Tables) -> tuple[OptionSpec, ...]:
    """Quincunx, Missilery: weapon, range or distance, number firing, cover, streams,
    flank, leader, pass-through fire and peltasts' javelins before a melee."""
    weapons = ("auto", *t.missile_ranges.weapons)
    return (
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
        _flag("cover", "Overhead fire, or target behind a wall or in cover (wood's edge)"),
        _flag("crossing", "Target is crossing a stream"),
        _flag("flank", "Shooting at the enemy's flank"),
        _leader(t, "leader", "Firing unit's leader bonus"),
        _flag("pass_through", "Pass-through fire (no fire next round)"),
        _flag("before_melee", "Peltasts loosing javelins before a melee closes"),
    )


EVADE_OPTIONS = (
    OptionSpec("needed", "Move factors needed to get clear", "int", 1, minimum=0),
    OptionSpec("exit_open", "A clear route out is open", "bool", True),
)

COMMAND_OPTIONS = (
    _flag("commander_detached", "The commander stands apart (give his position)"),
    OptionSpec("commander_x", "Commander x (inches)", "int", 0),
    OptionSpec("commander_y", "Commander y (inches)", "int", 0),
)


def formation_options(t: Tables) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("to", "Formation", "choice", FORMED, (FORMED, SKIRMISH)),
        OptionSpec(
            "move_class",
            "Moves as",
            "choice",
            "own",
            ("own", *t.movement.classes),
            help="own: the troop's own class; or with a battleline / battlegroup",
        ),
    )


ORDER_OPTIONS = (OptionSpec("choose", "Choice", "choice", "move", ("move", "counter_move")),)
