"""MWAN #90 on the table: how each kind of unit may turn while it moves, and who may pass
through whom. The article: "Cavalry in line (& formed Medium Infantry) may wheel 90 degrees &
move 8" (or move then wheel). Light Cavalry (& formed Medium Infantry) may also about face
before or after movement. Heavy Infantry in line may only move forward or wheel 45 degrees.
Friendly skirmishers may move through elephants (but no other formed units)." The limits are
``tables.movement.rows`` (each troop's ``move_class``) and ``skirmishers_pass_through``."""

from __future__ import annotations

from app.rules.movement import Breach, MoveCheck, MoveReason
from app.rules.paths import Path
from app.rules.values import Combatant, TurnView
from app.rulesets.mwan90.base import MWAN90Base

MOVE_RULE = "MWAN #90, Movement"
#: the moves a unit makes of its own will; routs, evades and pursuits go as the rules send them
CHOSEN = frozenset({"move", "charge"})


class MWANMovement(MWAN90Base):
    """The movement hooks of :class:`~app.rules.mechanics.Mechanics` as MWAN #90 fills them."""

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        """MWAN #90: friendly skirmishers may pass through elephants, and nobody else passes
        through a friend."""
        troop, them = self.mw_troop(unit.troop), self.mw_troop(other.troop)
        return troop.formed == "never" and them.category in self.t.movement.skirmishers_pass_through

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The core's checks, then MWAN's limits on turning for a move or a charge: the
        wheel (and pivots) the unit's class allows in all, about-faces only where allowed,
        heavy infantry only forward, and a wheel instead of a move where the class may not
        combine them."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        if reason not in CHOSEN:
            return found
        unit = view.unit(unit_id)
        row = self.t.movement.rows[self.mw_troop(unit.troop).move_class]
        who = f"{unit.name} ({unit.unit_id})"
        breaches: list[Breach] = []
        turned = 0.0
        moved = False
        for leg in path.legs:
            angle = abs(leg.angle) % 360
            if leg.kind == "turn" and abs(angle - 180) < 1e-6:
                if not row.about_face:
                    breaches.append(
                        Breach(MOVE_RULE, f"{who}: {row.label.lower()} may not about face")
                    )
                continue
            if leg.kind in ("wheel", "pivot", "turn"):
                turned += min(angle, 360 - angle)
            elif leg.kind == "to":
                moved = True  # a straight run to a point: its turn is traced as a pivot
            elif leg.distance:
                moved = True
                if row.forward_only and (leg.kind == "sideways" or leg.distance < 0):
                    breaches.append(
                        Breach(
                            MOVE_RULE,
                            f"{who}: {row.label.lower()} may only move forward or wheel",
                        )
                    )
        if row.max_wheel_deg is not None and turned > row.max_wheel_deg + 1e-6:
            breaches.append(
                Breach(
                    MOVE_RULE,
                    f"{who}: {row.label.lower()} may wheel at most {row.max_wheel_deg} degrees "
                    f"in a move ({turned:g} asked)",
                )
            )
        if not row.wheel_with_move and turned > 1e-6 and moved:
            breaches.append(
                Breach(MOVE_RULE, f"{who}: {row.label.lower()} wheel instead of moving, not both")
            )
        return found.with_breaches(*breaches) if breaches else found
