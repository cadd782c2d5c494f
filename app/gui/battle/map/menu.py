"""What the map says and offers: the hint for each tool, and its context menu (select, act
against, charge, measure, turn, terrain corners, fit, grid)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMenu

from app.core.battle.leader_fate import FATE_WORDS, FATES, AdjustLeader, Fate

if TYPE_CHECKING:
    from app.gui.battle.map.view import BattleMap

HINTS = {
    "select": "Click a unit to select it; drag to move; Q/E turn, Shift+Q/E wheel.",
    "ruler": "Drag from a unit or a point to measure (base edge to base edge between units).",
    "terrain:edit": "Click a piece; drag its corners or body; double-click an edge to add a "
    "corner; Delete removes it.",
    "draw": "Click to place the corners of the {kind}; double-click or Enter to finish, Esc "
    "to cancel.",
}


def map_menu(view: BattleMap, scene_pos: QPointF) -> QMenu:
    """The context menu at ``scene_pos``: for the unit under it (select it, charge it, act
    against it or measure to it from the selected unit, turn the selected unit), for the terrain
    piece being edited, and for the map."""
    menu = QMenu(view)
    unit = view.map_scene.unit_at(scene_pos)
    sel = view.selected_unit()
    if unit is not None:
        uid = unit.unit_id
        if uid != sel:
            menu.addAction(f"Select {unit.unit.name}", lambda: view.select_unit(uid))
        if sel is not None and uid != sel:
            enemy = view.map_scene.units[sel].unit.side != unit.unit.side
            if enemy and not view.read_only:
                menu.addAction(
                    f"Charge {unit.unit.name}", lambda: view.chargeRequested.emit(sel, uid)
                )
            menu.addAction(
                f"Act against {unit.unit.name}...", lambda: view.targetRequested.emit(sel, uid)
            )
            menu.addAction(f"Measure to {unit.unit.name}", lambda: view.measure_units(sel, uid))
        leader = view.state.leader_of(uid) if view.state is not None else None
        if leader is not None and not view.read_only:
            fates = menu.addMenu(f"Leader {leader.name}")
            for fate in FATES:
                fates.addAction(FATE_WORDS[fate], _fate_call(view, leader.id, fate))
        if uid == sel and not view.read_only:
            menu.addAction("Turn 45 degrees left", lambda: view.rotate_selected(-45))
            menu.addAction("Turn 45 degrees right", lambda: view.rotate_selected(45))
            menu.addAction("About face", lambda: view.rotate_selected(180))
    if view.terrain_edit is not None and not view.read_only:
        here = view.map_scene.frame.to_table(scene_pos)
        corner = view.terrain_edit.corner_at(here, view.px_to_table(8))
        if corner is not None:
            menu.addAction("Remove this corner", lambda: view.remove_corner(corner))
        edit = view.terrain_edit
        menu.addAction(f"Delete terrain {edit.piece.id}", lambda: view.send(edit.delete()))
    menu.addSeparator()
    menu.addAction("Fit table", view.fit_table)
    grid = menu.addAction("Grid")
    grid.setCheckable(True)
    grid.setChecked(view.map_scene.grid.isVisible())
    grid.toggled.connect(view.set_grid)
    legend = menu.addAction("Legend")
    legend.setCheckable(True)
    legend.setChecked(not view.legend.isHidden())
    legend.toggled.connect(view.set_legend)
    return menu


def _fate_call(view: BattleMap, leader: str, fate: Fate) -> Callable[[], None]:
    return lambda: view.send(AdjustLeader(leader=leader, status=fate))
