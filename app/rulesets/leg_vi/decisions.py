"""Leg VI Carthago: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30), and the umpire's default
result the text does not give.
"""

from __future__ import annotations

from app.rules.mechanics import UmpireDefault
from app.rulesets.leg_vi.base import LegVIBase


class LegVIDecisions(LegVIBase):
    """Leg VI's side decisions and the umpire's default."""

    lost_words = "destroyed or routing"

    def umpire_default(self) -> UmpireDefault | None:
        """Errata umpire-default: Leg VI has no victory rule."""
        return self.t.umpire
