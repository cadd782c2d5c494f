"""The map's legend: each side's colour with its name and army, and the troop symbols on
the table with their words. Drawn by one function (:func:`paint_legend`) for the map's
corner (:class:`LegendWidget`) and the exported image's margin, so both say the same."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import QWidget

from app.core.battle.look import BattleLook
from app.gui.battle.map.symbols import WORDS, draw_symbol

#: Text size of the legend, in pixels (times the scale).
TEXT_PX = 11.0
INK = QColor("#202020")


def _font(scale: float) -> QFont:
    font = QFont()
    font.setPixelSize(max(1, round(TEXT_PX * scale)))
    return font


def _entries(look: BattleLook) -> list[list[tuple[str, object]]]:
    """The legend's rows: the sides, then the symbols (each entry a word and its mark)."""
    sides: list[tuple[str, object]] = [
        (f"{s.name}: {s.army}" if s.army and s.army != s.name else s.name, QColor(s.colour))
        for s in look.sides
    ]
    symbols: list[tuple[str, object]] = [(WORDS[sym], sym) for sym in look.symbols_used()]
    return [row for row in (sides, symbols) if row]


def legend_size(look: BattleLook, scale: float = 1.0, width: float | None = None) -> QSize:
    """How large the legend is drawn at ``scale``, its rows wrapped to ``width`` pixels."""
    return paint_legend(None, QPointF(0, 0), look, scale, width).size().toSize()


def paint_legend(
    painter: QPainter | None,
    at: QPointF,
    look: BattleLook,
    scale: float = 1.0,
    width: float | None = None,
) -> QRectF:
    """Draw the legend with its top left at ``at`` (device pixels), wrapping entries at
    ``width``; returns the rectangle it takes. ``painter`` None only measures."""
    font = _font(scale)
    metrics = QFontMetricsF(font)
    line = metrics.height() * 1.25
    mark_h = metrics.height() * 0.75
    mark_w = mark_h * 1.5
    pad = 6 * scale
    gap = 14 * scale
    x0, y = at.x() + pad, at.y() + pad
    right = x0
    limit = (at.x() + width - pad) if width else None
    placed: list[tuple[QRectF, str, object]] = []
    for row in _entries(look):
        x = x0
        for word, mark in row:
            w = mark_w + 4 * scale + metrics.horizontalAdvance(word)
            if limit is not None and x > x0 and x + w > limit:
                x, y = x0, y + line
            placed.append((QRectF(x, y, w, line), word, mark))
            x += w + gap
            right = max(right, x - gap)
        y += line
    rect = QRectF(at.x(), at.y(), right - at.x() + pad, y - at.y() + pad - line * 0.2)
    if painter is None:
        return rect
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QColor(90, 90, 90, 200))
    painter.setBrush(QColor(255, 255, 248, 225))
    painter.drawRoundedRect(rect, 4 * scale, 4 * scale)
    painter.setFont(font)
    for box, word, mark in placed:
        swatch = QRectF(box.left(), box.center().y() - mark_h / 2, mark_w, mark_h)
        if isinstance(mark, QColor):
            painter.setPen(mark.darker(230))
            painter.setBrush(mark)
            painter.drawRect(swatch)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor("#5a5a5a"))
            painter.drawRect(swatch.adjusted(-1, -1, 1, 1))
            draw_symbol(painter, mark, swatch.adjusted(1, 1, -1, -1), QColor("#ffffff"))  # type: ignore[arg-type]
        painter.setPen(INK)
        text = QRectF(swatch.right() + 4 * scale, box.top(), box.width(), box.height())
        painter.drawText(text, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, word)
    painter.restore()
    return rect


class LegendWidget(QWidget):
    """The legend over the map's bottom left corner (a child of the view, not of its
    viewport, so panning does not carry it away); mouse events pass through to the map.
    Drawn once into a pixmap when the battle's look changes."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self._look: BattleLook | None = None
        self._pixmap = QPixmap()
        self._width = 0
        self.setObjectName("mapLegend")

    @property
    def look(self) -> BattleLook | None:
        return self._look

    def set_look(self, look: BattleLook | None, width: int) -> None:
        """Show ``look``'s legend, its rows wrapped to ``width`` pixels."""
        if look is self._look and width == self._width:
            return
        self._look, self._width = look, width
        if look is None:
            self._pixmap = QPixmap()
            self.resize(0, 0)
            return
        size = legend_size(look, 1.0, width)
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(size * ratio)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        paint_legend(painter, QPointF(0, 0), look, 1.0, width)
        painter.end()
        self._pixmap = pixmap
        self.resize(size)

    def text(self) -> str:
        """What the legend says, entry by entry (for the tests)."""
        if self._look is None:
            return ""
        return "; ".join(word for row in _entries(self._look) for word, _ in row)

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._pixmap.isNull():
            QPainter(self).drawPixmap(0, 0, self._pixmap)
