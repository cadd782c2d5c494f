"""Drawing pieces for cards: tick-box tracks with marked thresholds, die rows, label/value
lines. Cards are drawn straight on the canvas (no paragraph layout per line) so that a hundred
of them build well under a second.

A :class:`Block` knows its height before it is drawn, so a card can lay itself out top to
bottom and give the special rules whatever room is left.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from reportlab.lib.colors import Color, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from app.export.common import INK, MUTED, RULE, fit_text
from app.export.fonts import COND, COND_BOLD

Draw = Callable[[Canvas, float, float, float], None]


@dataclass(frozen=True)
class Block:
    """Something of a known ``height`` drawn by ``draw(canvas, x, y_top, width)``."""

    height: float
    draw: Draw


@dataclass(frozen=True)
class Mark:
    """A threshold on a box track: the box is filled with ``colour`` and shows ``glyph``;
    the legend explains ``label``."""

    colour: Color
    glyph: str
    label: str


@dataclass(frozen=True)
class Track:
    """A row (or rows) of tick boxes: casualties, hits, DPs or wounds.

    ``groups`` splits the boxes into labelled groups (a base's hit points, an elephant
    element); ``marks`` maps a 1-based box number to its threshold; ``ticked`` boxes are
    printed already crossed (wounds a leader carries from the campaign)."""

    title: str
    count: int
    marks: Mapping[int, Mark] = field(default_factory=dict)
    groups: Sequence[tuple[str, int]] = ()
    ticked: int = 0
    numbered: bool = True


BOX = 10.0
GAP = 2.5
LABEL_PT = 6.3
TITLE_PT = 7.0
MAX_BOXES = 120


def _box(
    canv: Canvas, x: float, y: float, size: float, mark: Mark | None, n: int, show_n: bool
) -> None:
    if mark is not None:
        canv.setFillColor(mark.colour)
        canv.setStrokeColor(INK)
        canv.setLineWidth(0.9)
        canv.rect(x, y, size, size, stroke=1, fill=1)
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, size * 0.62)
        canv.drawCentredString(x + size / 2, y + size * 0.27, mark.glyph)
        return
    canv.setStrokeColor(INK)
    canv.setLineWidth(0.5)
    canv.rect(x, y, size, size, stroke=1, fill=0)
    if show_n:
        canv.setFillColor(RULE)
        canv.setFont(COND, size * 0.5)
        canv.drawCentredString(x + size / 2, y + size * 0.3, str(n))


def _cross(canv: Canvas, x: float, y: float, size: float) -> None:
    canv.setStrokeColor(INK)
    canv.setLineWidth(1)
    canv.line(x + 1.2, y + 1.2, x + size - 1.2, y + size - 1.2)
    canv.line(x + 1.2, y + size - 1.2, x + size - 1.2, y + 1.2)


def _layout(count: int, width: float) -> tuple[float, int]:
    """Box size and boxes per row so that ``count`` boxes fit ``width`` in few rows."""
    size = BOX
    while size > 5.0:
        per_row = max(1, int((width + GAP) // (size + GAP)))
        if math.ceil(count / per_row) <= 3:
            return size, per_row
        size -= 0.5
    return size, max(1, int((width + GAP) // (size + GAP)))


def track_block(track: Track, width: float) -> Block:
    """A titled track of tick boxes with a legend of its marks."""
    title_h = TITLE_PT + 2.5
    legend = [m for _, m in sorted(track.marks.items())]
    legend_h = (LABEL_PT + 2.2) * len(legend) + 1 if legend else 0.0
    if track.count > MAX_BOXES:
        return Block(title_h + 12 + legend_h, _too_many(track))
    groups = list(track.groups) or [("", track.count)]
    label_w = max((_label_width(g) for g, _ in groups), default=0.0)
    size, per_row = _layout(
        max(n for _, n in groups) if track.groups else track.count, width - label_w
    )
    rows = sum(math.ceil(n / per_row) for _, n in groups)
    height = title_h + rows * (size + GAP) + legend_h

    def draw(canv: Canvas, x: float, y_top: float, w: float) -> None:
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, TITLE_PT)
        canv.drawString(x, y_top - TITLE_PT, fit_text(track.title, COND_BOLD, TITLE_PT, w))
        y = y_top - title_h
        n = 0
        for label, count in groups:
            if label:
                canv.setFillColor(MUTED)
                canv.setFont(COND, LABEL_PT)
                canv.drawString(x, y - size * 0.75, label)
            for i in range(count):
                col = i % per_row
                if col == 0 and i:
                    y -= size + GAP
                n += 1
                bx = x + label_w + col * (size + GAP)
                _box(canv, bx, y - size, size, track.marks.get(n), n, track.numbered)
                if n <= track.ticked:
                    _cross(canv, bx, y - size, size)
            y -= size + GAP
        _legend(canv, x, y - 1, w, legend)

    return Block(height, draw)


def _label_width(label: str) -> float:
    return stringWidth(label, COND, LABEL_PT) + 3 if label else 0.0


def _legend(canv: Canvas, x: float, y: float, width: float, marks: Sequence[Mark]) -> None:
    for i, mark in enumerate(marks):
        cy = y - i * (LABEL_PT + 2.2) - LABEL_PT
        canv.setFillColor(mark.colour)
        canv.setStrokeColor(INK)
        canv.setLineWidth(0.4)
        canv.rect(x, cy - 0.5, LABEL_PT + 0.5, LABEL_PT + 0.5, stroke=1, fill=1)
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, LABEL_PT * 0.66)
        canv.drawCentredString(x + LABEL_PT / 2 + 0.25, cy + 1.2, mark.glyph)
        canv.setFont(COND, LABEL_PT)
        canv.drawString(x + LABEL_PT + 3, cy, fit_text(mark.label, COND, LABEL_PT, width - 10))


def _too_many(track: Track) -> Draw:
    def draw(canv: Canvas, x: float, y_top: float, w: float) -> None:
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, TITLE_PT)
        canv.drawString(x, y_top - TITLE_PT, fit_text(track.title, COND_BOLD, TITLE_PT, w))
        canv.setFont(COND, 7)
        canv.drawString(x, y_top - TITLE_PT - 11, f"lost: ________ of {track.count}")
        marks = "; ".join(f"{m.label} at {n}" for n, m in sorted(track.marks.items()))
        if marks:
            canv.setFont(COND, LABEL_PT)
            canv.drawString(x, y_top - TITLE_PT - 20, fit_text(marks, COND, LABEL_PT, w))

    return draw


def dice_row_block(
    title: str, heads: Sequence[str], cells: Sequence[str], *, ticks: bool = False
) -> Block:
    """A small grid: a header row (ring counts), a row of dice and, with ``ticks``, a row of
    tick boxes under every column but the first (the rings a unit has taken)."""
    row_h = 9.0
    height = TITLE_PT + 2.5 + row_h * 2 + (row_h if ticks else 0)

    def draw(canv: Canvas, x: float, y_top: float, w: float) -> None:
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, TITLE_PT)
        canv.drawString(x, y_top - TITLE_PT, fit_text(title, COND_BOLD, TITLE_PT, w))
        n = len(heads)
        cw = w / n
        y = y_top - TITLE_PT - 2.5
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.4)
        rows = 3 if ticks else 2
        canv.rect(x, y - rows * row_h, w, rows * row_h, stroke=1, fill=0)
        for r in range(1, rows):
            canv.line(x, y - r * row_h, x + w, y - r * row_h)
        for i in range(1, n):
            canv.line(x + i * cw, y, x + i * cw, y - rows * row_h)
        centres = [x + i * cw + cw / 2 for i in range(n)]
        canv.setFillColor(MUTED)
        canv.setFont(COND, 6.5)
        for cx, head in zip(centres, heads, strict=True):
            canv.drawCentredString(cx, y - row_h + 2.4, head)
        canv.setFillColor(INK)
        canv.setFont(COND_BOLD, 8)
        for cx, cell in zip(centres, cells, strict=True):
            canv.drawCentredString(cx, y - 2 * row_h + 2.2, cell)
        if ticks:
            s = row_h - 3
            canv.setStrokeColor(INK)
            canv.setLineWidth(0.5)
            for cx in centres[1:]:
                canv.rect(cx - s / 2, y - 3 * row_h + 1.5, s, s, stroke=1, fill=0)

    return Block(height, draw)


def lines_block(pairs: Sequence[tuple[str, str]], width: float, *, size: float = 7.3) -> Block:
    """Label/value lines ("Move  2 MF (6")"); a long value wraps under itself (at most
    three lines, then it is cut with an ellipsis)."""
    lead = size + 1.5
    label_w = min(
        max((stringWidth(lbl, COND_BOLD, size) for lbl, _ in pairs), default=0) + 4, width * 0.4
    )
    wrapped: list[list[str]] = []
    for _, value in pairs:
        lines = simpleSplit(value, COND, size, width - label_w) or [""]
        if len(lines) > 3:
            lines = [*lines[:2], fit_text(" ".join(lines[2:]), COND, size, width - label_w)]
        wrapped.append(lines)
    height = lead * sum(len(w) for w in wrapped)

    def draw(canv: Canvas, x: float, y_top: float, w: float) -> None:
        y = y_top
        for (label, _), lines in zip(pairs, wrapped, strict=True):
            canv.setFillColor(MUTED)
            canv.setFont(COND_BOLD, size)
            canv.drawString(x, y - size, label)
            canv.setFillColor(INK)
            canv.setFont(COND, size)
            for line in lines:
                canv.drawString(x + label_w, y - size, line)
                y -= lead

    return Block(height, draw)


def band(canv: Canvas, x: float, y: float, w: float, h: float, colour: Color) -> None:
    canv.setFillColor(colour)
    canv.rect(x, y, w, h, stroke=0, fill=1)
    canv.setFillColor(white)
