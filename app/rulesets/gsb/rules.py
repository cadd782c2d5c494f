"""Grown Slightly Bald: the values its battle mechanics share (rulesets/grown-slightly-bald).

The numbers of base loss, morale, the general's death test and rampage (:class:`LossRules`),
a unit in hit points (:class:`Body`) and what hits did to it (:class:`Damage`), victory stars,
dice expressions, and the actions' options. Every number comes from the typed tables
(:mod:`app.rulesets.gsb.schema`); the throws that roll and count the dice are in
:mod:`app.rulesets.gsb.throws`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.rules.dice import chance_at_least, parse_dice
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderEvent,
    OptionSpec,
    SideUpdate,
    TurnView,
)
from app.rulesets.gsb.schema import Tables

# --------------------------------------------------------------------------- dice


def dice_text(die: str, n: int) -> str:
    """``n`` dice of the single-die expression ``die`` (``"d6"``, 3 -> ``"3d6"``)."""
    spec = parse_dice(die)
    if spec.count != 1 or spec.modifier:
        raise ValueError(f"{die!r} is not a single die")
    zero = "z" if spec.faces[0] == 0 else ""
    return f"{n}d{spec.sides}{zero}"


def single_die(text: str) -> str:
    """The one die of the expression ``text`` (``"4d6"`` -> ``"d6"``, ``"2d10z"`` ->
    ``"d10z"``): what an elephant-terror re-roll throws again."""
    spec = parse_dice(text)
    return f"d{spec.sides}" + ("z" if spec.faces[0] == 0 else "")


def read_from(die: str, face_min: int, face_max: int) -> str:
    """The single die ``die`` read ``face_min``..``face_max``: a d10 read 0-9 is ``d10z``
    (GSB activation). Only a die read from 1 or from 0 can be rolled."""
    spec = parse_dice(die)
    if spec.count != 1 or spec.modifier or face_max - face_min + 1 != spec.sides:
        raise ValueError(f"{die!r} cannot be read {face_min}-{face_max}")
    if face_min not in (0, 1):
        raise ValueError(f"a die read from {face_min} is not supported")
    return f"d{spec.sides}" + ("z" if face_min == 0 else "")


# --------------------------------------------------------------------------- hit points


@dataclass(frozen=True)
class LossRules:
    """The numbers of base loss, morale, the general's death test and rampage, taken from
    the tables once (hashable, so the exact odds can be cached)."""

    morale_die: str
    lose_on: int
    lose_on_last_base: int
    lose_on_fighting_elephants: int
    chain: bool
    death_test: str
    dies_on: tuple[int, ...]
    killed_with_unit: bool
    rampage_die: str
    rampage_hit_on: int

    @classmethod
    def of(cls, t: Tables) -> LossRules:
        rows = t.morale.rows
        return cls(
            morale_die=t.morale.die,
            lose_on=rows["normal"].lose_on,
            lose_on_last_base=rows["last_base"].lose_on,
            lose_on_fighting_elephants=rows["fighting_elephants"].lose_on,
            chain=t.morale.chain,
            death_test=t.general.death_test,
            dies_on=t.general.dies_on,
            killed_with_unit=t.general.killed_with_unit,
            rampage_die=t.elephants.rampage_die,
            rampage_hit_on=t.elephants.rampage_hit_on,
        )

    def morale_need(self, bases_left: int, fighting_elephants: bool) -> int:
        """GSB, Hit points: on losing a base roll a d6; 5-6 removes another base, 4-6 when
        the base at stake is the unit's last or the unit is fighting elephants."""
        need = self.lose_on
        if bases_left == 1:
            need = min(need, self.lose_on_last_base)
        if fighting_elephants:
            need = min(need, self.lose_on_fighting_elephants)
        return need

    def morale_chance(self, bases_left: int, fighting_elephants: bool) -> Fraction:
        """The chance that the morale roll removes another base."""
        return chance_at_least(self.morale_die, self.morale_need(bases_left, fighting_elephants))


@dataclass(frozen=True)
class Body:
    """A unit in hit points: ``bases`` left, ``hits`` on the current base, ``hp`` per base."""

    bases: int
    hits: int
    hp: int

    @property
    def remaining(self) -> int:
        """Hit points left before the unit is destroyed."""
        return 0 if self.bases <= 0 else self.bases * self.hp - self.hits

    def losses(self, taken: int) -> int:
        """Bases that ``taken`` more hits use up (each calls for a morale roll)."""
        return (self.hits + taken) // self.hp


@dataclass(frozen=True)
class Damage:
    """What hits did to one unit: hits taken (at most its remaining hit points), bases lost
    to the hits and to morale rolls, destroyed (all its bases then count as lost to hits),
    and whether its general was killed."""

    taken: int = 0
    by_hits: int = 0
    by_morale: int = 0
    destroyed: bool = False
    general_killed: bool = False

    def describe(self) -> str:
        if not self.taken:
            return "no hits"
        words = [f"{self.taken} hit{'s' if self.taken != 1 else ''}"]
        if self.destroyed:
            words.append("destroyed")
        else:
            if self.by_hits:
                words.append(f"{self.by_hits} base{'s' if self.by_hits != 1 else ''} lost")
            if self.by_morale:
                words.append(f"{self.by_morale} more on morale")
        if self.general_killed:
            words.append("general killed")
        return ", ".join(words)


