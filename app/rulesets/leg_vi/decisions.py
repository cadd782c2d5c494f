"""Leg VI Carthago: the decisions a side takes besides moving and fighting its units
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, issue 30), the risk to a leader, and
the umpire's default result the text does not give.

- Leg VI, Playing the Game: the initiative winner chooses to act first or second (the move
  order action, in the command phase); in the phases the initiative leads, the side acting
  first says when it is done (the done action).
- Leg VI, Command: a leader with a unit may steady it (a DP off; the unit stays halted but
  may charge) or inspire it (+1 combat die this turn), in the command phase.
- Leg VI, Control: a unit not under control when the command phase ended takes its control
  test before anything else of its own.
- Leg VI, Move Distances: within 8" of enemy a unit moves by dice: the dice move comes
  before its move on the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.mechanics import (
    Combatant,
    Effects,
    Side,
    SideDecision,
    TurnView,
    UmpireDefault,
)
from app.rulesets.leg_vi.control import LEAD_DONE, LegVIControl, first_side, phase_key
from app.rulesets.leg_vi.fates import leader_fate_dist
from app.rulesets.leg_vi.on_table import LegVITable
from app.rulesets.leg_vi.units import (
    CONTROL_FREE,
    CONTROL_HALT,
    CONTROL_REPEAT,
    HALTING_MARKERS,
    OUT_OF_CONTROL,
)

ORDER_RULE = "Leg VI, Playing the Game: the initiative winner moves first or second"
DONE_RULE = "Leg VI, Playing the Game: the side with the initiative acts first in the phase"
STEADY_RULE = "Leg VI, Command: a leader steadies his unit (a DP off; it stays halted)"
INSPIRE_RULE = "Leg VI, Command: a leader inspires his unit (+1 combat die this turn)"
CONTROL_RULE = "Leg VI, Control: a unit not under control tests before it acts"
DICE_RULE = (
    "Leg VI, Move Distances: within 8 inches of enemy a unit moves by dice (and may choose "
    "to, to close further than a march move)"
)
#: how close an enemy stands for a leader to inspire rather than steady (inches)
FIGHT_NEAR = 4.0
#: the DPs at which a leader steadies his unit rather than inspires it
STEADY_AT = 2


class LegVIDecisions(LegVIControl, LegVITable):
    """Leg VI's side decisions, the risk to its leaders and the umpire's default."""

    lost_words = "destroyed or routing"

    def side_decisions(self, view: TurnView, side: Side) -> Sequence[SideDecision]:
        """The decisions due now (see the module's words). Castra's defaults: act first;
        steady a unit of 2 DPs or more, or a shaken one, that no enemy threatens within
        4", else inspire a unit with an enemy within 4"; the control test aiming for
        "free"; the dice move with every optional die."""
        phase = self._phase(view)
        out: list[SideDecision] = []
        mine = [u for u in view.side_units(side) if not u.status.eliminated]
        first = first_side(view)
        led = view.sides[first].get(LEAD_DONE) == phase_key(view) if first is not None else False
        if phase == "command" and view.initiative == side and not led:
            out.append(
                SideDecision(
                    side,
                    "move_order",
                    "now",
                    ORDER_RULE,
                    options={"choose": "first"},
                    choices=({"choose": "first"}, {"choose": "second"}),
                )
            )
        acting = self.side_to_move(view)
        if acting is not None and acting != side:
            return tuple(out)
        if phase == "command":
            for u in mine:
                if u.leader is None:
                    continue
                near = self._enemy_within(view, u, FIGHT_NEAR)
                shaken = self.u(u).shaken
                if (u.status.dps >= STEADY_AT or shaken) and not near:
                    out.append(
                        SideDecision(
                            side, "steady", "now", STEADY_RULE, unit=u.unit_id, optional=True
                        )
                    )
                elif near:
                    out.append(
                        SideDecision(
                            side, "inspire", "now", INSPIRE_RULE, unit=u.unit_id, optional=True
                        )
                    )
        tested = {CONTROL_FREE, CONTROL_HALT, CONTROL_REPEAT}
        for u in mine:
            if u.status.has(OUT_OF_CONTROL) and not (tested & u.status.markers):
                out.append(
                    SideDecision(
                        side,
                        "control_test",
                        "now",
                        CONTROL_RULE,
                        unit=u.unit_id,
                        options={"prefer": "free"},
                    )
                )
        if phase in ("manoeuvre", "skirmish"):
            close_in = 2 * self.t.movement.march_beyond
            for u in mine:
                if u.status.markers & HALTING_MARKERS or self.rolled(view, u, "move"):
                    continue
                if self._enemy_within(view, u, close_in):
                    out.append(
                        SideDecision(
                            side, "dice_move", "before", DICE_RULE, unit=u.unit_id,
                            options={"kind": "move"},
                        )
                    )  # fmt: skip
        if acting == side and acting == first and not led:
            out.append(SideDecision(side, "done", "done", DONE_RULE))
        return tuple(out)

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
        return float(1 - fates.get("ok", 0))

    def commanded(self, view: TurnView, unit_id: str) -> bool | None:
        """Leg VI, Control: under control where it stands (a leader with it or within 4", in
        a line or behind a controlled unit of its command)."""
        return unit_id in self.controlled(view)

    def umpire_default(self) -> UmpireDefault | None:
        """Errata umpire-default: Leg VI has no victory rule."""
        return self.t.umpire

    def charge_reach(self, view: TurnView, unit_id: str) -> float:
        """Leg VI, Charges: a charge is declared only against enemy within 4"."""
        return self.t.charges.range
