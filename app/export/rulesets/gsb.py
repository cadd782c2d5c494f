"""Grown Slightly Bald quick-reference body: every table of ``tables.toml``."""

from __future__ import annotations

from reportlab.platypus.flowables import Flowable

from app.core.roster import Roster, Unit
from app.export.card_draw import Track, track_block
from app.export.card_faces import Face, category
from app.export.common import Cell, esc, fmt_num, para
from app.export.refsheet import Ctx, grid_rows, leaders_section, turn_section, yes_no
from app.rules.ruleset import Ruleset
from app.rules.schema import TroopBase
from app.rulesets.gsb import schema as gsb

_TIMING = {
    "after_move": "after moving",
    "before_or_after_move": "before or after moving",
    "before_during_or_after_move": "before, during or after moving",
}


def _uw(value: float) -> str:
    return f"{fmt_num(value)} UW"


def _initiative(t: gsb.Tables, ctx: Ctx) -> list[Flowable]:
    i, a = t.initiative, t.activation
    steps: list[str] = []
    n = 1
    while True:
        need = a.needed(n)
        if need is None:
            steps.append(f"{n}: free")
        elif need > a.face_max:
            steps.append(f"{n}+: none")
            break
        else:
            steps.append(f"{n}: {need}+")
        n += 1
    return [
        *ctx.section(
            i.title,
            ctx.text(f"Each side rolls {i.die}; ties go to {i.ties_to.title()}."),
            ctx.note(i.note),
        ),
        *ctx.section(
            a.title,
            ctx.text(
                f"Score needed on a {a.die} read {a.face_min}-{a.face_max} for each unit "
                f"activated in turn:"
            ),
            ctx.table(grid_rows(steps, 6), (1,) * 6, header_rows=0, center_from=0),
            ctx.note(a.note),
        ),
    ]


def _troops(rs: Ruleset, t: gsb.Tables, ctx: Ctx) -> list[Flowable]:
    hp, mv, ml, hn = t.hit_points, t.movement, t.melee, t.hit_numbers
    rows: list[list[Cell]] = [["Troops", "Move", "Bases x hits", "Melee dice", "Hit on"]]
    for tid, row in hp.rows.items():
        dice = ml.rows[tid].dice if tid in ml.rows else "-"
        rows.append(
            [
                row.label,
                _uw(mv.rows[tid].move) if tid in mv.rows else "-",
                f"{row.bases} x {row.hits_per_base}",
                "as opponent" if dice == "as_opponent" else str(dice),
                f"{hn.rows[tid].hit_on}+" if tid in hn.rows else "-",
            ]
        )
    extra = ", ".join(
        f"{rs.troops[k].name if k in rs.troops else k} +{v}"
        for k, v in ml.flank_rear_extra_dice_by_troop.items()
    )
    return [
        *ctx.section(
            "Troops: move, hits, melee",
            ctx.table(rows, (0.34, 0.14, 0.18, 0.2, 0.14)),
            ctx.text(
                f"Hit on: the score each melee die needs against that target. A unit losing "
                f"all its bases gives the enemy {hp.destroyed_unit_stars} victory star."
            ),
            ctx.note(hn.note),
            ctx.note(mv.note),
        ),
        *ctx.section(
            ml.title,
            ctx.text(
                f"Front only: {yes_no(ml.front_only)}; own turn only: {yes_no(ml.own_turn_only)}. "
                f"Flank or rear: +{ml.flank_rear_extra_dice} die"
                + (f" ({extra})" if extra else "")
                + f". Elephant against elephant: {ml.elephant_vs_elephant_dice} dice."
            ),
            ctx.note(ml.note),
        ),
    ]


def _manoeuvre(t: gsb.Tables, ctx: Ctx) -> list[Flowable]:
    p, d, ip = t.pivot, t.disengage, t.interpenetration
    pivots: list[list[Cell]] = [["Pivot", "Free", "Cost"]]
    pivots += [
        [
            k.label.split(":")[0],
            "any" if k.free_deg is None else f"{k.free_deg}°",
            _uw(k.cost) if k.cost else "none",
        ]
        for k in p.kinds.values()
    ]
    return [
        *ctx.section(p.title, ctx.table(pivots, (0.5, 0.25, 0.25)), ctx.note(p.note)),
        *ctx.section(
            d.title,
            [para("• " + esc(r.label), ctx.st.body) for r in d.rows.values()],
            ctx.text(f"Turning about costs {_uw(d.about_face_cost)}."),
            ctx.note(d.note),
        ),
        *ctx.section(
            ip.title,
            ctx.text(
                "Light troops pass through friends with room to get clear: "
                f"{yes_no(ip.lights_pass_friends_if_room)}; only lights pass through lights: "
                f"{yes_no(ip.only_lights_pass_lights)}."
            ),
            ctx.note(ip.note),
        ),
    ]


