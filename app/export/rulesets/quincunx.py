"""Quincunx (Duke Seifried, 1999) quick-reference body: every table of ``tables.toml``."""

from __future__ import annotations

import math
import re

from reportlab.platypus.flowables import Flowable

from app.core.roster import Roster, Unit
from app.export.card_draw import Mark, Track, dice_row_block, track_block
from app.export.card_faces import Face, category, weapons
from app.export.common import WARN_25, WARN_33, WARN_50, Cell, fmt_num
from app.export.refsheet import Ctx, grid_rows, turn_section
from app.rules.ruleset import Ruleset
from app.rules.schema import Category, TroopBase
from app.rulesets.quincunx import schema as q
from app.rulesets.quincunx.rules import attrition_limit


def _mf(mf: int | None, inches: float | None) -> str:
    if mf is None or inches is None:
        return "-"
    return f'{mf} MF ({fmt_num(inches)}")'


def _sign(value: int) -> str:
    return f"{value:+d}"


def _initiative(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    i = t.initiative
    return ctx.section(
        i.title,
        ctx.facts(
            [
                ("Rounds per turn", str(i.rounds_per_turn)),
                ("Die", i.die),
                ("After winning a melee", i.die_after_melee_win),
            ]
        ),
        ctx.text(f"{i.winner_chooses} {i.ties}"),
        ctx.note(i.note),
        ctx.rules(i.rules),
    )


def _movement(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    m = t.movement
    rows: list[list[Cell]] = [["Class", "MF", "Inches"]]
    rows += [[c.name, str(c.move_factors), fmt_num(c.inches)] for c in m.classes.values()]
    c, e = t.command, t.evasion
    return [
        *ctx.section(
            m.title,
            ctx.note(f"1 MF = {fmt_num(m.inches_per_move_factor)} inches. {m.note or ''}"),
            ctx.table(rows, (0.7, 0.12, 0.18)),
            ctx.rules(m.rules),
        ),
        *ctx.section(
            c.title,
            ctx.facts(
                [
                    ("Range of leader", _mf(c.range_move_factors, c.range_inches)),
                    ("Chain of units", _mf(c.chain_move_factors, c.chain_inches)),
                ]
            ),
            ctx.text(c.out_of_command, bold="Out of command:"),
        ),
        *ctx.section(
            e.title,
            ctx.facts(
                [
                    ("Skirmishers cast", e.evader_die),
                    ("Attacker casts", e.attacker_die),
                    ("Withdrawal", f"{e.move_factors_per_point} MF per point won"),
                    ("Ties", "evasion fails" if e.ties == "fail" else "evasion succeeds"),
                ]
            ),
            ctx.note(e.note),
            ctx.rules(e.rules),
        ),
    ]


def _terrain(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    w, s = t.terrain.woods, t.terrain.streams
    shifts = t.column_shifts.shifts
    steps = " ".join(f"{n}. {step}" for n, step in enumerate(s.steps, start=1))
    return ctx.section(
        t.terrain.title,
        ctx.text(f"{w.entry} {w.fighting_from_woods} {w.melee_inside}", bold="Woods:"),
        ctx.facts(
            [
                ("Shooting into woods", f"{w.missile_level_shift:+d} dice level"),
                ("Attacking a wood edge", f"{shifts[w.melee_column_shift].columns} column right"),
                ("Shooting at a stream crossing", f"{s.missile_level_shift:+d} dice level"),
                ("Melee on the far shore", f"{shifts[s.melee_column_shift].columns} columns right"),
            ]
        ),
        ctx.text(f"{s.crossing_rounds} rounds: {steps}", bold="Crossing a stream:"),
    )


def _missiles(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    r, d, mods = t.missile_ranges, t.missile_dice, t.missile_modifiers
    ranges: list[list[Cell]] = [["Weapon", "Short", "Long"]]
    ranges += [
        [w.name, f'to {fmt_num(w.short_max)}"', f'{fmt_num(w.long_min)}-{fmt_num(w.long_max)}"']
        for w in r.weapons.values()
    ]
    dice: list[list[Cell]] = [["Firing", *d.columns]]
    dice += [[b.label, b.cover or "no fire", b.long, b.short] for b in d.bands]
    mod_rows: list[list[Cell]] = [["Situation", "Mod"]]
    mod_rows += [[m.situation, _sign(m.modifier)] for m in mods.modifiers.values()]
    return [
        *ctx.section(
            r.title,
            ctx.note(r.note),
            ctx.table(ranges, (0.4, 0.3, 0.3)),
        ),
        *ctx.section(
            d.title,
            ctx.table(dice, (0.17, 0.39, 0.22, 0.22)),
            ctx.text(
                f"Casualties = (high die - low die + modifiers) / {d.casualty_divisor}, "
                f"remainders dropped. {d.below_minimum} Dice ladder: {' > '.join(d.dice_ladder)}."
            ),
            ctx.note(d.note),
        ),
        *ctx.section(mods.title, ctx.note(mods.note), ctx.table(mod_rows, (0.85, 0.15))),
        *ctx.rules(mods.rules),
    ]


def _pre_melee(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    p = t.pre_melee
    rows: list[list[Cell]] = [["Volley", "Die"]]
    rows += [[v.name, v.die] for v in p.volley_dice.values()]
    return ctx.section(
        p.title,
        ctx.note(p.note),
        ctx.table(rows, (0.8, 0.2)),
        ctx.text(
            f"Lower cast: {p.loser_modifier:+d} on each melee die for {p.rounds_affected} "
            f"round. {p.ties} No volley: {p.no_volley} the cast.",
        ),
        ctx.rules(p.rules),
    )


def _melee(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    m = t.melee
    head: list[Cell] = ["Rings", *(str(r) for r in m.rings)]
    rows: list[list[Cell]] = [head]
    specials: list[Flowable] = []
    for track in m.tracks.values():
        rows.append([track.name, *track.dice])
        if track.special:
            specials += ctx.text(track.special, bold=f"{track.name}:")
    n = len(m.rings)
    return ctx.section(
        m.title,
        ctx.note(m.note),
        ctx.table(rows, (0.43, *(0.57 / n for _ in range(n))), tight=True),
        ctx.text(m.beyond_last_column),
        specials,
    )


def _melee_rules(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    mods, shifts, res = t.melee_modifiers, t.column_shifts, t.melee_resolution
    mod_rows: list[list[Cell]] = [["Situation", "Mod"]]
    mod_rows += [[m.situation, _sign(m.modifier)] for m in mods.modifiers.values()]
    shift_rows: list[list[Cell]] = [["Situation", "Cols", "Applies to"]]
    shift_rows += [[s.situation, str(s.columns), s.applies_to] for s in shifts.shifts.values()]
    facts = [
        ("Casualties", f"1 per {res.casualty_divisor} points of difference"),
        ("Rings", f"{res.rings_per_round} per round fought"),
        (
            "Loser recoils",
            f"{_mf(res.recoil_move_factors, res.recoil_inches)}, +{res.recoil_extra_rings} ring",
        ),
        ("Rest", f"removes {res.rest_removes_rings} ring"),
    ]
    optional = (
        [res.optional_victory_ring_removal_note or ""]
        if not res.optional_victory_ring_removal
        else []
    )
    return [
        *ctx.section(mods.title, ctx.note(mods.note), ctx.table(mod_rows, (0.85, 0.15))),
        *ctx.section(
            shifts.title,
            ctx.note(shifts.note),
            ctx.table(shift_rows, (0.53, 0.1, 0.37), center_from=1),
            ctx.note(shifts.combine),
        ),
        *ctx.section(
            res.title,
            ctx.facts(facts, split=0.3),
            ctx.rules(res.rules),
            ctx.text(res.rest_definition, bold="Rest:"),
            ctx.text(res.pairing, bold="Pairing:"),
            ctx.text(res.victor_follow_up, bold="Victor:"),
            ctx.text(res.break_off, bold="Breaking off:"),
            ctx.rules(f"Optional: {o}" for o in optional if o),
        ),
    ]


def _attrition(t: q.Tables, ctx: Ctx) -> list[Flowable]:
    a, s = t.attrition, t.stragglers
    sizes = [str(n) for n in a.original_sizes]
    for alias in a.size_aliases:
        i = a.original_sizes.index(alias.column)
        sizes[i] = f"{sizes[i]}/{alias.size}"
    rows: list[list[Cell]] = [["At", *sizes, "Effect"]]
    rows += [[f"{r.percent}%", *(str(n) for n in r.remaining), r.effect] for r in a.rows]
    k = len(a.original_sizes)
    return [
        *ctx.section(
            a.title,
            ctx.note(a.note),
            ctx.table(rows, (0.1, *(0.095 for _ in range(k)), 0.9 - 0.095 * k)),
            ctx.text(f"{a.threshold} {a.other_sizes} {a.remove_from}"),
        ),
        *ctx.section(
            s.title,
            ctx.note(s.note),
            ctx.facts(
                [
                    ("Retire", _mf(s.retire_move_factors, s.retire_inches)),
                    ("Captured by", f"enemy above {s.captured_by_enemy_above_percent}%"),
                ]
            ),
            ctx.rules(s.rules),
        ),
    ]


def _elephants(rs: Ruleset, t: q.Tables, ctx: Ctx) -> list[Flowable]:
    e, r, h = t.elephants, t.rampage, t.elephants_and_horses
    dirs = grid_rows([f"{k} {v}" for k, v in r.directions.items()], 4)
    exempt = ", ".join(rs.troops[tid].name for tid in h.exempt_troops if tid in rs.troops)
    return [
        *ctx.section(
            e.title,
            ctx.note(e.note),
            ctx.facts(
                [
                    ("Elements per unit", str(e.elements_per_unit)),
                    ("Crew per element", str(e.crew_per_element)),
                    ("Hits on the elephant", str(e.elephant_hits)),
                    ("Casualty points", f"{e.casualty_points_per_unit} per unit"),
                    ("Hits go to", ", then ".join(e.hit_order)),
                ]
            ),
            ctx.text(e.melee, bold="Melee:"),
            ctx.text(e.missile_strength, bold="Missiles:"),
            ctx.text(e.last_elephant, bold="Last elephant:"),
            ctx.rules(e.rules),
        ),
        *ctx.section(
            r.title,
            ctx.note(r.note),
            ctx.text(f"Cast {r.direction_die} for the direction:"),
            ctx.table(dirs, (1, 1, 1, 1), header_rows=0, center_from=0),
            ctx.text(
                f"Then {r.move_die} move factors; tramples with {r.trample_die}. {r.north}",
            ),
            ctx.rules(r.rules),
        ),
        *ctx.section(
            h.title,
            ctx.note(h.note),
            ctx.facts(
                [
                    ("Keep away", _mf(h.keep_away_move_factors, h.keep_away_inches)),
                    ("Not affected", exempt or "-"),
                ]
            ),
            ctx.rules(h.rules),
        ),
    ]


def _leaders(rs: Ruleset, t: q.Tables, ctx: Ctx) -> list[Flowable]:
    ld = t.leaders
    rows: list[list[Cell]] = [["Wounds", "Move", "Effect"]]
    rows += [[str(m.wounds), _mf(m.move_factors, m.inches), m.effect] for m in ld.moves]
    return ctx.section(
        ld.title,
        ctx.note(f"{ld.note or ''} {rs.leaders.summary}"),
        ctx.facts(
            [
                ("Attached leader", _sign(ld.attached_bonus)),
                (", ".join(ld.great_leaders), _sign(ld.great_leader_bonus)),
                ("Risk cast", f"{ld.risk_dice}: killed on {ld.killed_on.lower()}"),
                ("Wounded on", ld.wounded_on.rstrip(".").lower()),
            ]
        ),
        ctx.text(ld.bonus_applies, bold="Bonus:"),
        ctx.text(ld.risk_when, bold="At risk:"),
        ctx.table(rows, (0.17, 0.25, 0.58), center_from=1),
        ctx.rules(ld.rules),
    )


def story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    t = q.tables(rs)
    return [
        *turn_section(rs, ctx),
        *_initiative(t, ctx),
        *_movement(t, ctx),
        *_terrain(t, ctx),
        *_missiles(t, ctx),
        *_pre_melee(t, ctx),
        *_melee(t, ctx),
        *_melee_rules(t, ctx),
        *_attrition(t, ctx),
        *_elephants(rs, t, ctx),
        *_leaders(rs, t, ctx),
    ]


# --------------------------------------------------------------------------- card face


_GLYPHS = {50: "½", 33: "⅓", 25: "¼"}
_COLOURS = {50: WARN_50, 33: WARN_33, 25: WARN_25}


def attrition_marks(t: q.Tables, figures: int) -> dict[int, Mark]:
    """Casualty box numbers at which a unit of ``figures`` reaches each attrition row
    (Quincunx, Attrition: the penalty applies once the figures remaining are at or below
    :func:`~app.rulesets.quincunx.rules.attrition_limit`, the rules' own number)."""
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


def face(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = q.tables(rs)
    assert isinstance(troop, q.Troop)
    mc = t.movement.classes[troop.movement]
    move = f'{mc.move_factors} MF ({fmt_num(mc.inches)}")'
    if troop.movement_skirmish:
        sk = t.movement.classes[troop.movement_skirmish]
        move += f'; skirmishing {sk.move_factors} MF ({fmt_num(sk.inches)}")'
    stats = [("Move", move), ("Shoot", weapons(troop))]
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
        return Face(f"{troop.name} · {category(troop)}", stats, blocks, list(troop.special_rules))
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
    return Face(f"{troop.name} · {category(troop)}", stats, blocks, list(troop.special_rules))
