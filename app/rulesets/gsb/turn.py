"""Grown Slightly Bald mechanics: the battle's set-up, the turn (initiative, Carthage
winning ties) and the activation ladder (two free activations, then a d10 read 0-9).
"""

from __future__ import annotations

from typing import NamedTuple

from app.rules.actions import Throws, Total
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    Outcome,
    Resolution,
    Scalar,
    Side,
    SideUpdate,
    Situation,
    TurnView,
    UnitChange,
)
from app.rulesets.gsb.base import (
    ACTIVATED,
    BOTH,
    DISENGAGED,
    FOUGHT,
    FOUGHT_AGAIN,
    GENERAL_MOVED,
    PIVOT_GROUP,
    PIVOTED,
    SHOT,
    SHOT_AFTER_MOVING,
    GSBBase,
    other_side,
)
from app.rulesets.gsb.rules import read_from

#: the markers a unit carries for one turn, cleared at the next initiative
TURN_MARKERS = frozenset({ACTIVATED, GENERAL_MOVED, DISENGAGED, SHOT})
#: what a unit did in its activation, cleared when it is activated (and at the initiative)
ACTIVATION_MARKERS = frozenset({SHOT})
ACTIVATION_EXTRA = frozenset({SHOT_AFTER_MOVING, FOUGHT, FOUGHT_AGAIN, PIVOTED, PIVOT_GROUP})


def _did(unit: Combatant) -> bool:
    """Whether ``unit`` carries a record of an activation (its shot)."""
    return bool(ACTIVATION_MARKERS & unit.status.markers) or any(
        k in unit.status.extra for k in ACTIVATION_EXTRA
    )


#: the change that clears a unit's record of its activation
FORGET_ACTIVATION = Effects(markers_remove=ACTIVATION_MARKERS, extra_remove=ACTIVATION_EXTRA)
#: in a side's record: the unit activated now (its id), OPEN for an activation rolled
#: without naming its unit (the first unit of the side to act takes it), "" for none
ACTIVE = "active"
OPEN = "*"
SEQUENCE_RULE = "GSB, Turn order"


class Ladder(NamedTuple):
    """An activation worked out before any dice: the side, which activation of its turn
    this is, and the score it needs (None: free)."""

    side: Side
    nth: int
    need: int | None


class GSBTurn(GSBBase):
    """GSB, Initiative and Activation."""

    def start_battle(self, view: TurnView, dice: Dice) -> Resolution:
        """GSB, Victory: each side starts with no stars; the enemy's unit count at the start
        sets the stars needed (the general is not a unit)."""
        lines = tuple(
            f"{view.side_names[s]} needs {self._stars_needed(view, s)} victory stars to win"
            for s in BOTH
        )
        return Resolution(
            sides=(self._fresh_record(view, 0), self._fresh_record(view, 1)), explanation=lines
        )

    def _fresh_record(self, view: TurnView, side: Side) -> dict[str, Scalar]:
        return {
            "stars": 0,
            "units_at_start": len(view.side_units(side)),
            "activations": 0,
            "passed": False,
        }

    # -- turn -----------------------------------------------------------------------------

    def _phase_name(self, view: TurnView) -> str:
        phases = self.ruleset.turn.phases
        return phases[view.phase].name.lower() if 0 <= view.phase < len(phases) else "phase"

    def _phase_id(self, view: TurnView) -> str:
        phases = self.ruleset.turn.phases
        return phases[view.phase].id if 0 <= view.phase < len(phases) else ""

    def side_in_play(self, view: TurnView) -> Side | None:
        """GSB, Turn order: the initiative side's activations, then the other's."""
        return self._active_side(view)

    def _active_side(self, view: TurnView) -> Side | None:
        """Whose activations the phase is: the initiative side first, then the other."""
        pid = self._phase_id(view)
        if view.initiative is None or pid not in ("first_player", "second_player"):
            return None
        first = view.initiative
        return first if pid == "first_player" else other_side(first)

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """GSB, Turn order: initiative opens each turn; then each player's activations."""
        if self._phase_id(view) == "initiative":
            return self._initiative(view, dice)
        side = self._active_side(view)
        if side is None:
            return Resolution()
        free = self.t.activation.free
        return Resolution(
            explanation=(
                f"{view.side_names[side]} activates units: {free} free, then a d10 (0-9) "
                f"needing {self.t.activation.first_needed}+, rising by "
                f"{self.t.activation.step} after each success",
            )
        )

    def _ties_side(self, view: TurnView) -> Side | None:
        """The side that wins initiative ties (Carthage), found by army id, army name or
        side name; None when neither or both sides match."""
        return self._side_named(view, self.t.initiative.ties_to)

    def _side_named(self, view: TurnView, key: str) -> Side | None:
        """The side the data names by ``key`` (an army id, an army name or a side name, case
        ignored); None when neither or both sides match."""
        names = {key.casefold()}
        army = self.ruleset.armies.get(key)
        if army is not None:
            names |= {army.side.casefold(), army.name.casefold()}
        hits: list[Side] = [
            s
            for s in BOTH
            if view.armies[s].casefold() in names or view.side_names[s].casefold() in names
        ]
        return hits[0] if len(hits) == 1 else None

    def _initiative(self, view: TurnView, dice: Dice) -> Resolution:
        """GSB, Turn order: both sides roll a d6; the higher chooses who plays first
        (Castra gives the initiative, i.e. the first activations, to the winner); Carthage
        wins ties. If neither side (or both) is Carthage a tie is rolled again. Each side's
        activation count starts afresh and units may act again (a unit that disengaged may
        shoot and fight again)."""
        die = self.t.initiative.die
        lines: list[str] = []
        while True:
            a = dice.roll(die, f"initiative for {view.side_names[0]}")[0]
            b = dice.roll(die, f"initiative for {view.side_names[1]}")[0]
            lines.append(f"initiative: {view.side_names[0]} {a}, {view.side_names[1]} {b}")
            if a != b:
                winner: Side = 0 if a > b else 1
                break
            tie = self._ties_side(view)
            if tie is not None:
                winner = tie
                lines.append(f"a tie goes to {view.side_names[tie]}")
                break
            lines.append("a tie, and neither side is the one that wins ties: roll again")
        lines.append(f"{view.side_names[winner]} has the initiative and plays first")
        reset: dict[str, Scalar] = {"activations": 0, "passed": False}
        if any(view.sides[s].get(ACTIVE) for s in BOTH):  # (no key where none was ever set)
            reset[ACTIVE] = ""
        cleared = tuple(
            UnitChange(
                u.unit_id, Effects(markers_remove=TURN_MARKERS, extra_remove=ACTIVATION_EXTRA)
            )
            for u in view.units
            if TURN_MARKERS & u.status.markers or _did(u)
        )
        return Resolution(
            others=cleared,
            sides=(dict(reset), dict(reset)),
            initiative=winner,
            explanation=tuple(lines),
        )

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """GSB, Movement: unit widths per troop type (HI 1, MI/elephants/LI 2, HC 3, LC 4)."""
        return float(self.t.movement.rows[unit.troop].move)

    # -- activation -----------------------------------------------------------------------

    def activation_problem(self, view: TurnView, unit: Combatant, doing: str) -> str | None:
        """GSB, Turn order: why ``unit`` may not ``doing`` (move, charge, shoot, fight) now,
        or None. "Active player moves and/or fights, one unit at a time. Two units activate
        for free, but from the third unit onwards player must roll ... Units may only be
        activated once per turn. When an activation roll is failed, play passes to the
        other player." In a player's activations only the unit activated last acts (or, after
        an activation rolled without naming its unit, the first of the side's units not yet
        activated to act); a unit that has acted is done for the turn; after a failed roll,
        no one. Outside the players' activations no unit acts, but for the players standing
        their units before play (a move in the battle's first phase) and a battle with no
        initiative yet (odds outside a battle)."""
        side = self._active_side(view)
        names = view.side_names
        who = f"{unit.name} ({unit.unit_id})"
        if side is None:
            setting_up = (view.turn, view.round, view.phase) == (1, 1, 0) and doing == "move"
            if view.initiative is None or setting_up:
                return None
            return (
                f"{SEQUENCE_RULE}: units move and fight only in their side's activations, and "
                f"this is the {self._phase_name(view)}: {who} may not {doing}"
            )
        if unit.side != side:
            return (
                f"{SEQUENCE_RULE}: it is {names[side]}'s turn to activate units: {who} may "
                f"not {doing} (units act only in their own side's activations)"
            )
        record = view.sides[side]
        if record.get("passed"):
            return (
                f"{SEQUENCE_RULE}: {names[side]} failed an activation roll and play has "
                f"passed: {who} may not {doing}"
            )
        active = str(record.get(ACTIVE, "") or "")
        if active == unit.unit_id:
            return None
        if active == OPEN and not unit.status.has(ACTIVATED):
            return None
        if unit.status.has(ACTIVATED):
            return (
                f"{SEQUENCE_RULE}: {who} has already acted this turn (units are activated "
                "once a turn, one at a time)"
            )
        now = next((u for u in view.units if u.unit_id == active), None)
        current = f"; {now.name} ({now.unit_id}) is the unit activated now" if now else ""
        return (
            f"{SEQUENCE_RULE}: {who} has not been activated: activate it first (two units "
            f"free, then a d10 roll each){current}"
        )

    def claim_activation(self, view: TurnView, unit: Combatant) -> Resolution:
        """The record of ``unit`` taking an activation rolled without naming its unit (the
        side's ``active`` is OPEN): it becomes the unit activated, marked as having acted.
        Nothing when it is already the unit activated (or no activation is open)."""
        side = self._active_side(view)
        if side is None or unit.side != side:
            return Resolution()
        if str(view.sides[side].get(ACTIVE, "")) != OPEN or unit.status.has(ACTIVATED):
            return Resolution()
        sides: list[SideUpdate] = [None, None]
        sides[side] = {ACTIVE: unit.unit_id}
        mark = UnitChange(unit.unit_id, Effects(markers_add=frozenset({ACTIVATED})))
        return Resolution(
            others=(mark,),
            sides=(sides[0], sides[1]),
            explanation=(f"{unit.name} ({unit.unit_id}) takes the activation.",),
        )

    def _activation_number(self, sit: Situation, side: Side) -> int:
        nth = sit.number("nth", 0)
        if nth:
            return nth
        record = sit.view.sides[side] if sit.view is not None else {}
        return int(record.get("activations", 0)) + 1

    def _activation_side(self, sit: Situation) -> Side:
        if sit.side is not None:
            return sit.side
        return sit.attacker.side

    def _activate_check(self, sit: Situation, side: Side) -> None:
        view = sit.view
        if view is not None:
            if view.sides[side].get("passed"):
                raise ValueError(
                    f"{view.side_names[side]} failed an activation roll: play has passed"
                )
            active = self._active_side(view)
            if active is not None and active != side:
                raise ValueError(f"it is {view.side_names[active]}'s turn to activate units")
            if active is None and view.initiative is not None:
                raise ValueError(
                    f"{SEQUENCE_RULE}: units are activated in the players' activations, not "
                    f"in the {self._phase_name(view)}"
                )
        if sit.actor is not None and sit.actor.status.has(ACTIVATED):
            raise ValueError(f"{sit.actor.name} has already acted this turn")

    def _activation_outcome(self, sit: Situation, ok: bool) -> Outcome:
        if not ok:
            return Outcome(result="fails: play passes")
        marker = Effects(markers_add=frozenset({ACTIVATED})) if sit.actor is not None else Effects()
        return Outcome(attacker=marker, result="activated")

    def prepare_activation(self, sit: Situation) -> Ladder:
        """GSB, Turn order: which activation this is for the side and the score it needs
        (None: free). Refused, for the roll and its odds alike, when the unit has acted this
        turn, play has passed or it is the other side's turn."""
        side = self._activation_side(sit)
        self._activate_check(sit, side)
        n = self._activation_number(sit, side)
        return Ladder(side, n, self.t.activation.needed(n))

    def play_activation(self, sit: Situation, plan: Ladder, th: Throws) -> Resolution:
        """GSB, Turn order: two units activate free; from the third a d10 read 0-9 must
        score 1+, then 2+, ... (one more after each success). A failed roll passes play to
        the other player."""
        side, n, need = plan
        act = self.t.activation
        who = sit.actor.name if sit.actor is not None else "a unit"
        if need is None:
            ok, line = True, f"activation {n} ({who}) is free"
        elif need > act.face_max:
            ok, line = False, f"activation {n} would need {need}+ on a d10 (0-9): impossible"
        else:
            spec = read_from(act.die, act.face_min, act.face_max)
            face, _ = th.throw(Total(spec, f"activation {n} ({who}), needs {need}+"))
            ok = face >= need
            line = f"activation {n} ({who}): rolled {face}, needs {need}+: " + (
                "succeeds" if ok else "fails"
            )
        actor = sit.actor
        update: dict[str, Scalar] = (
            {"activations": n, ACTIVE: OPEN if actor is None else actor.unit_id}
            if ok
            else {"passed": True, ACTIVE: ""}
        )
        lines = [line]
        if not ok:
            lines.append("play passes to the other player")
        sides: list[SideUpdate] = [None, None]
        sides[side] = update
        # a new activation starts with nothing done (a unit acts once a turn, so this only
        # matters when a unit shot before it was activated)
        fresh: tuple[UnitChange, ...] = ()
        if actor is not None and ok and _did(actor):
            fresh = (UnitChange(actor.unit_id, FORGET_ACTIVATION),)
        return Resolution(
            outcome=self._activation_outcome(sit, ok),
            others=fresh,
            sides=(sides[0], sides[1]),
            explanation=tuple(lines),
        )
