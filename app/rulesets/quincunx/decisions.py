"""Quincunx: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30), and the umpire's default
result the text does not give.

Quincunx, Sequence: the side with the higher initiative cast chooses to move (take the
turn's first round) or counter-move (the second).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.dice import parse_dice
from app.rules.mechanics import (
    Combatant,
    Effects,
    Mechanics,
    Side,
    SideDecision,
    TurnView,
    UmpireDefault,
)
from app.rulesets.quincunx.base import QuincunxRules
from app.rulesets.quincunx.rules import STRAGGLER

ORDER_RULE = "Quincunx, Sequence: the higher initiative cast chooses to move or counter-move"


class QuincunxDecisions(QuincunxRules, Mechanics):
    """Quincunx's side decisions and the umpire's default."""

    lost_words = "destroyed, disintegrated into stragglers or gone berserk"

    def side_decisions(self, view: TurnView, side: Side) -> Sequence[SideDecision]:
        """In the first round's initiative phase, the initiative winner's choice (``now``;
        Castra's default: move, taking the first round as the cast already gives it)."""
        if view.round != 1 or self._phase_id(view) != "initiative" or view.initiative != side:
            return ()
        return (
            SideDecision(
                side,
                "order",
                "now",
                ORDER_RULE,
                options={"choose": "move"},
                choices=({"choose": "move"}, {"choose": "counter_move"}),
            ),
        )

    def unit_lost(self, unit: Combatant) -> bool:
        """Destroyed, routed, berserk, or disintegrated into stragglers (Quincunx,
        Attrition: a unit at 25% has no combat value)."""
        return super().unit_lost(unit) or unit.status.has(STRAGGLER)

    def umpire_default(self) -> UmpireDefault | None:
        """Errata umpire-default: Quincunx has no victory rule."""
        return self.t.umpire

    def leader_risk(self, unit: Combatant, effects: Effects, action: str) -> float:
        """Quincunx, Commanders: a leader whose unit loses casualties casts his pair of dice:
        any double wounds or kills him."""
        if unit.leader is None or effects.casualties <= 0:
            return 0.0
        dice = parse_dice(self.t.leaders.risk_dice)
        return 1.0 / len(dice.faces)
