"""MWAN #90 Punic rules mechanics: a unit's starting state, the phases of a turn
(initiative with its tie rule, the missile phase's figures, the end of melees) and moves.
"""

from __future__ import annotations

from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    Resolution,
    Side,
    Status,
    TurnView,
    UnitChange,
)
from app.rulesets.mwan90.base import MWAN90Base
from app.rulesets.mwan90.rules import BOTH, DISORDERED, FORMED, MISSILE_FIGURES, SKIRMISH


class TurnRules(MWAN90Base):
    """MWAN #90, Sequence: set-up, initiative, phases and move allowances."""

    # -- set-up and turn ------------------------------------------------------------------

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """A unit of ``size`` figures, formed unless its type never is."""
        tr = self.mw_troop(troop)
        form = SKIRMISH if tr.formed == "never" else FORMED
        return Status(strength=size, start_strength=size, grade=grade, formation=form)

    def _phase_id(self, view: TurnView) -> str:
        phases = self.ruleset.turn.phases
        return phases[view.phase].id if 0 <= view.phase < len(phases) else ""

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """MWAN #90, Turn sequence: initiative opens the turn; at the start of the missile
        phase each unit's figures are noted, since missiles are exchanged simultaneously."""
        pid = self._phase_id(view)
        if pid == "initiative":
            return self._initiative(view, dice)
        if pid == "missiles":
            return Resolution(
                others=tuple(
                    UnitChange(u.unit_id, Effects(extra={MISSILE_FIGURES: u.status.strength}))
                    for u in view.units
                    if not u.status.eliminated
                )
            )
        return Resolution()

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """After missiles the noted figures are dropped; after melee, disorder ends for
        units out of contact with the enemy (our reading; needs footprints)."""
        pid = self._phase_id(view)
        if pid == "missiles":
            return Resolution(
                others=tuple(
                    UnitChange(u.unit_id, Effects(extra_remove=frozenset({MISSILE_FIGURES})))
                    for u in view.units
                    if MISSILE_FIGURES in u.status.extra
                )
            )
        if pid == "melee" and self.t.melee.disorder_clears == "out_of_contact":
            clear = [
                u
                for u in view.units
                if u.status.has(DISORDERED) and self._in_contact(u, view) is False
            ]
            return Resolution(
                others=tuple(
                    UnitChange(u.unit_id, Effects(markers_remove=frozenset({DISORDERED})))
                    for u in clear
                ),
                explanation=tuple(
                    f"{u.name} is out of contact: no longer disordered" for u in clear
                ),
            )
        return Resolution()

    def _initiative(self, view: TurnView, dice: Dice) -> Resolution:
        """MWAN #90, Turn sequence 1: toss for initiative (a d6 each, our reading); on the
        first turn a tie is tossed again; later the side that lost the previous initiative
        wins a tie. The winner chooses to move first or second (Castra gives it the
        initiative)."""
        die = self.t.initiative.die
        lines: list[str] = []
        while True:
            a = dice.roll(die, f"initiative for {view.side_names[0]}")[0]
            b = dice.roll(die, f"initiative for {view.side_names[1]}")[0]
            lines.append(f"initiative: {view.side_names[0]} {a}, {view.side_names[1]} {b}")
            if a != b:
                winner: Side = 0 if a > b else 1
                break
            lost = [s for s in BOTH if view.sides[s].get("lost_initiative")]
            if view.turn > 1 and len(lost) == 1:
                winner = lost[0]
                lines.append(f"a tie: {view.side_names[winner]} lost last turn and wins it")
                break
            lines.append(
                "a tie: toss again"
                if view.turn <= 1
                else "a tie, and no record of last turn's loser: toss again"
            )
        lines.append(f"{view.side_names[winner]} wins the initiative and chooses the move order")
        rolls = (a, b)
        return Resolution(
            initiative=winner,
            sides=(
                {"lost_initiative": winner != 0, "initiative_roll": rolls[0]},
                {"lost_initiative": winner != 1, "initiative_roll": rolls[1]},
            ),
            explanation=tuple(lines),
        )

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """MWAN #90, Movement: 8" for every class (only cavalry in line and formed medium
        infantry are stated; errata); a unit in contact with the enemy is pinned."""
        if view is not None and self.t.movement.pinned_in_melee and self._in_contact(unit, view):
            return 0.0
        return float(self.t.movement.rows[self.mw_troop(unit.troop).move_class].move)
