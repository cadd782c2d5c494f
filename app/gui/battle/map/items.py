"""The map's items: the table and its grid, terrain pieces, leaders (units are
:mod:`app.gui.battle.map.unit_item`). Items
mirror core values and never change the battle; an item is updated in place when its value
changes (no churn of items), and caches its drawing (``DeviceCoordinateCache``, where Qt can
keep it: :func:`cache_mode`), as in Qt's "40000 chips" example: ``paint`` only draws what
``set_*`` prepared."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from app.core.battle.state import BattleLeader
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.rules.table import TerrainPiece

if TYPE_CHECKING:
    from app.gui.battle.map.unit_item import UnitItem

CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache
NO_CACHE = QGraphicsItem.CacheMode.NoCache


def cache_mode(rotation: float) -> QGraphicsItem.CacheMode:
    """:data:`CACHE` for an item turned by a right angle (or not at all); none for any other
    turn. Qt keeps a device cache only for a simple transform: an item turned by 5 degrees
    has its cache drawn afresh on every paint, so there the cache only adds a pixmap to fill
    and copy each time (a battle where every unit has turned drew 1,000 such pixmaps on
    every repaint)."""
    return CACHE if rotation % 90 == 0 else NO_CACHE


#: Z order: cloth, terrain, grid, units, leaders, overlays, ghost. The units stand at 0,
#: Qt's own, so that the thousand units of a big battle need not be told theirs.
Z_TABLE, Z_TERRAIN, Z_GRID, Z_UNIT, Z_OVERLAY, Z_GHOST = -30, -20, -10, 0, 10, 20


class TableItem(QGraphicsItem):
    """The cloth: the table at its real size."""

    def __init__(self) -> None:
        super().__init__()
        self._rect = QRectF()
        self.setZValue(Z_TABLE)
        self.setCacheMode(CACHE)

    def set_size(self, rect: QRectF) -> None:
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2, -2, 2, 2)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(style.cosmetic(style.CLOTH_EDGE, 2.0))
        painter.setBrush(style.CLOTH)
        painter.drawRect(self._rect)


class GridItem(QGraphicsItem):
    """Lines every unit of measure (every inch; every unit width in GSB), stronger every
    ``major`` units. Hidden unless the grid is on."""

    def __init__(self) -> None:
        super().__init__()
        self._rect = QRectF()
        self._minor: list[tuple[QPointF, QPointF]] = []
        self._major: list[tuple[QPointF, QPointF]] = []
        self.setZValue(Z_GRID)
        self.setCacheMode(CACHE)
        self.setVisible(False)

    def set_table(self, frame: Frame, width: float, height: float, major: int) -> None:
        self.prepareGeometryChange()
        self._rect = QRectF(0, 0, frame.length(width), frame.length(height))
        self._minor, self._major = [], []
        for i in range(int(width) + 1):
            line = (frame.to_scene(i, 0), frame.to_scene(i, height))
            (self._major if i % major == 0 else self._minor).append(line)
        for j in range(int(height) + 1):
            line = (frame.to_scene(0, j), frame.to_scene(width, j))
            (self._major if j % major == 0 else self._minor).append(line)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(style.cosmetic(style.GRID_MINOR, 1.0))
        for a, b in self._minor:
            painter.drawLine(a, b)
        painter.setPen(style.cosmetic(style.GRID_MAJOR, 1.0))
        for a, b in self._major:
            painter.drawLine(a, b)


def terrain_shape(piece: TerrainPiece, frame: Frame) -> QPainterPath:
    """The piece's outline in scene units: an area's polygon, or a line's band (its width,
    round joints and ends, as :meth:`TerrainPiece.contains` reads it)."""
    pts = [frame.to_scene(x, y) for x, y in piece.points]
    path = QPainterPath()
    if piece.linear:
        line = QPainterPath(pts[0])
        for p in pts[1:]:
            line.lineTo(p)
        stroker = QPainterPathStroker()
        stroker.setWidth(frame.length(piece.width or 1.0))
        stroker.setCapStyle(Qt.PenCapStyle.RoundCap)
        stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        return stroker.createStroke(line).simplified()
    path.addPolygon(QPolygonF([*pts, pts[0]]))
    path.closeSubpath()
    return path


class TerrainItem(QGraphicsItem):
    """One terrain piece drawn by kind: a fill with its pattern and outline; a river, stream
    or road as a wide band along its line."""

    def __init__(self, piece: TerrainPiece, frame: Frame) -> None:
        super().__init__()
        self.piece = piece
        self._path = QPainterPath()
        self._centre = QPainterPath()
        self._font = QFont()
        self.setCacheMode(CACHE)
        self.set_piece(piece, frame)

    def set_piece(self, piece: TerrainPiece, frame: Frame) -> None:
        self.prepareGeometryChange()
        self.piece = piece
        self._path = terrain_shape(piece, frame)
        self._centre = QPainterPath()
        if piece.linear:
            pts = [frame.to_scene(x, y) for x, y in piece.points]
            self._centre.moveTo(pts[0])
            for p in pts[1:]:
                self._centre.lineTo(p)
        z = Z_TERRAIN + (2 if piece.kind == "ford" else 1 if piece.linear else 0)
        self.setZValue(z)
        self._font.setPointSizeF(style.SCENE_PER_INCH * 0.5)
        self.setToolTip(
            f"{style.look(piece.kind).label} {piece.id}" + (f": {piece.name}" if piece.name else "")
        )
        self.update()

    def boundingRect(self) -> QRectF:
        return self._path.boundingRect().adjusted(-1, -1, 1, 1)

    def shape(self) -> QPainterPath:
        return self._path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        lk = style.look(self.piece.kind)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(style.cosmetic(lk.outline, 1.2))
        painter.setBrush(lk.fill)
        painter.drawPath(self._path)
        if lk.pattern != Qt.BrushStyle.NoBrush:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(lk.pattern_colour, lk.pattern))
            painter.drawPath(self._path)
        if self.piece.kind in ("river", "stream"):
            painter.setPen(style.cosmetic(QColor(255, 255, 255, 90), 1.0, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._centre)
        if self.piece.name:
            painter.setFont(self._font)
            painter.setPen(QColor(30, 30, 20, 200))
            r = self._path.boundingRect()
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, self.piece.name)


class LeaderItem(QGraphicsItem):
    """A leader: a marker on the rear left corner of the unit he is attached to (a child of
    its item, so it moves and turns with it), or on his own where he stands alone. A general
    is gold, a commander silver; wounded leaders have a red ring."""

    def __init__(self, leader: BattleLeader, frame: Frame) -> None:
        super().__init__()
        self.leader = leader
        self._r = frame.k * 0.35
        self._font = QFont()
        self.setZValue(Z_UNIT + 1)
        self.setCacheMode(CACHE)
        self.set_leader(leader, frame, None)

    def set_leader(self, leader: BattleLeader, frame: Frame, host: UnitItem | None) -> None:
        self.leader = leader
        self._r = style.SCENE_PER_INCH * 0.28
        self._font.setPointSizeF(self._r * 1.1)
        if self.parentItem() is not host:
            self.setParentItem(host)  # type: ignore[arg-type]  # None: no parent
        if host is not None:
            # on the rear left corner, upright whatever the unit's facing
            b = host.body
            pos = QPointF(b.left(), b.bottom())
            rotation = -host.rotation()
        else:
            pos, rotation = frame.to_scene(leader.x, leader.y), 0.0
        if pos != self.pos():
            self.setPos(pos)
        if rotation != self.rotation():
            self.setRotation(rotation)
        wound = (
            f", {leader.wounds} wound{'s' if leader.wounds != 1 else ''}" if leader.wounds else ""
        )
        self.setToolTip(f"{leader.name} ({leader.rank}, {leader.status}{wound})")
        self.update()

    def boundingRect(self) -> QRectF:
        r = self._r + 1.5
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill = style.LEADER[0 if self.leader.rank == "general" else 1]
        ring = QColor("#d32f2f") if self.leader.status == "wounded" else QColor("#202020")
        painter.setPen(style.cosmetic(ring, 1.5))
        painter.setBrush(fill)
        painter.drawEllipse(QPointF(0, 0), self._r, self._r)
        painter.setFont(self._font)
        painter.setPen(QColor("#202020"))
        letter = "G" if self.leader.rank == "general" else "C"
        painter.drawText(self.boundingRect(), Qt.AlignmentFlag.AlignCenter, letter)
