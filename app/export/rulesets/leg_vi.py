"""Leg VI Carthago quick-reference body: every table of ``tables.toml``, in the order of play."""

from __future__ import annotations

from reportlab.platypus.flowables import Flowable

from app.core.roster import Roster, Unit
from app.export.card_draw import Block, Mark, Track, track_block
from app.export.card_faces import Face
from app.export.common import WARN_25, WARN_50, Cell, esc, fmt_num, para
from app.export.refsheet import Ctx, band, faces, grid_rows, leaders_section
from app.rules.mechanics import Combatant, mechanics_for
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyEntry, Category, TroopBase
from app.rulesets.leg_vi import schema as lv
from app.rulesets.leg_vi.tables_schema import DiceModifier, MoveDie, Tables
from app.rulesets.leg_vi.units import leg_unit

_TARGETS = {
    "any": "any enemy",
    "light_infantry": "light infantry",
    "elephant": "elephants",
    "cavalry": "cavalry",
    "unformed": "unformed troops",
}


def _inch(value: float | None) -> str:
    return "-" if value is None else f'{fmt_num(value)}"'


def _dice(m: DiceModifier) -> str:
    per = {"unit": "", "dp": "/DP", "action": "/action"}[m.per]
    limit = f", max {m.limit:+d}" if m.limit is not None else ""
    return f"{m.dice:+d}{per}{limit}"


def _move_dice(dice: tuple[MoveDie, ...]) -> str:
    parts = []
    for d in dice:
        text = "AvD" if d.dice == "avd" else d.dice.upper()
        if d.optional:
            text = f"+{text}" if not d.condition else f"+{text} ({d.condition})"
        parts.append(text)
    return " ".join(parts)


def _sequence(t: Tables, ctx: Ctx) -> list[Flowable]:
    s = t.sequence
    steps = [
        para(f"<b>{esc(st.numeral)}. {esc(st.name)}</b>: {esc(st.summary)}", ctx.st.body)
        for st in s.steps
    ]
    return ctx.section(
        s.title,
        steps,
        ctx.text(f"{s.initiative} {s.order}", bold=f"Initiative ({s.initiative_die.upper()}):"),
        ctx.note(s.note),
        ctx.text(
            f"Faces {', '.join(str(f) for f in t.avd.faces)}. {t.avd.note or ''}",
            bold=t.avd.title + ":",
        ),
    )


def _command(t: Tables, ctx: Ctx) -> list[Flowable]:
    c, ct = t.command, t.control_test
    actions: list[list[Cell]] = [["Action", "Cost", "Effect"]]
    actions += [[a.name, str(a.cost), ctx.brief(a.summary)] for a in c.actions.values()]
    dice = "; ".join(
        f"{d.who}: {'AvD' if d.die == 'avd' else d.die.upper()}" for d in ct.dice.values()
    )
    mods = "; ".join(
        f"{m.label} {'±' if m.either_sign else '+'}{abs(m.value)}" for m in ct.modifiers.values()
    )
    results: list[list[Cell]] = [["Score", "Result"]]
    results += [[band(b.low, b.high), b.label] for b in ct.results]
    return [
        *ctx.section(
            c.title,
            ctx.facts(
                [
                    ("General", f"{c.actions_general} actions"),
                    ("Commander", f"{c.actions_commander} action"),
                    ("Exceptional leader", f"+{c.actions_exceptional_bonus} action"),
                ],
                split=0.45,
            ),
            ctx.table(actions, (0.2, 0.1, 0.7), center_from=1),
            ctx.note(c.note),
        ),
        *ctx.section(
            ct.title,
            ctx.text(dice, bold="Dice:"),
            ctx.text(mods, bold="Modifiers:"),
            ctx.table(results, (0.22, 0.78), center_from=0),
            ctx.text(
                f"Control radius {_inch(ct.radius)}; pursuit continues on "
                f"{ct.pursuit_continues_at_least}+."
            ),
            ctx.note(ct.note),
        ),
    ]


def _die_of_death(t: Tables, ctx: Ctx) -> list[Flowable]:
    d = t.die_of_death
    rows: list[list[Cell]] = [["Second roll", "Result"]]
    rows += [[band(b.low, b.high), b.label] for b in d.results]
    return ctx.section(
        d.title,
        ctx.text(
            f"Roll {d.die.upper()} when {' or '.join(d.triggers)}; on a {d.danger_roll} roll "
            "again:",
        ),
        ctx.table(rows, (0.25, 0.75), center_from=0),
        ctx.text(
            f"{d.wounds_to_kill} wounds kill; each wound costs {d.actions_lost_per_wound} "
            f"action. Successor: {d.successor_actions} action after {d.successor_delay_turns} "
            f"turn. Unattached leader contacted by enemy: {d.unattached_contacted}."
        ),
        ctx.note(d.note),
    )


