"""D3 Ancient Rules: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30).

D3, Chance Cards: the card drawn in the side's chance-card step may be a Rally (halve one of
its units' hits) or an Initiative (one unit moves, shoots or fights at once, as the card is
drawn). Which unit is the side's choice; playing the card at all is optional.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.geometry import edge_distance
from app.rules.mechanics import Combatant, Effects, Side, SideDecision, TurnView
from app.rulesets.d3.base import CHANCE_CARD
from app.rulesets.d3.turn import D3Turn

RALLY_RULE = "D3, Chance Cards: Rally halves the hits of one of the side's units"
INITIATIVE_RULE = (
    "D3, Chance Cards: Initiative lets one unit move, shoot or fight as the card is drawn"
)


class D3Decisions(D3Turn):
    """D3's side decisions."""

    def side_decisions(self, view: TurnView, side: Side) -> Sequence[SideDecision]:
        """In the side's own turn, with a working card not yet played: Rally on each of its
        units with hits, the most hit first (Castra's default: the first), or in the
        chance-card step Initiative for each unit, the one nearest the enemy first (the
        default); both optional (``now``)."""
        if view.initiative != side or bool(view.sides[side].get("card_used", False)):
            return ()
        effect = self.card_effect(side, view)
        mine = [u for u in view.side_units(side) if not u.status.eliminated]
        if effect == "halve_unit_hits":
            hit = sorted((u for u in mine if u.status.hits > 0), key=lambda u: -u.status.hits)
            return tuple(
                SideDecision(side, "rally", "now", RALLY_RULE, unit=u.unit_id, optional=True)
                for u in hit
            )
        if effect == "extra_activation" and self._step(view.phase) == CHANCE_CARD:
            enemies = [u for u in view.units if u.side != side and not u.status.eliminated]

            def gap(u: Combatant) -> float:
                return min((edge_distance(u.footprint, e.footprint) for e in enemies), default=0)

            return tuple(
                SideDecision(
                    side, "initiative", "now", INITIATIVE_RULE, unit=u.unit_id, optional=True
                )
                for u in sorted(mine, key=gap)
            )
        return ()

    def loss_share(self, unit: Combatant, effects: Effects) -> float:
        """D3, Combat: a unit is eliminated after more than 8 hits, so each hit is a ninth
        of its worth (of what it has left)."""
        if effects.eliminated:
            return 1.0
        left = self.t.elimination.eliminated_above_hits + 1 - unit.status.hits
        return max(0.0, min(1.0, effects.hits / max(1, left)))

    def leader_risk(self, unit: Combatant, effects: Effects, action: str) -> float:
        """D3, Commanders: the commander is lost when the unit he stands with is eliminated."""
        return 1.0 if unit.leader is not None and effects.eliminated else 0.0
