"""Terrain editing on the map: drawing a new piece of a kind by clicks (double-click or
Enter finishes it), and editing a piece -- dragging a corner or the whole piece, inserting
a corner with a double-click on an edge, removing one, deleting the piece. Each finished
edit is one core command (:class:`AddTerrain`, :class:`EditTerrain`,
:class:`RemoveTerrain`), so it is undoable like any step; the core checks the shape."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from app.core.battle.terrain import AddTerrain, EditTerrain, RemoveTerrain
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.gui.battle.map.items import Z_GHOST
from app.rules.geometry import Point, point_segment_distance
from app.rules.table import LINEAR_KINDS, TerrainError, TerrainKind, TerrainPiece

Points = tuple[Point, ...]
#: Grab distance of a corner handle, in screen pixels.
HANDLE_PX = 7.0


def _round(p: Point) -> Point:
    return (round(p[0], 3), round(p[1], 3))


def shape_problem(kind: TerrainKind, points: Points, width: float | None) -> str | None:
    """Why these points cannot make a piece (the core's own check), or None."""
    try:
        TerrainPiece("new", kind, points, width=width if kind in LINEAR_KINDS else None)
    except TerrainError as exc:
        return str(exc)
    return None


class Outline(QGraphicsPathItem):
    """The piece being drawn or edited: its outline, dashed, and a square at each corner."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_GHOST)
        self.handles = HandleSet(self)

    def show_points(self, points: Points, frame: Frame, closed: bool, ok: bool) -> None:
        path = QPainterPath()
        pts = [frame.to_scene(x, y) for x, y in points]
        if pts:
            path.moveTo(pts[0])
            for p in pts[1:]:
                path.lineTo(p)
            if closed and len(pts) > 2:
                path.closeSubpath()
        self.setPath(path)
        colour = QColor("#1565c0") if ok else style.GHOST_BAD
        self.setPen(style.cosmetic(colour, 2.0, Qt.PenStyle.DashLine))
        self.handles.set_points(pts)


class HandleSet(QGraphicsItem):
    """Corner handles drawn the same size at any zoom."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self._pts: list[QPointF] = []
        self._bounds = QRectF()

    def set_points(self, pts: list[QPointF]) -> None:
        self.prepareGeometryChange()
        self._pts = pts
        path = QPainterPath()
        for p in pts:
            path.addRect(QRectF(p.x() - 1, p.y() - 1, 2, 2))
        self._bounds = path.boundingRect().adjusted(-20, -20, 20, 20)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        t = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        painter.setPen(style.cosmetic(QColor("#0d47a1"), 1.0))
        painter.setBrush(QColor("#ffffff"))
        for p in self._pts:
            q = t.map(p)
            painter.drawRect(QRectF(q.x() - 4, q.y() - 4, 8, 8))
        painter.restore()


class TerrainDraw:
    """A new piece of ``kind`` drawn by clicks."""

    def __init__(
        self, kind: TerrainKind, frame: Frame, outline: Outline, width: float | None
    ) -> None:
        self.kind = kind
        self.frame = frame
        self.outline = outline
        self.width = width
        self.points: list[Point] = []
        self.hover: Point | None = None

    @property
    def linear(self) -> bool:
        return self.kind in LINEAR_KINDS

    def click(self, p: Point) -> None:
        p = _round(p)
        if not self.points or math.dist(self.points[-1], p) > 1e-6:
            self.points.append(p)
        self._show()

    def move(self, p: Point) -> None:
        self.hover = _round(p)
        self._show()

    def undo_point(self) -> None:
        if self.points:
            self.points.pop()
        self._show()

    def problem(self) -> str | None:
        return shape_problem(self.kind, tuple(self.points), self.width or 1.0)

    def finish(self) -> AddTerrain | None:
        """The command placing the piece, or None when it cannot make one (the outline
        stays for the user to go on)."""
        if self.problem() is not None:
            return None
        return AddTerrain(terrain=self.kind, points=tuple(self.points))

    def _show(self) -> None:
        pts = list(self.points)
        if self.hover is not None:
            pts.append(self.hover)
        ok = shape_problem(self.kind, tuple(pts), self.width or 1.0) is None
        self.outline.show_points(tuple(pts), self.frame, not self.linear, ok or len(pts) < 3)
        self.outline.setVisible(True)


class TerrainEdit:
    """Editing one existing piece: corners and the whole piece dragged, corners inserted
    and removed."""

    def __init__(self, piece: TerrainPiece, frame: Frame, outline: Outline) -> None:
        self.piece = piece
        self.frame = frame
        self.outline = outline
        self.points: list[Point] = list(piece.points)
        self.grab: int | None = None  # corner index, or -1 for the whole piece
        self.grab_from: Point = (0.0, 0.0)
        self._show()

    def corner_at(self, p: Point, tolerance: float) -> int | None:
        best = min(
            range(len(self.points)), key=lambda i: math.dist(self.points[i], p), default=None
        )
        if best is not None and math.dist(self.points[best], p) <= tolerance:
            return best
        return None

    def press(self, p: Point, tolerance: float, inside: bool) -> bool:
        """Grab a corner (or the piece when ``inside``); whether anything was grabbed."""
        self.grab = self.corner_at(p, tolerance)
        if self.grab is None and inside:
            self.grab = -1
        self.grab_from = p
        return self.grab is not None

    def drag(self, p: Point) -> None:
        if self.grab is None:
            return
        if self.grab == -1:
            dx, dy = p[0] - self.grab_from[0], p[1] - self.grab_from[1]
            self.points = [_round((x + dx, y + dy)) for x, y in self.piece.points]
        else:
            self.points[self.grab] = _round(p)
        self._show()

    def release(self) -> EditTerrain | None:
        self.grab = None
        return self._edit()

    def insert_at(self, p: Point, tolerance: float) -> EditTerrain | None:
        """Insert a corner on the edge nearest ``p`` (within ``tolerance``)."""
        pts = self.points
        n = len(pts)
        edges = range(1, n) if self.piece.linear else range(n)
        best, where = math.inf, None
        for i in edges:
            d = point_segment_distance(p, pts[i - 1], pts[i])
            if d < best:
                best, where = d, i
        if where is None or best > tolerance:
            return None
        self.points.insert(where if where > 0 else n, _round(p))
        return self._edit()

    def remove_corner(self, index: int) -> EditTerrain | None:
        if not 0 <= index < len(self.points):
            return None
        del self.points[index]
        return self._edit()

    def delete(self) -> RemoveTerrain:
        return RemoveTerrain(id=self.piece.id)

    def cancel(self) -> None:
        self.points = list(self.piece.points)
        self.grab = None
        self._show()

    def _edit(self) -> EditTerrain | None:
        if tuple(self.points) == self.piece.points:
            return None
        return EditTerrain(id=self.piece.id, points=tuple(self.points))

    def _show(self) -> None:
        ok = shape_problem(self.piece.kind, tuple(self.points), self.piece.width) is None
        self.outline.show_points(tuple(self.points), self.frame, not self.piece.linear, ok)
        self.outline.setVisible(True)
