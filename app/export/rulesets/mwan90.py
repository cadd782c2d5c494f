"""MWAN #90 Punic rules quick-reference body: every table of ``tables.toml``. The morale table
is cut off in the source: the sheet says so and leaves ruled rows to fill in by hand."""

from __future__ import annotations

import re

from reportlab.lib.units import mm
from reportlab.platypus.flowables import Flowable, Spacer

from app.core.roster import Roster, Unit
from app.export.card_draw import Mark, Track, track_block
from app.export.card_faces import Face, category, weapons
from app.export.common import WARN_25, Cell, esc, fmt_num, para
from app.export.refsheet import Ctx, leaders_section, yes_no
from app.rules.ruleset import Ruleset
from app.rules.schema import TroopBase
from app.rulesets.mwan90 import schema as mw

BLANK_MORALE_ROWS = 5


def _inch(value: float) -> str:
    return f'{fmt_num(value)}"'


def _sequence(rs: Ruleset, t: mw.Tables, ctx: Ctx) -> list[Flowable]:
    s, i = t.sequence, t.initiative
    steps = [para(f"<b>{esc(st.label)}</b>: {esc(st.detail)}", ctx.st.body) for st in s.steps]
    later = "the side that lost the previous initiative wins"
    return [
        *ctx.section("Turn sequence", ctx.note(rs.turn.summary), steps, ctx.note(s.note)),
        *ctx.section(
            i.title,
            ctx.text(
                f"Each side rolls {i.die}; the higher chooses to move first or second. Ties: "
                f"{'re-roll' if i.first_turn_tie == 'reroll' else i.first_turn_tie} on the "
                f"first turn; afterwards {later}."
            ),
            ctx.note(i.note),
        ),
    ]


def _movement(t: mw.Tables, ctx: Ctx) -> list[Flowable]:
    m = t.movement
    rows: list[list[Cell]] = [["Troops", "Move", "Wheel", "About face"]]
    for r in m.rows.values():
        move = _inch(r.move) + ("" if r.move_stated else "*")
        if r.forward_only:
            wheel = f"to {r.max_wheel_deg}°, not while moving" if not r.wheel_with_move else ""
            wheel = wheel or f"to {r.max_wheel_deg}°"
        elif r.max_wheel_deg is None:
            wheel = "free"
        else:
            wheel = f"to {r.max_wheel_deg}°"
        rows.append([r.label, move, wheel, yes_no(r.about_face)])
    return ctx.section(
        m.title,
        ctx.table(rows, (0.4, 0.14, 0.28, 0.18)),
        ctx.text(
            "* not stated in the source: our reading (see errata). Units in contact are "
            "pinned" + (" and do not move." if m.pinned_in_melee else ".")
        ),
        ctx.note(m.note),
    )


def _missiles(t: mw.Tables, ctx: Ctx) -> list[Flowable]:
    m, d = t.missiles, t.dispersal
    ranges: list[list[Cell]] = [["Weapon", "Range"]]
    ranges += [[w.title(), _inch(r)] for w, r in m.ranges.items()]
    pj = m.pre_melee_javelins
    return [
        *ctx.section(
            m.title,
            ctx.table(ranges, (0.6, 0.4)),
            ctx.text(
                f"{m.dice_per_figure} die per figure with a clear shot; hit on {m.hit_on}. "
                "Simultaneous; no shooting at units in melee. Formed javelin troops: "
                f"{pj.ranks} rank, {pj.dice_per_figure} die per figure, just before the first "
                "round of melee."
            ),
            ctx.note(m.note),
        ),
        *ctx.section(
            d.title,
            ctx.text(
                f"Formed troops move on through skirmishers; each skirmisher passed through gets "
                f"{d.shots_per_skirmisher} shot (hit on {d.hit_on}) and is removed. Skirmishers "
                "may not charge formed troops."
            ),
            ctx.note(d.note),
        ),
    ]


def _flank_rear(fr: mw.FlankRear) -> str:
    """MWAN #90, Melee 3, as this ruleset reads it (errata flank-rear-triple)."""
    target = " / ".join(fr.only_if_attacked)
    if fr.multiplied_side == "attacker":
        text = f"against a {target} unit, the attacker's dice x{fr.multiplier}"
        other = "its own dice"
    else:
        text = f"a {target} unit attacked rolls its own dice x{fr.multiplier} (as written)"
        other = "the attacker's dice"
    text += "; the attacked unit is disordered" if fr.attacked_disordered else ""
    return f"{text} (option: {other} instead)"