def _movement(t: Tables, ctx: Ctx) -> list[Flowable]:
    m, f, r = t.movement, t.fatigue, t.rough_terrain
    moves: list[list[Cell]] = [["Class", "March", "Dice move"]]
    moves += [[c.name, _inch(c.march_move), _move_dice(c.dice)] for c in m.classes.values()]
    fat: list[list[Cell]] = [["Formed troops", "DP on die"]]
    fat += [[x.label, faces(x.on_results) if x.dps else "none"] for x in f.rules.values()]
    rough: list[list[Cell]] = [["Troops", "Rough", "Light cover"]]
    rough += [
        [x.label, "impassable" if x.dps is None else f"{x.dps} DP", f"{x.light_cover_dps} DP"]
        for x in r.rows.values()
    ]
    return [
        *ctx.section(
            m.title,
            ctx.table(moves, (0.3, 0.17, 0.53), center_from=1),
            ctx.text(
                f"Stop {_inch(m.stop_from_enemy)} from enemy to the front; march only beyond "
                f"{_inch(m.march_beyond)} of enemy; may halt {_inch(m.may_halt_short_of)} short "
                f"of friends or rough ground. Evade, rout, retire and pursue use all dice; first "
                f"rout and retire moves +{_inch(m.bonus_per_die)} per die."
            ),
            ctx.note(m.note),
        ),
        *ctx.section(f.title, ctx.table(fat, (0.72, 0.28), center_from=1), ctx.note(f.note)),
        *ctx.section(
            r.title,
            ctx.table(rough, (0.5, 0.25, 0.25), center_from=1),
            ctx.text(", ".join(r.examples), bold="Rough:"),
            ctx.text(", ".join(r.light_examples), bold="Light cover:"),
        ),
    ]


def _manoeuvres(t: Tables, ctx: Ctx) -> list[Flowable]:
    m, rd, ra = t.manoeuvres, t.redress, t.rally
    rows: list[list[Cell]] = [["Manoeuvre", "Cost", "DPs"]]
    for item in m.items.values():
        dp = f"{item.dps} for {item.dps_for}" if item.dps and item.dps_for else str(item.dps)
        rows.append([item.name, item.cost, dp])
    red: list[list[Cell]] = [["Grade", "DPs removed", f"Extra beyond {_inch(rd.enemy_distance)}"]]
    red += [
        [", ".join(x.grades), str(x.removed), str(x.extra_beyond_enemy)] for x in rd.rows.values()
    ]
    return [
        *ctx.section(
            m.title,
            ctx.table(rows, (0.25, 0.27, 0.48), center_from=3),
            ctx.note(m.note),
        ),
        *ctx.section(rd.title, ctx.table(red, (0.3, 0.3, 0.4)), ctx.note(rd.note)),
        *ctx.section(
            ra.title,
            ctx.text(
                f"Halted all turn beyond {_inch(ra.halted_beyond)} of unbroken enemy: rallies "
                f"with {ra.dps_after} DPs. A leader's steady removes {ra.leader_steady_removes}."
            ),
        ),
    ]


def _shooting(t: Tables, ctx: Ctx) -> list[Flowable]:
    s = t.shooting
    mods = "; ".join(f"{m.label} {_dice(m)}" for m in s.modifiers.values())
    return ctx.section(
        s.title,
        ctx.facts(
            [
                ("Range", _inch(s.range)),
                ("Dice", f"{s.dice_per_base} {s.die.upper()} per base (at least {s.min_dice})"),
                ("Hits", f"{faces(s.hit_on)}: {s.dps_per_hit} DP each"),
                ("Halve (round " + s.halve_rounding + ")", "; ".join(s.halve_against)),
                ("Dice modifiers", mods),
            ],
            split=0.3,
        ),
        ctx.text("; ".join(s.skirmish_options), bold="Skirmish phase options:"),
        ctx.note(s.note),
    )


def _charges(t: Tables, ctx: Ctx) -> list[Flowable]:
    c = t.charges
    rows: list[list[Cell]] = [["Troops", "May charge"]]
    rows += [[r.troops, ", ".join(_TARGETS[x] for x in r.targets)] for r in c.restrictions.values()]
    responses = "; ".join(f"{r.troops}: {' or '.join(r.responses)}" for r in c.responses.values())
    fh = c.free_hack
    return ctx.section(
        c.title,
        ctx.table(rows, (0.35, 0.65), center_from=2),
        ctx.text(responses, bold="Responses:"),
        ctx.text("; ".join(c.barred), bold="May not charge:"),
        ctx.text(
            f"{fh.dice_per_engaged_base} {fh.die.upper()} per engaged base, a casualty on "
            f"{fh.casualty_on_at_least}+.",
            bold="Free hack:",
        ),
        ctx.text(
            f"{c.elephant_open_ranks_die.upper()}: {faces(c.elephant_open_ranks_pass_on)} passes "
            f"to the rear, {faces(c.elephant_open_ranks_contact_on)} contacts. Light troops "
            f"charged by elephants: {c.light_charged_by_elephant_dps} DP.",
            bold="Elephants against open ranks:",
        ),
        ctx.note(c.note),
    )


