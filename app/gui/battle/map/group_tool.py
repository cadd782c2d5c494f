"""Moving several units together on the map: the group's drag (each member pushed by the
same distance, keeping the formation) or one path for all (``forward 4``), planned by the
core (:func:`~app.core.battle.group.plan_group`: each member checked as a single move is)
and shown as a ghost per member with one label saying who may move and why not. The tool
never decides legality; it turns the plan into a :class:`GroupMove`, or nothing."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from app.core.battle.base import unit_words
from app.core.battle.group import GroupPlan, Member, plan_group
from app.core.battle.moves import MoveUnit
from app.core.battle.reach import drag_legs
from app.core.battle.state import BattleState
from app.gui.battle.map import style
from app.gui.battle.map.frame import Frame, Point
from app.gui.battle.map.ghost import Ghost, Label
from app.gui.battle.map.items import Z_GHOST
from app.rules.mechanics import Mechanics
from app.rules.movement import MoveReason
from app.rules.paths import Leg, path_text

#: Refusals the group's label lists before "and N more".
LISTED = 4


class GroupDrag:
    """One pending move of a group: the members pushed by the pointer's travel from where
    the drag began (distances rounded to ``step``), or each along the same ``legs``."""

    def __init__(
        self,
        mech: Mechanics,
        state: BattleState,
        units: Sequence[str],
        *,
        reason: MoveReason = "move",
        step: float = 0.0,
    ) -> None:
        self.mech, self.state = mech, state
        self.units = tuple(units)
        self.reason = reason
        self.step = step
        self.plan: GroupPlan | None = None

    def moves_by(self, dx: float, dy: float) -> list[MoveUnit]:
        """Every member pushed ``dx``, ``dy`` (table units), facing kept: each straight on
        then sideways by its own facing, as a single unit's drag is."""
        moves = []
        for uid in self.units:
            start = self.state.unit(uid).footprint
            legs = drag_legs(start, start.x + dx, start.y + dy, step=self.step)
            if legs:
                moves.append(MoveUnit(unit=uid, legs=legs, reason=self.reason))
        return moves

    def moves_along(self, legs: Sequence[Leg]) -> list[MoveUnit]:
        return [MoveUnit(unit=u, legs=tuple(legs), reason=self.reason) for u in self.units]

    def refresh(self, moves: Sequence[MoveUnit]) -> GroupPlan | None:
        """Plan ``moves`` (None when nothing moves)."""
        self.plan = plan_group(self.state, self.mech.ruleset, self.mech, moves) if moves else None
        return self.plan


def refusal_lines(state: BattleState, plan: GroupPlan) -> list[str]:
    """One line for each member that may not move as it is, naming it and the rule."""
    out = []
    for m in (*plan.refused, *plan.to_confirm):
        why = m.refusal or ""
        who = unit_words(state, m.unit)
        # the refusal names the unit already: keep what follows its name
        for prefix in (f"{who} may not move so: ", f"{who}: "):
            if why.startswith(prefix):
                why = why[len(prefix) :]
        why = why.replace("; force it to override", "").replace("; force it to confirm", "")
        mark = "confirm" if m.confirm else "refused"
        out.append(f"{who}: {mark}: {why}")
    return out


def summary(state: BattleState, plan: GroupPlan, symbol: str) -> list[tuple[str, QColor]]:
    """The group ghost's label: the path, who may move, and each refusal."""
    ink = QColor("#202020")
    first = plan.members[0]
    total = len(plan.members)
    free, confirm, refused = len(plan.free), len(plan.to_confirm), len(plan.refused)
    lines = [(f"{total} units: {path_text(first.move.legs)}", ink)]
    if free == total:
        lines.append((f"all {total} may move; release to move; Esc cancels", style.GHOST_OK))
        return lines
    head = f"{free} may move"
    if confirm:
        head += f", {confirm} for the umpire to confirm"
    if refused:
        head += f", {refused} may not"
    lines.append((head, style.GHOST_ASK if free or confirm else style.GHOST_BAD))
    listed = refusal_lines(state, plan)
    for text in listed[:LISTED]:
        lines.append((text, style.GHOST_ASK if ": confirm: " in text else style.GHOST_BAD))
    if len(listed) > LISTED:
        lines.append((f"and {len(listed) - LISTED} more", style.GHOST_BAD))
    if free or confirm:
        lines.append(("release to choose: move the others, or cancel", ink))
    return lines


class GroupGhost(QGraphicsItem):
    """A ghost per member (green, orange or red as its own check) and one label."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_GHOST)
        self.ghosts: list[Ghost] = []
        self.label = Label()
        self.label.setParentItem(self)
        self.members: tuple[Member, ...] = ()

    def show_plan(self, state: BattleState, plan: GroupPlan, frame: Frame, symbol: str) -> None:
        scene = self.scene()
        self.members = plan.members
        while len(self.ghosts) < len(plan.members):
            ghost = Ghost()
            ghost.label.setVisible(False)
            ghost.setParentItem(self)
            self.ghosts.append(ghost)
        shown = 0
        anchor: QRectF | None = None
        for member in plan.members:
            if member.check is None:
                continue
            ghost = self.ghosts[shown]
            ghost.show_check(member.check, frame, symbol)
            ghost.label.setVisible(False)
            ghost.setVisible(True)
            box = ghost.boundingRect()
            anchor = box if anchor is None else anchor.united(box)
            shown += 1
        for ghost in self.ghosts[shown:]:
            ghost.setVisible(False)
        self.label.set_lines(summary(state, plan, symbol))
        if anchor is not None:
            self.label.setPos(anchor.topRight() + QPointF(2, 0))
        if scene is not None:
            self.update()

    @property
    def text(self) -> str:
        return "\n".join(self.label.lines)

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        return


def group_question(state: BattleState, plan: GroupPlan) -> str:
    """What the umpire is asked before a partly refused group moves."""
    total = len(plan.members)
    free = len(plan.free) + len(plan.to_confirm)
    lines = [f"{total - len(plan.free)} of the {total} units may not move as they are:", ""]
    lines += [f"- {line}" for line in refusal_lines(state, plan)]
    lines += [""]
    if plan.to_confirm:
        lines.append(
            f"Move the other {free}? The moves needing the umpire's confirmation are logged "
            "as overrides."
        )
    else:
        lines.append(f"Move the other {free}?")
    return "\n".join(lines)


def delta(start: Point, here: Point) -> tuple[float, float]:
    return here[0] - start[0], here[1] - start[1]
