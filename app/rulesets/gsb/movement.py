"""Grown Slightly Bald on the table: what a pivot costs. "May pivot up to 45 degrees before
moving an increment. Pivots greater than 45 degrees use up a full unit width of movement.
Light troops can pivot as much as they like with no penalty; elephants use up a unit width
if they pivot at all." The numbers are ``tables.pivot.kinds``, each troop's ``pivot`` names
its row."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.movement import LegCost, TerrainSpan
from app.rules.paths import Traced
from app.rules.values import Combatant, TurnView
from app.rulesets.gsb.combat import CombatRules

PIVOT_RULE = "GSB, Pivots"
#: the legs that turn a unit in place (a wheel about a corner is costed as it moves)
PIVOT_LEGS = frozenset({"pivot", "turn"})


class GSBMovement(CombatRules):
    """The movement hooks of :class:`~app.rules.mechanics.Mechanics` as GSB fills them."""

    def leg_cost(
        self, view: TurnView, unit: Combatant, traced: Traced, spans: Sequence[TerrainSpan]
    ) -> LegCost:
        """GSB, Pivots: a pivot within the troop's free angle costs nothing; beyond it (or,
        for elephants, any pivot at all) it costs the row's unit widths; light troops pivot
        freely. Other legs cost as the core measures them."""
        if traced.leg.kind not in PIVOT_LEGS:
            return super().leg_cost(view, unit, traced, spans)
        kind = self.t.pivot.kinds[self.gsb_troop(unit.troop).pivot]
        angle = abs(traced.leg.angle) % 360
        angle = min(angle, 360 - angle)
        if angle < 1e-9 or kind.free_deg is None or angle <= kind.free_deg + 1e-9:
            cost, note = 0.0, f"{angle:g} degree pivot: free ({kind.label})"
        else:
            cost, note = (
                float(kind.cost),
                f"{angle:g} degree pivot: {kind.cost:g} UW ({kind.label})",
            )
        return LegCost(
            traced.index,
            traced.leg.kind,
            traced.distance,
            cost,
            tuple(s.piece.id for s in spans),
            f"{PIVOT_RULE}: {note}",
        )