def _combat(t: Tables, ctx: Ctx) -> list[Flowable]:
    d, f, h = t.combat_dice, t.combat_factors, t.hit_numbers
    rows: list[list[Cell]] = [["Factor", "Dice"]]
    for x in f.factors.values():
        label = x.label + (f" (not {'; '.join(x.exceptions)})" if x.exceptions else "")
        rows.append([label, _dice(x)])
    hard = "; ".join(
        x.label + (f" (except {x.exception})" if x.exception else "")
        for x in h.hard_situations.values()
    )
    sup, mc = t.support, t.multiple_combat
    return [
        *ctx.section(
            d.title,
            ctx.text(
                f"{d.per_base} {d.die.upper()} per engaged base ({d.per_elephant} per elephant), "
                f"at most {d.max_base_dice} base dice, +{d.overlap_per_flank} overlapping base "
                f"per flank, half a quincunx legion's second line; always at least "
                f"{d.min_dice} die."
            ),
            ctx.note(d.note),
        ),
        *ctx.section(f.title, ctx.table(rows, (0.74, 0.26)), ctx.note(f.note)),
        *ctx.section(
            h.title,
            ctx.facts(
                [
                    ("Hit on", f"{faces(h.normal_hit_on)} ({faces(h.hard_hit_on)} if hard)"),
                    ("Hard when", hard),
                    ("Attached leader", f"+{h.leader_automatic_hits} automatic hit"),
                    ("Ground advantage", h.advantage_of_ground),
                ],
                split=0.28,
            ),
        ),
        *ctx.section(
            sup.title,
            ctx.text(
                f"An unengaged, unshaken unit of the same kind directly behind, within "
                f"{_inch(sup.max_gap)}, with at least {sup.min_fraction_of_stands:.0%} as many "
                f"stands"
                + (
                    "; a quincunx legion's third line also supports."
                    if sup.legion_third_line_supports
                    else "."
                )
            ),
            ctx.note(sup.note),
        ),
        *ctx.section(
            mc.title,
            ctx.text(
                "Grade: average of the engaged bases, rounded up; DPs: the engaged unit with the "
                "most"
                + (" (supports ignored)" if mc.supporting_dps_ignored else "")
                + "; other factors: the unit with the most engaged bases."
            ),
        ),
    ]


def _results(t: Tables, ctx: Ctx) -> list[Flowable]:
    r, a = t.combat_results, t.after_combat_moves
    names = {k: m.name.lower() for k, m in a.moves.items()}
    rows: list[list[Cell]] = [["Result", "Losses and after-combat moves"]]
    for b in r.bands.values():
        loss = f"{b.dps} DP" + (f", {b.casualties} casualty" if b.casualties else "")
        if b.rout_if:
            loss += f"; rout if {' or '.join(b.rout_if)}"
        lines = [f"<b>{esc(loss)}</b>"]
        for m in b.moves:
            what = (" or " if m.choice else ", else ").join(names[x] for x in m.moves)
            if m.elephant_critical:
                what = (what + "; " if what else "") + "critical-hit tests"
            if m.extra_dps_inflicted:
                what += f" (+{m.extra_dps_inflicted} DP to {m.extra_dps_to})"
            lines.append(f"{esc(m.situation)}: {esc(what)}")
        name = f"<b>{esc(b.name)}</b><br/>{esc(band(b.min_diff, b.max_diff))}"
        rows.append([para(name, ctx.st.cell), para("<br/>".join(lines), ctx.st.cell)])
    moves: list[list[Cell]] = [["Move", "What it does"]]
    moves += [[m.name, ctx.brief(m.summary)] for m in a.moves.values()]
    return [
        *ctx.section(
            r.title,
            ctx.table(rows, (0.25, 0.75), center_from=2),
            ctx.text(r.move_order),
            ctx.note(r.note),
        ),
        *ctx.section(a.title, ctx.table(moves, (0.25, 0.75), center_from=2), ctx.note(a.note)),
    ]


