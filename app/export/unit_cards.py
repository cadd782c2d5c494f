"""Unit cards and leader cards for a roster (63 x 88 mm, nine to a page, cut marks).

Each of ``count`` identical units gets its own card ("2 of 5"); each leader gets a card with
wound boxes and the ruleset's wound effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from app.core.capabilities import declared_fields, extra_actions
from app.core.roster import Leader, Roster, Unit
from app.export import generic_parts
from app.export.card_draw import Block, band, lines_block
from app.export.card_faces import Face, FaceFn, size_line
from app.export.cardsheet import CARD_SIZE, Painter, Progress, write_cards
from app.export.common import GUIDE, INK, MUTED, Target, Written, author_of, fit_text
from app.export.fonts import COND, COND_BOLD, SANS_BOLD, register_fonts
from app.export.rulesets import module_for
from app.rules.engine import Engine
from app.rules.ruleset import Ruleset
from app.rules.schema import Category

PAD = 7.0
HEAD_H = 31.0
RULE_PT = 6.8
RULE_SIZES = (6.8, 6.3, 5.8)
FOOT_PT = 5.0

CATEGORY_COLOURS: dict[Category, Color] = {
    Category.HEAVY_INFANTRY: HexColor("#8B1E1E"),
    Category.MEDIUM_INFANTRY: HexColor("#A0522D"),
    Category.LIGHT_INFANTRY: HexColor("#4F7942"),
    Category.HEAVY_CAVALRY: HexColor("#1F3A68"),
    Category.MEDIUM_CAVALRY: HexColor("#3C6E9F"),
    Category.LIGHT_CAVALRY: HexColor("#4A7FA8"),
    Category.ELEPHANT: HexColor("#505050"),
    Category.ARTILLERY: HexColor("#6B4E16"),
}
LEADER_COLOUR = HexColor("#8A6A12")
UNKNOWN_COLOUR = HexColor("#707070")


def title_lines(name: str, width: float) -> tuple[str, float, list[str]]:
    """A card's title in ``width`` points, shrunk or wrapped rather than cut: one line of
    bold sans from 10 down to 7 pt, else two lines of bold condensed from 8 down to 6 pt;
    only a title too long even for that (over about 70 characters) ends with an ellipsis.
    Returns (font, size, lines)."""
    size = 10.0
    while size >= 7:
        if stringWidth(name, SANS_BOLD, size) <= width:
            return SANS_BOLD, size, [name]
        size -= 0.5
    for size in (8.0, 7.5, 7.0, 6.5, 6.0):
        lines = simpleSplit(name, COND_BOLD, size, width)
        if len(lines) <= 2 and all(stringWidth(ln, COND_BOLD, size) <= width for ln in lines):
            return COND_BOLD, size, lines
    lines = simpleSplit(name, COND_BOLD, 6.0, width)
    rest = " ".join(lines[1:])
    return COND_BOLD, 6.0, [lines[0], fit_text(rest, COND_BOLD, 6.0, width)]


def _header(
    canv: Canvas, w: float, h: float, colour: Color, name: str, sub: str, corner: str
) -> float:
    """The coloured band with the name and the troop line; returns the y below it."""
    band(canv, 0, h - HEAD_H, w, HEAD_H, colour)
    inner = w - 2 * PAD
    corner_w = stringWidth(corner, COND_BOLD, 6.5) + 4 if corner else 0
    canv.setFillColor(white)
    font, size, lines = title_lines(name, inner - corner_w)
    canv.setFont(font, size)
    sub_y = h - HEAD_H + 6
    if len(lines) == 1:
        canv.drawString(PAD, h - 14, lines[0])
    else:
        # two lines from just under the band's top (their capitals 0.73 of the size), and
        # the troop line a little lower: a second line's descenders ran into the troop line
        # ("javelinmen)" over "Light infantry · light infantry")
        for i, line in enumerate(lines):
            canv.drawString(PAD, h - 3 - 0.73 * size - i * (size + 0.6), line)
        sub_y = h - HEAD_H + 5
    canv.setFont(COND, 6.5)
    canv.drawString(PAD, sub_y, fit_text(sub, COND, 6.5, inner))
    if corner:
        canv.setFont(COND_BOLD, 6.5)
        canv.drawRightString(w - PAD, h - 12, corner)
    return h - HEAD_H


def _outline(canv: Canvas, w: float, h: float) -> None:
    canv.setStrokeColor(GUIDE)
    canv.setLineWidth(0.3)
    canv.rect(0, 0, w, h, stroke=1, fill=0)


def _footer(canv: Canvas, w: float, text: str) -> None:
    canv.setFillColor(MUTED)
    canv.setFont(COND, FOOT_PT)
    canv.drawString(PAD, 4.5, fit_text(text, COND, FOOT_PT, w - 2 * PAD))


def _rules(
    canv: Canvas, x: float, y_top: float, width: float, bottom: float, rules: Sequence[str]
) -> None:
    """Bulleted special rules in the room left: the type shrinks a little to fit, and what
    still overflows is cut with an ellipsis."""
    size, lines = RULE_SIZES[0], []
    for size in RULE_SIZES:
        lines = [
            (line, i == 0)
            for rule in rules
            for i, line in enumerate(simpleSplit(rule, COND, size, width - 6))
        ]
        if len(lines) * (size + 1.3) <= y_top - bottom:
            break
    lead = size + 1.3
    room = int((y_top - bottom) // lead)
    if room <= 0:
        return
    if len(lines) > room:
        lines = lines[:room]
        last, first = lines[-1]
        lines[-1] = (fit_text(last + " …", COND, size, width - 6), first)
    canv.setFillColor(INK)
    canv.setFont(COND, size)
    y = y_top - size
    for line, first in lines:
        if first:
            canv.drawString(x, y, "•")
        canv.drawString(x + 6, y, line)
        y -= lead


def _body(canv: Canvas, w: float, y: float, blocks: Sequence[Block]) -> float:
    inner = w - 2 * PAD
    for block in blocks:
        y -= 3
        block.draw(canv, PAD, y, inner)
        y -= block.height
    return y


def unit_painter(rs: Ruleset, roster: Roster, unit: Unit, n: int, face: Face, size: str) -> Painter:
    """Draw one card of ``unit`` (the ``n``-th of its ``count``)."""
    entry = rs.army(roster.army).entries.get(unit.entry) if roster.army in rs.armies else None
    troop = rs.troops.get(entry.troop) if entry is not None else None
    colour = CATEGORY_COLOURS.get(troop.category, UNKNOWN_COLOUR) if troop else UNKNOWN_COLOUR
    leader = next((ld for ld in roster.leaders if ld.id == unit.leader), None)
    command = next((c for c in roster.commands if c.id == unit.command), None)
    corner = f"{n} of {unit.count}" if unit.count > 1 else ""
    footer = f"{rs.meta.short_name} · {roster.name} · Castra"

    def paint(canv: Canvas, w: float, h: float) -> None:
        _outline(canv, w, h)
        y = _header(canv, w, h, colour, unit.name, face.troop_line, corner)
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, 7.5)
        y -= 11
        canv.drawString(PAD, y, fit_text(size, COND_BOLD, 7.5, w - 2 * PAD))
        y = _body(canv, w, y - 1, [lines_block(face.stats, w - 2 * PAD), *face.blocks])
        bottom = 12.0
        tail: list[str] = []
        if leader is not None:
            tail.append(f"Leader: {_leader_label(rs, leader)}")
        if command is not None:
            tail.append(f"Command: {command.name}")
        for text in reversed(tail):
            canv.setFillColor(INK)
            canv.setFont(COND_BOLD, 7)
            canv.drawString(PAD, bottom, fit_text(text, COND_BOLD, 7, w - 2 * PAD))
            bottom += 9
        _rules(canv, PAD, y - 4, w - 2 * PAD, bottom + 2, face.rules)
        _footer(canv, w, footer)

    return paint


def _title_fields(rs: Ruleset, leader: Leader) -> list[tuple[str, str]]:
    """The fields a card shows in the leader's title and as its first stats (a Quincunx
    bonus: his own or the rules'), as (label, value)."""
    out = []
    for f in declared_fields(rs):
        value = f.value(rs, leader.name, leader.fields) if f.card == "title" else None
        if value is not None:
            out.append((f.label, f.shown(value)))
    return out


