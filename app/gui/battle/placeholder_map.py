"""A plain stand-in for the battle map (``app.gui.battle.map.BattleMap``, built on its own
branch), with the same names: the table and the units as rectangles in their sides'
colours, a click selects, a right-click on an enemy asks to act on it. It lets the window,
its docks and its tests work before the real map lands; the window switches to the real
map by changing one import (:mod:`app.gui.battle.map_view`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QMouseEvent,
    QPainter,
    QPen,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QGraphicsPolygonItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from app.core.battle.state import BattleState
from app.rules.mechanics import Mechanics

#: pixels per table unit in the scene (the view scales it to fit)
SCALE = 20.0
SIDE_COLOURS = (QColor("#b03a2e"), QColor("#2e5fa8"))
UNIT_ROLE = 0


class BattleMap(QGraphicsView):
    unitSelected = Signal(str)
    targetRequested = Signal(str, str)
    commandRequested = Signal(object)
    measured = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("battleMap")
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setBackgroundBrush(QBrush(QColor("#3b3b35")))
        self._state: BattleState | None = None
        self._mechanics: Mechanics | None = None
        self._selected: str | None = None
        self._read_only = False
        self.overlays: dict[str, bool] = {}
        self.grid = False
        self.tool = "select"

    # ------------------------------------------------------------------ the contract

    def show_state(
        self, state: BattleState, mechanics: Mechanics, *, read_only: bool = False
    ) -> None:
        first = self._state is None
        self._state = state
        self._mechanics = mechanics
        self._read_only = read_only
        scene = self.scene()
        scene.clear()
        table = scene.addRect(
            QRectF(0, 0, state.width * SCALE, state.height * SCALE),
            QPen(QColor("#222")),
            QBrush(QColor("#8fa86a") if not read_only else QColor("#a9a98f")),
        )
        table.setZValue(-10)
        for piece in state.terrain:
            poly = QPolygonF([QPointF(x * SCALE, y * SCALE) for x, y in piece.points])
            item = QGraphicsPolygonItem(poly)
            item.setBrush(QBrush(QColor(90, 110, 60, 160)))
            scene.addItem(item)
        for u in state.units:
            if u.status.eliminated:
                continue
            rect = QGraphicsRectItem(
                -u.width * SCALE / 2, -u.depth * SCALE / 2, u.width * SCALE, u.depth * SCALE
            )
            rect.setPos(u.x * SCALE, u.y * SCALE)
            rect.setRotation(u.facing)
            colour = SIDE_COLOURS[u.side]
            rect.setBrush(QBrush(colour.lighter(150) if u.id == self._selected else colour))
            rect.setPen(QPen(QColor("#ffd700") if u.id == self._selected else QColor("#111"), 2))
            rect.setData(UNIT_ROLE, u.id)
            scene.addItem(rect)
            label = QGraphicsSimpleTextItem(u.id, rect)
            label.setBrush(QBrush(QColor("#fff")))
            label.setFlag(QGraphicsSimpleTextItem.GraphicsItemFlag.ItemIgnoresTransformations)
            label.setPos(-u.width * SCALE / 2, u.depth * SCALE / 2)
        scene.setSceneRect(
            QRectF(-SCALE, -SCALE, (state.width + 2) * SCALE, (state.height + 2) * SCALE)
        )
        if first:
            self.fit_table()

    def fit_table(self) -> None:
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def selected_unit(self) -> str | None:
        return self._selected

    def select_unit(self, unit_id: str | None) -> None:
        self._selected = unit_id
        if self._state is not None and self._mechanics is not None:
            self.show_state(self._state, self._mechanics, read_only=self._read_only)

    def toggle_overlay(self, name: str, on: bool) -> None:
        self.overlays[name] = on

    def set_grid(self, on: bool) -> None:
        self.grid = on

    def set_tool(self, name: str) -> None:
        self.tool = name

    def rotate_selected(self, deg: float) -> None:
        if self._state is None or self._selected is None or self._read_only:
            return
        from app.core.battle import MoveUnit

        u = self._state.unit(self._selected)
        self.commandRequested.emit(MoveUnit(unit=u.id, x=u.x, y=u.y, facing=(u.facing + deg) % 360))

    def export_png(self, path: str | Path) -> bool:
        rect = self.scene().sceneRect()
        image = QImage(int(rect.width()) or 1, int(rect.height()) or 1, QImage.Format.Format_ARGB32)
        image.fill(QColor("#ffffff"))
        painter = QPainter(image)
        self.scene().render(painter)
        painter.end()
        return image.save(str(path))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_table()

    # ------------------------------------------------------------------ mouse

    def _unit_at(self, event: QMouseEvent) -> str | None:
        for item in self.items(event.position().toPoint()):
            unit = item.data(UNIT_ROLE)
            if unit is None and item.parentItem() is not None:
                unit = item.parentItem().data(UNIT_ROLE)
            if unit is not None:
                return str(unit)
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        unit = self._unit_at(event)
        if unit is None:
            super().mousePressEvent(event)
            return
        if event.button() == Qt.MouseButton.RightButton and self._selected not in (None, unit):
            assert self._selected is not None
            self.targetRequested.emit(self._selected, unit)
            return
        self.select_unit(unit)
        self.unitSelected.emit(unit)
