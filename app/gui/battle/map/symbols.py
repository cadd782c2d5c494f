"""Troop-type symbols drawn in code, in the spirit of military map symbols: a frame for
formed troops, a cross for foot, a bar for horse, a band along the bottom for heavy troops;
light troops go without the frame, skirmishers are three dots, elephants a body with its
trunk, chariots a wheel, artillery a dot in the frame.

Each symbol is two :class:`QPainterPath` s made once (``functools.cache``) in a box
:data:`BOX_W` by :data:`BOX_H` centred on the origin -- ``strokes`` to draw with a pen and
``fills`` to fill -- and drawn scaled into any rectangle, so nothing on the paint path
builds a path."""

from __future__ import annotations

from functools import cache, lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPixmap, QTransform

from app.rules.schema import Symbol

#: The symbol's box (width : height as a map symbol's frame, 3 : 2).
BOX_W, BOX_H = 1.5, 1.0

#: A word for each symbol, for the legend.
WORDS: dict[Symbol, str] = {
    Symbol.HEAVY_INFANTRY: "heavy infantry",
    Symbol.MEDIUM_INFANTRY: "medium infantry",
    Symbol.LIGHT_INFANTRY: "light infantry",
    Symbol.SKIRMISHERS: "skirmishers",
    Symbol.HEAVY_CAVALRY: "heavy cavalry",
    Symbol.MEDIUM_CAVALRY: "medium cavalry",
    Symbol.LIGHT_CAVALRY: "light cavalry",
    Symbol.ELEPHANTS: "elephants",
    Symbol.CHARIOTS: "chariots",
    Symbol.ARTILLERY: "artillery",
}

_FRAMED = frozenset(
    {
        Symbol.HEAVY_INFANTRY,
        Symbol.MEDIUM_INFANTRY,
        Symbol.HEAVY_CAVALRY,
        Symbol.MEDIUM_CAVALRY,
        Symbol.ARTILLERY,
    }
)
_HEAVY = frozenset({Symbol.HEAVY_INFANTRY, Symbol.HEAVY_CAVALRY})
_FOOT = frozenset({Symbol.HEAVY_INFANTRY, Symbol.MEDIUM_INFANTRY, Symbol.LIGHT_INFANTRY})
_HORSE = frozenset({Symbol.HEAVY_CAVALRY, Symbol.MEDIUM_CAVALRY, Symbol.LIGHT_CAVALRY})


def _frame() -> QRectF:
    return QRectF(-BOX_W / 2, -BOX_H / 2, BOX_W, BOX_H)


@cache
def symbol_paths(symbol: Symbol) -> tuple[QPainterPath, QPainterPath]:
    """``(strokes, fills)`` of ``symbol`` in its box (made once per symbol)."""
    strokes, fills = QPainterPath(), QPainterPath()
    r = _frame()
    if symbol in _FRAMED:
        strokes.addRect(r)
    if symbol in _HEAVY:
        fills.addRect(QRectF(r.left(), r.bottom() - BOX_H * 0.28, BOX_W, BOX_H * 0.28))
    if symbol in _FOOT:
        strokes.moveTo(r.topLeft())
        strokes.lineTo(r.bottomRight())
        strokes.moveTo(r.bottomLeft())
        strokes.lineTo(r.topRight())
    elif symbol in _HORSE:
        strokes.moveTo(r.bottomLeft())
        strokes.lineTo(r.topRight())
        if symbol == Symbol.LIGHT_CAVALRY:
            # light horse: the bar and a second, shorter one, no frame (fast and loose)
            strokes.moveTo(QPointF(r.left(), r.center().y()))
            strokes.lineTo(QPointF(r.center().x(), r.top()))
    elif symbol == Symbol.SKIRMISHERS:
        d = BOX_H * 0.3
        for x, y in ((-0.5, 0.22), (0.0, -0.22), (0.5, 0.22)):
            fills.addEllipse(QPointF(x, y), d / 2, d / 2)
    elif symbol == Symbol.ELEPHANTS:
        # a body, two legs, a head and the trunk hanging from it
        fills.addEllipse(QRectF(-0.6, -0.42, 0.95, 0.6))
        fills.addRect(QRectF(-0.5, 0.1, 0.18, 0.32))
        fills.addRect(QRectF(0.05, 0.1, 0.18, 0.32))
        fills.addEllipse(QRectF(0.2, -0.5, 0.42, 0.42))
        strokes.moveTo(QPointF(0.55, -0.2))
        strokes.cubicTo(QPointF(0.75, 0.0), QPointF(0.7, 0.3), QPointF(0.55, 0.42))
    elif symbol == Symbol.CHARIOTS:
        strokes.addEllipse(QPointF(0, 0), 0.42, 0.42)
        for dx, dy in ((0.42, 0.0), (0.0, 0.42), (0.3, 0.3), (0.3, -0.3)):
            strokes.moveTo(QPointF(-dx, -dy))
            strokes.lineTo(QPointF(dx, dy))
        strokes.moveTo(QPointF(-0.7, -0.42))
        strokes.lineTo(QPointF(0.7, -0.42))
    elif symbol == Symbol.ARTILLERY:
        fills.addEllipse(QPointF(0, 0), 0.2, 0.2)
    return strokes, fills


def symbol_rect(height: float) -> QRectF:
    """The box of a symbol ``height`` tall, centred on the origin."""
    return QRectF(-height * BOX_W / BOX_H / 2, -height / 2, height * BOX_W / BOX_H, height)


def fitted(symbol: Symbol, rect: QRectF) -> tuple[QPainterPath, QPainterPath]:
    """``symbol``'s paths fitted into ``rect`` (made when a plate is laid out, so that
    painting only draws them)."""
    strokes, fills = symbol_paths(symbol)
    scale = min(rect.width() / BOX_W, rect.height() / BOX_H)
    c = rect.center()
    t = QTransform(scale, 0, 0, scale, c.x(), c.y())
    return t.map(strokes), t.map(fills)


@cache
def symbol_pen(colour: str, width: float = 1.2) -> QPen:
    """The pen symbols are drawn with: ``width`` device pixels at any zoom."""
    pen = QPen(QColor(colour), width)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


def draw_fitted(
    painter: QPainter, paths: tuple[QPainterPath, QPainterPath], colour: QColor
) -> None:
    """Draw a symbol's :func:`fitted` paths in ``colour``."""
    strokes, fills = paths
    painter.setPen(symbol_pen(colour.name()))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(strokes)
    if not fills.isEmpty():
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPath(fills)


def draw_symbol(painter: QPainter, symbol: Symbol, rect: QRectF, colour: QColor) -> None:
    """Draw ``symbol`` fitted into ``rect`` (local units), its lines a pixel wide whatever
    the scale."""
    if rect.width() > 0 and rect.height() > 0:
        draw_fitted(painter, fitted(symbol, rect), colour)


@lru_cache(maxsize=512)
def symbol_pixmap(symbol: Symbol, width: int, height: int, rgba: int) -> QPixmap:
    """``symbol`` drawn once into a ``width`` by ``height`` pixmap (device pixels), in the
    colour ``rgba``: every unit of that symbol and size on the map draws the same pixmap."""
    pixmap = QPixmap(max(width, 1), max(height, 1))
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    draw_symbol(painter, symbol, QRectF(0.5, 0.5, width - 1.0, height - 1.0), QColor.fromRgba(rgba))
    painter.end()
    return pixmap
