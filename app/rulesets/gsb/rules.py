"""Grown Slightly Bald: pure helpers for the battle mechanics (rulesets/grown-slightly-bald).

Hit points, base loss and morale, the general's death test, elephant terror and rampage, each
twice: once rolling dice (for :meth:`resolve`) and once as an exact distribution (for
:meth:`odds`), so the two can be read side by side. Every number comes from the typed tables
(:mod:`app.rulesets.gsb.schema`); nothing here imports the battle core.

Also the footprint geometry shared with other engines' mechanics (distance between two units'
rectangles), used to find the units within an elephant's rampage radius.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from app.rules.dice import (
    Dist,
    capped_binomial,
    chance_at_least,
    parse_dice,
    power_capped,
)
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
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


def read_from(die: str, face_min: int, face_max: int) -> str:
    """The single die ``die`` read ``face_min``..``face_max``: a d10 read 0-9 is ``d10z``
    (GSB activation). Only a die read from 1 or from 0 can be rolled."""
    spec = parse_dice(die)
    if spec.count != 1 or spec.modifier or face_max - face_min + 1 != spec.sides:
        raise ValueError(f"{die!r} cannot be read {face_min}-{face_max}")
    if face_min not in (0, 1):
        raise ValueError(f"a die read from {face_min} is not supported")
    return f"d{spec.sides}" + ("z" if face_min == 0 else "")


def chance_of_faces(spec_text: str, wanted: tuple[int, ...]) -> Fraction:
    """Chance that the dice of ``spec_text`` show exactly the faces ``wanted`` in any order
    (the general's double six)."""
    spec = parse_dice(spec_text)
    target = sorted(wanted)
    combos = list(itertools.product(spec.faces, repeat=spec.count))
    good = sum(1 for c in combos if sorted(c) == target)
    return Fraction(good, len(combos))


@lru_cache(maxsize=512)
def hits_dist(n: int, p_hit: Fraction, p_explode: Fraction, cap: int) -> Dist:
    """Hits scored by ``n`` dice, counted up to ``cap`` (the target's remaining hit points).

    Each die hits with chance ``p_hit``; with chance ``p_explode`` it shows the elephant-terror
    face, which scores a hit and is rolled again (again and again while it shows that face).
    One die scores k >= 1 hits with chance ``p_explode**k * miss + p_explode**(k-1) * p_hit``.
    The tail is unbounded, so every total of ``cap`` or more is lumped into ``cap``: the sum is
    still exactly 1 (``cap`` gets ``1 - P(< cap)``), and the lumping loses nothing, since hits
    beyond a unit's remaining hit points change nothing."""
    if not 0 <= p_explode < 1:
        raise ValueError("a die that always rerolls never stops")
    if p_explode == 0:
        return capped_binomial(n, p_hit, cap)
    miss = 1 - p_hit - p_explode
    one: Dist = {0: miss} if cap > 0 else {}
    for k in range(1, cap):
        one[k] = p_explode**k * miss + p_explode ** (k - 1) * p_hit
    one[cap] = 1 - sum(one.values(), Fraction(0))
    return power_capped(one, n, cap)


# --------------------------------------------------------------------------- strikes


@dataclass(frozen=True)
class Strike:
    """How one unit rolls against another: ``dice`` of ``die``, each hitting on ``need``
    after ``bonus``; ``terror`` is the elephant-terror face (it scores, and with ``reroll``
    is rolled again). ``why`` explains the dice in words."""

    die: str
    dice: int
    need: int
    bonus: int
    terror: int | None
    reroll: bool
    why: str

    def chances(self) -> tuple[Fraction, Fraction]:
        """(chance a die scores a hit and stops, chance it shows the terror face and is
        rolled again)."""
        if self.terror is None:
            return chance_at_least(self.die, self.need, self.bonus), Fraction(0)
        plain = chance_at_least(self.die, self.need, self.bonus, exclude=(self.terror,))
        face = chance_at_least(self.die, self.terror) - chance_at_least(self.die, self.terror + 1)
        return (plain, face) if self.reroll else (plain + face, Fraction(0))

    def odds(self, cap: int) -> Dist:
        """Exact hits, every total of ``cap`` or more lumped into ``cap``."""
        p_hit, p_explode = self.chances()
        return hits_dist(self.dice, p_hit, p_explode, cap)

    def roll(self, dice: Dice, purpose: str) -> tuple[int, str]:
        """Roll the dice; a terror face scores a hit and (if it rerolls) is rolled again, as
        often as it comes up. Returns the hits and the faces in words."""
        if self.dice <= 0:
            return 0, "no dice"
        faces = dice.roll(dice_text(self.die, self.dice), purpose)
        shown = [" ".join(map(str, faces))]
        hits = 0
        while True:
            again = 0
            for f in faces:
                if self.terror is not None and f == self.terror:
                    hits += 1
                    again += 1 if self.reroll else 0
                elif f + self.bonus >= self.need:
                    hits += 1
            if not again:
                break
            faces = dice.roll(
                dice_text(self.die, again), f"elephant terror: {self.terror}s roll again"
            )
            shown.append("terror re-roll " + " ".join(map(str, faces)))
        return hits, "; ".join(shown)


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
    dies_on: tuple[int, int]
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


def _add(out: dict[Damage, Fraction], d: Damage, p: Fraction) -> None:
    if p:
        out[d] = out.get(d, Fraction(0)) + p


@lru_cache(maxsize=1024)
def _morale_after_loss(
    r: LossRules, bases: int, fighting: bool
) -> tuple[tuple[int, Fraction], ...]:
    """Bases left after the morale roll(s) for one lost base, from ``bases`` left."""
    done: Dist = {}
    pending: dict[tuple[int, int], Fraction] = {(bases, 1): Fraction(1)}
    while pending:
        (left, rolls), p = pending.popitem()
        if left == 0 or rolls == 0:
            done[left] = done.get(left, Fraction(0)) + p
            continue
        lose = chance_at_least(r.morale_die, r.morale_need(left, fighting))
        more = 1 if r.chain else 0
        for key, q in (((left - 1, rolls - 1 + more), lose), ((left, rolls - 1), 1 - lose)):
            if q:
                pending[key] = pending.get(key, Fraction(0)) + p * q
    return tuple(done.items())


@lru_cache(maxsize=4096)
def damage_odds(
    r: LossRules, body: Body, taken: int, fighting: bool, general: bool, death_test: bool
) -> tuple[tuple[Damage, Fraction], ...]:
    """Exact odds of :func:`take_damage`: ``taken`` hits (at most the remaining hit points)
    on ``body``; ``general``: his general is with the unit; ``death_test``: these hits call
    for his test."""
    if taken <= 0:
        return ((NO_DAMAGE, Fraction(1)),)
    losses = (body.hits + taken) // body.hp
    states: Dist = {body.bases: Fraction(1)}
    for _ in range(losses):
        nxt: Dist = {}
        for left, p in states.items():
            if left <= 1:
                nxt[0] = nxt.get(0, Fraction(0)) + p
                continue
            for after, q in _morale_after_loss(r, left - 1, fighting):
                nxt[after] = nxt.get(after, Fraction(0)) + p * q
        states = nxt
    dies = chance_of_faces(r.death_test, r.dies_on)
    out: dict[Damage, Fraction] = {}
    for left, p in states.items():
        if left == 0:
            _add(out, Damage(taken, body.bases, 0, True, general and r.killed_with_unit), p)
            continue
        survived = Damage(taken, losses, body.bases - losses - left)
        if general and death_test:
            _add(out, replace(survived, general_killed=True), p * dies)
            _add(out, survived, p * (1 - dies))
        else:
            _add(out, survived, p)
    return tuple(out.items())


def take_damage(
    r: LossRules,
    body: Body,
    taken: int,
    fighting: bool,
    general: bool,
    death_test: bool,
    dice: Dice,
    name: str,
) -> tuple[Damage, list[str]]:
    """GSB, Hit points and Generals: ``taken`` hits on ``body``. Each base lost to hits calls
    for a morale roll (not when the unit is gone); then, if the unit survives and has its
    general, one death test (2d6, double six). A destroyed unit takes its general with it."""
    if taken <= 0:
        return NO_DAMAGE, []
    losses = (body.hits + taken) // body.hp
    left = body.bases
    log: list[str] = []
    for _ in range(losses):
        left -= 1
        rolls = 1
        while rolls and left > 0:
            rolls -= 1
            need = r.morale_need(left, fighting)
            face = dice.roll(r.morale_die, f"morale for {name} (a base lost)")[0]
            if face >= need:
                left -= 1
                rolls += 1 if r.chain else 0
                log.append(
                    f"{name} rolls {face} for morale ({need}+ loses a base): another base goes"
                )
            else:
                log.append(f"{name} rolls {face} for morale ({need}+ loses a base): holds")
        if left == 0:
            break
    if left == 0:
        killed = general and r.killed_with_unit
        log.append(f"{name} is destroyed" + (", and its general with it" if killed else ""))
        return Damage(taken, body.bases, 0, True, killed), log
    damage = Damage(taken, losses, body.bases - losses - left)
    if general and death_test:
        faces = dice.roll(r.death_test, f"death test for the general with {name}")
        killed = sorted(faces) == sorted(r.dies_on)
        shown = " ".join(map(str, faces))
        fate = "killed" if killed else "survives"
        log.append(f"the general with {name} tests for death: {shown}: {fate}")
        if killed:
            damage = replace(damage, general_killed=True)
    return damage, log


@lru_cache(maxsize=1024)
def rampage_odds(
    r: LossRules, body: Body, elephant_hits: int, fighting: bool, general: bool, death_test: bool
) -> tuple[tuple[Damage, Fraction], ...]:
    """GSB, Elephant rampage: one d6 per hit the elephant took, each a hit on a 6 (at most
    the unit's remaining hit points), then that damage as usual."""
    p = chance_at_least(r.rampage_die, r.rampage_hit_on)
    out: dict[Damage, Fraction] = {}
    for hits, ph in capped_binomial(elephant_hits, p, body.remaining).items():
        for d, pd in damage_odds(r, body, hits, fighting, general, death_test):
            _add(out, d, ph * pd)
    return tuple(out.items())


def roll_rampage(
    r: LossRules,
    body: Body,
    elephant_hits: int,
    fighting: bool,
    general: bool,
    death_test: bool,
    dice: Dice,
    name: str,
) -> tuple[Damage, list[str]]:
    """Roll :func:`rampage_odds` for one unit within the radius."""
    faces = dice.roll(dice_text(r.rampage_die, elephant_hits), f"elephant rampage on {name}")
    hits = min(sum(1 for f in faces if f >= r.rampage_hit_on), body.remaining)
    shown = " ".join(map(str, faces))
    log = [f"rampage on {name}: {shown} ({r.rampage_hit_on}s hit): {hits} hit(s)"]
    damage, more = take_damage(r, body, hits, fighting, general, death_test, dice, name)
    return damage, log + more


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


def action_specs(t: Tables) -> tuple[ActionSpec, ...]:
    """GSB's actions: activate (a side), shoot and melee (a pair). Option defaults come from
    the data (optional rules keep their ``enabled`` switch as the default)."""
    optional = tuple(
        OptionSpec(f"optional_{rid}", rule.title, "bool", rule.enabled, help=rule.note or "")
        for rid, rule in t.optional_rules.items()
    )
    defender_general = OptionSpec(
        "defender_general",
        "The target has its general",
        "bool",
        False,
        help="For odds without a roster: the target carries the general (death test).",
    )
    melee = ActionSpec(
        "melee",
        "Melee",
        "pair",
        options=(
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
            defender_general,
            *optional,
        ),
        odds=True,
        help="Only the active unit rolls; hits on the target's number.",
    )
    shoot = ActionSpec(
        "shoot",
        "Shoot",
        "pair",
        options=(
            defender_general,
            OptionSpec(
                "target_fighting_elephants",
                "The target is fighting elephants (morale on a lower score)",
                "bool",
                False,
            ),
        ),
        odds=True,
        help=f"Medium infantry and light troops: {t.shooting.dice} dice at "
        f"{t.shooting.range} UW, hitting on {t.shooting.hit_on}.",
    )
    act = t.activation
    activate = ActionSpec(
        "activate",
        "Activate a unit",
        "side",
        options=(
            OptionSpec("nth", "Which activation this is (0 = the next)", "int", 0, minimum=0),
        ),
        odds=True,
        help=f"{act.free} free activations, then a d10 ({act.face_min}-{act.face_max}) needing "
        f"{act.first_needed}+, {act.first_needed + act.step}+, ... A failure passes play. "
        "Give the unit as the actor to mark it as having acted.",
    )
    return (activate, shoot, melee)
