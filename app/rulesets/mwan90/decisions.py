"""MWAN #90: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30), and the umpire's default
result the article does not give.

MWAN #90, Turn sequence 2: the initiative winner chooses to move first or second (the move
order action, before anyone moves); the side moving first ends its move (the end of move
action) so the other moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.mechanics import Side, SideDecision, TurnView, UmpireDefault
from app.rulesets.mwan90.base import MWAN90Base
from app.rulesets.mwan90.rules import FIRST_MOVE_OVER, MOVEMENT

ORDER_RULE = "MWAN #90, Turn sequence 2: the initiative winner chooses 1st or 2nd move"
END_RULE = "MWAN #90, Turn sequence 2: the first side's move ends, then the second side moves"


class MWANDecisions(MWAN90Base):
    """MWAN #90's side decisions and the umpire's default."""

    lost_words = "destroyed, routed or dispersed"

    def side_decisions(self, view: TurnView, side: Side) -> Sequence[SideDecision]:
        """The initiative winner's move order in the initiative phase (``now``; Castra's
        default: move second, to see the enemy's move before making its own); in the
        movement phase, the first side's end of its move once it has moved (``done``)."""
        pid = self._phase_id(view)
        if pid == "initiative" and view.initiative == side:
            return (
                SideDecision(
                    side,
                    "move_order",
                    "now",
                    ORDER_RULE,
                    options={"choose": "second"},
                    choices=({"choose": "second"}, {"choose": "first"}),
                ),
            )
        first = self.first_mover(view)
        if (
            pid == MOVEMENT
            and first == side
            and self.side_to_move(view) == side
            and view.sides[side].get(FIRST_MOVE_OVER) != view.turn
        ):
            return (SideDecision(side, "end_move", "done", END_RULE),)
        return ()

    def umpire_default(self) -> UmpireDefault | None:
        """Errata umpire-default: the article has no victory rule."""
        return self.t.umpire
