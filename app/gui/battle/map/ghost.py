"""The ghost of a move being made: the path's tracks, the base where it would end, and a
label with the path, its cost, the allowance left and, in red, the rule it would break --
all from the mechanics' :class:`~app.rules.movement.MoveCheck`. Also the small label item
the ruler and the terrain tool use."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.gui.battle.map.items import Z_GHOST
from app.rules.geometry import Footprint
from app.rules.movement import Breach, MoveCheck
from app.rules.paths import path_text

#: Characters a label's line holds before it wraps.
WRAP = 72


class Label(QGraphicsItem):
    """A few lines of text on a pale card, the same size at any zoom (ignores the view's
    transformations), anchored at its top left."""

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(Z_GHOST + 1)
        self._lines: list[tuple[str, QColor]] = []
        self._font = QFont()
        self._font.setPointSizeF(9.0)
        self._rect = QRectF()
        #: the card's top left from the anchor, in pixels (moved to stay on the screen)
        self._offset = QPointF(0, 0)
        #: widest the card may be, in pixels (None: lines wrap at :data:`WRAP` characters)
        self.max_width: float | None = None

    @property
    def lines(self) -> list[str]:
        return [t for t, _ in self._lines]

    def set_lines(self, lines: Sequence[tuple[str, QColor]]) -> None:
        """Show ``lines`` (text and colour), long ones wrapped (at :attr:`max_width`)."""
        metrics = QFontMetricsF(self._font)
        wrap = WRAP
        if self.max_width is not None:
            wrap = max(20, int((self.max_width - 10) / max(metrics.averageCharWidth(), 1.0)))
        lines = [(part, c) for text, c in lines for part in textwrap.wrap(text, wrap) or [""]]
        width = max((metrics.horizontalAdvance(t) for t, _ in lines), default=0.0)
        self.prepareGeometryChange()
        self._lines = list(lines)
        self._rect = QRectF(self._offset, QSizeF(width + 10, metrics.height() * len(lines) + 6))
        self.update()

    def set_offset(self, offset: QPointF) -> None:
        """Draw the card ``offset`` pixels from its anchor (to keep it on the screen)."""
        if offset != self._offset:
            self.prepareGeometryChange()
            self._offset = QPointF(offset)
            self._rect.moveTopLeft(self._offset)
            self.update()

    @property
    def offset(self) -> QPointF:
        return QPointF(self._offset)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self._lines:
            return
        painter.setPen(style.cosmetic(QColor(60, 60, 60), 1.0))
        painter.setBrush(QColor(255, 255, 245, 235))
        painter.drawRoundedRect(self._rect, 3, 3)
        painter.setFont(self._font)
        h = QFontMetricsF(self._font).height()
        x, y = self._rect.left(), self._rect.top()
        for i, (text, colour) in enumerate(self._lines):
            painter.setPen(colour)
            painter.drawText(
                QRectF(x + 5, y + 3 + i * h, self._rect.width(), h),
                Qt.AlignmentFlag.AlignLeft,
                text,
            )


class Ghost(QGraphicsItem):
    """Where a move would take the unit, coloured by its check: green when no rule is
    broken, orange when the umpire must confirm, red when forbidden."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_GHOST)
        self._end = QPolygonF()
        self._front = (QPointF(), QPointF())
        self._tracks = QPainterPath()
        self._swept = QPainterPath()
        self._colour = style.GHOST_OK
        self._bounds = QRectF()
        self.check: MoveCheck | None = None
        self.label = Label(self)

    def show_check(self, check: MoveCheck, frame: Frame, symbol: str, *, held: bool = True) -> None:
        """Draw ``check`` (its traced legs and end pose) and write its label; ``held``: the
        mouse holds the move (a drag: release commits it), else it was made by the keys or
        the wheel (Enter commits it)."""
        self.prepareGeometryChange()
        self.check = check
        corners = [frame.to_scene(x, y) for x, y in check.end.corners()]
        self._end = QPolygonF([*corners, corners[0]])
        self._front = (corners[0], corners[1])
        self._tracks = QPainterPath()
        self._swept = QPainterPath()
        for t in check.traced:
            for line in t.tracks:
                pts = [frame.to_scene(x, y) for x, y in line]
                if len(pts) > 1:
                    self._tracks.moveTo(pts[0])
                    for p in pts[1:]:
                        self._tracks.lineTo(p)
            for poly in t.swept:
                self._swept.addPolygon(QPolygonF([frame.to_scene(x, y) for x, y in poly]))
        self._swept = self._swept.simplified()
        if check.forbidden:
            self._colour = style.GHOST_BAD
        elif check.needs_confirmation:
            self._colour = style.GHOST_ASK
        else:
            self._colour = style.GHOST_OK
        self._bounds = (
            self._swept.boundingRect().united(self._end.boundingRect()).adjusted(-2, -2, 2, 2)
        )
        self.label.setPos(self._end.boundingRect().topRight() + QPointF(2, 0))
        self.label.set_lines(ghost_lines(check, symbol, self._colour, held=held))
        self.update()

    def show_deploy(
        self, pose: Footprint, breaches: Sequence[Breach], frame: Frame, *, held: bool = True
    ) -> None:
        """Draw a unit being deployed at ``pose`` and the rules it would break there
        (``held`` as in :meth:`show_check`)."""
        self.prepareGeometryChange()
        self.check = None
        corners = [frame.to_scene(x, y) for x, y in pose.corners()]
        self._end = QPolygonF([*corners, corners[0]])
        self._front = (corners[0], corners[1])
        self._tracks = QPainterPath()
        self._swept = QPainterPath()
        forbidden = any(b.severity == "forbidden" for b in breaches)
        self._colour = (
            style.GHOST_BAD if forbidden else style.GHOST_ASK if breaches else style.GHOST_OK
        )
        self._bounds = self._end.boundingRect().adjusted(-2, -2, 2, 2)
        self.label.setPos(self._end.boundingRect().topRight() + QPointF(2, 0))
        ink = QColor("#202020")
        lines = [(f"deploy at {pose.x:.1f}, {pose.y:.1f} facing {pose.facing:.0f}", ink)]
        for b in breaches:
            mark = "forbidden" if b.severity == "forbidden" else "confirm"
            lines.append(
                (f"{mark}: {b}", style.GHOST_BAD if b.severity == "forbidden" else style.GHOST_ASK)
            )
        if not breaches:
            lines.append((f"{_commit_word(held)} to deploy; Esc cancels", self._colour))
        self.label.set_lines(lines)
        self.update()

    @property
    def text(self) -> str:
        return "\n".join(self.label.lines)

    @property
    def colour(self) -> QColor:
        return QColor(self._colour)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        c = QColor(self._colour)
        c.setAlpha(40)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(c)
        painter.drawPath(self._swept)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(style.cosmetic(self._colour, 1.5, Qt.PenStyle.DashLine))
        painter.drawPath(self._tracks)
        c.setAlpha(110)
        painter.setBrush(c)
        painter.setPen(style.cosmetic(self._colour, 2.0))
        painter.drawPolygon(self._end)
        painter.setPen(style.cosmetic(QColor("#ffffff"), 3.0))
        painter.drawLine(*self._front)


