"""D3 Ancient Rules mechanics: what every part shares (the tables, troop types, the steps of
the sequence, a planned attack, refusals in words).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.dice import DiceSpec
from app.rules.mechanics import (
    Dice,
    LeaderView,
    Mechanics,
    Scalar,
    Side,
    Status,
    TurnView,
)
from app.rules.ruleset import Ruleset
from app.rulesets.d3 import QUALITY
from app.rulesets.d3.rules import CombatSteps, Rounding, halve
from app.rulesets.d3.schema import Tables, Troop, tables

# The ids of the sequence steps (tables.sequence.steps) this module acts on.
CHANCE_CARD, MOVEMENT, SHOOTING, MELEE, ELIMINATION = (
    "chance_card",
    "movement",
    "shooting",
    "melee",
    "elimination",
)
#: a unit passed through by a friend this turn: it counts as having moved (D3, Movement)
PASSED_THROUGH = "passed_through"
TURN_MARKERS = frozenset({"moved", "charged", "shot", "fought", "faced", PASSED_THROUGH})
#: the status ``extra`` key of a unit that moved off the road this turn: no road bonus for
#: the rest of the turn (errata road-whole-turn)
OFF_ROAD = "off_road"
#: the status ``extra`` key of a unit that pivoted after moving this turn: its move is over
#: (D3, Movement: pivots at the start and end of the move)
PIVOTED_AT_END = "pivoted_at_end"
#: the ``extra`` keys that last one turn
TURN_EXTRA = frozenset({OFF_ROAD, PIVOTED_AT_END})
OPEN = "open"


class D3Refusal(ValueError):
    """An action the rules do not allow now; the message says why."""


def hits_text(n: int) -> str:
    return "no hits" if n == 0 else "1 hit" if n == 1 else f"{n} hits"


@dataclass(frozen=True)
class AttackPlan:
    """One shot or attack, ready to roll: the dice (``keep`` > 1: best of that many dice),
    the combat steps or the shooting halving, the marker it leaves, and the words."""

    verb: str
    spec: DiceSpec
    keep: int
    steps: CombatSteps | None
    halving: Rounding | None
    mark: str
    notes: list[str]
    extra: bool

    def hits(self, raw: int) -> int:
        if self.steps is not None:
            return self.steps.apply(raw)
        return halve(raw, self.halving) if self.halving is not None else raw


def roll_total(dice: Dice, spec: DiceSpec, purpose: str) -> tuple[int, tuple[int, ...]]:
    """A roll made by a phase hook (not an action with odds): its total and faces."""
    faces = dice.roll(spec.text, purpose)
    return sum(faces) + spec.modifier, faces


class D3Base(Mechanics):
    """The D3 tables and troop types, the sequence steps and a unit's starting state."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)

    # ----------------------------------------------------------------------- basics

    def troop(self, troop_id: str) -> Troop:
        tr = self.ruleset.troop(troop_id)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop_id!r} is not a D3 troop")
        return tr

    def _step(self, phase: int) -> str:
        steps = self.t.sequence.steps
        return steps[phase] if 0 <= phase < len(steps) else ""

    @staticmethod
    def _name(view: TurnView, side: Side) -> str:
        return str(view.sides[side].get("side_name") or view.side_names[side])

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """D3, Unit Types: a unit of three bases is one piece; its damage is its hits."""
        self.troop(troop)
        return Status(strength=1, start_strength=1, grade=grade)

    def side_record(self, army: str, general: LeaderView | None) -> dict[str, Scalar]:
        """D3, Chance cards: a good or poor commander and supply problems change a side's
        deck; the commander's quality is the general's (average when none is given), and no
        side has supply problems unless the battle is created with them."""
        quality = (QUALITY.word(general.fields) if general else None) or "average"
        return {"commander_quality": quality, "supply_problems": False}