def _losses(t: gsb.Tables, ctx: Ctx) -> list[Flowable]:
    m, s = t.morale, t.shooting
    rows: list[list[Cell]] = [["When", f"Lose a base on {m.die}"]]
    rows += [[r.label, f"{r.lose_on}+"] for r in m.rows.values()]
    shooters: list[list[Cell]] = [["Who shoots", "When"]]
    shooters += [[r.label.split(":")[0], _TIMING[r.timing]] for r in s.rows.values()]
    return [
        *ctx.section(m.title, ctx.table(rows, (0.62, 0.38)), ctx.note(m.note)),
        *ctx.section(
            s.title,
            ctx.facts(
                [
                    ("Range", f"{_uw(s.range)} from the {s.measured_from}"),
                    ("Dice", f"{s.dice}, hitting on {s.hit_on}+"),
                    ("Line of sight", "needed" if s.needs_line_of_sight else "not needed"),
                ],
                split=0.3,
            ),
            ctx.table(shooters, (0.45, 0.55)),
            ctx.note(s.note),
        ),
    ]


def _troop_label(rs: Ruleset, tid: str) -> str:
    return rs.troops[tid].name if tid in rs.troops else tid


def _specials(rs: Ruleset, t: gsb.Tables, ctx: Ctx) -> list[Flowable]:
    e, tr = t.elephants, t.terrain
    terrain: list[list[Cell]] = [["Terrain", "Most dice"]]
    terrain += [[r.label, str(r.max_dice)] for r in tr.rows.values()]
    out = [
        *ctx.section(
            e.title,
            ctx.text(
                f"Terror: each {e.terror_face} rolled in melee hits"
                + (" and is rolled again" if e.terror_rerolls else "")
                + f". Rampage: each hit on it makes every unit within {_uw(e.rampage_radius)} "
                f"roll {e.rampage_die}, a hit on {e.rampage_hit_on}."
            ),
            ctx.note(e.note),
        ),
        *ctx.section(
            tr.title,
            ctx.table(terrain, (0.6, 0.4)),
            ctx.text(
                "Flank and general dice are added after the cap: "
                + ", ".join(tr.extras_added_after_cap)
                + "."
            ),
            ctx.note(tr.note),
        ),
    ]
    for rule in t.optional_rules.values():
        state = "on" if rule.enabled else "off by default"
        who = _troop_label(rs, rule.attacker) if rule.attacker else "Any unit"
        where = (
            "from any side"
            if set(rule.situations) >= {"front", "flank", "rear"}
            else "in the " + " or ".join(rule.situations)
        )
        out += ctx.section(
            f"Optional: {rule.title}",
            ctx.text(
                f"{who} attacking {_troop_label(rs, rule.target).lower()} {where}: "
                f"hit on {rule.hit_on}+ ({state})."
            ),
            ctx.note(rule.note),
        )
    return out


def _general_victory(t: gsb.Tables, ctx: Ctx) -> list[Flowable]:
    g, v, d = t.general, t.victory, t.deployment
    stars = [f"{n} units: {v.stars_needed(n)}" for n in range(6, 16)]
    return [
        *ctx.section(
            g.title,
            ctx.facts(
                [
                    ("Per side", str(g.per_side)),
                    ("Melee bonus", f"+{g.melee_bonus} {g.bonus_kind}"),
                    (
                        "Death test",
                        f"{g.death_test} when his unit is hit: dies on "
                        + "-".join(map(str, g.dies_on)),
                    ),
                    ("Dead general", f"{g.dead_general_stars} star to the enemy"),
                ],
                split=0.32,
            ),
            ctx.note(g.note),
        ),
        *ctx.section(
            v.title,
            ctx.text(
                f"Stars needed: {v.stars_percent_of_enemy_units}% of the enemy's units, "
                f"rounded {v.rounding}:"
            ),
            ctx.table(grid_rows(stars, 5), (1,) * 5, header_rows=0, center_from=0),
            ctx.note(v.note),
        ),
        *ctx.section(
            d.title,
            ctx.text(
                ("Behind a screen; " if d.screen else "")
                + f"deploy within {fmt_num(d.depth_feet)} ft of your edge; then "
                f"{d.swap_army.title()} may swap the places of {d.swap_units} of its units."
            ),
            ctx.note(d.note),
        ),
    ]


def story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    t = gsb.tables(rs)
    return [
        *turn_section(rs, ctx),
        *_initiative(t, ctx),
        *_troops(rs, t, ctx),
        *_manoeuvre(t, ctx),
        *_losses(t, ctx),
        *_specials(rs, t, ctx),
        *leaders_section(rs, ctx),
        *_general_victory(t, ctx),
    ]


# --------------------------------------------------------------------------- card face


def face(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
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
        f"{troop.name} · {category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )
