"""MWAN #90 Punic rules mechanics: a unit's starting state, the phases of a turn
(initiative with its tie rule, the missile phase's figures, the end of melees) and moves.
"""

from __future__ import annotations

from app.rules.actions import Throws
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    OptionSpec,
    Resolution,
    Side,
    Situation,
    Status,
    TurnView,
    UnitChange,
)
from app.rulesets.mwan90.base import MWAN90Base
from app.rulesets.mwan90.rules import (
    BOTH,
    DISORDERED,
    FIRST_MOVE_OVER,
    FORMED,
    MISSILE_FIGURES,
    MOVEMENT,
    MOVES_SECOND,
    SKIRMISH,
)

ORDER_OPTIONS = (
    OptionSpec(
        "choose",
        "The winner moves",
        "choice",
        "first",
        ("first", "second"),
        help="MWAN #90, Turn sequence 2: the initiative winner chooses 1st or 2nd move.",
    ),
)


class MWANTurn(MWAN90Base):
    """MWAN #90, Sequence: set-up, initiative, phases and move allowances."""

    # -- set-up and turn ------------------------------------------------------------------

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """A unit of ``size`` figures, formed unless its type never is."""
        tr = self.mw_troop(troop)
        form = SKIRMISH if tr.formed == "never" else FORMED
        return Status(strength=size, start_strength=size, grade=grade, formation=form)

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

    # -- the order of moves -----------------------------------------------------------------

    def side_to_move(self, view: TurnView) -> Side | None:
        """MWAN #90, Turn sequence 2: in the movement phase the first side moves, then,
        once its move is over (the end of move action), the second; None (either side) in
        other phases or before any initiative."""
        first = self.first_mover(view)
        if first is None or self._phase_id(view) != MOVEMENT:
            return None
        return BOTH[1 - first] if view.sides[first].get(FIRST_MOVE_OVER) == view.turn else first

    def _side_of(self, sit: Situation) -> tuple[TurnView, Side]:
        if sit.side is None:
            raise ValueError("say which side")
        if sit.view is None:
            raise ValueError("the move order needs the battle")
        return sit.view, sit.side

    def prepare_order(self, sit: Situation) -> Situation:
        """The initiative winner chooses to move first or second, before anyone moves."""
        view, side = self._side_of(sit)
        if view.initiative is None:
            raise ValueError("no initiative has been tossed yet")
        if side != view.initiative:
            raise ValueError(
                f"{view.side_names[view.initiative]} won the initiative: only it chooses the "
                "move order (MWAN #90, Turn sequence 2)"
            )
        if self._phase_id(view) not in ("initiative", MOVEMENT):
            raise ValueError("the move order is chosen before the movement phase ends")
        first = self.first_mover(view)
        if first is not None and view.sides[first].get(FIRST_MOVE_OVER) == view.turn:
            raise ValueError(f"{view.side_names[first]}'s move is already over")
        if any(u.moved > 0 for u in view.units):
            raise ValueError("units have moved this turn: the move order is chosen before")
        return sit

    def play_order(self, sit: Situation, _: Situation, th: Throws) -> Resolution:
        """Record the winner's choice for this turn."""
        view, side = self._side_of(sit)
        second = sit.choice("choose", "first") == "second"
        mover = BOTH[1 - side] if second else side
        mine = {MOVES_SECOND: view.turn if second else 0}
        return Resolution(
            sides=(mine, None) if side == 0 else (None, mine),
            explanation=(
                f"{view.side_names[side]} chooses to move {'second' if second else 'first'}: "
                f"{view.side_names[mover]} moves first this turn",
            ),
        )

    def prepare_end_move(self, sit: Situation) -> Situation:
        """Only the side moving first, in the movement phase, ends its move."""
        view, side = self._side_of(sit)
        moving = self.side_to_move(view)
        if moving is None:
            raise ValueError("the move passes from side to side only in the movement phase")
        first = self.first_mover(view)
        if moving != first:
            raise ValueError(
                f"{view.side_names[moving]} moves second: its move ends with the phase"
            )
        if side != first:
            raise ValueError(
                f"it is {view.side_names[first]}'s move, not {view.side_names[side]}'s"
            )
        return sit

    def play_end_move(self, sit: Situation, _: Situation, th: Throws) -> Resolution:
        """MWAN #90, Turn sequence 2: the first side's move is over; the second side moves."""
        view, side = self._side_of(sit)
        mine = {FIRST_MOVE_OVER: view.turn}
        return Resolution(
            sides=(mine, None) if side == 0 else (None, mine),
            explanation=(
                f"{view.side_names[side]}'s move is over: {view.side_names[1 - side]} moves",
            ),
        )

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
        infantry are stated; errata); a unit in contact with the enemy is pinned (a formed
        unit touching only skirmishers moves on through them)."""
        if view is not None and self.pinned(unit, view):
            return 0.0
        return float(self.t.movement.rows[self.mw_troop(unit.troop).move_class].move)