def _melee(t: mw.Tables, ctx: Ctx) -> list[Flowable]:
    m, h, f = t.melee, t.hits, t.formations
    hits: list[list[Cell]] = [["Target", "Hit on"]]
    hits += [[r.label, f"{r.hit_on}+" if r.hit_on < 6 else "6"] for r in h.rows.values()]
    fr = m.flank_rear
    return [
        *ctx.section(
            m.title,
            ctx.facts(
                [
                    ("Order", ", then ".join(x.replace("_", "/") for x in m.order)),
                    ("Dice", f"{m.dice_per_figure} per figure in contact (2 ranks)"),
                    ("Supporting MI", f"adds {m.support_mi_ranks} ranks of figures"),
                    ("Overlap", f"{m.overlap_figures_per_flank} figure per flank"),
                    ("Flank or rear", _flank_rear(fr)),
                    ("Losses", f"{m.figures_lost_per_hit} figure per hit"),
                    ("Winner", f"{_inch(m.post_melee_bonus_move)} bonus move, may charge"),
                ],
                split=0.3,
            ),
            ctx.note(m.note),
        ),
        *ctx.section(h.title, ctx.table(hits, (0.7, 0.3)), ctx.note(h.note)),
        *ctx.section(
            f.title,
            ctx.text(f.shield_wall.label),
            ctx.text(f.wedge.label),
            ctx.note(f.note),
        ),
    ]


def _morale(t: mw.Tables, ctx: Ctx) -> list[Flowable]:
    m = t.morale
    rows: list[list[Cell]] = [["Unit in", f"{m.die or 'Die'}", "Result"]]
    rows += [[r.unit_in, f"{r.rolls[0]}-{r.rolls[1]}", r.result] for r in m.rows]
    if not m.complete:
        rows += [[Spacer(1, 4 * mm), "", ""] for _ in range(BLANK_MORALE_ROWS)]
    warning = (
        []
        if m.complete
        else ctx.text(
            f'The source breaks off at "{m.source_breaks_off_at}"; Castra invents no results. '
            "Agree your own before the game and write them in:",
            bold="INCOMPLETE IN SOURCE.",
        )
    )
    return ctx.section(
        m.title,
        ctx.text(
            f"Formed units down to {m.rout_at_figures} figures (elephants "
            f"{m.rout_at_elephants}) rout and are removed; the rout path runs {m.rout_path}. "
            f"Friendly formed units within {_inch(m.check_within)} of the path check morale "
            f"({m.routing_elephants_modifier:+d} if the routers are elephants)."
        ),
        warning,
        ctx.table(rows, (0.4, 0.15, 0.45)),
        ctx.note(m.note),
    )


def story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    t = mw.tables(rs)
    return [
        *_sequence(rs, t, ctx),
        *_movement(t, ctx),
        *_missiles(t, ctx),
        *_melee(t, ctx),
        *_morale(t, ctx),
        *leaders_section(rs, ctx),
    ]


# --------------------------------------------------------------------------- card face


def face(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    t = mw.tables(rs)
    assert isinstance(troop, mw.Troop)
    mv = t.movement.rows[troop.move_class]
    hit = t.hits.rows[troop.hit_class]
    hit_class = re.sub(r"\s*\([^)]*\)", "", hit.label).lower()
    stats = [
        ("Move", f'{fmt_num(mv.move)}" ({mv.label.lower()})'),
        ("Melee", f"{troop.dice_per_figure} die per figure, {troop.ranks} ranks"),
        ("Hit on", f"{hit.hit_on}+ (as {hit_class})"),
        ("Missiles", weapons(troop) + (f", hit on {t.missiles.hit_on}" if troop.weapons else "")),
    ]
    threshold = mw.rout_threshold(t, troop)
    marks: dict[int, Mark] = {}
    if threshold is not None and unit.size > threshold:
        marks[unit.size - threshold] = Mark(WARN_25, "R", f"routs at {threshold} left")
    track = Track("Figures (tick one per figure lost)", unit.size, marks=marks)
    return Face(
        f"{troop.name} · {category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )
