"""A toy mechanics over the real D3 ruleset data, to test the battle core on its own (and the
base class running declared actions): melee rolls a d6 per side, the lower side takes the
difference in hits; a unit with 4 or more hits is out. Victory: a side with no units left
loses."""

from __future__ import annotations

from typing import ClassVar

from app.rules.actions import Action, Throws, Total
from app.rules.mechanics import (
    Dice,
    Effects,
    Mechanics,
    OptionSpec,
    Outcome,
    Resolution,
    Situation,
    Status,
    TurnView,
    UnitChange,
    Victory,
)
from app.rulesets.d3.mechanics import D3Mechanics


class ToyMechanics(Mechanics):
    engine = "toy"
    strength_unit = "units"
    #: the toy's units fight wherever they stand (the core's tests place them anywhere): it
    #: opts out of the contact rule every engine has by default
    contact_actions: ClassVar[frozenset[str]] = frozenset()
    #: over D3's data, D3's words for the kinds of terrain (an engine's, not the data's)
    terrain_terms = D3Mechanics.terrain_terms

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        return Status(strength=1, start_strength=1, grade=grade)

    def declare(self) -> tuple[Action[None], ...]:
        return (
            Action(
                "melee",
                "Melee",
                "pair",
                play=self._melee,
                options=(
                    OptionSpec("flank", "Flank", "bool", False),
                    OptionSpec("bonus", "Bonus", "int", 0, minimum=0, maximum=3),
                ),
            ),
            Action("rally", "Rally", "side", play=self._rally, odds=False),
        )

    def _outcome(self, a: int, d: int, sit: Situation) -> Outcome:
        a += sit.number("bonus") + (1 if sit.flag("flank") else 0)
        diff = a - d
        loser_hits = abs(diff)

        def hit(c_hits: int, n: int) -> Effects:
            if n == 0:
                return Effects()
            return Effects(hits=n, eliminated=c_hits + n >= 4)

        if diff > 0:
            return Outcome(
                defender=hit(sit.defender.status.hits, loser_hits),
                result=f"defender takes {loser_hits}",
            )
        if diff < 0:
            return Outcome(
                attacker=hit(sit.attacker.status.hits, loser_hits),
                result=f"attacker takes {loser_hits}",
            )
        return Outcome(result="no effect")

    def _rally(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        assert sit.view is not None and sit.side is not None
        changes = tuple(
            UnitChange(u.unit_id, Effects(hits=-1))
            for u in sit.view.side_units(sit.side)
            if u.status.hits
        )
        n = int(sit.view.sides[sit.side].get("rallies", 0))
        return Resolution(
            others=changes,
            sides=({"rallies": n + 1}, None) if sit.side == 0 else (None, {"rallies": n + 1}),
            explanation=("Rally!",),
        )

    def _melee(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        a, _ = th.throw(Total("d6", f"{sit.attacker.name} melee die"))
        d, _ = th.throw(Total("d6", f"{sit.defender.name} melee die"))
        return Resolution(
            outcome=self._outcome(a, d, sit), explanation=(f"attacker {a}, defender {d}",)
        )

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        if view.phase != 0:
            return Resolution()
        (a,) = dice.roll("d6", "initiative side A")
        (b,) = dice.roll("d6", "initiative side B")
        return Resolution(
            initiative=0 if a >= b else 1, explanation=(f"Initiative: {a} against {b}.",)
        )

    def victory(self, view: TurnView) -> Victory | None:
        for side in (0, 1):
            if all(u.status.eliminated for u in view.side_units(side)):
                return Victory(1 - side, "the enemy has no units left")  # type: ignore[arg-type]
        return None

    def move_allowance(self, unit: object, view: object = None) -> float | None:
        return 6.0
