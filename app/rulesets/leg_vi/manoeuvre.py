"""Leg VI, Manoeuvre, on the table: "Movement by formed units must be directly to the front
with no more than 22 1/2 degrees variation off centre. To do otherwise, requires units to
manoeuvre." Unformed units and elephants "move stands freely and independently". A formed
unit turns by wheeling, facing about or turning to a flank, never by pivoting about its
centre; its sideways or backward legs are the side-step or step back: "Up to 2" taking a
full move. A-B Grade Infantry only"; a legion "may only move in the direction of facing"."""

from __future__ import annotations

import math

from app.rules.movement import Breach, MoveCheck, MoveReason
from app.rules.paths import Path
from app.rules.values import Combatant, TurnView
from app.rulesets.leg_vi.base import LegVIBase

MANOEUVRE_RULE = "Leg VI, Manoeuvre"
LEGION_RULE = "Leg VI, Roman Legions"
#: the turns in place a formed unit makes as manoeuvres: an about face (180 degrees) and a
#: turn to the flank (90, a change of formation) (errata 'formed-units-wheel')
TURNS_ALLOWED = (90.0, 180.0)


class LegVIManoeuvres(LegVIBase):
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
            breaches += self._turns(combatant, found, drift=not breaches)
            if u.legion:
                breaches += self._legion_ahead(combatant, found)
            else:
                breaches += self._steps_aside(combatant, found)
        return found.with_breaches(*breaches) if breaches else found

    def _turns(self, combatant: Combatant, found: MoveCheck, *, drift: bool) -> list[Breach]:
        """Leg VI, Manoeuvre: a formed unit turns by the text's manoeuvres: a wheel ("Inside
        edge remains stationary, measure distance moved by outside edge"), an about face,
        a turn to the flank (a change of formation); never a pivot about its centre. Moves
        to points (each within 22.5 degrees of its front) may leave it facing the way it
        went, 22.5 degrees at most in all (errata 'formed-units-wheel'; ``drift``: whether
        to check that, when no leg already went too far off centre)."""
        who = f"{combatant.name} ({combatant.unit_id})"
        most = self.t.movement.straight_ahead_tolerance_degrees
        turned_by_points = 0.0
        for t in found.traced:
            leg = t.leg
            turned = abs(leg.angle) % 360
            turned = min(turned, 360 - turned)
            if leg.kind == "to":  # the variation off centre: as much in all as one move has
                turned_by_points += abs((t.end.facing - t.start.facing + 180) % 360 - 180)
            if leg.kind == "pivot" and turned > 1e-6:
                what = f"a pivot about its centre (leg {t.index + 1}: {leg})"
            elif leg.kind == "turn" and all(abs(turned - a) > 1e-6 for a in TURNS_ALLOWED):
                what = f"a turn of {turned:g} degrees in place (leg {t.index + 1}: {leg})"
            elif leg.kind == "to" and drift and turned_by_points > most + 1e-6:
                what = (
                    f"moves to points that turn it {turned_by_points:.0f} degrees in all, more "
                    "than the "
                    f"{most:g} degrees off centre a move may vary (leg {t.index + 1}: {leg})"
                )
            else:
                continue
            return [
                Breach(
                    MANOEUVRE_RULE,
                    f"{who} is formed: it turns by wheeling (the inside edge stationary), "
                    f"facing about or turning to a flank, not by {what}",
                )
            ]
        return []

    def _legion_ahead(self, combatant: Combatant, found: MoveCheck) -> list[Breach]:
        """Leg VI, Roman Legions: "It may only move in the direction of facing": no
        sideways or backward leg, the side-step included (errata 'formed-units-wheel')."""
        for t in found.traced:
            if t.leg.kind == "sideways" or (t.leg.kind == "straight" and t.leg.distance < 0):
                return [
                    Breach(
                        LEGION_RULE,
                        f"{combatant.name} ({combatant.unit_id}) is a legion: it moves only "
                        f"in the direction of its facing (leg {t.index + 1}: {t.leg})",
                    )
                ]
        return []

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