def _leader_label(rs: Ruleset, leader: Leader) -> str:
    parts = [leader.name, leader.rank]
    parts += [value for _, value in _title_fields(rs, leader)]
    if leader.status.value != "fit":
        parts.append(leader.status.value)
    return f"{parts[0]} ({', '.join(parts[1:])})"


def _wound_block(rs: Ruleset, leader: Leader, width: float) -> Block:
    """A box per wound the ruleset describes, each beside its effect; wounds the leader
    already carries (campaign) are crossed."""
    effects = [w for w in rs.leaders.wound_effects if w.wounds > 0]
    size, lead = 8.0, RULE_PT + 1.3
    rows = [simpleSplit(e.effect, COND, RULE_PT, width - size - 4) for e in effects]
    height = 9 + sum(max(size + 2, len(r) * lead + 2) for r in rows)

    def draw(canv: Canvas, x: float, y_top: float, w: float) -> None:
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, 6.5)
        canv.drawString(x, y_top - 6.5, "Wounds")
        y = y_top - 9
        for effect, lines in zip(effects, rows, strict=True):
            canv.setStrokeColor(INK)
            canv.setLineWidth(0.6)
            canv.rect(x, y - size, size, size, stroke=1, fill=0)
            if effect.wounds <= leader.wounds:
                canv.line(x + 1.2, y - size + 1.2, x + size - 1.2, y - 1.2)
                canv.line(x + 1.2, y - 1.2, x + size - 1.2, y - size + 1.2)
            canv.setFillColor(INK)
            canv.setFont(COND, RULE_PT)
            for i, line in enumerate(lines):
                canv.drawString(x + size + 4, y - RULE_PT - i * lead + 0.5, line)
            y -= max(size + 2, len(lines) * lead + 2)

    return Block(height, draw)