NO_DAMAGE = Damage()


def effects_of(body: Body, damage: Damage) -> Effects:
    """The unit's Status change: bases lost (``casualties``) and the change of hits on its
    current base (negative when a base went)."""
    if damage.destroyed:
        return Effects(casualties=body.bases, hits=-body.hits, eliminated=True)
    lost = damage.by_hits + damage.by_morale
    new_hits = (body.hits + damage.taken) % body.hp
    return Effects(casualties=lost, hits=new_hits - body.hits)


# --------------------------------------------------------------------------- stars


@dataclass(frozen=True)
class Hurt:
    """One unit's damage in a resolution (for its effects, stars and its general's fate)."""

    unit: Combatant
    body: Body
    damage: Damage


def stars_and_fates(
    t: Tables, view: TurnView | None, hurt: Sequence[Hurt]
) -> tuple[tuple[SideUpdate, SideUpdate], tuple[LeaderEvent, ...], list[str]]:
    """GSB, Hit points / Generals / Victory: a destroyed unit gives the enemy a victory star;
    a dead general (double six, or with his destroyed unit) gives another. Returns the side
    records' new ``stars`` (only with a view, which holds the old tally), the leaders'
    fates and the log lines."""
    gained = [0, 0]
    events: list[LeaderEvent] = []
    lines: list[str] = []
    for h in hurt:
        enemy = 1 - h.unit.side
        if h.damage.destroyed:
            gained[enemy] += t.hit_points.destroyed_unit_stars
        if h.damage.general_killed:
            gained[enemy] += t.general.dead_general_stars
            leader = h.unit.leader
            if leader is not None:
                how = "with his unit" if h.damage.destroyed else "by a double six"
                text = f"{leader.name} is killed {how} ({h.unit.name})"
                events.append(LeaderEvent(leader.id, "killed", leader.wounds, text))
    sides: list[SideUpdate] = [None, None]
    for s in (0, 1):
        if gained[s]:
            name = view.side_names[s] if view is not None else f"side {s + 1}"
            lines.append(f"{name} wins {gained[s]} victory star(s)")
            if view is not None:
                sides[s] = {"stars": int(view.sides[s].get("stars", 0)) + gained[s]}
    return (sides[0], sides[1]), tuple(events), lines


# --------------------------------------------------------------------------- actions

OPEN = "open"
ATTACKS = ("front", "flank", "rear")


def _defender_general() -> OptionSpec:
    return OptionSpec(
        "defender_general",
        "The target has its general",
        "bool",
        False,
        help="For odds without a roster: the target carries the general (death test).",
    )


def melee_options(t: Tables) -> tuple[OptionSpec, ...]:
    """GSB, Melee: the aspect, terrain, the generals and each optional rule (its default is
    the data's ``enabled`` switch)."""
    optional = tuple(
        OptionSpec(f"optional_{rid}", rule.title, "bool", rule.enabled, help=rule.note or "")
        for rid, rule in t.optional_rules.items()
    )
    return (
        OptionSpec("attack", "Attacking", "choice", "front", ATTACKS),
        OptionSpec(
            "terrain",
            "Hills or woods (either unit in them)",
            "choice",
            OPEN,
            (OPEN, *t.terrain.rows),
            help="In or fighting into hills or woods: at most "
            + ", ".join(f"{k} {r.max_dice}" for k, r in t.terrain.rows.items())
            + " dice before flank and general dice.",
        ),
        OptionSpec(
            "attacker_general",
            "The attacker has its general",
            "bool",
            False,
            help="For odds without a roster: the attacking unit carries the general.",
        ),
        OptionSpec(
            "general_moved",
            "The general joined the attacker this turn (no bonus)",
            "bool",
            False,
        ),
        _defender_general(),
        *optional,
    )


MELEE_HELP = "Only the active unit rolls; hits on the target's number."


def shoot_options(t: Tables) -> tuple[OptionSpec, ...]:
    """GSB, Shooting: the target's general, and whether it is fighting elephants."""
    return (
        _defender_general(),
        OptionSpec(
            "target_fighting_elephants",
            "The target is fighting elephants (morale on a lower score)",
            "bool",
            False,
        ),
    )


def shoot_help(t: Tables) -> str:
    s = t.shooting
    when = ". ".join(row.label for row in s.rows.values())
    return (
        f"Medium infantry and light troops: {s.dice} dice at {s.range} UW, hitting on {s.hit_on}, "
        f"once an activation. {when}."
    )


def activate_options(t: Tables) -> tuple[OptionSpec, ...]:
    return (OptionSpec("nth", "Which activation this is (0 = the next)", "int", 0, minimum=0),)


def activate_help(t: Tables) -> str:
    act = t.activation
    return (
        f"{act.free} free activations, then a d10 ({act.face_min}-{act.face_max}) needing "
        f"{act.first_needed}+, {act.first_needed + act.step}+, ... A failure passes play. "
        "Give the unit as the actor to mark it as having acted."
    )
