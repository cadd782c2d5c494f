"""Leg VI Carthago: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30), and the umpire's default
result the text does not give.
"""

from __future__ import annotations

from app.rules.mechanics import Combatant, Effects, TurnView, UmpireDefault
from app.rulesets.leg_vi.base import LegVIBase
from app.rulesets.leg_vi.fates import leader_fate_dist


class LegVIDecisions(LegVIBase):
    """Leg VI's side decisions and the umpire's default."""

    lost_words = "destroyed or routing"

    def umpire_default(self) -> UmpireDefault | None:
        """Errata umpire-default: Leg VI has no victory rule."""
        return self.t.umpire

    def leader_risk(self, unit: Combatant, effects: Effects, action: str) -> float:
        """Leg VI, Risk to Leader: the die of death is rolled for a leader whose unit fights,
        or takes a DP from shooting; on its danger roll he may be wounded or killed."""
        if unit.leader is None:
            return 0.0
        fights = action in ("melee", "free_hack")
        shot = action == "shoot" and effects.dps > 0
        if not (fights or shot):
            return 0.0
        fates = leader_fate_dist(self.t, unit.leader)
        return float(1 - fates.get("ok", 0)) if "ok" in fates else 1.0

    def charge_reach(self, view: TurnView, unit_id: str) -> float:
        """Leg VI, Charges: a charge is declared only against enemy within 4"."""
        return self.t.charges.range
