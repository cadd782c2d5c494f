"""D3 Ancient Rules printed parts: the quick-reference body (the troop profiles and every
table of ``tables.toml``, including the chance-card deck and its substitutions), the unit
card face, and the chance-card deck of one side, card-sized with cut marks: the base deck
with the army, commander-quality and supply substitutions applied (D3 Chance Cards), one
card per card in the deck (the document :data:`app.rulesets.d3.CHANCE_CARDS`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.flowables import Flowable, KeepTogether

from app.core.roster import Roster, Unit
from app.export.card_draw import Mark, Track, band, track_block
from app.export.card_faces import Face, category
from app.export.cardsheet import Painter, render_cards
from app.export.common import (
    GUIDE,
    INK,
    MUTED,
    WARN_25,
    Cell,
    Target,
    Written,
    author_of,
    data_table,
    esc,
    fit_text,
    fmt_num,
    para,
    write_bytes,
)
from app.export.documents import Maker, resolve_side
from app.export.fonts import COND, COND_BOLD, SANS, SANS_BOLD, register_fonts
from app.export.refsheet import Ctx, leaders_section, turn_section
from app.rules.documents import OptionValue
from app.rules.ruleset import Ruleset
from app.rules.schema import TroopBase
from app.rulesets.d3 import CHANCE_CARDS
from app.rulesets.d3 import schema as d3

_HALVED = {"always": "½", "in_cover": "½ in cover", "never": "full"}


def _inch(value: float) -> str:
    return f'{fmt_num(value)}"'


def _dice(expr: str | None) -> str:
    return "-" if expr is None else expr.upper()


def _troops(rs: Ruleset, t: d3.Tables, ctx: Ctx) -> list[Flowable]:
    rows: list[list[Cell]] = [
        ["Troops", "Move", "Shoot", "Combat hits", "Hits taken: melee / shot"]
    ]
    for troop in rs.troops.values():
        if not isinstance(troop, d3.Troop):
            continue
        move = "pivot" if troop.pivot_only else _inch(troop.move)
        rng = max((w.long_range for w in troop.weapons), default=None)
        shoot = f"{_inch(rng)} {_dice(troop.shoot_hits)}" if troop.shoot_hits and rng else "-"
        combat = _dice(troop.combat_hits)
        if troop.combat_hits and troop.combat_ignores_halving:
            combat += " (never halved)"
        halved = "½" if troop.halved_in_combat else "full"
        rows.append([troop.name, move, shoot, combat, f"{halved} / {_HALVED[troop.shot_halved]}"])
    u, e = t.units, t.elimination
    return ctx.section(
        "Troops",
        ctx.table(rows, (0.29, 0.11, 0.17, 0.17, 0.26)),
        ctx.text(
            f"Units: {u.bases_per_unit} bases of {fmt_num(u.base_width)} x "
            f"{fmt_num(u.base_depth)} in ({fmt_num(u.unit_width)} x {fmt_num(u.unit_depth)} in). "
            f"Eliminated with more than {e.eliminated_above_hits} hits. Roads add "
            + _inch(max(tt.move_bonus for tt in t.terrain.types.values()))
            + " to a move made wholly along them."
        ),
        ctx.note(u.note),
    )


def _movement(t: d3.Tables, ctx: Ctx) -> list[Flowable]:
    m, c, s = t.movement, t.charges, t.shooting
    sides = ", ".join(x.replace("_", " ") for x in c.sides)
    return [
        *ctx.section(
            m.title,
            ctx.text(
                "Pivot at the start and end of a move. A unit that moved may not shoot and "
                "fights only if it charged into contact."
            ),
            ctx.note(m.note),
        ),
        *ctx.section(
            c.title,
            ctx.text(
                f"Straight ahead; at most {c.max_attackers_per_side} attacker on each side of "
                f"the target ({sides})."
            ),
            ctx.note(c.note),
        ),
        *ctx.section(
            s.title,
            ctx.text(
                f"Front arc only; never at a unit in combat. Halved hits round {s.halving_rounds}."
            ),
            ctx.note(s.note),
        ),
    ]


def _terrain(t: d3.Tables, ctx: Ctx) -> list[Flowable]:
    rows: list[list[Cell]] = [["Terrain", "Defender", "Effect"]]
    for tt in t.terrain.types.values():
        mod = f"{tt.defender_modifier:+d} hit" if tt.defender_modifier else "-"
        rows.append([tt.name, mod, ctx.brief(tt.effect)])
    return ctx.section(
        t.terrain.title,
        ctx.table(rows, (0.28, 0.19, 0.53), center_from=1),
        ctx.note(t.terrain.note),
    )


def _combat(t: d3.Tables, ctx: Ctx) -> list[Flowable]:
    c, b, a, cm = t.combat, t.berserk, t.army_resolve, t.commanders
    bonus: list[list[Cell]] = [["Attacking a flank or rear", "Hits"]]
    bonus += [[x.label, f"{x.bonus:+d}"] for x in c.flank_rear_bonus.values()]
    steps = {
        "dice": "roll the hit dice",
        "flank_rear": "add the flank/rear bonus",
        "terrain": "take off the defender's terrain",
        "halve_target": "halve against protected targets",
        "halve_broken_ground": "halve for heavy infantry into broken ground",
        "floor": f"never below {c.minimum_hits}",
    }
    berserk: list[list[Cell]] = [[b.dice.upper(), "Berserk elephants"]]
    berserk += [[str(r.roll), r.summary] for r in b.rows]
    return [
        *ctx.section(
            c.title,
            ctx.text(
                "Order: " + "; ".join(steps.get(s, s) for s in c.order) + f". Round "
                f"{c.halving_rounds}. Only the player whose turn it is scores hits."
            ),
            ctx.table(bonus, (0.8, 0.2)),
            ctx.note(c.note),
        ),
        *ctx.section(
            cm.title,
            ctx.text(
                f"His unit rolls {cm.combat_dice} dice and keeps the {cm.combat_keep}. If it is "
                f"eliminated, these cards stop working: "
                + ", ".join(
                    t.chance_cards.cards[k].name
                    for k in cm.cards_disabled_on_loss
                    if k in t.chance_cards.cards
                )
                + "."
            ),
            ctx.note(cm.note),
        ),
        *ctx.section(
            b.title,
            ctx.table(berserk, (0.12, 0.88), center_from=0),
            ctx.note(b.note),
        ),
        *ctx.section(
            a.title,
            ctx.text(
                f"Lost more than {a.lost_more_than_percent}% of its units: the army may no "
                "longer move towards the enemy."
            ),
        ),
    ]


def _cards(t: d3.Tables, ctx: Ctx) -> list[Flowable]:
    cc = t.chance_cards
    rows: list[list[Cell]] = [["Card", "Base deck", "Effect"]]
    rows += [[c.name, str(c.count), ctx.brief(c.effect)] for c in cc.cards.values()]
    swaps = [para("• " + esc(s.summary), ctx.st.body) for s in cc.substitutions]
    sides = sorted({s.value for s in cc.substitutions if s.condition == "army_side" and s.value})
    qualities = d3.QUALITIES
    decks = {
        (side, quality): d3.deck_for(t, side=side, commander_quality=quality)
        for side in sides
        for quality in qualities
    }
    # two header rows: the side over its three commander qualities
    top: list[Cell] = ["Card"]
    for side in sides:
        top += [side, *([""] * (len(qualities) - 1))]
    sub: list[Cell] = [""]
    sub += [para(esc(q), ctx.st.cell_center) for _ in sides for q in qualities]
    table: list[list[Cell]] = [top, sub]
    table += [
        [c.name, *(str(deck.get(cid, 0)) for deck in decks.values())]
        for cid, c in cc.cards.items()
        if c.count or any(cid in deck for deck in decks.values())
    ]
    n = len(decks)
    spans: list[tuple[object, ...]] = [("SPAN", (0, 0), (0, 1))]
    for i in range(len(sides)):
        first = 1 + i * len(qualities)
        spans.append(("SPAN", (first, 0), (first + len(qualities) - 1, 0)))
    deck_table = data_table(
        table,
        ctx.widths(0.21, *((0.79 / n,) * n)),
        st=ctx.st,
        header_rows=2,
        extra=[
            *spans,
            ("LEFTPADDING", (1, 0), (-1, -1), 0.5),
            ("RIGHTPADDING", (1, 0), (-1, -1), 0.5),
        ],
    )
    return ctx.section(
        cc.title,
        ctx.text(
            f"{cc.deck_size} cards per side; draw {cc.draw_per_turn} each turn and use it that "
            "turn."
        ),
        ctx.table(rows, (0.3, 0.14, 0.56), center_from=1),
        swaps,
        ctx.text("Each side's deck after the swaps (before supply problems):"),
        KeepTogether([deck_table]),
        ctx.note(cc.note),
    )


def story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    t = d3.tables(rs)
    return [
        *turn_section(rs, ctx),
        *_troops(rs, t, ctx),
        *_movement(t, ctx),
        *_terrain(t, ctx),
        *_combat(t, ctx),
        *_cards(t, ctx),
        *leaders_section(rs, ctx),
    ]


# --------------------------------------------------------------------------- card face


def face(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
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
        f"{troop.name} · {category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )


# ---------------------------------------------------------------- the chance-card deck

CARD_COLOURS: dict[str, Color] = {
    "none": HexColor("#707070"),
    "no_move_unless_commanded": HexColor("#8B1E1E"),
    "no_shooting": HexColor("#A0522D"),
    "extra_activation": HexColor("#1F3A68"),
    "halve_unit_hits": HexColor("#2E7D32"),
    "undefined": HexColor("#505050"),
}
PAD = 9.0


#: a commander's quality, which swaps cards of the deck (D3 Chance Cards)
Quality = d3.Quality
QUALITIES = d3.QUALITIES


def commander_quality(text: str) -> Quality:
    """The quality ``text`` names; ``ValueError`` naming the qualities otherwise."""
    for quality in QUALITIES:
        if quality == text:
            return quality
    raise ValueError(f"commander quality {text!r} is not one of {', '.join(QUALITIES)}")


class NoChanceCardsError(ValueError):
    """Chance cards were asked of a ruleset that has none."""


@dataclass(frozen=True)
class Deck:
    """A side's deck: the army, the conditions, and the cards (card id -> count) in the
    order the data lists them."""

    army: str
    side: str
    commander: d3.Quality
    supply_problems: bool
    cards: dict[str, int]

    @property
    def size(self) -> int:
        return sum(self.cards.values())

    @property
    def conditions(self) -> str:
        parts = [self.side, f"{self.commander} commander"]
        if self.supply_problems:
            parts.append("supply problems")
        return " · ".join(parts)


def resolve_army(rs: Ruleset, side: str) -> str:
    """The army-list id ``side`` names (:func:`~app.export.documents.resolve_side`). Raises
    :class:`NoChanceCardsError` for a ruleset without chance cards and ``ValueError`` naming
    the choices for an unknown or ambiguous side."""
    if not rs.engine.has_chance_cards:
        raise NoChanceCardsError(f"ruleset {rs.id!r} ({rs.meta.short_name}) has no chance cards")
    return resolve_side(rs, side)


def build_deck(
    rs: Ruleset, army: str, *, commander: d3.Quality = "average", supply_problems: bool = False
) -> Deck:
    """The deck of ``army`` with the substitutions applied (``app.rulesets.d3.schema``)."""
    cards = d3.army_deck(rs, army, commander_quality=commander, supply_problems=supply_problems)
    return Deck(army, rs.army(army).side, commander, supply_problems, cards)


def _painter(rs: Ruleset, deck: Deck, card_id: str, n: int) -> Painter:
    t = d3.tables(rs)
    card = t.chance_cards.cards[card_id]
    colour = CARD_COLOURS.get(card.effect_key, INK)
    disabled = card_id in t.commanders.cards_disabled_on_loss
    footer = f"{rs.meta.short_name} · Castra"

    def paint(canv: Canvas, w: float, h: float) -> None:
        canv.setStrokeColor(GUIDE)
        canv.setLineWidth(0.3)
        canv.rect(0, 0, w, h, stroke=1, fill=0)
        band(canv, 0, h - 44, w, 44, colour)
        canv.setFillColor(white)
        canv.setFont(COND, 7)
        canv.drawString(PAD, h - 13, "CHANCE CARD")
        canv.drawRightString(w - PAD, h - 13, f"{n} of {deck.size}")
        size = 15.0
        while size > 9 and canv.stringWidth(card.name, SANS_BOLD, size) > w - 2 * PAD:
            size -= 0.5
        canv.setFont(SANS_BOLD, size)
        canv.drawString(PAD, h - 34, card.name)
        canv.setFillColor(INK)
        y = h - 64
        for line in simpleSplit(card.effect, SANS, 9, w - 2 * PAD):
            canv.setFont(SANS, 9)
            canv.drawString(PAD, y, line)
            y -= 12
        if disabled:
            y -= 6
            canv.setFillColor(MUTED)
            note = "No effect once your commander's unit has been eliminated."
            for line in simpleSplit(note, COND, 7.5, w - 2 * PAD):
                canv.setFont(COND, 7.5)
                canv.drawString(PAD, y, line)
                y -= 9.5
        canv.setFillColor(MUTED)
        canv.setFont(COND_BOLD, 7)
        lines = simpleSplit(deck.conditions, COND_BOLD, 7, w - 2 * PAD)
        for i, line in enumerate(lines):
            canv.drawString(PAD, 22 + (len(lines) - 1 - i) * 8.5, line)
        canv.setFont(COND, 6)
        canv.drawString(PAD, 10, fit_text(footer, COND, 6, w - 2 * PAD))

    return paint


def chance_card_painters(rs: Ruleset, deck: Deck) -> list[Painter]:
    painters: list[Painter] = []
    for card_id, count in deck.cards.items():
        for _ in range(count):
            painters.append(_painter(rs, deck, card_id, len(painters) + 1))
    return painters


def write_chance_cards(
    rs: Ruleset,
    target: Target,
    *,
    side: str,
    commander: d3.Quality = "average",
    supply_problems: bool = False,
    page_size: str = "a4",
    invariant: bool = False,
) -> Written:
    """The chance-card deck of ``side`` (army id or side name) to cut out: one card-sized
    card per card of the deck, nine to a page."""
    register_fonts()  # the painters measure text before any document exists
    army = resolve_army(rs, side)
    deck = build_deck(rs, army, commander=commander, supply_problems=supply_problems)
    data, pages = render_cards(
        chance_card_painters(rs, deck),
        page_size=page_size,
        title=f"{rs.meta.short_name} chance cards: {deck.conditions}",
        author=rs.credit,
        label=f"{rs.meta.short_name} ({author_of(rs.meta.author, rs.meta.author_note)})"
        f" · Castra · chance cards: {deck.conditions}",
        invariant=invariant,
    )
    write_bytes(target, data)
    return Written(target, pages)


def make_chance_cards(
    rs: Ruleset,
    target: Target,
    *,
    side: str,
    options: Mapping[str, OptionValue],
    page_size: str = "a4",
    invariant: bool = False,
) -> Written:
    """The declared document :data:`app.rulesets.d3.CHANCE_CARDS` with its options' values
    (``commander``: a quality's word; ``supply_problems``)."""
    return write_chance_cards(
        rs,
        target,
        side=side,
        commander=commander_quality(str(options.get("commander", "average"))),
        supply_problems=bool(options.get("supply_problems", False)),
        page_size=page_size,
        invariant=invariant,
    )


#: the makers of the documents the engine declares (``app.rulesets.d3.ENGINE.documents``)
MAKERS: dict[str, Maker] = {CHANCE_CARDS.id: make_chance_cards}