def _dps(t: Tables, ctx: Ctx) -> list[Flowable]:
    m, lim = t.morale_dps, t.dp_limits
    rows: list[list[Cell]] = [["Event", "DPs", "Within"]]
    for x in m.triggers.values():
        dps = str(x.dps) if x.dps_general is None else f"{x.dps} (General {x.dps_general})"
        rows.append([x.event, dps, _inch(x.within) if x.within else x.who])
    legion = ", ".join(
        f"{x.lines} line{'s' if x.lines > 1 else ''}: {x.shaken_at}" for x in lim.legion_quincunx
    )
    return [
        *ctx.section(m.title, ctx.table(rows, (0.55, 0.2, 0.25)), ctx.note(m.note)),
        *ctx.section(
            lim.title,
            ctx.facts(
                [
                    ("Shaken at", f"{lim.shaken_at} DPs"),
                    ("Legion in quincunx", legion),
                    ("No fatigue/manoeuvre DPs", f"past {lim.fatigue_manoeuvre_cap} DPs"),
                    (
                        "Shaken unit",
                        f"loses {lim.shaken_casualty_per_dp} base per further DP from "
                        + ", ".join(lim.shaken_casualty_from),
                    ),
                ],
                split=0.4,
            ),
            ctx.note(lim.note),
        ),
    ]


def _elephants(t: Tables, ctx: Ctx) -> list[Flowable]:
    c, r, s = t.elephant_critical, t.rampage, t.stop_rampage
    outcomes = "; ".join(f"{band(o.low, o.high)} {o.label.lower()}" for o in c.outcomes)
    dirs = grid_rows([f"{d.roll}: {d.direction} ({d.bearing_degrees}°)" for d in r.directions], 2)
    moves = " + ".join("AvD" if m == "avd" else m.upper() for m in r.move_dice)
    return [
        *ctx.section(
            c.title,
            ctx.text(
                f"{c.die.upper()} per DP: critical on {faces(c.critical_on)}; then "
                f"{c.outcome_die.upper()}: {outcomes}."
            ),
            ctx.note(c.note),
        ),
        *ctx.section(
            r.title,
            ctx.text(f"Roll {r.direction_die.upper()} for the direction:"),
            ctx.table(dirs, (1, 1), header_rows=0, center_from=2),
            ctx.text(
                f"Move {moves}; formed troops burst through take {r.burst_through_dps_formed} "
                f"DPs, unformed {r.burst_through_dps_unformed}."
            ),
            ctx.note(r.note),
        ),
        *ctx.section(
            s.title,
            ctx.text(
                f"{s.die.upper()}: destroyed on {s.destroyed_on_at_least}+, "
                f"+{s.bonus_per_turn_after_first} per turn of rampage after the first."
            ),
        ),
    ]


def _organisation(t: Tables, ctx: Ctx) -> list[Flowable]:
    u, lg, fm = t.unit_sizes, t.legion, t.formations
    lines = ", ".join(
        f"{x.name} {x.bases}"
        + (f" (or {x.alternative_bases} understrength)" if x.alternative_bases else "")
        for x in lg.lines
    )
    forms = [
        para(f"<b>{esc(x.name)}</b> ({esc(x.who)}): {esc(x.summary)}", ctx.st.body)
        for x in fm.items.values()
    ]
    return [
        *ctx.section(
            u.title,
            ctx.text(
                f"{u.min_bases}-{u.max_bases} bases; elephants {u.elephant_bases}; legion "
                f"{u.legion_bases} ({lines}); {u.understrength_per_base} understrength bases "
                f"= 1. Lines up to {_inch(lg.line_gap_max)} apart."
            ),
            ctx.note(lg.note),
        ),
        *ctx.section(fm.title, forms, ctx.note(fm.note)),
    ]


def story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    t = lv.tables(rs)
    return [
        *_sequence(t, ctx),
        *_command(t, ctx),
        *_movement(t, ctx),
        *_manoeuvres(t, ctx),
        *_shooting(t, ctx),
        *_charges(t, ctx),
        *_combat(t, ctx),
        *_results(t, ctx),
        *_dps(t, ctx),
        *_elephants(t, ctx),
        *_organisation(t, ctx),
        *leaders_section(rs, ctx, risk=False),
        *_die_of_death(t, ctx),
    ]


# --------------------------------------------------------------------------- card face


def shaken_at(rs: Ruleset, entry: ArmyEntry, unit: Unit) -> int:
    """DPs at which ``unit`` is shaken as it starts a battle, asked of the rules themselves
    (:attr:`~app.rulesets.leg_vi.units.LegUnit.shaken_at`, Leg VI, Shaken: 5; a legion in
    quincunx one more for each line beyond the first) with the starting state the ruleset's
    mechanics give it, so the card and the battle agree."""
    status = mechanics_for(rs).initial_status(entry.troop, unit.size, unit.grade)
    card = Combatant(unit.id, unit.name, entry.troop, 0, status)
    return leg_unit(card, lv.troops(rs), lv.tables(rs)).shaken_at


def face(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = lv.tables(rs)
    assert isinstance(troop, lv.Troop)
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
