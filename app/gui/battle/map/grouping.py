"""The map's ways of moving several units together, a part of :class:`BattleMap`:
selecting them by a box on the ground or by their command, dragging them (each member
pushed the same way, formation kept) or giving them one path, and sending the group's move
the core planned (:mod:`app.gui.battle.map.group_tool`)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRectF
from PySide6.QtWidgets import QInputDialog

from app.core.battle.group import GroupPlan
from app.gui.battle.map.group_tool import GroupDrag, group_question, refusal_lines
from app.rules.paths import PathError, parse_path

if TYPE_CHECKING:
    from app.gui.battle.map.view import BattleMap

#: What a drag's distances are rounded to, by the ruleset's unit (a tenth of an inch, a
#: twentieth of a GSB unit width, half a centimetre): as a single unit's drag.
SNAP = {"inch": 0.1, "unit_width": 0.05, "cm": 0.5}


class GroupMoves:
    """Selecting and moving several units: a part of the map (``view``), which hands
    these on to it."""

    def __init__(self, view: BattleMap) -> None:
        # held weakly: the view holds this, and a cycle kept the view, its scene and its
        # 1,000 items for the collector to find once the window was gone
        self._view = weakref.ref(view)

    @property
    def view(self) -> BattleMap:
        view = self._view()
        if view is None:
            raise RuntimeError("the map of these group moves is gone")
        return view

    def units_in(self, rect: QRectF) -> list[str]:
        """The units (in the battle) whose bases a scene rectangle crosses."""
        out = []
        for uid, item in self.view.map_scene.units.items():
            if item.unit.status.eliminated:
                continue
            if item.mapToScene(item.body).boundingRect().intersects(rect):
                out.append(uid)
        return out

    def command_of(self, unit_id: str) -> list[str]:
        """The units of ``unit_id``'s command or battlegroup, itself first (only itself
        where it has none)."""
        units = self.view.map_scene.units
        unit = units[unit_id].unit
        if unit.command is None:
            return [unit_id]
        same = [
            uid
            for uid, it in units.items()
            if it.unit.side == unit.side
            and it.unit.command == unit.command
            and not it.unit.status.eliminated
            and uid != unit_id
        ]
        return [unit_id, *same]

    def release_band(self, start: QPoint, pos: QPoint, *, drawn: bool, add: bool) -> None:
        """The box drawn on the ground from ``start`` to ``pos`` (viewport pixels): its
        units selected (those of the side most of them are, the selected unit's where as
        many are of each), added to those selected with Shift (``add``); a click without a
        box (not ``drawn``) selects nothing."""
        if not drawn:
            if not add:
                self.view.select_unit(None)
            return
        rect = QRectF(self.view.mapToScene(start), self.view.mapToScene(pos)).normalized()
        found = self.units_in(rect)
        if add:
            found = [*self.view.selected_units(), *found]
        if not found:
            self.view.select_unit(None)
            return
        units = self.view.map_scene.units
        sides: list[int] = [units[u].unit.side for u in found]
        side = max((0, 1), key=lambda s: (sides.count(s), self.side_of_selection() == s))
        chosen = [u for u in found if units[u].unit.side == side]
        sel = self.view.selected_unit()
        self.view.select_units(chosen, sel if sel in chosen else chosen[0])

    def side_of_selection(self) -> int | None:
        sel = self.view.selected_unit()
        units = self.view.map_scene.units
        return units[sel].unit.side if sel in units else None

    def ensure_group_tool(self) -> GroupDrag | None:
        """The pending group move of the units selected (made when first needed)."""
        view = self.view
        units = view.selected_units()
        if view.read_only or len(units) < 2 or view.mechanics is None or view.state is None:
            return None
        if view.group_tool is None or view.group_tool.units != units:
            view.group_tool = GroupDrag(
                view.mechanics,
                view.state,
                units,
                reason=view.move_reason,
                step=SNAP.get(view.mechanics.ruleset.meta.unit_of_measure, 0.1),
            )
        return view.group_tool

    def drag_group_by(self, dx: float, dy: float) -> None:
        """Push the selected units' ghosts by ``dx``, ``dy`` (table units: the pointer's
        travel since the press), every member checked by the core."""
        tool = self.ensure_group_tool()
        if tool is None or self.view.state is None:
            return
        self.show_group(tool.refresh(tool.moves_by(dx, dy)))

    def show_group(self, plan: GroupPlan | None) -> None:
        """The group's ghosts and card for ``plan`` (hidden for None)."""
        view = self.view
        if plan is None or view.state is None:
            view.group_ghost.setVisible(False)
            return
        view.group_ghost.label.max_width = view.label_width()
        view.group_ghost.show_plan(view.state, plan, view.map_scene.frame, view.length_symbol)
        view.group_ghost.setVisible(True)
        view.keep_in_view(view.group_ghost.label)

    def commit_group(self) -> bool:
        """Send the group's pending move: all of it when every member may move; else, when
        the umpire agrees, the members that may (those whose move the umpire must confirm
        among them, logged as overrides); never one the rules forbid. Whether a command was
        sent."""
        tool = self.view.group_tool
        plan = tool.plan if tool is not None else None
        state = self.view.state
        self.view.cancel()
        if plan is None or state is None:
            return False
        if not plan.refused and not plan.to_confirm:
            command = plan.command()
        elif not plan.free and not plan.to_confirm:
            self.view.message.emit("Not moved: " + "; ".join(refusal_lines(state, plan)))
            return False
        elif self.view.confirm("Move the group", group_question(state, plan)):
            command = plan.command(confirmed=True)
        else:
            self.view.message.emit("Group move cancelled.")
            return False
        if command is None:
            return False
        self.view.commandRequested.emit(command)
        return True

    def move_group_by(self, path: str) -> bool:
        """Move every selected unit along the same path (``forward 4``: each four ahead of
        where it faces), checked and sent as a drag's group move is; whether it was sent."""
        try:
            legs = parse_path(path)
        except PathError as exc:
            self.view.message.emit(f"Not moved: {exc}")
            return False
        tool = self.ensure_group_tool()
        if tool is None:
            self.view.message.emit("Select two or more units of a side to move them together.")
            return False
        self.show_group(tool.refresh(tool.moves_along(legs)))
        return self.commit_group()

    def ask_group_path(self) -> None:
        """Ask for the path the selected units take together (the context menu)."""
        text, ok = QInputDialog.getText(
            self.view,
            "Move the group",
            f"The path each of the {len(self.view.selected_units())} units takes "
            "(e.g. forward 4; wheel 45 left):",
        )
        if ok and text.strip():
            self.move_group_by(text)
