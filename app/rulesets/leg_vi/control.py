"""Leg VI Carthago: who is under control, and who acts first in a phase.

- Control: "Units within 4" of a detached leader, are considered to be under control and
  may move and act as the player wishes. Leaders attached to a unit only exert control over
  that unit." "Units that are not under control at the end of the command phase (after all
  leader actions have been taken) must normally take a Control Test": units in a continuous
  line touching a controlled unit of the same command, rear lines within 4" directly behind
  one, and light troops and elephants within 4" of a controlled unit are under control too.
  When the command phase ends, every unit not under control that has taken no control test
  this turn is marked ``out_of_control``; until it tests it may not move, charge or shoot
  (errata 'control-on-the-table').
- The initiative: "At the start of each turn, players dice for initiative with high roll
  deciding whether to take the initiative and move first or to move second ... The player
  with initiative takes the first actions in all phases." In the phases marked
  ``initiative_first`` (``[sequence]``) the side moving first acts until it says it is
  done (the ``done`` action); then the other side (errata 'initiative-first-in-every-phase').
"""

from __future__ import annotations

from dataclasses import replace

from app.rules.actions import Throws
from app.rules.contact import TOUCH
from app.rules.geometry import aspect, axes, edge_distance, polygon_distance
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    OptionSpec,
    Resolution,
    Scalar,
    Side,
    Situation,
    TurnView,
    UnitChange,
)
from app.rules.movement import Breach, MoveReason
from app.rulesets.leg_vi.base import LegVIBase, inches
from app.rulesets.leg_vi.units import (
    CONTROL_FREE,
    CONTROL_HALT,
    CONTROL_REPEAT,
    MEASURE,
    OUT_OF_CONTROL,
)

CONTROL_RULE = "Leg VI, Control"
SEQUENCE_RULE = "Leg VI, Playing the Game"
#: in the initiative winner's record: the turn it chose to move second
MOVES_SECOND = "moves_second"
#: in the first side's record: "<turn>.<phase>" once it is done in that phase
LEAD_DONE = "lead_done"
#: the moves a unit makes of its own will, held to control
CHOSEN: frozenset[MoveReason] = frozenset({"move", "charge"})
#: actions a unit takes of its own will in an ordered phase, and what each is in words
HELD_ACTIONS = {
    "leader_move": "move its leader",
    "steady": "be steadied",
    "inspire": "be inspired",
    "shoot": "shoot",
    "charge": "charge",
    "dice_move": "make a dice move",
    "redress": "redress its ranks",
    "reform": "reform",
    "manoeuvre": "manoeuvre",
}
#: of those, the ones a unit out of control may not take before its control test
UNCONTROLLED_ACTIONS = frozenset({"shoot", "charge", "dice_move", "reform", "manoeuvre"})
#: dice moves that are a unit's own choice (the others go where the rules send them)
CHOSEN_DICE_MOVES = frozenset({"move", "charge_on"})
ORDER_OPTIONS = (
    OptionSpec(
        "choose",
        "The winner moves",
        "choice",
        "first",
        ("first", "second"),
        help="Leg VI, Playing the Game: the initiative winner moves first or second.",
    ),
)
#: facings this close (degrees) are one line's
SAME_FACING = 1.0


def _other(side: Side) -> Side:
    return 1 if side == 0 else 0


