"""Leg VI, Manoeuvre, on the table: "Movement by formed units must be directly to the front
with no more than 22 1/2 degrees variation off centre. To do otherwise, requires units to
manoeuvre." Unformed units and elephants "move stands freely and independently"."""

from __future__ import annotations

import math

from app.rules.movement import Breach, MoveCheck, MoveReason
from app.rules.paths import Path
from app.rules.values import TurnView
from app.rulesets.leg_vi.base import LegVIBase

MANOEUVRE_RULE = "Leg VI, Manoeuvre"


class ManoeuvreRules(LegVIBase):
    """The straight-ahead limit of formed units, added to the core's checks of a move."""

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The core's checks, then: a formed unit (not unformed, not elephants) moving or
        charging to a point more than 22.5 degrees off its front (``[movement]``
        ``straight_ahead_tolerance_degrees``) needs a manoeuvre (a wheel) first."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        if reason not in ("move", "charge"):
            return found
        combatant = view.unit(unit_id)
        u = self.u(combatant)
        if u.unformed or u.elephant:
            return found
        most = self.t.movement.straight_ahead_tolerance_degrees
        breaches: list[Breach] = []
        for t in found.traced:
            if t.leg.kind != "to" or t.leg.x is None or t.leg.y is None:
                continue
            dx, dy = t.leg.x - t.start.x, t.leg.y - t.start.y
            if dx * dx + dy * dy < 1e-12:
                continue
            bearing = math.degrees(math.atan2(dx, dy))  # 0 = +y, clockwise
            off = abs((bearing - t.start.facing + 180) % 360 - 180)
            if off > most + 1e-6:
                breaches.append(
                    Breach(
                        MANOEUVRE_RULE,
                        f"{combatant.name} ({unit_id}) is formed: it moves directly to its "
                        f"front, at most {most:g} degrees off centre ({off:.0f} "
                        f"asked); wheel first",
                    )
                )
        return found.with_breaches(*breaches) if breaches else found
