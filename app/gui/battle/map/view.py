"""The battle map: the table at its real size, terrain, units and leaders, and the mouse and
keyboard ways of acting on them -- select, drag to move or deploy (a ghost shows the
mechanics' verdict as it goes), rotate, wheel, measure, draw and edit terrain.

The map never changes the battle: it emits ``commandRequested`` with a core command (a
:class:`MoveUnit` with its legs, a :class:`Deploy`, a terrain edit); the window executes
it through the session and calls :meth:`BattleMap.show_state` again. It never decides a
rule: every cost, limit and verdict comes from the mechanics.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsView, QMessageBox, QRubberBand, QWidget

from app.core.battle.look import BattleLook, battle_look, look_key
from app.core.battle.reach import ruler
from app.core.battle.state import BattleState
from app.gui.battle.map.frame import Frame, Point
from app.gui.battle.map.ghost import ADVICE_HINT, Ghost, Label, ghost_lines
from app.gui.battle.map.group_tool import GroupDrag, GroupGhost
from app.gui.battle.map.grouping import SNAP, GroupMoves
from app.gui.battle.map.image import map_image
from app.gui.battle.map.legend import LegendWidget
from app.gui.battle.map.menu import HINTS, map_menu
from app.gui.battle.map.move_tool import MoveTool, Verdict, handle_angle
from app.gui.battle.map.overlays import OVERLAYS, OverlayLayer, RulerLine
from app.gui.battle.map.scene import MapScene
from app.gui.battle.map.terrain_tool import Outline, TerrainDraw, TerrainEdit
from app.gui.battle.map.unit_item import HANDLE_R
from app.rules.measure import mm_per_unit
from app.rules.mechanics import Mechanics, TurnView
from app.rules.movement import MoveCheck, MoveReason
from app.rules.paths import Leg
from app.rules.table import TERRAIN_KINDS, TerrainKind, default_width
from app.storefiles import is_store_file

#: Degrees a unit turns for Q / E, and for each notch of the wheel with a modifier.
KEY_TURN = 15.0
WHEEL_TURN = 5.0
#: Pixels the pointer must travel before a press becomes a drag.
DRAG_START = 4
ZOOM_STEP = 1.15
#: How long the wheel must rest before the labels are laid out for the new zoom (ms).
RELABEL_MS = 120
TOOLS = ("select", "ruler", "terrain:edit", *(f"terrain:{k}" for k in TERRAIN_KINDS))


def _call(ask: weakref.WeakMethod[Any], title: str, text: str) -> bool:
    """Ask through the view's own question while the view lives (else: no)."""
    method = ask()
    return method is not None and method(title, text)


