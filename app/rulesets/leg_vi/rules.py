"""Leg VI Carthago rules as pure functions: the unit predicates, DPs and shaken, geometry,
combat and shooting dice, result bands, elephant critical hits and the die of death.

Every number comes from the ruleset's tables (:mod:`app.rulesets.leg_vi.schema`); this module
holds only conditions. The mechanics class (``app/rulesets/leg_vi/mechanics.py``) turns
these into actions, resolutions and exact odds. Each dice-rolling helper has an exact twin
(``*_dist``) that enumerates the same faces, so a resolution and the odds always agree.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from app.rules.dice import faces_dist, parse_dice
from app.rules.geometry import Aspect, bearing, edge_distance
from app.rules.mechanics import Combatant, Dice, Effects, LeaderView, Scalar
from app.rules.schema import Category
from app.rulesets.leg_vi.schema import Band, ResultBand, Tables, Troop

# --------------------------------------------------------------------------- markers

SHAKEN = "shaken"
ROUTING = "routing"
PURSUING = "pursuing"
EVADING = "evading"
RETIRING = "retiring"
CONTROL_HALT = "control_halt"
CONTROL_FREE = "control_free"
CONTROL_REPEAT = "control_repeat"
STEADIED = "steadied"
REDRESSED = "redressed"
MOVED = "moved"
CHARGING = "charging"
REFORMED = "reformed"
RAMPAGE = "rampage"
RAMPAGE_TESTED = "rampage_tested"
RELIEVED = "relieved_ranks"
OPEN_RANKS = "open_ranks"
LOOTING = "looting"

#: markers that last one turn: cleared when the next command phase begins
PER_TURN_MARKERS = frozenset(
    {
        CONTROL_HALT,
        CONTROL_FREE,
        CONTROL_REPEAT,
        STEADIED,
        REDRESSED,
        MOVED,
        CHARGING,
        REFORMED,
        RAMPAGE_TESTED,
        EVADING,
        RETIRING,
    }
)
#: markers that keep a unit where it stands in the movement phases
HALTING_MARKERS = frozenset({CONTROL_HALT, STEADIED, REDRESSED})

# Status.extra keys
LINES = "lines"
INSPIRE = "inspire"
TURN_START = "turn_start"
RELIEFS = "reliefs"
STOP_ATTEMPTS = "stop_attempts"
RAMPAGE_DIRECTION = "rampage_direction"

INFANTRY = (Category.LIGHT_INFANTRY, Category.MEDIUM_INFANTRY, Category.HEAVY_INFANTRY)


class IllegalAction(ValueError):
    """The rules forbid this action for this unit now (the message says which rule)."""


# --------------------------------------------------------------------------- a unit


@dataclass(frozen=True)
class LegUnit:
    """A :class:`Combatant` with its Leg VI troop type and the tables, answering the
    questions the rules ask of a unit."""

    c: Combatant
    troop: Troop
    t: Tables

    @property
    def name(self) -> str:
        return self.c.name

    @property
    def category(self) -> Category:
        return self.troop.category

    @property
    def elephant(self) -> bool:
        return self.category == Category.ELEPHANT

    @property
    def cavalry(self) -> bool:
        return self.category.mounted

    @property
    def infantry(self) -> bool:
        return self.category in INFANTRY

    @property
    def light(self) -> bool:
        return self.troop.light

    @property
    def heavy_infantry(self) -> bool:
        return self.category == Category.HEAVY_INFANTRY

    @property
    def legion(self) -> bool:
        """A legion carries its number of lines in ``Status.extra`` (see ``initial_status``)."""
        return LINES in self.c.status.extra

    @property
    def lines(self) -> int:
        return int(self.c.status.extra.get(LINES, 1))

    @property
    def quincunx(self) -> bool:
        return self.legion and self.c.status.formation == "quincunx"

    @property
    def column(self) -> bool:
        return self.c.status.formation == "column"

    @property
    def unformed(self) -> bool:
        """Leg VI, Formations: light troops always; others when shaken, routing, pursuing,
        evading or retiring (the table's causes are the marker names), or left unformed."""
        s = self.c.status
        if self.troop.order == "unformed" or s.formation == "unformed":
            return True
        return any(s.has(m) for m in self.t.formations.unformed_causes)

    @property
    def formed(self) -> bool:
        """Formed: not light, not an elephant (errata 'elephant-order') and not unformed."""
        return self.troop.order == "formed" and not self.unformed

    @property
    def formed_infantry(self) -> bool:
        return self.formed and self.infantry

    @property
    def shaken(self) -> bool:
        """Leg VI, Shaken: at the DP threshold, or routed."""
        return self.c.status.has(SHAKEN) or self.c.status.has(ROUTING)

    @property
    def routing(self) -> bool:
        return self.c.status.has(ROUTING)

    @property
    def grade(self) -> str:
        """The unit's grade; a unit without one fights as C (no grade factor)."""
        return self.c.status.grade or "C"

    @property
    def shaken_at(self) -> int:
        """Leg VI, Shaken: 5 DPs; a legion in quincunx one more for each line beyond the
        first (6 with two lines, 7 with three)."""
        lim = self.t.dp_limits
        if self.quincunx:
            for row in lim.legion_quincunx:
                if row.lines == self.lines:
                    return row.shaken_at
            return lim.shaken_at + lim.legion_extra_per_line * (self.lines - 1)
        return lim.shaken_at


def leg_unit(c: Combatant, troops: Mapping[str, Troop], t: Tables) -> LegUnit:
    try:
        troop = troops[c.troop]
    except KeyError:
        raise IllegalAction(f"{c.name}: {c.troop!r} is not a Leg VI troop type") from None
    return LegUnit(c, troop, t)


# --------------------------------------------------------------------------- DPs


@dataclass(frozen=True)
class DpResult:
    """What ``n`` DPs do to a unit: DPs added, bases lost, and whether it becomes shaken."""

    dps: int = 0
    casualties: int = 0
    shaken: bool = False


DpKind = Literal["fatigue", "shooting", "combat", "morale"]


def take_dps(u: LegUnit, n: int, kind: DpKind) -> DpResult:
    """Leg VI, DPs and Shaken. Fatigue and manoeuvre DPs stop once the unit has 3 DPs. A
    unit reaching its threshold becomes shaken; every further DP from shooting, combat or
    morale removes a base instead. Elephants take no DPs (callers test critical hits)."""
    if n <= 0 or u.elephant:
        return DpResult()
    dps = u.c.status.dps
    lim = u.t.dp_limits
    if kind == "fatigue":
        return DpResult(dps=max(0, min(n, lim.fatigue_manoeuvre_cap - dps)))
    if u.shaken:
        return DpResult(casualties=n * lim.shaken_casualty_per_dp)
    room = max(0, u.shaken_at - dps)
    if n < room:
        return DpResult(dps=n)
    return DpResult(dps=room, casualties=(n - room) * lim.shaken_casualty_per_dp, shaken=True)


def dp_words(r: DpResult) -> str:
    parts = []
    if r.dps:
        parts.append(f"{r.dps} DP{'s' if r.dps != 1 else ''}")
    if r.shaken:
        parts.append("now shaken")
    if r.casualties:
        parts.append(f"{r.casualties} base{'s' if r.casualties != 1 else ''} lost")
    return ", ".join(parts) or "no DPs"


# --------------------------------------------------------------------------- geometry


def distance(a: Combatant, b: Combatant) -> float:
    """Base-edge to base-edge distance between two units (0 when they touch)."""
    return edge_distance(a.footprint, b.footprint)


def nearest(unit: Combatant, candidates: Iterable[Combatant]) -> float:
    return min((distance(unit, o) for o in candidates), default=math.inf)


def away_bearing(enemy: Combatant, unit: Combatant) -> float:
    """The bearing that carries ``unit`` directly away from ``enemy``: from the enemy's
    centre through the unit's, or the unit's rear when the two centres coincide."""
    if abs(unit.x - enemy.x) <= 1e-9 and abs(unit.y - enemy.y) <= 1e-9:
        return (unit.facing + 180.0) % 360
    return bearing(enemy.x, enemy.y, unit.x, unit.y)


def position_key(c: Combatant) -> str:
    """Where a unit stands, as a ``Status.extra`` value (extra holds no floats)."""
    return f"{c.x:.3f},{c.y:.3f},{c.facing:.1f}"


# --------------------------------------------------------------------------- bands


def band_of(bands: tuple[Band, ...], value: int) -> Band:
    """The band holding ``value``; open ends take rolls off the table (errata
    'control-test-range')."""
    for b in bands:
        if (b.low is None or b.low <= value) and (b.high is None or value <= b.high):
            return b
    raise LookupError(f"no band holds {value}")


def result_band(t: Tables, diff: int) -> str:
    """Leg VI, Results: the band id for a hit difference (own hits minus enemy hits)."""
    for bid, b in t.combat_results.bands.items():
        if (b.min_diff is None or b.min_diff <= diff) and (
            b.max_diff is None or diff <= b.max_diff
        ):
            return bid
    raise LookupError(f"no result band holds {diff}")


# --------------------------------------------------------------------------- dice helpers


def faces(spec: str) -> tuple[int, ...]:
    return parse_dice(spec).faces


def count_at_least(rolled: Iterable[int], hit_on: Iterable[int]) -> int:
    wanted = set(hit_on)
    return sum(1 for f in rolled if f in wanted)


def p_faces(spec: str, wanted: Iterable[int]) -> Fraction:
    """Chance that one die of ``spec`` shows one of ``wanted``."""
    d = faces_dist(faces(spec))
    chosen = set(wanted)
    return sum((p for v, p in d.items() if v in chosen), Fraction(0))


# --------------------------------------------------------------------------- elephants

ElephantFate = Literal["unharmed", "rampage", "destroyed"]


def elephant_fate_dist(t: Tables, tests: int, automatic: int = 0) -> dict[ElephantFate, Fraction]:
    """Leg VI, Elephant critical hits: a D6 per DP, 1-2 a critical hit; a combat casualty
    is an automatic critical. Each critical rolls again: 1-2 destroyed, 3-6 rampage.
    Rolling stops once the elephant is destroyed (as :func:`roll_elephant_fate` does)."""
    ec = t.elephant_critical
    p_crit = p_faces(ec.die, ec.critical_on)
    outcome = faces_dist(faces(ec.outcome_die))
    p_destroy = sum(
        (p for v, p in outcome.items() if band_of(ec.outcomes, v).result == "destroyed"),
        Fraction(0),
    )
    state: dict[ElephantFate, Fraction] = {"unharmed": Fraction(1)}

    def critical(s: dict[ElephantFate, Fraction], p_c: Fraction) -> dict[ElephantFate, Fraction]:
        out: dict[ElephantFate, Fraction] = {}
        for fate, p in s.items():
            if fate == "destroyed":
                out["destroyed"] = out.get("destroyed", Fraction(0)) + p
                continue
            out[fate] = out.get(fate, Fraction(0)) + p * (1 - p_c)
            out["destroyed"] = out.get("destroyed", Fraction(0)) + p * p_c * p_destroy
            out["rampage"] = out.get("rampage", Fraction(0)) + p * p_c * (1 - p_destroy)
        return out

    for _ in range(tests):
        state = critical(state, p_crit)
    for _ in range(automatic):
        state = critical(state, Fraction(1))
    return {k: v for k, v in state.items() if v}


def roll_elephant_fate(
    t: Tables, tests: int, automatic: int, dice: Dice, name: str
) -> tuple[ElephantFate, list[str]]:
    ec = t.elephant_critical
    fate: ElephantFate = "unharmed"
    words: list[str] = []

    def second_roll(why: str) -> ElephantFate:
        (roll,) = dice.roll(ec.outcome_die, f"critical hit result for {name}")
        band = band_of(ec.outcomes, roll)
        words.append(f"{why}; rolled again {roll}: {band.label}")
        return "destroyed" if band.result == "destroyed" else "rampage"

    for i in range(tests):
        if fate == "destroyed":
            break
        (roll,) = dice.roll(ec.die, f"critical hit test {i + 1} for {name}")
        if roll in ec.critical_on:
            fate = second_roll(f"critical hit test for {name}: {roll}, a critical hit")
        else:
            words.append(f"critical hit test for {name}: {roll}, no critical hit")
    for _ in range(automatic):
        if fate == "destroyed":
            break
        fate = second_roll(f"{name} takes an automatic critical hit for the casualty")
    return fate, words


def elephant_effects(fate: ElephantFate) -> Effects:
    if fate == "destroyed":
        return Effects(eliminated=True)
    if fate == "rampage":
        return Effects(markers_add=frozenset({RAMPAGE}), extra={STOP_ATTEMPTS: 0})
    return Effects()


# --------------------------------------------------------------------------- die of death

LeaderFate = Literal["ok", "wounded", "killed"]


def leader_fate_dist(t: Tables, leader: LeaderView | None) -> dict[LeaderFate, Fraction]:
    """Leg VI, Risk to Leader: a D6, and on a 1 roll again: 1 killed, 2-4 wounded (a
    second wound kills), 5-6 a flesh wound. Flesh wounds count as ``ok``."""
    if leader is None:
        return {"ok": Fraction(1)}
    dd = t.die_of_death
    d = faces_dist(faces(dd.die))
    p_danger = d.get(dd.danger_roll, Fraction(0))
    out: dict[LeaderFate, Fraction] = {"ok": 1 - p_danger}
    for v, p in d.items():
        fate = _fate(t, leader, band_of(dd.results, v).result)
        out[fate] = out.get(fate, Fraction(0)) + p_danger * p
    return {k: v for k, v in out.items() if v}


def _fate(t: Tables, leader: LeaderView, result: str) -> LeaderFate:
    if result == "killed":
        return "killed"
    if result == "wounded":
        return "killed" if leader.wounds + 1 >= t.die_of_death.wounds_to_kill else "wounded"
    return "ok"


def roll_leader_fate(
    t: Tables, leader: LeaderView | None, dice: Dice, why: str
) -> tuple[LeaderFate, list[str]]:
    if leader is None:
        return "ok", []
    dd = t.die_of_death
    (first,) = dice.roll(dd.die, f"die of death for {leader.name}")
    if first != dd.danger_roll:
        return "ok", [f"die of death for {leader.name} ({why}): {first}, unharmed"]
    (second,) = dice.roll(dd.die, f"die of death for {leader.name}, second roll")
    band = band_of(dd.results, second)
    fate = _fate(t, leader, band.result)
    text = f"die of death for {leader.name} ({why}): {first}, then {second} = {band.label}"
    if band.result == "wounded" and fate == "killed":
        text += " (his second wound: killed)"
    return fate, [text]


def leader_morale_dps(t: Tables, leader: LeaderView) -> int:
    """Leg VI, morale DPs: 1 DP when a leader is killed or routed within 4" (2 for the
    General)."""
    trig = t.morale_dps.triggers["leader_lost"]
    if leader.rank == "general" and trig.dps_general is not None:
        return trig.dps_general
    return trig.dps


# --------------------------------------------------------------------------- shooting


@dataclass(frozen=True)
class ShootingDice:
    dice: int
    reasons: tuple[str, ...]


def shooting_dice(
    t: Tables, shooter: LegUnit, target: LegUnit, bases: int, cover: bool, aspect: str
) -> ShootingDice:
    """Leg VI, Shooting: 1 D6 per base in range; halved (once, rounding up) against light
    infantry, a target in cover, formed HI shot from the front, or the front or flank of a
    legion in quincunx; then -1 die per DP on the shooters, +1 die against elephants; at
    least 1 die."""
    sh = t.shooting
    n = bases * sh.dice_per_base
    why = [f"{bases} base{'s' if bases != 1 else ''} in range: {n} dice"]
    halve = []
    if target.category == Category.LIGHT_INFANTRY:
        halve.append("target is light infantry")
    if cover:
        halve.append("target in cover")
    if target.heavy_infantry and target.formed and aspect == "front":
        halve.append("formed heavy infantry shot from the front")
    if target.quincunx and aspect != "rear":
        halve.append("front or flank of a legion in quincunx")
    if halve:
        n = math.ceil(n / 2) if sh.halve_rounding == "up" else n // 2
        why.append(f"halved ({'; '.join(halve)}): {n}")
    dp_mod = sh.modifiers["shooter_dp"]
    if shooter.c.status.dps:
        n += dp_mod.dice * shooter.c.status.dps
        why.append(f"{dp_mod.dice * shooter.c.status.dps} for the shooters' DPs: {n}")
    if target.elephant:
        el = sh.modifiers["elephant_target"]
        n += el.dice
        why.append(f"+{el.dice} shooting at an elephant: {n}")
    if n < sh.min_dice:
        n = sh.min_dice
        why.append(f"at least {sh.min_dice}")
    return ShootingDice(n, tuple(why))


# --------------------------------------------------------------------------- combat


@dataclass(frozen=True)
class CombatSide:
    """One side of a combat as the factors and the result table see it."""

    unit: LegUnit
    enemy: LegUnit
    bases: int
    grade: str
    supported: bool
    charged: bool
    followed_up: bool
    enemy_charged: bool
    struck_in: Aspect
    enemy_struck_in: Aspect
    ground: bool
    enemy_ground: bool
    countercharged: bool
    later_round: bool

    @property
    def leader(self) -> LeaderView | None:
        return self.unit.c.leader


def default_engaged_bases(t: Tables, u: LegUnit) -> int:
    """Engaged bases when the player does not count them: a legion in quincunx its first
    line plus half its second (rounded up; none with open ranks); a column 1 base; others
    every base. Casualties are taken from the first line, the rest fill lines in order."""
    s = u.c.status
    if u.quincunx:
        line_bases = [ln.bases for ln in t.legion.lines][: u.lines]
        left = s.strength
        filled = []
        for b in line_bases:
            filled.append(min(b, left))
            left -= filled[-1]
        front = filled[0] + max(0, s.strength - sum(line_bases))
        if len(filled) > 1 and not s.has(OPEN_RANKS):
            front += math.ceil(filled[1] * t.combat_dice.legion_second_line_fraction)
        return front
    if u.column:
        return 1
    return s.strength


def combat_dice(t: Tables, s: CombatSide) -> tuple[int, tuple[str, ...]]:
    """Leg VI, Resolving combat: 2 D6 per engaged elephant, 1 per other engaged base, at
    most 10 (errata 'combat-dice-max'); then the factors for the side; at least 1 die."""
    cd, f = t.combat_dice, t.combat_factors.factors
    u = s.unit
    per = cd.per_elephant if u.elephant else cd.per_base
    base = min(s.bases * per, cd.max_base_dice)
    why = [f"{s.bases} engaged base{'s' if s.bases != 1 else ''}: {base} dice"]
    mods: list[tuple[str, int]] = []
    grade_factor = {"A": "a_grade", "B": "b_grade", "D": "d_grade"}.get(s.grade)
    if grade_factor:
        mods.append((f[grade_factor].label, f[grade_factor].dice))
    inspire = int(u.c.status.extra.get(INSPIRE, 0))
    if inspire:
        fi = f["inspire"]
        total = inspire * fi.dice
        if fi.limit is not None:
            total = min(total, fi.limit)
        mods.append((fi.label, total))
    if s.supported:
        mods.append((f["supported"].label, f["supported"].dice))
    for fid in u.troop.combat_factors:
        if _charge_factor_applies(fid, s):
            mods.append((f[fid].label, f[fid].dice))
    dps = u.c.status.dps
    if dps and not u.elephant:
        fd = f["per_dp"]
        total = dps * fd.dice
        if fd.limit is not None:
            total = max(total, fd.limit)
        mods.append((f"{fd.label} ({dps} DPs)", total))
    if u.shaken:
        mods.append((f["shaken"].label, f["shaken"].dice))
    n = base + sum(v for _, v in mods)
    why += [f"{v:+d} {label}" for label, v in mods]
    if n < cd.min_dice:
        n = cd.min_dice
        why.append(f"at least {cd.min_dice} die")
    return n, tuple(why)


def _charge_factor_applies(fid: str, s: CombatSide) -> bool:
    """Leg VI, combat factors tied to troop type (the troop's ``combat_factors`` list)."""
    u, e = s.unit, s.enemy
    impetus = s.charged or s.followed_up
    if fid == "mi_mc_charge":
        if u.category == Category.MEDIUM_CAVALRY and (
            e.elephant or (s.charged and e.heavy_infantry and s.enemy_struck_in == "front")
        ):
            return False
        return impetus or u.c.status.has(RELIEVED)
    if fid == "hi_charge":
        return impetus or s.enemy_charged
    if fid == "elephant_charge":
        return impetus
    if fid == "cavalry_vs_unformed_infantry":
        return u.cavalry and e.infantry and e.unformed
    return False


def hit_faces(t: Tables, s: CombatSide) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Leg VI, scoring hits: 6 only when unformed or in column (not light infantry against
    elephants), against an enemy with advantage of ground (not elephants), charged in flank
    or rear (light troops and quincunx legions only in the rear), or infantry that charged
    and are charged by cavalry or elephants; otherwise 5-6."""
    hn = t.hit_numbers
    hs = hn.hard_situations
    u, e = s.unit, s.enemy
    why: list[str] = []
    if (u.unformed or u.column) and not (u.category == Category.LIGHT_INFANTRY and e.elephant):
        why.append(hs["unformed_or_column"].label)
    if s.enemy_ground and not u.elephant:
        why.append(hs["enemy_ground"].label)
    if s.struck_in != "front" and not (s.struck_in == "flank" and (u.light or u.quincunx)):
        why.append(hs["charged_flank_rear"].label)
    if s.countercharged and u.infantry:
        why.append(hs["countercharged"].label)
    return (hn.hard_hit_on if why else hn.normal_hit_on), tuple(why)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SideResult:
    """One side's combat result: the band, its DPs and casualties, rout, the after-combat
    move (ids of ``after_combat_moves``; ``choice`` lets the player pick), DPs it inflicts
    on the enemy on top of the band's, and elephant critical-hit tests."""

    band: str
    dps: int
    casualties: int
    rout: bool
    moves: tuple[str, ...]
    choice: bool = False
    inflicts: int = 0
    crit_tests: int = 0
    auto_crits: int = 0


def _row(band: ResultBand, index: int) -> tuple[tuple[str, ...], bool, int]:
    row = band.moves[index]
    return row.moves, row.choice, row.extra_dps_inflicted


def side_result(t: Tables, s: CombatSide, band_id: str, enemy_moves: tuple[str, ...]) -> SideResult:
    """Leg VI, Results: the move chosen by the first situation that fits, in the order the
    table lists them (the rows' indices below follow ``tables.toml``)."""
    band = t.combat_results.bands[band_id]
    u, e = s.unit, s.enemy
    if band_id == "victory":
        if u.grade == "A":
            i = 0
        elif u.grade == "B" and u.formed_infantry and not s.charged:
            i = 1
        elif e.elephant or e.light:
            i = 2
        else:
            i = 3
        moves, choice, _ = _row(band, i)
        return SideResult(band_id, band.dps, band.casualties, False, moves, choice)
    if band_id == "success":
        if u.formed_infantry and not s.charged and s.enemy_charged and (e.cavalry or e.elephant):
            i = 0
        elif u.cavalry and s.charged and e.formed_infantry:
            i = 1
        elif u.elephant and e.formed_infantry:
            i = 2
        elif (u.infantry and u.grade == "A") or e.light:
            i = 3
        else:
            i = 4
        moves, choice, inflicts = _row(band, i)
        if i == 4:
            moves = ("pursue",) if {"retire", "rout"} & set(enemy_moves) else ("follow_up",)
        tests = band.dps if u.elephant else 0
        return SideResult(
            band_id, band.dps, band.casualties, False, moves, choice, inflicts, crit_tests=tests
        )
    if band_id == "inconclusive":
        inflicts = 0
        if u.cavalry and e.formed_infantry:
            i = 0
        elif (
            (u.cavalry or u.elephant)
            and s.charged
            and (e.cavalry or e.category == Category.LIGHT_INFANTRY)
        ):
            i = 1
            if u.cavalry and e.category == Category.LIGHT_INFANTRY:
                inflicts = band.moves[1].extra_dps_inflicted
        else:
            i = 2
        moves, choice, _ = _row(band, i)
        tests = band.dps if u.elephant else 0
        return SideResult(
            band_id, band.dps, band.casualties, False, moves, choice, inflicts, crit_tests=tests
        )
    if band_id == "set_back":
        if u.elephant:
            return SideResult(band_id, band.dps, band.casualties, False, (), crit_tests=band.dps)
        if "shaken" in band.rout_if and u.shaken:
            return SideResult(band_id, 0, 0, True, ("rout",))
        if u.formed_infantry and s.enemy_charged and (e.cavalry or e.elephant):
            i = 0
        elif u.cavalry and (e.formed_infantry or s.later_round):
            i = 1
        elif u.unformed:
            i = 2
        else:
            i = 4
        moves, choice, _ = _row(band, i)
        return SideResult(band_id, band.dps, band.casualties, False, moves, choice)
    # defeat
    if u.elephant:
        return SideResult(
            band_id,
            band.dps,
            band.casualties,
            False,
            (),
            crit_tests=band.dps,
            auto_crits=band.casualties,
        )
    rout = ("shaken" in band.rout_if and u.shaken) or ("unformed" in band.rout_if and u.unformed)
    if rout:
        retreat: tuple[str, ...] = ("rout",)
    elif u.quincunx and u.lines >= len(t.legion.lines):
        retreat = _row(band, 1)[0]
    else:
        retreat = _row(band, 2)[0]
    return SideResult(band_id, band.dps, band.casualties, rout, retreat)


def move_text(t: Tables, u: LegUnit, r: SideResult) -> str | None:
    """The after-combat move in words (names and distances from ``after_combat_moves``)."""
    if not r.moves:
        return None
    acm = t.after_combat_moves.moves
    names = []
    for m in r.moves:
        move = acm[m]
        names.append(f'{move.name} {move.distance:g}"' if move.distance else move.name)
    text = " or ".join(names) + (" (player's choice)" if r.choice and len(names) > 1 else "")
    if may_relieve(u, r.moves):
        text += f"; may {acm['relieve_ranks'].name.lower()}"
    return text


def reliefs_left(u: LegUnit) -> int:
    """Leg VI, Relieve ranks: once for each line beyond the first."""
    return max(0, u.lines - 1 - int(u.c.status.extra.get(RELIEFS, 0)))


def may_relieve(u: LegUnit, moves: Iterable[str]) -> bool:
    """Leg VI, After Combat Moves: a legion in quincunx with a relief left may relieve ranks
    on a halt, fall-back or follow-up (and stay instead of falling back)."""
    return (
        u.quincunx
        and bool(reliefs_left(u))
        and bool({"halt", "fall_back", "follow_up"} & set(moves))
    )


def after_combat_shift(t: Tables, s: CombatSide, r: SideResult) -> tuple[float, float] | None:
    """Leg VI, After Combat Moves: the move a combat result makes at once on the table
    (``Effects.shift``), when the result leaves no choice and the tables give its distance:
    fall back 1" directly away from the enemy, still facing it; pass through 4" straight
    ahead; a legion in three lines retires behind its triarii, moving back its full depth.
    None for the rest: a legion that may relieve ranks and stay instead of falling back,
    a choice of moves, moves of dice (retire, rout, pursue: all the move dice, rolled when
    the unit moves), halts and follow-ups (the player moves into contact)."""
    if r.choice or len(r.moves) != 1 or may_relieve(s.unit, r.moves):
        return None
    key = r.moves[0]
    c = s.unit.c
    move = t.after_combat_moves.moves[key]
    if key == "fall_back" and move.distance is not None:
        return away_bearing(s.enemy.c, c), move.distance
    if key == "pass_through" and move.distance is not None:
        return c.facing % 360, move.distance
    if key == "retire_behind_triarii" and c.depth > 0:
        return (c.facing + 180.0) % 360, c.depth
    return None


def combat_effects(
    t: Tables,
    s: CombatSide,
    r: SideResult,
    inflicted: int,
    el_fate: ElephantFate,
    leader_fate: LeaderFate,
) -> Effects:
    """What a combat result does to one side: the band's DPs plus any inflicted by the enemy
    and the morale DPs of its own leader's death (shaken units lose bases instead), the
    band's casualties, rout / retire / pursue markers for compulsory moves, a compulsory
    move of a fixed distance made on the table (:func:`after_combat_shift`), and for
    elephants the critical-hit fate instead of DPs. A relieved legion's charge bonus is
    used up."""
    u = s.unit
    remove = frozenset({RELIEVED}) if u.c.status.has(RELIEVED) else frozenset()
    text = move_text(t, u, r)
    shift = after_combat_shift(t, s, r)
    if u.elephant:
        e = elephant_effects(el_fate)
        if el_fate == "destroyed":
            text = "Destroyed"
        elif el_fate == "rampage":
            text = "Rampage: turn to face the cause, then roll its direction (rampage action)"
        return Effects(
            eliminated=e.eliminated,
            markers_add=e.markers_add,
            markers_remove=remove,
            extra=e.extra,
            move=text,
            shift=shift if el_fate == "unharmed" else None,
        )
    morale = leader_morale_dps(t, s.leader) if leader_fate == "killed" and s.leader else 0
    dp = take_dps(u, r.dps + inflicted + morale, "combat")
    add: set[str] = {SHAKEN} if dp.shaken else set()
    formation = None
    if r.rout:
        add |= {ROUTING, SHAKEN}
        formation = "unformed"
    elif not r.choice and r.moves == ("retire",):
        add.add(RETIRING)
        formation = "unformed"
    elif not r.choice and r.moves == ("pursue",):
        add.add(PURSUING)
        formation = "unformed"
    add -= set(u.c.status.markers)
    return Effects(
        dps=dp.dps,
        casualties=dp.casualties + r.casualties,
        markers_add=frozenset(add),
        markers_remove=remove,
        formation=formation if formation != u.c.status.formation else None,
        move=text,
        shift=shift,
    )


def scalar_int(values: Mapping[str, Scalar], key: str) -> int:
    v = values.get(key, 0)
    return int(v) if not isinstance(v, str) or v.lstrip("-").isdigit() else 0
