"""The scene that mirrors a battle state: one item per unit, leader and terrain piece, kept
across states and updated in place, so showing the next state after a command touches only
what the command changed (a moved unit gets one ``setPos``; nothing else is rebuilt). The
units' labels are laid out for the zoom (:mod:`app.gui.battle.map.plates`) when the zoom or
the units change, never while painting."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
)

from app.collector import collector_paused
from app.core.battle.look import BattleLook
from app.core.battle.state import BattleState, BattleUnit
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame
from app.gui.battle.map.items import (
    Z_GRID,
    GridItem,
    LeaderItem,
    TableItem,
    TerrainItem,
)
from app.gui.battle.map.plates import Layout
from app.gui.battle.map.unit_item import UnitItem, UnitLook, plain_look
from app.rules.values import frozen_made

#: Margin of scene around the table, in scene units (room to pan and for labels).
MARGIN = 60.0


class MapScene(QGraphicsScene):
    def __init__(self) -> None:
        super().__init__()
        self.frame = Frame()
        self.table = TableItem()
        self.grid = GridItem()
        self.addItem(self.table)
        self.addItem(self.grid)
        self.units: dict[str, UnitItem] = {}
        self.leaders: dict[str, LeaderItem] = {}
        self.terrain: dict[str, TerrainItem] = {}
        self.zones = QGraphicsPathItem()
        self.zones.setZValue(Z_GRID - 1)
        self.zones.setVisible(False)
        self.addItem(self.zones)
        self._size: tuple[float, float] = (0.0, 0.0)
        self._grid_step = 6
        self.look: BattleLook | None = None
        self._colours: tuple[tuple[QColor, QColor], ...] = ()
        #: device pixels per scene unit the labels are laid out for (0: not yet)
        self.ppu = 0.0
        #: text and room of the labels, times the screen's (an exported image's are larger)
        self.text_scale = 1.0
        #: the labels as laid out for the zoom (None before one)
        self.layout: Layout | None = None
        self._touched: set[str] = set()
        self._restructured = False

    @property
    def table_rect(self) -> QRectF:
        w, h = self._size
        return QRectF(0, 0, self.frame.length(w), self.frame.length(h))

    def show_state(
        self,
        state: BattleState,
        frame: Frame,
        strength_unit: str,
        major: int,
        look: BattleLook | None = None,
    ) -> int:
        """Mirror ``state`` (its units told apart by ``look``: colours, labels, symbols);
        returns how many items changed."""
        changed = 0
        relook = look is not self.look
        if relook:
            self.look = look
            self._colours = (
                tuple((QColor(s.colour), QColor(s.colour).darker(230)) for s in look.sides)
                if look is not None
                else ()
            )
        if frame != self.frame or (state.width, state.height) != self._size:
            self.frame = frame
            self._size = (state.width, state.height)
            self.table.set_size(self.table_rect)
            self.grid.set_table(frame, state.width, state.height, major)
            m = MARGIN
            self.setSceneRect(self.table_rect.adjusted(-m, -m, m, m))
            changed += 1
        changed += self._sync_terrain(state, frame)
        self._touched = set()
        self._restructured = False
        changed += self._sync_units(state, frame, strength_unit, relook)
        changed += self._sync_leaders(state, frame)
        if self._touched or self._restructured:
            self._relabel(fresh=relook)
        return changed

    def unit_look(self, unit: BattleUnit) -> UnitLook:
        look = self.look
        if look is None or unit.id not in look.labels:
            return plain_look(unit)
        fill, dark = self._colours[unit.side]
        # one a unit, each time the battle's look is shown: every field at once
        return frozen_made(
            UnitLook,
            {
                "fill": fill,
                "dark": dark,
                "label": look.labels[unit.id],
                "symbol": look.symbols.get(unit.id),
                "troop": look.troops.get(unit.id, ""),
                "side": look.sides[unit.side].name,
            },
        )

    def set_zoom(self, ppu: float) -> None:
        """The view now shows ``ppu`` device pixels per scene unit: labels laid out again."""
        if abs(ppu - self.ppu) > 1e-9 * max(ppu, 1.0):
            self.ppu = ppu
            self.lay_out_labels()

    def lay_out_labels(self) -> int:
        """Lay out every unit's label afresh for the zoom and text scale (nothing before a
        view sets a zoom); returns how many changed."""
        if self.ppu <= 0:
            return 0
        self.layout = Layout(self.ppu, self.text_scale)
        with collector_paused():
            return self.layout.full(list(self.units.values()))

    def _relabel(self, *, fresh: bool) -> int:
        """Labels after a new state: afresh for new labels (``fresh``); else the tags still
        clear stay, and where few units changed only theirs and those in their way are
        laid out again."""
        if self.ppu <= 0:
            return 0
        items = list(self.units.values())
        layout = self.layout
        if fresh:
            return self.lay_out_labels()
        if (
            layout is None
            or self._restructured
            or (layout.ppu, layout.scale) != (self.ppu, self.text_scale)
            or len(self._touched) * 4 > len(items)
        ):
            self.layout = Layout(self.ppu, self.text_scale)
            return self.layout.full(items, keep=True)
        return layout.update(items, [self.units[uid] for uid in self._touched if uid in self.units])

    def _sync_terrain(self, state: BattleState, frame: Frame) -> int:
        changed = 0
        seen = set()
        for piece in state.terrain:
            seen.add(piece.id)
            item = self.terrain.get(piece.id)
            if item is None:
                item = TerrainItem(piece, frame)
                self.terrain[piece.id] = item
                self.addItem(item)
                changed += 1
            elif item.piece != piece or frame != self.frame:
                item.set_piece(piece, frame)
                changed += 1
        for gone in set(self.terrain) - seen:
            self.removeItem(self.terrain.pop(gone))
            changed += 1
        return changed

    def _sync_units(
        self, state: BattleState, frame: Frame, strength_unit: str, relook: bool
    ) -> int:
        changed = 0
        seen = set()
        for unit in state.units:
            seen.add(unit.id)
            item = self.units.get(unit.id)
            if item is None:
                item = UnitItem(unit, frame, strength_unit, self.unit_look(unit))
                self.units[unit.id] = item
                self.addItem(item)
                self._restructured = True
                changed += 1
                continue
            if item.set_unit(unit, frame):
                self._touched.add(unit.id)
                changed += 1
            if relook and item.set_look(self.unit_look(unit)):
                self._touched.add(unit.id)
                changed += 1
        for gone in set(self.units) - seen:
            self.removeItem(self.units.pop(gone))
            self._restructured = True
            changed += 1
        return changed

    def _sync_leaders(self, state: BattleState, frame: Frame) -> int:
        changed = 0
        seen = set()
        for leader in state.leaders:
            if not leader.active:
                continue
            seen.add(leader.id)
            host = self.units.get(leader.attached_to) if leader.attached_to else None
            item = self.leaders.get(leader.id)
            if item is None:
                item = LeaderItem(leader, frame)
                self.leaders[leader.id] = item
                if host is None:
                    self.addItem(item)
                item.set_leader(leader, frame, host)
                changed += 1
            elif item.leader != leader or item.parentItem() is not host or host is not None:
                if item.leader != leader or item.parentItem() is not host:
                    # the marker moved on or off a base: that unit's labels are looked at again
                    for unit in (item.parentItem(), host):
                        if isinstance(unit, UnitItem):
                            self._touched.add(unit.unit_id)
                if item.scene() is None and host is None:
                    self.addItem(item)
                item.set_leader(leader, frame, host)
                changed += 1
        for gone in set(self.leaders) - seen:
            item = self.leaders.pop(gone)
            parent = item.parentItem()
            if isinstance(parent, UnitItem):
                self._touched.add(parent.unit_id)
            if item.scene() is not None:
                item.scene().removeItem(item)
            changed += 1
        return changed

    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:
        """A unit's tooltip is written when Qt is about to show it (:meth:`UnitItem.
        refresh_tooltip`), for the units under the pointer; Qt then shows it as ever."""
        for item in self.items(event.scenePos(), Qt.ItemSelectionMode.IntersectsItemBoundingRect):
            unit = _unit_of(item)
            if unit is not None:
                unit.refresh_tooltip()
        super().helpEvent(event)

    def show_zones(self, zones: tuple[tuple[tuple[float, float], ...], ...] | None) -> None:
        """Outline the sides' deployment zones (None: hide them)."""
        if not zones:
            self.zones.setVisible(False)
            return
        path = QPainterPath()
        for zone in zones:
            pts = [self.frame.to_scene(x, y) for x, y in zone]
            path.addPolygon(QPolygonF([*pts, pts[0]]))
        self.zones.setPath(path)
        self.zones.setPen(style.cosmetic(QColor(40, 40, 40, 160), 1.5))
        self.zones.setBrush(QColor(255, 255, 255, 55))
        self.zones.setVisible(True)

    # ------------------------------------------------------------------ look-ups

    def unit_at(self, pos: QPointF) -> UnitItem | None:
        for item in self.items(pos):
            found = _unit_of(item)
            if found is not None and not found.unit.status.eliminated:
                return found
        return None

    def terrain_at(self, pos: QPointF) -> TerrainItem | None:
        for item in self.items(pos):
            if isinstance(item, TerrainItem) and item.shape().contains(pos):
                return item
        return None


def _unit_of(item: QGraphicsItem) -> UnitItem | None:
    while item is not None:
        if isinstance(item, UnitItem):
            return item
        item = item.parentItem()
    return None
