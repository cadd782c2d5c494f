"""Grown Slightly Bald: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30).

GSB, Turn order: in its activations a side activates its units one at a time, two free,
then each on a d10 roll that may fail and pass play to the other side. Activating a unit is
the decision before it moves, shoots or fights; which unit, and whether to risk the roll at
all, is the side's choice (Castra picks by what each unit could do).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.dice import parse_dice
from app.rules.mechanics import Combatant, Effects, Side, SideDecision, TurnView
from app.rulesets.gsb.base import ACTIVATED
from app.rulesets.gsb.turn import GSBTurn

ACTIVATION_RULE = (
    "GSB, Turn order: a unit moves and fights once activated; two activations a turn are free, "
    "then each needs a d10 roll that passes play on a failure"
)


class GSBDecisions(GSBTurn):
    """GSB's side decisions."""

    def side_decisions(self, view: TurnView, side: Side) -> Sequence[SideDecision]:
        """In the side's own activations, while play has not passed: activating each unit
        that has not acted this turn, before it acts (``before``; the default and only
        choice: activate it)."""
        if self._active_side(view) != side or view.sides[side].get("passed"):
            return ()
        return tuple(
            SideDecision(side, "activate", "before", ACTIVATION_RULE, unit=u.unit_id)
            for u in view.side_units(side)
            if not u.status.eliminated and not u.status.has(ACTIVATED)
        )

    def loss_share(self, unit: Combatant, effects: Effects) -> float:
        """GSB, Hits: a unit's worth is its hit points left (bases times hits a base, less
        the hits on its current base); bases lost and hits taken come off it."""
        if effects.eliminated:
            return 1.0
        body = self.body(unit)
        left = max(1, body.remaining)
        taken = effects.casualties * body.hp + effects.hits
        return max(0.0, min(1.0, taken / left))

    def leader_risk(self, unit: Combatant, effects: Effects, action: str) -> float:
        """GSB, The General: a general whose unit is hit (in melee only, where the data says
        so) takes his death test: he dies when every die shows its face; killed with his
        unit when it is destroyed."""
        g = self.t.general
        if unit.leader is None:
            return 0.0
        if effects.eliminated and g.killed_with_unit:
            return 1.0
        hit = effects.hits > 0 or effects.casualties > 0
        if not hit or (g.test_when == "melee_hit" and action != "melee"):
            return 0.0
        dice = parse_dice(g.death_test)
        return (1.0 / len(dice.faces)) ** len(g.dies_on)
