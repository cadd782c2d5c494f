"""Leg VI, Manoeuvre, on the table: "Movement by formed units must be directly to the front
with no more than 22 1/2 degrees variation off centre. To do otherwise, requires units to
manoeuvre." Unformed units and elephants "move stands freely and independently". A formed
unit's sideways or backward legs are the side-step or step back: "Up to 2" taking a full
move. A-B Grade Infantry only"."""

from __future__ import annotations

import math

from app.rules.movement import Breach, MoveCheck, MoveReason
from app.rules.paths import Path
from app.rules.values import Combatant, TurnView
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
        if reason == "move":
            breaches += self._steps_aside(combatant, found)
        return found.with_breaches(*breaches) if breaches else found

    def _steps_aside(self, combatant: Combatant, found: MoveCheck) -> list[Breach]:
        """Leg VI, Manoeuvre: a formed unit's sideways or backward legs are a side-step or
        step back: "Up to 2" taking a full move. A-B Grade Infantry only" (``[manoeuvres]
        items.side_step`` ``distance``, troops' ``side_step_grades``): the path is then
        those legs alone, 2" at most in all."""
        aside = [
            t.leg
            for t in found.traced
            if t.leg.kind == "sideways" or (t.leg.kind == "straight" and t.leg.distance < 0)
        ]
        if not aside:
            return []
        u = self.u(combatant)
        item = self.t.manoeuvres.items["side_step"]
        most = item.distance or 0.0
        who = f"{combatant.name} ({combatant.unit_id})"
        if u.grade not in u.troop.side_step_grades or not u.formed_infantry:
            grades = "-".join(
                sorted({g for t in self.troop_types.values() for g in t.side_step_grades})
            )
            why = f"only {grades} grade formed infantry side-step or step back"
        elif len(aside) != len(found.traced):
            why = "a side-step or step back takes the whole move (no other legs)"
        elif sum(abs(leg.distance) for leg in aside) > most + 1e-6:
            why = f'a side-step or step back goes {most:g}" at most'
        else:
            return []
        return [
            Breach(
                MANOEUVRE_RULE,
                f"{who} is formed: it moves directly to its front; {why} (asked: "
                f"{'; '.join(str(leg) for leg in aside)})",
            )
        ]
