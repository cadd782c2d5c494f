"""Leg VI Carthago rules as pure functions: shooting dice (Shooting), combat dice,
factors and hit numbers (Resolving combat), and each side's result band with its DPs,
casualties and after-combat move (Results).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from app.rules.geometry import Aspect, away_bearing
from app.rules.mechanics import Effects, LeaderView
from app.rules.schema import Category
from app.rulesets.leg_vi.fates import ElephantFate, LeaderFate, elephant_effects, leader_morale_dps
from app.rulesets.leg_vi.tables_schema import DiceModifier, ResultBand, Tables
from app.rulesets.leg_vi.units import (
    INSPIRE,
    OPEN_RANKS,
    PURSUING,
    RELIEFS,
    RELIEVED,
    RETIRING,
    ROUTING,
    SHAKEN,
    LegUnit,
    take_dps,
)

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
    pursued: bool
    struck_in: Aspect
    enemy_struck_in: Aspect
    ground: bool
    enemy_ground: bool
    countercharged: bool
    later_round: bool

    @property
    def leader(self) -> LeaderView | None:
        return self.unit.c.leader


def legion_lines(t: Tables, u: LegUnit) -> list[int]:
    """The bases in each line of a legion as it stands: casualties are taken from the first
    line, the rest fill the lines in order (the first takes any bases beyond them)."""
    s = u.c.status
    line_bases = [ln.bases for ln in t.legion.lines][: u.lines]
    left = s.strength
    filled = []
    for b in line_bases:
        filled.append(min(b, left))
        left -= filled[-1]
    filled[0] += max(0, s.strength - sum(line_bases))
    return filled


def second_line_bases(t: Tables, u: LegUnit) -> int:
    """Leg VI, Engaged bases: "Also count 1/2 bases of a second line of a Legion in quincunx
    unless in open ranks" (rounded up)."""
    filled = legion_lines(t, u)
    if len(filled) > 1 and not u.c.status.has(OPEN_RANKS):
        return math.ceil(filled[1] * t.combat_dice.legion_second_line_fraction)
    return 0


def default_engaged_bases(t: Tables, u: LegUnit) -> int:
    """Engaged bases when the player does not count them and the table does not say (units
    without positions): a legion in quincunx its first line plus half its second (rounded
    up; none with open ranks); a column 1 base; others every base."""
    s = u.c.status
    if u.quincunx:
        return legion_lines(t, u)[0] + second_line_bases(t, u)
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
        if _charge_factor_applies(t, fid, s):
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


def impetus(f: DiceModifier, s: CombatSide) -> bool:
    """Whether side ``s`` did what earns charge factor ``f`` this round (its ``when``: a
    charge, receiving one, a follow-up or a pursuit into contact)."""
    did = {
        "charge": s.charged,
        "receive_charge": s.enemy_charged,
        "follow_up": s.followed_up,
        "pursue": s.pursued,
    }
    return any(did[w] for w in f.when)


def _charge_factor_applies(t: Tables, fid: str, s: CombatSide) -> bool:
    """Leg VI, combat factors tied to troop type (the troop's ``combat_factors`` list): MI
    and MC for a charge, pursuit or follow-up, except MC against elephants or charging HI
    frontally (errata 'mc-charging-hi-frontally': MC only), and a legion that relieved ranks;
    HI for a charge, receiving one or a follow-up, not a pursuit (errata
    'hi-follow-up-not-pursuit'); elephants for a charge, pursuit or follow-up; cavalry
    against unformed infantry."""
    u, e = s.unit, s.enemy
    f = t.combat_factors.factors[fid]
    if fid == "mi_mc_charge":
        if u.category == Category.MEDIUM_CAVALRY and (
            e.elephant or (s.charged and e.heavy_infantry and s.enemy_struck_in == "front")
        ):
            return False
        return impetus(f, s) or u.c.status.has(RELIEVED)
    if fid in ("hi_charge", "elephant_charge"):
        return impetus(f, s)
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