#: what the ghost of a move the Advisor dock proposes says to do with it
ADVICE_HINT = "the advisor's move: Enter makes it; Esc drops it"


def _commit_word(held: bool) -> str:
    """What commits a pending move: releasing the mouse that drags it, or Enter after the
    keys or the wheel turned it (nothing is held then to release)."""
    return "release" if held else "Enter"


def ghost_lines(
    check: MoveCheck, symbol: str, colour: QColor, *, held: bool = True, hint: str | None = None
) -> list[tuple[str, QColor]]:
    """The ghost's label: path, cost against what is left, terrain, then each rule broken,
    and what commits the move (``held``: see :meth:`Ghost.show_check`; ``hint``, when given,
    says it instead)."""
    ink = QColor("#202020")
    legs = [t.leg for t in check.traced]
    lines = [(path_text(legs) or "no move", ink)]
    cost = f"cost {check.cost:.1f}{symbol}"
    if check.left is not None and check.allowance is not None:
        rest = check.left - check.cost
        cost += f" of {max(check.left, 0.0):.1f}{symbol} left ({check.allowance:g}{symbol} a turn)"
        lines.append((cost, ink))
        lines.append((f"after it: {rest:.1f}{symbol}", ink if rest >= -1e-6 else style.GHOST_BAD))
    else:
        lines.append((cost + " (no fixed allowance)", ink))
    if check.terrain_crossed:
        lines.append(("through " + ", ".join(t.words() for t in check.terrain_crossed), ink))
    for b in check.breaches:
        mark = "forbidden" if b.severity == "forbidden" else "confirm"
        lines.append(
            (f"{mark}: {b}", style.GHOST_BAD if b.severity == "forbidden" else style.GHOST_ASK)
        )
    if not check.breaches:
        lines.append((hint or f"{_commit_word(held)} to move; Esc cancels", colour))
    return lines