def _turned(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def first_side(view: TurnView) -> Side | None:
    """The side that acts first this turn: the initiative winner, unless it chose to move
    second."""
    w = view.initiative
    if w is None:
        return None
    return _other(w) if view.sides[w].get(MOVES_SECOND) == view.turn else w


def phase_key(view: TurnView) -> str:
    """This phase of this turn, as the side record keeps it (``lead_done``)."""
    return f"{view.turn}.{view.phase}"


def side_of(sit: Situation) -> tuple[TurnView, Side]:
    """The battle and the side a side's action (order, lead done) is taken for."""
    if sit.side is None:
        raise ValueError("say which side")
    if sit.view is None:
        raise ValueError("this needs the battle")
    return sit.view, sit.side


class LegVIControl(LegVIBase):
    """Leg VI, Control and the initiative's lead in each phase."""

    # ------------------------------------------------------------------ control

    def controlled(self, view: TurnView) -> set[str]:
        """The units under control where they stand: a leader with them; within 4" of a
        detached leader of their side; in a continuous line touching a controlled unit of
        their command, or within 4" directly behind one; light troops and elephants within
        4" of a controlled unit (``[control_test]`` ``radius``, ``conform_behind_within``)."""
        ct = self.t.control_test
        units = [u for u in view.units if not u.status.eliminated and u.footprint.has_size]
        attached = {ld.attached_to for ld in view.leaders if ld.attached_to is not None}
        detached = [ld for ld in view.leaders if ld.attached_to is None]
        ok: set[str] = set()
        for u in units:
            if u.unit_id in attached or any(
                ld.side == u.side
                and polygon_distance(((ld.x, ld.y),), u.footprint.corners()) <= ct.radius + MEASURE
                for ld in detached
            ):
                ok.add(u.unit_id)
        changed = True
        while changed:
            changed = False
            for u in units:
                if u.unit_id in ok:
                    continue
                lu = self.u(u)
                free = lu.light or lu.elephant
                for c in units:
                    if c.unit_id not in ok or c.side != u.side:
                        continue
                    if free and edge_distance(u.footprint, c.footprint) <= ct.radius + MEASURE:
                        break
                    if u.command == c.command and (
                        self._in_line(u, c) or self._behind(u, c, ct.conform_behind_within)
                    ):
                        break
                else:
                    continue
                ok.add(u.unit_id)
                changed = True
        return ok

    @staticmethod
    def _in_line(u: Combatant, c: Combatant) -> bool:
        """``u`` extends ``c``'s line: touching, facing the same way, beside it."""
        return (
            _turned(u.facing, c.facing) <= SAME_FACING
            and edge_distance(u.footprint, c.footprint) <= TOUCH * 10
            and aspect(c.footprint, u.x, u.y) == "flank"
        )

    @staticmethod
    def _behind(u: Combatant, c: Combatant, within: float) -> bool:
        """``u`` forms a rear line within ``within`` directly behind ``c``: facing the same
        way, behind its rear edge, overlapping its frontage."""
        if _turned(u.facing, c.facing) > SAME_FACING:
            return False
        (fx, fy), (rx, ry) = axes(c.facing)
        dx, dy = u.x - c.x, u.y - c.y
        back = -(dx * fx + dy * fy) - c.depth / 2 - u.depth / 2
        across = abs(dx * rx + dy * ry)
        return -MEASURE <= back <= within + MEASURE and across < (c.width + u.width) / 2

    def control_marks(self, view: TurnView) -> Resolution:
        """When the command phase ends: each unit not under control that has not tested
        this turn is marked out of control (none are already: the marks are a turn's)."""
        ok = self.controlled(view)
        tested = {CONTROL_FREE, CONTROL_HALT, CONTROL_REPEAT}
        out = [
            u
            for u in view.units
            if not u.status.eliminated
            and u.footprint.has_size
            and u.unit_id not in ok
            and not (tested & u.status.markers)
        ]
        if not out:
            return Resolution()
        names = ", ".join(f"{u.name} ({u.unit_id})" for u in out)
        mark = Effects(markers_add=frozenset({OUT_OF_CONTROL}))
        return Resolution(
            others=tuple(UnitChange(u.unit_id, mark) for u in out),
            explanation=(
                f"Not under control, to take a control test before acting ({CONTROL_RULE}): "
                f"{names}.",
            ),
        )

    def control_problem(self, unit: Combatant, doing: str) -> str | None:
        """Why ``unit`` may not ``doing`` for want of control, or None: it was not under
        control when the command phase ended and has taken no control test since."""
        st = unit.status
        if not st.has(OUT_OF_CONTROL) or {CONTROL_FREE, CONTROL_REPEAT, CONTROL_HALT} & (
            st.markers
        ):
            return None
        r = inches(self.t.control_test.radius)
        return (
            f"{unit.name} ({unit.unit_id}) was not under control when the command phase ended "
            f"(no leader with it or within {r}, nor in a line or behind a controlled unit of "
            f"its command): it may not {doing} before its control test"
        )

    # ------------------------------------------------------------------ the lead

    def _ordered(self, view: TurnView) -> bool:
        steps = self.t.sequence.steps
        return 0 <= view.phase < len(steps) and steps[view.phase].initiative_first

    def side_to_move(self, view: TurnView) -> Side | None:
        """Leg VI, Playing the Game: "The player with initiative takes the first actions in
        all phases": in a phase marked ``initiative_first`` the first side acts, then, once
        it is done, the other; None (both) elsewhere and before the first initiative."""
        if not self._ordered(view):
            return None
        first = first_side(view)
        if first is None:
            return None
        done = view.sides[first].get(LEAD_DONE) == phase_key(view)
        return _other(first) if done else first

    def side_in_play(self, view: TurnView) -> Side | None:
        return self.side_to_move(view)

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """The chapters' checks, then Leg VI, Control: a unit out of control moves or
        charges only after its control test (:meth:`control_problem`)."""
        found = super().may_move(view, unit_id, reason)
        if found is not None or reason not in CHOSEN:
            return found
        problem = self.control_problem(view.unit(unit_id), reason)
        return None if problem is None else Breach(CONTROL_RULE, problem)

    def may_act(self, action: str, sit: Situation) -> str | None:
        """Leg VI, Playing the Game and Control: in a phase the initiative leads, a unit of
        the side not acting yet takes no action of its own choosing (shoot, charge, a dice
        move, a leader's action, ...); a unit out of control shoots, charges, makes a dice
        move, reforms or manoeuvres only after its control test. Responses, combat and the
        moves the rules send units on are not held."""
        doing = HELD_ACTIONS.get(action)
        view, unit = sit.view, sit.actor
        if doing is None or view is None or unit is None:
            return None
        if action == "dice_move" and sit.choice("kind", "move") not in CHOSEN_DICE_MOVES:
            return None
        now = self.side_to_move(view)
        if now is not None and unit.side != now:
            return (
                f"{SEQUENCE_RULE}: {view.side_names[now]} acts first in this phase; "
                f"{unit.name} ({unit.unit_id}) may not {doing} until it is done (the Done "
                "action)"
            )
        if action in UNCONTROLLED_ACTIONS:
            problem = self.control_problem(unit, doing)
            if problem is not None:
                return f"{CONTROL_RULE}: {problem}"
        return None

    # ------------------------------------------------------------------ the two actions

    def prepare_order(self, sit: Situation) -> Situation:
        """Only the initiative winner chooses, in the command phase, before the first side
        is done."""
        view, side = side_of(sit)
        if view.initiative is None:
            raise ValueError("no initiative has been diced for yet")
        if side != view.initiative:
            raise ValueError(
                f"{view.side_names[view.initiative]} won the initiative: only it chooses to "
                f"move first or second ({SEQUENCE_RULE})"
            )
        if self._phase(view) != "command":
            raise ValueError(f"the order is chosen in the command phase ({SEQUENCE_RULE})")
        first = first_side(view)
        if first is not None and view.sides[first].get(LEAD_DONE) == phase_key(view):
            raise ValueError(f"{view.side_names[first]} has already acted first this turn")
        return sit

    def play_order(self, sit: Situation, _: Situation, th: Throws) -> Resolution:
        """Record the winner's choice for this turn."""
        view, side = side_of(sit)
        second = sit.choice("choose", "first") == "second"
        first = _other(side) if second else side
        mine: dict[str, Scalar] = {MOVES_SECOND: view.turn if second else 0}
        return Resolution(
            sides=self._sides(side, mine),
            explanation=(
                f"{view.side_names[side]} chooses to move {'second' if second else 'first'}: "
                f"{view.side_names[first]} takes the first actions in every phase this turn.",
            ),
        )

    def prepare_done(self, sit: Situation) -> Situation:
        """Only the side acting first in a phase the initiative leads says it is done."""
        view, side = side_of(sit)
        now = self.side_to_move(view)
        if now is None:
            raise ValueError(
                f"both sides act in this phase, or no initiative yet ({SEQUENCE_RULE})"
            )
        if now != first_side(view):
            raise ValueError(f"{view.side_names[now]} acts second: it is done when the phase ends")
        if side != now:
            raise ValueError(f"{view.side_names[now]} acts first, not {view.side_names[side]}")
        return sit

    def play_done(self, sit: Situation, _: Situation, th: Throws) -> Resolution:
        """Leg VI, Playing the Game: the first side's actions in this phase are over; the
        other side acts."""
        view, side = side_of(sit)
        mine: dict[str, Scalar] = {LEAD_DONE: phase_key(view)}
        return Resolution(
            sides=self._sides(side, mine),
            explanation=(
                f"{view.side_names[side]} is done in this phase: "
                f"{view.side_names[_other(side)]} acts.",
            ),
        )

    # ------------------------------------------------------------------ phases

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """The chapters' ends of phases, and when the command phase ends, the units not
        under control marked (:meth:`control_marks`)."""
        base = super().end_phase(view, dice)
        if self._phase(view) != "command":
            return base
        marks = self.control_marks(view)
        if marks == Resolution():
            return base
        return replace(
            base,
            others=(*base.others, *marks.others),
            explanation=(*base.explanation, *marks.explanation),
        )


__all__ = ["ORDER_OPTIONS", "LegVIControl"]