def leader_painter(rs: Ruleset, roster: Roster, leader: Leader) -> Painter:
    ld = rs.leaders
    unit = next((u for u in roster.units if u.leader == leader.id), None)
    command = next((c for c in roster.commands if c.leader == leader.id), None)
    stats: list[tuple[str, str]] = []
    stats += _title_fields(rs, leader)
    if ld.move is not None:
        stats.append(("Move", f'{ld.move:g}"'))
    if ld.command_range is not None:
        stats.append(
            (
                "Command",
                f'{ld.command_range:g}"'
                + (f' (chain {ld.command_chain:g}")' if ld.command_chain else ""),
            )
        )
    actions = ld.actions_general if leader.rank == "general" else ld.actions_commander
    if actions is not None:
        stats.append(("Actions", str(actions + extra_actions(rs, leader))))
    for f in declared_fields(rs):
        own = f.get(leader.fields)
        if f.card == "stat" and own is not None:
            stats.append((f.label, f.shown(own)))
    if unit is not None:
        stats.append(("With", unit.name))
    if command is not None:
        stats.append(("Leads", command.name))
    stats.append(
        ("Status", leader.status.value + (f", {leader.wounds} wound(s)" if leader.wounds else ""))
    )
    rules = [r for r in (ld.risk, ld.summary) if r]
    sub = f"{leader.rank.title()} · {rs.meta.short_name}"
    footer = f"{rs.meta.short_name} · {roster.name} · Castra"

    def paint(canv: Canvas, w: float, h: float) -> None:
        _outline(canv, w, h)
        y = _header(canv, w, h, LEADER_COLOUR, leader.name, sub, "LEADER")
        blocks: list[Block] = [lines_block(stats, w - 2 * PAD)]
        if ld.wound_effects:
            blocks.append(_wound_block(rs, leader, w - 2 * PAD))
        y = _body(canv, w, y - 2, blocks)
        _rules(canv, PAD, y - 4, w - 2 * PAD, 12, rules)
        _footer(canv, w, footer)

    return paint


def _face_of(engine: Engine) -> FaceFn:
    """The engine's own card face, or the generic one made from its data."""
    face: FaceFn | None = getattr(module_for(engine), "face", None)
    if face is None:
        face = generic_parts.face
    return face


def unit_face(rs: Ruleset, roster: Roster, unit: Unit, width: float) -> Face:
    """The ruleset's card face for ``unit``; an entry the data no longer has gets a plain
    face with its size only (kept, never dropped)."""
    entry = rs.army(roster.army).entries.get(unit.entry) if roster.army in rs.armies else None
    troop = rs.troops.get(entry.troop) if entry is not None else None
    if entry is None or troop is None:
        return Face(f"{unit.entry} (not in the current army list)", [("Size", str(unit.size))])
    return _face_of(rs.engine)(rs, roster, unit, troop, width)


def card_painters(rs: Ruleset, roster: Roster, *, leaders: bool = True) -> list[Painter]:
    """One painter per card: each unit ``count`` times, then each leader."""
    register_fonts()  # the faces measure text before any document exists
    width = CARD_SIZE[0] - 2 * PAD
    out: list[Painter] = []
    for unit in roster.units:
        face = unit_face(rs, roster, unit, width)
        if unit.notes:
            face = replace(face, rules=[*face.rules, f"Note: {unit.notes}"])
        size = size_line(rs, roster, unit)
        out.extend(unit_painter(rs, roster, unit, n, face, size) for n in range(1, unit.count + 1))
    if leaders:
        out.extend(leader_painter(rs, roster, ld) for ld in roster.leaders)
    return out


def write_unit_cards(
    rs: Ruleset,
    roster: Roster,
    target: Target,
    *,
    page_size: str = "a4",
    invariant: bool = False,
    leaders: bool = True,
    progress: Progress | None = None,
) -> Written:
    """Unit cards (and leader cards) of ``roster``: 63 x 88 mm, nine to an A4 or Letter page,
    with cut marks. ``progress`` hears of the cards drawn and may raise to stop the job
    (nothing is written then)."""
    return write_cards(
        target,
        card_painters(rs, roster, leaders=leaders),
        page_size=page_size,
        title=f"{roster.name}: unit cards",
        author=rs.credit,
        label=f"{rs.meta.short_name} ({author_of(rs.meta.author, rs.meta.author_note)})"
        f" · Castra · {roster.name}",
        invariant=invariant,
        progress=progress,
    )


def card_count(roster: Roster, *, leaders: bool = True) -> int:
    """How many cards ``write_unit_cards`` draws: one per unit of every line, one per leader."""
    return sum(u.count for u in roster.units) + (len(roster.leaders) if leaders else 0)
