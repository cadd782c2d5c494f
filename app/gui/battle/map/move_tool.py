"""A move or a deployment being made on the map: the legs built so far (turns and wheels
from the keys, the rotation handle or the wheel; the drag to the pointer), checked by the
mechanics at every change and shown as a :class:`~app.gui.battle.map.ghost.Ghost`. The tool
never decides legality: ``check_move`` and ``check_deploy`` do; it only turns the answer
into a command (or nothing)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from app.core.battle.moves import Deploy, MoveUnit
from app.core.battle.reach import drag_legs
from app.rules.geometry import Footprint, Point
from app.rules.mechanics import Mechanics, TurnView
from app.rules.movement import Breach, MoveCheck, MoveReason
from app.rules.paths import Leg, Path, end_pose


@dataclass(frozen=True)
class Verdict:
    """What releasing the move would do: the command (None when there is nothing to move),
    the breaches the mechanics found, and the words to show."""

    command: MoveUnit | Deploy | None
    breaches: tuple[Breach, ...]

    @property
    def forbidden(self) -> tuple[Breach, ...]:
        return tuple(b for b in self.breaches if b.severity == "forbidden")

    @property
    def to_confirm(self) -> tuple[Breach, ...]:
        return tuple(b for b in self.breaches if b.severity == "confirm")


class MoveTool:
    """One pending move of one unit. ``deploy``: the unit is being deployed (placed
    anywhere in its zone, turned by the keys) rather than moved along a path."""

    def __init__(
        self,
        mech: Mechanics,
        view: TurnView,
        unit_id: str,
        *,
        reason: MoveReason = "move",
        deploy: bool = False,
        step: float = 0.0,
    ) -> None:
        self.mech = mech
        self.view = view
        self.unit_id = unit_id
        self.reason = reason
        self.deploy = deploy
        #: distances of a drag are rounded to this (the ruleset's unit)
        self.step = step
        self.start: Footprint = view.unit(unit_id).footprint
        self.prefix: list[Leg] = []
        self.target: Point | None = None
        self.turn_to_face = False
        self.check: MoveCheck | None = None
        self.deploy_breaches: tuple[Breach, ...] = ()

    # ------------------------------------------------------------------ building

    @property
    def pivot_pose(self) -> Footprint:
        """Where the turns and wheels so far leave the unit (before the drag)."""
        return end_pose(self.start, self.prefix)

    def rotate(self, angle: float, wheel: bool = False) -> None:
        """Add a turn of ``angle`` degrees (+ clockwise): a pivot about the centre, or a
        wheel about the front corner on the side it turns to. A turn joins the previous one
        of the same kind."""
        if abs(angle) < 1e-9:
            return
        if self.deploy:
            wheel = False
        kind = "wheel" if wheel else "pivot"
        about = ("right" if angle > 0 else "left") if wheel else None
        if self.prefix and self.prefix[-1].kind == kind and self.prefix[-1].about == about:
            total = self.prefix[-1].angle + angle
            self.prefix.pop()
            if abs(total) < 1e-9:
                return
            angle = total
        angle = max(-360.0, min(360.0, angle))
        self.prefix.append(Leg.wheel(angle, about) if about else Leg.pivot(angle))  # type: ignore[arg-type]

    def set_rotation(self, angle: float, wheel: bool = False) -> None:
        """Make the last turn ``angle`` degrees (the rotation handle sets it as it is
        dragged)."""
        if self.prefix and self.prefix[-1].kind in ("pivot", "wheel"):
            self.prefix.pop()
        self.rotate(angle, wheel)

    def drag_to(self, centre: Point | None, turn_to_face: bool = False) -> None:
        """Drag the unit's centre to ``centre`` (None: no drag)."""
        self.target = centre
        self.turn_to_face = turn_to_face

    def legs(self) -> tuple[Leg, ...]:
        """The turns so far, then the drag's legs where the ruleset ends them (its
        ``snap_drag``: Leg VI's full rolled distance, or exactly 4" from formed enemy)."""
        legs = list(self.prefix)
        if self.target is None or self.deploy:
            return tuple(legs)
        legs += drag_legs(
            self.pivot_pose, *self.target, turn_to_face=self.turn_to_face, step=self.step
        )
        return self.mech.snap_drag(
            self.view, self.unit_id, tuple(legs), len(self.prefix), self.reason
        )

    def deploy_pose(self) -> Footprint:
        pose = self.pivot_pose
        if self.target is not None:
            x, y = self.target
            if self.step > 0:
                x, y = round(x / self.step) * self.step, round(y / self.step) * self.step
            pose = replace(pose, x=x, y=y)
        return replace(pose, facing=pose.facing % 360)

    # ------------------------------------------------------------------ checking

    def refresh(self) -> Verdict:
        """Check the move as it stands (the mechanics decide) and say what releasing does."""
        if self.deploy:
            pose = self.deploy_pose()
            self.deploy_breaches = self.mech.check_deploy(self.view, self.unit_id, pose)
            moved = (pose.x, pose.y, pose.facing) != (self.start.x, self.start.y, self.start.facing)
            command = (
                Deploy(
                    unit=self.unit_id,
                    x=round(pose.x, 4),
                    y=round(pose.y, 4),
                    facing=round(pose.facing, 4),
                )
                if moved
                else None
            )
            return Verdict(command, self.deploy_breaches)
        legs = self.legs()
        if not legs:
            self.check = None
            return Verdict(None, ())
        self.check = self.mech.check_move(self.view, self.unit_id, Path(legs), reason=self.reason)
        return Verdict(
            MoveUnit(unit=self.unit_id, legs=legs, reason=self.reason), self.check.breaches
        )


def handle_angle(start: Footprint, pointer: Point, step: float = 5.0) -> float:
    """The turn (degrees, + clockwise, -180..180) that faces the unit towards the pointer,
    rounded to ``step`` degrees: what dragging the rotation handle asks for."""
    bearing = math.degrees(math.atan2(pointer[0] - start.x, pointer[1] - start.y))
    turn = (bearing - start.facing + 180.0) % 360.0 - 180.0
    return round(turn / step) * step if step > 0 else turn
