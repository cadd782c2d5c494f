"""Card sheets: card-sized flowables laid out nine to a page (3 x 3, centred on A4 or Letter)
with cut marks. Unit cards, leader cards and D3 chance cards all use this.

The page template holds one ``Frame`` per card slot, exactly card-sized; a card is a flowable
that never splits, so it can only ever land whole inside one slot: no card can cross a page
edge. :func:`card_grid` computes the slots (tests check them against the page).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable
from reportlab.platypus.doctemplate import PageTemplate
from reportlab.platypus.frames import Frame

from app.export.common import (
    CUT,
    MUTED,
    Target,
    Written,
    build,
    fit_text,
    new_doc,
    page_dimensions,
    write_bytes,
)
from app.export.fonts import COND

CARD_SIZE = (63 * mm, 88 * mm)
COLUMNS = 3
ROWS = 3
PER_PAGE = COLUMNS * ROWS
CUT_LENGTH = 4 * mm
CUT_GAP = 1.2 * mm

Rect = tuple[float, float, float, float]  # x, y (bottom left), width, height
Painter = Callable[[Canvas, float, float], None]
#: told (cards drawn, cards in all) as each card is drawn; it may raise to stop the job
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class CardGrid:
    """Where the cards go on a page: ``slots`` in reading order (top row first)."""

    page: tuple[float, float]
    card: tuple[float, float]
    columns: int
    rows: int

    @property
    def origin(self) -> tuple[float, float]:
        """Bottom-left corner of the grid, centred on the page."""
        pw, ph = self.page
        cw, ch = self.card
        return (pw - self.columns * cw) / 2, (ph - self.rows * ch) / 2

    @property
    def slots(self) -> list[Rect]:
        x0, y0 = self.origin
        cw, ch = self.card
        return [
            (x0 + c * cw, y0 + (self.rows - 1 - r) * ch, cw, ch)
            for r in range(self.rows)
            for c in range(self.columns)
        ]

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def pages_for(self, cards: int) -> int:
        return max(1, math.ceil(cards / self.per_page))


def card_grid(
    page_size: str = "a4",
    card: tuple[float, float] = CARD_SIZE,
    columns: int = COLUMNS,
    rows: int = ROWS,
) -> CardGrid:
    """The grid of card slots on an A4 or Letter page (portrait). Raises ``ValueError``
    when the cards do not fit the page with room for cut marks."""
    page = page_dimensions(page_size)
    grid = CardGrid(page, card, columns, rows)
    x0, y0 = grid.origin
    if min(x0, y0) < CUT_GAP:
        raise ValueError(
            f"{columns} x {rows} cards of {card[0] / mm:.0f} x {card[1] / mm:.0f} mm do not fit "
            f"a {page_size} page"
        )
    return grid


class Card(Flowable):
    """One card: exactly card-sized, never split; ``painter(canvas, width, height)`` draws it
    in local coordinates (origin at the card's bottom-left corner)."""

    def __init__(
        self, size: tuple[float, float], painter: Painter, done: Callable[[], None] | None = None
    ) -> None:
        super().__init__()
        self.width, self.height = size
        self.painter = painter
        self.done = done

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def split(self, avail_width: float, avail_height: float) -> list[Flowable]:
        return []

    def draw(self) -> None:
        self.painter(self.canv, self.width, self.height)
        if self.done is not None:
            self.done()


def _cut_marks(canv: Canvas, grid: CardGrid, cards_on_page: int) -> None:
    """Cut marks in the margins at every card edge of the rows in use; a faint outline of
    each card helps when cutting with scissors."""
    x0, y0 = grid.origin
    cw, ch = grid.card
    rows = math.ceil(cards_on_page / grid.columns)
    top = y0 + grid.rows * ch
    bottom = top - rows * ch
    cols = grid.columns if rows > 1 else cards_on_page
    canv.saveState()
    canv.setStrokeColor(CUT)
    canv.setLineWidth(0.3)
    for c in range(cols + 1):
        x = x0 + c * cw
        canv.line(x, top + CUT_GAP, x, top + CUT_GAP + CUT_LENGTH)
        canv.line(x, bottom - CUT_GAP, x, bottom - CUT_GAP - CUT_LENGTH)
    right = x0 + cols * cw
    for r in range(rows + 1):
        y = top - r * ch
        canv.line(x0 - CUT_GAP, y, x0 - CUT_GAP - CUT_LENGTH, y)
        canv.line(right + CUT_GAP, y, right + CUT_GAP + CUT_LENGTH, y)
    canv.restoreState()


def _page_label(canv: Canvas, grid: CardGrid, text: str) -> None:
    """A small label in the top margin naming the sheet, the ruleset and Castra: above the
    cut marks when the margin allows (A4), else between them over the middle column."""
    _, y0 = grid.origin
    cw, ch = grid.card
    top = y0 + grid.rows * ch
    margin = grid.page[1] - top
    size = 6.0
    above = CUT_GAP + CUT_LENGTH + 1.5 * mm
    if margin >= above + size + 2 * mm:
        y, width = top + above, grid.columns * cw
    elif margin >= CUT_GAP + size + 1:
        y, width = top + margin / 2 - size / 3, cw - 6
    else:
        return
    canv.saveState()
    canv.setFillColor(MUTED)
    canv.setFont(COND, size)
    canv.drawCentredString(grid.page[0] / 2, y, fit_text(text, COND, size, width))
    canv.restoreState()


def render_cards(
    painters: Sequence[Painter],
    *,
    page_size: str,
    title: str,
    author: str,
    label: str,
    invariant: bool,
    card: tuple[float, float] = CARD_SIZE,
    progress: Progress | None = None,
) -> tuple[bytes, int]:
    """A card sheet PDF: the cards in order, nine to a page; (bytes, pages). ``progress``
    hears of every card drawn (about a hundred times in all) and may raise to stop."""
    grid = card_grid(page_size, card)
    total = len(painters)
    drawn = 0
    step = max(1, total // 100)

    def one_done() -> None:
        nonlocal drawn
        drawn += 1
        if progress is not None and (drawn % step == 0 or drawn == total):
            progress(drawn, total)

    def on_page(canv: Canvas, doc: BaseDocTemplate) -> None:
        done = (doc.page - 1) * grid.per_page
        on_this = max(0, min(grid.per_page, total - done))
        if on_this:
            _cut_marks(canv, grid, on_this)
        page_no = f"{label} · sheet {doc.page} of {grid.pages_for(total)}"
        _page_label(canv, grid, page_no)

    frames = [
        Frame(
            x, y, w, h, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id=f"slot{i}"
        )
        for i, (x, y, w, h) in enumerate(grid.slots)
    ]
    buf = io.BytesIO()
    doc = new_doc(
        buf, grid.page, title=title, subject=title, author=author, invariant=invariant, margin=0
    )
    doc.addPageTemplates([PageTemplate("cards", frames, onPage=on_page)])
    story: list[Flowable] = [Card(card, p, one_done) for p in painters]
    pages = build(doc, story) if story else _empty(doc)
    return buf.getvalue(), pages


def _empty(doc: BaseDocTemplate) -> int:
    from reportlab.platypus import Paragraph

    from app.export.common import styles

    doc.build([Paragraph("No cards to print.", styles().body)])
    return 1


def write_cards(
    target: Target,
    painters: Sequence[Painter],
    *,
    page_size: str,
    title: str,
    author: str,
    label: str,
    invariant: bool,
    progress: Progress | None = None,
) -> Written:
    data, pages = render_cards(
        painters,
        page_size=page_size,
        title=title,
        author=author,
        label=label,
        invariant=invariant,
        progress=progress,
    )
    write_bytes(target, data)
    return Written(target, pages)
