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
    "select": "Click a unit to select it (Shift+click or a box on the ground: several); drag "
    "to move; Q/E turn, Shift+Q/E wheel.",
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
    group = view.selected_units()
    if unit is not None:
        uid = unit.unit_id
        if uid != sel or len(group) > 1:
            menu.addAction(f"Select {unit.unit.name}", lambda: view.select_unit(uid))
        _select_menu(view, menu, uid)
        if len(group) > 1 and uid in group and not view.read_only:
            menu.addAction(f"Move the group by a path ({len(group)} units)...", view.ask_group_path)
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


def _select_menu(view: BattleMap, menu: QMenu, uid: str) -> None:
    """Select the unit's command or battlegroup (the ruleset's word), or its whole side."""
    units = view.map_scene.units
    unit = units[uid].unit
    command = view.command_of(uid)
    word = "command"
    if view.mechanics is not None:
        word = view.mechanics.ruleset.organisation.group_name
    if len(command) > 1:
        menu.addAction(
            f"Select this {word} ({len(command)} units)",
            lambda: view.select_units(command, uid),
        )
    side = [
        u for u, it in units.items() if it.unit.side == unit.side and not it.unit.status.eliminated
    ]
    name = view.state.sides[unit.side].name if view.state is not None else "this side"
    menu.addAction(
        f"Select all of {name} ({len(side)} units)", lambda: view.select_units(side, uid)
    )


def _fate_call(view: BattleMap, leader: str, fate: Fate) -> Callable[[], None]:
    return lambda: view.send(AdjustLeader(leader=leader, status=fate))
