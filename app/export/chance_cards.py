"""The chance-card deck of one side, card-sized with cut marks, for a ruleset whose engine
has chance cards (:attr:`~app.rules.engine.Engine.has_chance_cards`; the D3 Ancients
tables give the deck): the base deck with the army, commander-quality and supply
substitutions applied (D3 Chance Cards), one card per card in the deck."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from app.export.card_draw import band
from app.export.cardsheet import Painter, render_cards
from app.export.common import GUIDE, INK, MUTED, Target, Written, author_of, fit_text, write_bytes
from app.export.fonts import COND, COND_BOLD, SANS, SANS_BOLD, register_fonts
from app.rules.ruleset import Ruleset
from app.rulesets.d3 import schema as d3

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
    """The army-list id ``side`` names: an army id (``roman``) or a side name (``Rome``),
    either case. Raises :class:`NoChanceCardsError` for a ruleset without chance cards and
    ``ValueError`` naming the choices for an unknown or ambiguous side."""
    if not rs.engine.has_chance_cards:
        raise NoChanceCardsError(f"ruleset {rs.id!r} ({rs.meta.short_name}) has no chance cards")
    key = side.strip().casefold()
    if key in rs.armies:
        return key
    for army_id in rs.armies:
        if army_id.casefold() == key:
            return army_id
    by_side = [a for a, army in rs.armies.items() if army.side.casefold() == key]
    if len(by_side) == 1:
        return by_side[0]
    choices = ", ".join(f"{a} ({army.side})" for a, army in sorted(rs.armies.items()))
    if by_side:
        raise ValueError(f"side {side!r} has several armies in {rs.id}: {choices}; name one")
    raise ValueError(f"{rs.meta.short_name} has no army or side {side!r} (choose from {choices})")


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