class BattleMap(QGraphicsView):
    """The central widget of the battle window (see the module's docstring).

    Signals: ``unitSelected(unit id or "")`` (the selected unit, or with several selected
    the one the Unit dock shows); ``targetRequested(unit, target)``;
    ``commandRequested(command)``; ``measured(RulerReading)``; ``message(text)`` (a line
    for the status bar: why a move was refused, what a tool does)."""

    unitSelected = Signal(str)
    targetRequested = Signal(str, str)
    #: the selected unit is to charge this enemy (the map's context menu)
    chargeRequested = Signal(str, str)
    commandRequested = Signal(object)
    measured = Signal(object)
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.map_scene = MapScene()
        self.setScene(self.map_scene)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setBackgroundBrush(Qt.GlobalColor.darkGray)
        self.state: BattleState | None = None
        self.mechanics: Mechanics | None = None
        self.read_only = False
        #: why the units move when dragged (the window sets "charge", "evade", ...)
        self.move_reason: MoveReason = "move"
        #: asks the umpire a yes/no question (tests replace it)
        # (through a weak reference: the view holding its own bound method kept it, its scene
        # and its 1,000 items for the collector to find once the window was gone)
        ask = weakref.WeakMethod(self._ask)
        self.confirm: Callable[[str, str], bool] = lambda title, text: _call(ask, title, text)
        self._view: TurnView | None = None
        self._selected: str | None = None
        #: the units selected together (the selected unit among them), or () for one
        self._group: tuple[str, ...] = ()
        self._target: str | None = None
        self._tool = "select"
        self._symbol = '"'
        self._mm = 25.4
        self.ghost = Ghost()
        self.ghost.setVisible(False)
        self.map_scene.addItem(self.ghost)
        self.overlays = OverlayLayer(self.map_scene)
        self.ruler = RulerLine(self.map_scene)
        self.outline = Outline()
        self.outline.setVisible(False)
        self.map_scene.addItem(self.outline)
        self.move_tool: MoveTool | None = None
        self.group_tool: GroupDrag | None = None
        self.groups = GroupMoves(self)
        self.group_ghost = GroupGhost()
        self.group_ghost.setVisible(False)
        self.map_scene.addItem(self.group_ghost)
        self._band = QRubberBand(QRubberBand.Shape.Rectangle, self.viewport())
        self._band_from: QPoint | None = None
        self._band_add = False
        #: a unit Shift+clicked: added to or taken from the group on release, unless dragged
        self._toggle: str | None = None
        self.terrain_draw: TerrainDraw | None = None
        self.terrain_edit: TerrainEdit | None = None
        self._press: QPoint | None = None
        self._press_table: Point = (0.0, 0.0)
        self._dragging = False
        self._rotating = False
        self._pan: QPoint | None = None
        self._space = False
        self._ruler_from: tuple[Point, str | None] | None = None
        self._look: tuple[object, BattleLook] | None = None
        #: whether the whole table is in view as fitted (nobody zoomed since): it is
        #: fitted again when the map changes size
        self._whole = False
        self.legend = LegendWidget(self)
        self._relabel = QTimer(self)
        self._relabel.setSingleShot(True)
        self._relabel.setInterval(RELABEL_MS)
        self._relabel.timeout.connect(self._sync_zoom)

    # ------------------------------------------------------------------ public API

    def show_state(
        self, state: BattleState, mechanics: Mechanics, *, read_only: bool = False
    ) -> None:
        """Draw ``state``; call again after every command (only what changed is redrawn).
        ``read_only``: a past state shown by replay, nothing can be changed."""
        first = self.state is None
        self.cancel()
        self.state, self.mechanics, self.read_only = state, mechanics, read_only
        self._view = None
        self._mm = float(mm_per_unit(mechanics.ruleset))
        self._symbol = mechanics.length_symbol()
        frame = Frame.for_table(self._mm, state.height)
        major = 6 if mechanics.ruleset.meta.unit_of_measure == "inch" else 5
        look = self.look_of(state, mechanics)
        self.map_scene.show_state(state, frame, mechanics.strength_unit, major, look)
        self._place_legend(look)
        if self._selected is not None and self._selected not in self.map_scene.units:
            self._selected = None
        self._group = tuple(u for u in self._group if u in self.map_scene.units)
        if len(self._group) < 2 or self._selected not in self._group:
            self._group = ()
        if self._target is not None and self._target not in self.map_scene.units:
            self._target = None
        self._mark_selection()
        self.map_scene.show_zones(self._zones() if self.deploying else None)
        self._refresh_overlays()
        if first:
            # the labels wait for the first drawing: a window fits the table again once
            # its docks have taken their room, and only that zoom needs them
            self.fit_table(labels=False)

    def look_of(self, state: BattleState, mechanics: Mechanics) -> BattleLook:
        """How the battle's units are told apart (colours, labels, symbols), made once a
        battle: it changes only with the units' names, entries and troop types."""
        key = (mechanics.ruleset.id, mechanics.ruleset.meta.data_version, look_key(state))
        if self._look is None or self._look[0] != key:
            self._look = (key, battle_look(state, mechanics.ruleset))
        return self._look[1]

    def _place_legend(self, look: BattleLook | None = None) -> None:
        """The legend in the map's bottom left corner, its rows no wider than half the
        map."""
        legend = self.legend
        area = self.viewport().geometry()
        legend.set_look(look or legend.look, max(200, int(area.width() * 0.55)))
        legend.move(area.left() + 6, area.bottom() - legend.height() - 5)
        legend.raise_()

    def set_legend(self, on: bool) -> None:
        """Show or hide the legend (the map's context menu)."""
        self.legend.setVisible(on)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._whole:
            # the whole table was in view and nobody zoomed since: it stays in view at the
            # map's new size (a window enlarged or a dock closed), its labels once it rests
            self._fit()
            self._zoomed()
        self._place_legend()

    def _sync_zoom(self) -> None:
        """Lay the labels out for the zoom now, if it changed."""
        self._relabel.stop()
        self.map_scene.set_zoom(self.transform().m11())

    def _zoomed(self) -> None:
        """The zoom changed in a gesture (the wheel): the labels keep their layout, scaled,
        until the gesture has paused for :data:`RELABEL_MS`, then are laid out for it."""
        if abs(self.transform().m11() - self.map_scene.ppu) > 1e-9:
            self._relabel.start()

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.map_scene.ppu <= 0:
            self._sync_zoom()  # the first drawing: labels for the zoom before it
        else:
            self._zoomed()  # a zoom set by any means: labels for it once it rests
        super().paintEvent(event)

    @property
    def length_symbol(self) -> str:
        """The ruleset's unit as written after a length (``"``, `` UW``, `` cm``)."""
        return self._symbol

    @property
    def view_of_state(self) -> TurnView | None:
        """The mechanics' view of the state shown (built once per state, when first asked)."""
        if self._view is None and self.state is not None:
            self._view = self.state.view()
        return self._view

    @property
    def deploying(self) -> bool:
        """Whether units are deployed rather than moved now (the mechanics say deployment
        is open for the selected unit, or for the first unit)."""
        view, mech = self.view_of_state, self.mechanics
        if view is None or mech is None or not view.units:
            return False
        probe = self._selected or view.units[0].unit_id
        return mech.may_deploy(view, probe) is None

    def fit_table(self, *, labels: bool = True) -> None:
        """Show the whole table; ``labels``: lay the labels out for it now (else when the
        map is next drawn)."""
        if self._fit() and (labels or self.map_scene.ppu > 0):
            self._sync_zoom()

    def _fit(self) -> bool:
        """The whole table in view, with a small margin; False when there is no table."""
        rect = self.map_scene.table_rect
        if not rect.isValid():
            return False
        self._whole = True
        pad = max(rect.width(), rect.height()) * 0.02
        self.fitInView(rect.adjusted(-pad, -pad, pad, pad), Qt.AspectRatioMode.KeepAspectRatio)
        return True

    def selected_unit(self) -> str | None:
        return self._selected

    def selected_units(self) -> tuple[str, ...]:
        """Every unit selected: the group, or the one unit, or none."""
        if self._group:
            return self._group
        return (self._selected,) if self._selected else ()

    def select_unit(self, unit_id: str | None) -> None:
        """Select one unit (None: none), of either side."""
        unit_id = unit_id or None
        if unit_id is not None and unit_id not in self.map_scene.units:
            raise KeyError(f"no unit {unit_id!r} on the map")
        if unit_id == self._selected and not self._group:
            return
        self.cancel()
        self._group = ()
        self._set_primary(unit_id)

    def select_units(self, unit_ids: Sequence[str], primary: str | None = None) -> None:
        """Select several units of one side together: ``primary``'s (the first's by
        default), the Unit dock showing it; one unit is :meth:`select_unit`."""
        units = self.map_scene.units
        ids = [u for u in dict.fromkeys(unit_ids) if u in units]
        if primary not in ids:
            primary = ids[0] if ids else None
        if primary is not None:
            side = units[primary].unit.side
            ids = [u for u in ids if units[u].unit.side == side]
        if len(ids) < 2:
            self.select_unit(primary)
            return
        self.cancel()
        self._group = tuple(ids)
        self._set_primary(primary)
        self.message.emit(
            f"{len(ids)} units selected: drag one to move them together, or right-click > "
            "Move the group by a path."
        )

    def toggle_unit(self, unit_id: str) -> None:
        """Shift+click: add ``unit_id`` to the units selected, or take it out; a unit of
        the other side is selected alone."""
        sel = list(self.selected_units())
        units = self.map_scene.units
        if not sel or units[sel[0]].unit.side != units[unit_id].unit.side:
            self.select_unit(unit_id)
        elif unit_id in sel:
            sel.remove(unit_id)
            self.select_units(sel, self._selected if self._selected in sel else None)
        else:
            self.select_units([*sel, unit_id], self._selected)

    def _set_primary(self, unit_id: str | None) -> None:
        changed = unit_id != self._selected
        self._selected = unit_id
        self._mark_selection()
        self.map_scene.show_zones(self._zones() if self.deploying else None)
        self._refresh_overlays()
        if changed or not self._group:
            self.unitSelected.emit(unit_id or "")

    def set_target(self, unit_id: str | None) -> None:
        """Mark ``unit_id`` as the target of the action being prepared (the Actions dock's
        choice; None: no target): red corner marks, never the selection's yellow."""
        unit_id = unit_id if unit_id in self.map_scene.units else None
        if unit_id == self._target:
            return
        for uid in (self._target, unit_id):
            if uid is not None:
                self.map_scene.units[uid].set_targeted(uid == unit_id)
        self._target = unit_id

    @property
    def target(self) -> str | None:
        return self._target

    def units_in(self, rect: QRectF) -> list[str]:
        """The units (in the battle) whose bases a scene rectangle crosses."""
        return self.groups.units_in(rect)

    def command_of(self, unit_id: str) -> list[str]:
        """The units of ``unit_id``'s command or battlegroup, itself first."""
        return self.groups.command_of(unit_id)

    def drag_group_to(self, pointer: Point) -> None:
        """Push the selected units' ghosts by the pointer's travel from the press."""
        x, y = self._press_table
        self.groups.drag_group_by(pointer[0] - x, pointer[1] - y)

    def commit_group(self) -> bool:
        """Send the group's pending move (:meth:`GroupMoves.commit_group`)."""
        return self.groups.commit_group()

    def move_group_by(self, path: str) -> bool:
        """Move every selected unit along the same path (``forward 4``)."""
        return self.groups.move_group_by(path)

    def ask_group_path(self) -> None:
        self.groups.ask_group_path()

    def propose_move(self, unit_id: str, legs: Sequence[Leg]) -> bool:
        """Show ``legs`` as the pending move of ``unit_id`` (an entry of the Advisor dock):
        its ghost, checked by the mechanics as a drag is; Enter makes the move, Esc drops
        it. Nothing moves until then. False when the map cannot plan a move now."""
        self.select_unit(unit_id)
        self.setFocus()
        tool = self._ensure_move_tool()
        if tool is None or tool.deploy:
            return False
        tool.prefix = list(legs)
        tool.target = None
        verdict = tool.refresh()
        self._show_move(verdict)
        if tool.check is not None:
            self.ghost.label.set_lines(
                ghost_lines(tool.check, self._symbol, self.ghost.colour, hint=ADVICE_HINT)
            )
        return True

    def show_move_made(self, check: MoveCheck, hint: str) -> None:
        """Draw a move just made (Castra's) as a ghost: its path and end pose, with ``hint``
        under it, until the next change of the battle clears it."""
        self.ghost.show_check(check, self.map_scene.frame, self._symbol)
        self.ghost.label.set_lines(ghost_lines(check, self._symbol, self.ghost.colour, hint=hint))
        self.ghost.setVisible(True)

    def toggle_overlay(self, name: str, on: bool) -> None:
        """Show or hide an overlay for the selected unit: "reach", "range", "command",
        "los"."""
        self.overlays.toggle(name, on)
        self._refresh_overlays()

    @property
    def overlays_on(self) -> frozenset[str]:
        return frozenset(self.overlays.on)

    def set_grid(self, on: bool) -> None:
        self.map_scene.grid.setVisible(on)

    def set_tool(self, name: str) -> None:
        """ "select" (select, drag, rotate), "ruler", "terrain:edit" (move corners, delete)
        or "terrain:<kind>" (draw a piece of that kind)."""
        if name not in TOOLS:
            raise ValueError(
                f"no map tool {name!r} (tools: select, ruler, terrain:edit, terrain:<kind>)"
            )
        self.cancel()
        self.ruler.hide()
        self._tool = name
        self.message.emit(HINTS.get(name, HINTS["draw"].format(kind=name[8:])))

    @property
    def tool(self) -> str:
        return self._tool

    def rotate_selected(self, degrees: float, *, wheel: bool = False) -> None:
        """Turn the selected unit (a pending move: Enter or release commits it, Esc
        cancels); ``wheel`` wheels it about the front corner on the side it turns to."""
        tool = self._ensure_move_tool()
        if tool is None:
            return
        tool.rotate(degrees, wheel)
        self._show_move(tool.refresh())

    def export_png(self, path: str) -> bool:
        """Write the whole table (not just what is on screen) as a PNG, with the legend
        under it (:func:`~app.gui.battle.map.image.map_image`); False when it cannot be
        written (``path`` a file of the open store among the reasons)."""
        if is_store_file(Path(path)):
            return False
        image = self.map_image()
        return image is not None and bool(image.save(path, "PNG"))  # type: ignore[call-overload]

    def map_image(self) -> QImage | None:
        """The image :meth:`export_png` writes (None without a table)."""
        return map_image(self.map_scene)

    @property
    def busy(self) -> bool:
        """Whether the user is in the middle of something on the map (a press, a drag or a
        turn, a move being planned, a piece being drawn or edited): a reload waits."""
        return (
            self._press is not None
            or self._dragging
            or self._rotating
            or self.move_tool is not None
            or self.group_tool is not None
            or self.terrain_draw is not None
            or self.terrain_edit is not None
        )

    def cancel(self) -> None:
        """Drop whatever is under way (a pending move, a piece being drawn or edited)."""
        self.move_tool = None
        self.group_tool = None
        self._dragging = self._rotating = False
        self.ghost.setVisible(False)
        self.group_ghost.setVisible(False)
        self._band.hide()
        self._band_from = None
        self._toggle = None
        if self.terrain_draw is not None:
            self.terrain_draw = None
        if self.terrain_edit is not None:
            self.terrain_edit = None
        self.outline.setVisible(False)

    # ------------------------------------------------------------------ helpers

    def _zones(self) -> tuple[tuple[Point, ...], ...] | None:
        view, mech = self.view_of_state, self.mechanics
        if view is None or mech is None:
            return None
        return tuple(mech.deployment_zones(view))

    def _mark_selection(self) -> None:
        chosen = set(self.selected_units())
        for uid, item in self.map_scene.units.items():
            # the rotation handle turns one unit: shown only when one is selected
            item.set_selected(uid in chosen, primary=uid == self._selected and not self._group)

    def _refresh_overlays(self) -> None:
        self.overlays.refresh(
            self.mechanics, self.view_of_state, self._selected, self.map_scene.frame
        )

    def _table_point(self, pos: QPoint | QPointF) -> Point:
        scene = self.mapToScene(pos.toPoint() if isinstance(pos, QPointF) else pos)
        return self.map_scene.frame.to_table(scene)

    def _ask(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(
            self, title, text, defaultButton=QMessageBox.StandardButton.No
        )
        return answer == QMessageBox.StandardButton.Yes

    def _ensure_move_tool(self) -> MoveTool | None:
        if self.read_only or self._selected is None or self.mechanics is None:
            return None
        view = self.view_of_state
        if view is None:
            return None
        if self.move_tool is None or self.move_tool.unit_id != self._selected:
            self.move_tool = MoveTool(
                self.mechanics,
                view,
                self._selected,
                reason=self.move_reason,
                deploy=self.deploying,
                step=SNAP.get(self.mechanics.ruleset.meta.unit_of_measure, 0.1),
            )
        return self.move_tool

    def _show_move(self, verdict: Verdict) -> None:
        tool = self.move_tool
        if tool is None:
            return
        frame = self.map_scene.frame
        self.ghost.label.max_width = self.label_width()
        held = self._press is not None  # a drag; else the keys or the wheel turned it
        if tool.deploy:
            self.ghost.show_deploy(tool.deploy_pose(), verdict.breaches, frame, held=held)
        elif tool.check is not None:
            self.ghost.show_check(tool.check, frame, self._symbol, held=held)
        else:
            self.ghost.setVisible(False)
            return
        self.ghost.setVisible(True)
        self.keep_in_view(self.ghost.label)

    def commit_move(self, *, force: bool = False) -> bool:
        """Send the pending move (or deployment) if the mechanics allow it. Forbidden: refused
        with the rule's words, unless ``force`` and the umpire confirms (logged as an
        override); needing confirmation: asked. Returns whether a command was sent."""
        tool = self.move_tool
        if tool is None:
            return False
        verdict = tool.refresh()
        command = verdict.command
        self.cancel()
        if command is None:
            return False
        if verdict.forbidden and not force:
            self.message.emit("Not moved: " + "; ".join(str(b) for b in verdict.forbidden))
            return False
        if verdict.breaches:
            what = "\n".join(f"- {b}" for b in verdict.breaches)
            verb = "Force this move past the rules" if verdict.forbidden else "Confirm this move"
            if not self.confirm(
                "Confirm the move", f"{verb}? It is logged as an override.\n\n{what}"
            ):
                self.message.emit("Move cancelled.")
                return False
            command = replace(command, force=True)
        self.commandRequested.emit(command)
        return True

    def label_width(self) -> float:
        """Widest a card on the map may be: most of the map's width."""
        return max(220.0, self.viewport().width() * 0.7)

    def keep_in_view(self, label: Label) -> None:
        """Move ``label``'s card so that it stays inside the map's visible part: to the left
        of its anchor where it would run off the right edge (a drag near the right of the
        table at 1280 px ran its card off the window), up where it would run off the
        bottom."""
        label.set_offset(QPointF(0, 0))
        area = QRectF(self.viewport().rect()).adjusted(4, 4, -4, -4)
        anchor = QPointF(self.mapFromScene(label.scenePos()))
        size = label.boundingRect().size()
        dx = dy = 0.0
        if anchor.x() + size.width() > area.right():
            dx = max(area.right() - size.width(), area.left()) - anchor.x()
        if anchor.y() + size.height() > area.bottom():
            dy = max(area.bottom() - size.height(), area.top()) - anchor.y()
        if anchor.x() + dx < area.left():
            dx = area.left() - anchor.x()
        if anchor.y() + dy < area.top():
            dy = area.top() - anchor.y()
        # nor under the legend over the map's corner (a card drawn there was hidden): above
        # it where there is room, else beside it
        legend = QRectF(self.legend.geometry()).adjusted(-4, -4, 4, 4)
        card = QRectF(anchor + QPointF(dx, dy), size)
        if self.legend.isVisible() and card.intersects(legend):
            if legend.top() - size.height() >= area.top():
                dy = legend.top() - size.height() - anchor.y()
            elif legend.right() + size.width() <= area.right():
                dx = legend.right() - anchor.x()
        label.set_offset(QPointF(dx, dy))

    # ------------------------------------------------------------------ mouse

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus()
        pos = event.position().toPoint()
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._pan = pos
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self._press = pos
        self._press_table = self._table_point(pos)
        scene_pos = self.mapToScene(pos)
        if self._tool == "ruler":
            unit = self.map_scene.unit_at(scene_pos)
            self._ruler_from = (self._press_table, unit.unit_id if unit else None)
            return
        if self._tool.startswith("terrain:"):
            self._terrain_press(scene_pos, event)
            return
        unit = self.map_scene.unit_at(scene_pos)
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if unit is None:
            if self._on_handle(scene_pos):
                self._rotating = True
                return
            # a click on the ground selects nothing; a drag there draws a box to select in
            self._band_from, self._band_add = pos, shift
            return
        uid = unit.unit_id
        if shift and self.selected_units() and uid != self._selected:
            self._toggle = uid  # on release, unless the press becomes a drag
            return
        if uid in self._group and not self.deploying:
            self._set_primary(uid)  # the group stays: a drag moves it
            return
        # a unit of either side is selected: the target is chosen by the action
        self.select_unit(uid)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._pan is not None:
            delta = pos - self._pan
            self._pan = pos
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            return
        here = self._table_point(pos)
        if self.terrain_draw is not None:
            self.terrain_draw.move(here)
            return
        if self.terrain_edit is not None and self.terrain_edit.grab is not None:
            self.terrain_edit.drag(here)
            return
        if self._press is None or not event.buttons() & Qt.MouseButton.LeftButton:
            return
        if self._band_from is not None:
            if self._band.isVisible() or (pos - self._band_from).manhattanLength() >= DRAG_START:
                self._band.setGeometry(QRect(self._band_from, pos).normalized())
                self._band.show()
            return
        if self._toggle is not None:
            if (pos - self._press).manhattanLength() < DRAG_START:
                return
            self._toggle = None  # a Shift+drag: the units selected move
        if self._tool == "ruler" and self._ruler_from is not None:
            self._measure(here, self.mapToScene(pos), final=False)
            return
        if self._rotating:
            tool = self._ensure_move_tool()
            if tool is not None:
                shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
                wheel = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
                tool.set_rotation(handle_angle(tool.start, here, 1.0 if shift else 5.0), wheel)
                self._show_move(tool.refresh())
            return
        if not self._dragging and (pos - self._press).manhattanLength() < DRAG_START:
            return
        if self._group:
            self._dragging = True
            self.drag_group_to(here)
            return
        tool = self._ensure_move_tool()
        if tool is None:
            return
        self._dragging = True
        self.drag_unit_to(
            here, turn_to_face=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        )

    def drag_unit_to(self, pointer: Point, *, turn_to_face: bool = False) -> None:
        """Move the ghost of the selected unit as the pointer moves to ``pointer`` (table
        units) from where the drag started; checks the path and redraws the ghost."""
        tool = self._ensure_move_tool()
        if tool is None:
            return
        pose = tool.pivot_pose
        dx, dy = pointer[0] - self._press_table[0], pointer[1] - self._press_table[1]
        tool.drag_to((pose.x + dx, pose.y + dy), turn_to_face)
        self._show_move(tool.refresh())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan is not None and event.button() in (
            Qt.MouseButton.MiddleButton,
            Qt.MouseButton.LeftButton,
        ):
            self._pan = None
            self.viewport().unsetCursor()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mouseReleaseEvent(event)
            return
        here = self._table_point(event.position().toPoint())
        self._press = None
        if self._tool == "ruler" and self._ruler_from is not None:
            self._measure(here, self.mapToScene(event.position().toPoint()), final=True)
            self._ruler_from = None
            return
        if self.terrain_edit is not None and self.terrain_edit.grab is not None:
            self.send(self.terrain_edit.release())
            return
        if self._band_from is not None:
            start, self._band_from = self._band_from, None
            drawn = self._band.isVisible()
            self._band.hide()
            self.groups.release_band(
                start, event.position().toPoint(), drawn=drawn, add=self._band_add
            )
            return
        if self._toggle is not None:
            uid, self._toggle = self._toggle, None
            self.toggle_unit(uid)
            return
        if self._dragging and self.group_tool is not None:
            self._dragging = False
            self.commit_group()
            return
        if self._dragging or self._rotating:
            self._dragging = self._rotating = False
            force = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
            self.commit_move(force=force)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        if self.terrain_draw is not None:
            self.finish_terrain()
            return
        if self.terrain_edit is not None:
            here = self._table_point(event.position().toPoint())
            self.send(self.terrain_edit.insert_at(here, self.px_to_table(8)))
            return
        self.mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        mods = event.modifiers()
        if self._selected is not None and mods & (
            Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier
        ):
            # Alt: wheel about a front corner; Ctrl: turn about the centre
            if steps == 0:
                steps = event.angleDelta().x() / 120.0
            self.rotate_selected(
                steps * WHEEL_TURN, wheel=bool(mods & Qt.KeyboardModifier.AltModifier)
            )
            return
        if steps:
            self.zoom(ZOOM_STEP**steps)

    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(0.02 / current, min(factor, 200.0 / current))
        self._whole = False
        self.scale(factor, factor)
        self._zoomed()

    # ------------------------------------------------------------------ keys

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            return
        if key == Qt.Key.Key_Escape:
            self.cancel()
            self.ruler.hide()
            self.message.emit("Cancelled.")
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self.terrain_draw is not None:
                self.finish_terrain()
            elif self.move_tool is not None:
                self.commit_move(force=bool(mods & Qt.KeyboardModifier.AltModifier))
            return
        if key in (Qt.Key.Key_Q, Qt.Key.Key_E) and self._selected is not None:
            self.rotate_selected(-KEY_TURN if key == Qt.Key.Key_Q else KEY_TURN, wheel=shift)
            return
        if key == Qt.Key.Key_Backspace and self.terrain_draw is not None:
            self.terrain_draw.undo_point()
            return
        if key == Qt.Key.Key_Delete and self.terrain_edit is not None:
            command = self.terrain_edit.delete()
            self.cancel()
            self.send(command)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self._pan = None
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)

    # ------------------------------------------------------------------ terrain

    def _terrain_press(self, scene_pos: QPointF, event: QMouseEvent) -> None:
        if self.read_only or self.state is None:
            return
        here = self._press_table
        if self._tool == "terrain:edit":
            item = self.map_scene.terrain_at(scene_pos)
            edit = self.terrain_edit
            tolerance = self.px_to_table(8)
            if edit is not None and edit.press(
                here, tolerance, item is not None and item.piece.id == edit.piece.id
            ):
                return
            self.cancel()
            if item is not None:
                self.terrain_edit = TerrainEdit(item.piece, self.map_scene.frame, self.outline)
                self.terrain_edit.press(here, tolerance, True)
            return
        kind: TerrainKind = self._tool[8:]  # type: ignore[assignment]
        if self.terrain_draw is None:
            width = default_width(kind, self._mm)
            self.terrain_draw = TerrainDraw(kind, self.map_scene.frame, self.outline, width)
        self.terrain_draw.click(here)

    def finish_terrain(self) -> bool:
        """Place the piece being drawn (Enter or double-click); whether it was sent."""
        draw = self.terrain_draw
        if draw is None:
            return False
        draw.hover = None
        command = draw.finish()
        if command is None:
            self.message.emit(f"Not placed: {draw.problem()}")
            return False
        self.cancel()
        self.send(command)
        return True

    def remove_corner(self, index: int) -> None:
        if self.terrain_edit is not None:
            self.send(self.terrain_edit.remove_corner(index))

    def send(self, command: object) -> None:
        """Ask the window to execute ``command`` (never in a read-only past state)."""
        if command is not None and not self.read_only:
            self.commandRequested.emit(command)

    def px_to_table(self, px: float) -> float:
        """``px`` screen pixels in table units at the current zoom."""
        return px / max(self.transform().m11(), 1e-9) / self.map_scene.frame.k

    # ------------------------------------------------------------------ ruler, handle, menu

    def _measure(self, here: Point, scene_pos: QPointF, *, final: bool) -> None:
        view = self.view_of_state
        if view is None or self._ruler_from is None:
            return
        start, from_unit = self._ruler_from
        target = self.map_scene.unit_at(scene_pos)
        to_unit = target.unit_id if target else None
        reading = ruler(view, start, here, from_unit, to_unit, self.mechanics)
        self.ruler.show(reading, self.map_scene.frame, self._symbol)
        self.keep_in_view(self.ruler.label)
        if final:
            self.measured.emit(reading)
            self.message.emit(reading.text(self._symbol))

    def measure_units(self, a: str, b: str) -> None:
        """Measure base edge to base edge between two units (the context menu's "Measure")."""
        view = self.view_of_state
        if view is None:
            return
        ua, ub = view.unit(a), view.unit(b)
        reading = ruler(view, (ua.x, ua.y), (ub.x, ub.y), a, b, self.mechanics)
        self.ruler.show(reading, self.map_scene.frame, self._symbol)
        self.keep_in_view(self.ruler.label)
        self.measured.emit(reading)
        self.message.emit(reading.text(self._symbol))

    def _on_handle(self, scene_pos: QPointF) -> bool:
        """Whether the press is on the selected unit's rotation handle (drawn ahead of the
        middle of its front edge)."""
        item = self.map_scene.units.get(self._selected or "")
        if item is None or self.read_only:
            return False
        centre = item.mapToScene(item.handle_centre())
        d = centre - scene_pos
        reach = max(HANDLE_R * 1.5, 8.0 / max(self.transform().m11(), 1e-9))
        return d.x() ** 2 + d.y() ** 2 <= reach**2

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        map_menu(self, self.mapToScene(event.pos())).exec(event.globalPos())


__all__ = ["OVERLAYS", "TOOLS", "BattleMap"]
