"""What each ruleset prints on a unit card: its troop line, move and shooting, the fighting
numbers as boxes to tick, and the special rules. One function per engine; every number comes
from the ruleset data.

- Quincunx: the melee die for each ring count 0-7 with ring tick boxes, and a casualty box
  per figure marking where the attrition table's 50%, 33% and 25% thresholds fall.
- Leg VI: grade, bases (per line for a legion) and the DP track up to shaken.
- Grown Slightly Bald: a row of hit-point boxes per base.
- MWAN #90: a box per figure, the rout threshold marked.
- D3: hit boxes up to elimination.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.roster import Roster, Unit
from app.core.totals import Strength, strength_of, unit_strength
from app.export.card_draw import Block, Mark, Track, dice_row_block, track_block
from app.export.common import WARN_25, WARN_33, WARN_50, fmt_num
from app.rules.engines import d3, gsb, leg_vi, mwan90, quincunx
from app.rules.engines.leg_vi_rules import leg_unit
from app.rules.engines.quincunx_rules import attrition_limit
from app.rules.mechanics import Combatant, mechanics_for
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyEntry, Category, TroopBase

_GLYPHS = {50: "½", 33: "⅓", 25: "¼"}
_COLOURS = {50: WARN_50, 33: WARN_33, 25: WARN_25}


@dataclass(frozen=True)
class Face:
    """The ruleset-specific parts of a card."""

    troop_line: str
    stats: list[tuple[str, str]]
    blocks: list[Block] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


def _category(troop: TroopBase) -> str:
    return troop.category.value.replace("_", " ")


def _weapons(troop: TroopBase, unit: str = '"') -> str:
    if not troop.weapons:
        return "-"
    parts = []
    for w in troop.weapons:
        rng = fmt_num(w.long_range) + unit
        if w.short_range is not None:
            rng = f"{fmt_num(w.short_range)}{unit}/{rng}"
        parts.append(f"{w.name} {rng}")
    return ", ".join(parts)


# --------------------------------------------------------------------------- Quincunx


def attrition_marks(t: quincunx.Tables, figures: int) -> dict[int, Mark]:
    """Casualty box numbers at which a unit of ``figures`` reaches each attrition row
    (Quincunx, Attrition: the penalty applies once the figures remaining are at or below
    :func:`~app.rules.engines.quincunx_rules.attrition_limit`, the rules' own number)."""
    marks: dict[int, Mark] = {}
    for row in t.attrition.rows:
        remaining = math.floor(attrition_limit(t, row, figures))
        casualties = figures - remaining
        if 1 <= casualties <= figures:
            effect = re.sub(r"\s*\([^)]*\)", "", row.effect).rstrip(".")
            label = f"{row.percent}%: {effect[:1].lower()}{effect[1:]}"
            glyph = _GLYPHS.get(row.percent, "!")
            marks[casualties] = Mark(_COLOURS.get(row.percent, WARN_25), glyph, label)
    return marks


def _quincunx(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = quincunx.tables(rs)
    assert isinstance(troop, quincunx.Troop)
    mc = t.movement.classes[troop.movement]
    move = f'{mc.move_factors} MF ({fmt_num(mc.inches)}")'
    if troop.movement_skirmish:
        sk = t.movement.classes[troop.movement_skirmish]
        move += f'; skirmishing {sk.move_factors} MF ({fmt_num(sk.inches)}")'
    stats = [("Move", move), ("Shoot", _weapons(troop))]
    if troop.volley:
        v = t.pre_melee.volley_dice[troop.volley]
        stats.append(("Volley", f"{v.name}: {v.die} before melee"))
    shot_at = [t.missile_modifiers.modifiers[m] for m in troop.missile_target]
    if shot_at:
        stats.append(
            ("Shot at", ", ".join(f"{m.modifier:+d} ({m.situation.lower()})"[:60] for m in shot_at))
        )
    track = t.melee.tracks[troop.melee_track]
    blocks = [
        dice_row_block(
            "Melee die by rings (tick the rings taken)",
            [str(r) for r in t.melee.rings],
            list(track.dice),
            ticks=True,
        )
    ]
    figures = unit.size
    if troop.category is Category.ELEPHANT:
        el = t.elephants
        per = el.casualty_points_per_element
        groups = [(f"Element {i + 1}", per) for i in range(max(1, figures // per))]
        blocks.append(
            track_block(
                Track("Casualty points: crew first, then the elephant", figures, groups=groups), w
            )
        )
        return Face(f"{troop.name} · {_category(troop)}", stats, blocks, list(troop.special_rules))
    else:
        blocks.append(
            track_block(
                Track(
                    "Casualties (tick a box per figure lost)",
                    figures,
                    marks=attrition_marks(t, figures),
                ),
                w,
            )
        )
    return Face(f"{troop.name} · {_category(troop)}", stats, blocks, list(troop.special_rules))


# --------------------------------------------------------------------------- Leg VI


def shaken_at(rs: Ruleset, entry: ArmyEntry, unit: Unit) -> int:
    """DPs at which ``unit`` is shaken as it starts a battle, asked of the rules themselves
    (:attr:`~app.rules.engines.leg_vi_rules.LegUnit.shaken_at`, Leg VI, Shaken: 5; a legion in
    quincunx one more for each line beyond the first) with the starting state the ruleset's
    mechanics give it, so the card and the battle agree."""
    status = mechanics_for(rs).initial_status(entry.troop, unit.size, unit.grade)
    card = Combatant(unit.id, unit.name, entry.troop, 0, status)
    return leg_unit(card, leg_vi.troops(rs), leg_vi.tables(rs)).shaken_at


def _leg_vi(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = leg_vi.tables(rs)
    assert isinstance(troop, leg_vi.Troop)
    entry = rs.army(roster.army).entries[unit.entry]
    grade = unit.grade or "-"
    grade_factor = t.combat_factors.factors.get(f"{grade.lower()}_grade")
    desc = rs.organisation.grade_descriptions.get(grade, "")
    grade_text = grade + (f" ({grade_factor.dice:+d} die)" if grade_factor else "")
    if desc:
        grade_text += f": {desc.rstrip('.')}"
    per_base = (
        t.combat_dice.per_elephant
        if troop.category is Category.ELEPHANT
        else (t.combat_dice.per_base)
    )
    dice = min(unit.size * per_base, t.combat_dice.max_base_dice)
    factors = [t.combat_factors.factors[f] for f in troop.combat_factors]
    combat = f"{dice} dice if all engaged" + "".join(
        f"; {f.dice:+d} {f.label.split(',')[0]}" for f in factors
    )
    move = f'{fmt_num(troop.march_move)}" march; ' + " ".join(
        ("AvD" if d.dice == "avd" else ("+" if d.optional else "") + d.dice.upper())
        for d in troop.move_dice
    )
    stats = [("Grade", grade_text), ("Move", move), ("Combat", combat)]
    if troop.shoots:
        s = t.shooting
        stats.append(
            (
                "Shoot",
                f'{fmt_num(s.range)}": {s.dice_per_base} {s.die.upper()} per base, '
                f"DP on {'/'.join(str(x) for x in s.hit_on)}",
            )
        )
    blocks: list[Block] = []
    if troop.takes_dps:
        limit = shaken_at(rs, entry, unit)
        cap = t.dp_limits.fatigue_manoeuvre_cap
        marks = {
            cap: Mark(WARN_50, str(cap), f"{cap}+: no fatigue/manoeuvre DPs"),
            limit: Mark(WARN_25, "S", f"{limit}: shaken"),
        }
        blocks.append(track_block(Track("DPs (tick one per DP)", limit, marks=marks), w))
    else:
        c = t.elephant_critical
        crit = "/".join(str(x) for x in c.critical_on)
        stats.append(("DPs", f"none: {c.die.upper()} per DP, critical on {crit}"))
    if entry.lines:
        lines = dict(unit.lines or {})
        groups = [(ln.name, lines.get(ln.name, ln.bases)) for ln in entry.lines]
    else:
        groups = [("", unit.size)]
    blocks.append(
        track_block(
            Track(
                "Bases (shaken: one lost per further DP)",
                sum(n for _, n in groups),
                groups=groups if len(groups) > 1 else (),
                numbered=False,
            ),
            w,
        )
    )
    abbr = troop.abbreviation
    return Face(f"{troop.name} ({abbr}) · grade {grade}", stats, blocks, list(troop.special_rules))


# --------------------------------------------------------------------------- GSB


def _gsb(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = gsb.tables(rs)
    assert isinstance(troop, gsb.Troop)
    tid = rs.army(roster.army).entries[unit.entry].troop
    dice = "as many as the opponent" if troop.melee_dice == "as_opponent" else troop.melee_dice
    hit = t.hit_numbers.rows.get(tid)
    m = t.morale.rows
    stats = [
        ("Move", f"{troop.move} UW"),
        ("Melee", f"{dice} dice" + (f"; enemies hit it on {hit.hit_on}+" if hit else "")),
        (
            "Morale",
            f"base lost: {t.morale.die} {m['normal'].lose_on}+ loses another "
            f"({m['last_base'].lose_on}+ for the last)",
        ),
    ]
    if troop.shoots:
        s = t.shooting
        stats.append(("Shoot", f"{fmt_num(s.range)} UW: {s.dice} dice, {s.hit_on}s hit"))
    groups = [(f"Base {i + 1}", troop.hits_per_base) for i in range(unit.size)]
    track = Track(
        "Hit points (a full row loses the base)",
        unit.size * troop.hits_per_base,
        groups=groups,
        numbered=False,
    )
    return Face(
        f"{troop.name} · {_category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )


# --------------------------------------------------------------------------- MWAN #90


def _mwan90(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = mwan90.tables(rs)
    assert isinstance(troop, mwan90.Troop)
    mv = t.movement.rows[troop.move_class]
    hit = t.hits.rows[troop.hit_class]
    hit_class = re.sub(r"\s*\([^)]*\)", "", hit.label).lower()
    stats = [
        ("Move", f'{fmt_num(mv.move)}" ({mv.label.lower()})'),
        ("Melee", f"{troop.dice_per_figure} die per figure, {troop.ranks} ranks"),
        ("Hit on", f"{hit.hit_on}+ (as {hit_class})"),
        ("Missiles", _weapons(troop) + (f", hit on {t.missiles.hit_on}" if troop.weapons else "")),
    ]
    threshold = mwan90.rout_threshold(t, troop)
    marks: dict[int, Mark] = {}
    if threshold is not None and unit.size > threshold:
        marks[unit.size - threshold] = Mark(WARN_25, "R", f"routs at {threshold} left")
    track = Track("Figures (tick one per figure lost)", unit.size, marks=marks)
    return Face(
        f"{troop.name} · {_category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )


# --------------------------------------------------------------------------- D3


def _d3(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = d3.tables(rs)
    assert isinstance(troop, d3.Troop)
    move = (
        "pivot only"
        if troop.pivot_only
        else f'{fmt_num(troop.move)}" (+{fmt_num(troop.road_bonus)}" on a road)'
    )
    rng = max((wp.long_range for wp in troop.weapons), default=None)
    shoot = f'{fmt_num(rng)}": {troop.shoot_hits.upper()} hits' if troop.shoot_hits and rng else "-"
    combat = troop.combat_hits.upper() if troop.combat_hits else "cannot attack"
    if unit.leader:
        combat += f" (commander: {t.commanders.combat_dice} dice, keep the higher)"
    halved = {"always": "halved", "in_cover": "halved in cover", "never": "never halved"}
    taken = ("halved" if troop.halved_in_combat else "full") + " in melee; shooting "
    stats = [
        ("Move", move),
        ("Shoot", shoot),
        ("Combat", combat),
        ("Hits on it", taken + halved[troop.shot_halved]),
    ]
    limit = t.elimination.eliminated_above_hits
    marks = {limit + 1: Mark(WARN_25, "X", f"more than {limit} hits: eliminated")}
    track = Track("Hits", limit + 1, marks=marks)
    return Face(
        f"{troop.name} · {_category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )


FaceFn = Callable[[Ruleset, Roster, Unit, TroopBase, float], Face]
FACES: dict[str, FaceFn] = {
    "quincunx": _quincunx,
    "leg-vi": _leg_vi,
    "gsb": _gsb,
    "mwan90": _mwan90,
    "d3": _d3,
}


def unit_face(rs: Ruleset, roster: Roster, unit: Unit, width: float) -> Face:
    """The ruleset's card face for ``unit``; an entry the data no longer has gets a plain
    face with its size only (kept, never dropped)."""
    entry = rs.army(roster.army).entries.get(unit.entry) if roster.army in rs.armies else None
    troop = rs.troops.get(entry.troop) if entry is not None else None
    if entry is None or troop is None:
        return Face(f"{unit.entry} (not in the current army list)", [("Size", str(unit.size))])
    return FACES[rs.meta.engine](rs, roster, unit, troop, width)


def strength(rs: Ruleset, roster: Roster, unit: Unit) -> Strength:
    """:func:`unit_strength`, or the raw size when the roster's army list is not in the
    ruleset any more (the roster is kept and printed, never refused)."""
    if roster.army in rs.armies:
        return unit_strength(rs, roster, unit)
    return strength_of(rs, None, unit.size, roster.scale)


def size_line(rs: Ruleset, roster: Roster, unit: Unit) -> str:
    """Figures, bases and men of one unit at the roster's scale (app.core.totals)."""
    s = strength(rs, roster, unit)
    parts = []
    if s.figures is not None:
        parts.append(f"{s.figures:,} figure{'s' if s.figures != 1 else ''}")
    if s.bases is not None:
        parts.append(f"{s.bases:,} base{'s' if s.bases != 1 else ''}")
    if s.men is not None:
        parts.append(f"{s.men:,} men" + (f" at {roster.scale}" if roster.scale else ""))
    return " · ".join(parts) or f"size {unit.size}"
