"""Grown Slightly Bald mechanics: what every part shares (the tables and troop types, a
unit's bases and hit points, the states a unit may be in).
"""

from __future__ import annotations

import math
from fractions import Fraction

from app.rules.measure import from_mm, mm_per_unit
from app.rules.mechanics import Combatant, Mechanics, Side, Status, TurnView
from app.rules.schema import ArmyEntry
from app.rulesets.gsb.rules import Body, LossRules
from app.rulesets.gsb.schema import MAX_HIT_POINTS, Tables, Troop, tables

BOTH: tuple[Side, Side] = (0, 1)
ACTIVATED = "activated"
GENERAL_MOVED = "general_moved"
#: the unit disengaged from a melee this turn: no more shooting or melee (GSB, Disengaging)
DISENGAGED = "disengaged"
#: the unit has shot in its activation (GSB, Shooting: once an activation, errata shot-timing)
SHOT = "shot"
#: in a unit's status ``extra``: it had moved in its activation before it shot, so a light
#: infantry unit's move is over (a move after the shot would put the shot in its middle)
SHOT_AFTER_MOVING = "shot_after_moving"
#: in a unit's status ``extra``: the enemy it fought a melee against in its activation, and
#: FOUGHT_AGAIN once it has fought the second melee the text allows after destroying the first
#: opponent (GSB, Melee)
FOUGHT = "fought"
FOUGHT_AGAIN = "fought_again"
#: in a unit's status ``extra``: the degrees it pivoted before the increment (the whole unit
#: width) under way, and that increment's number (GSB, Pivots; errata pivot-increments)
PIVOTED = "pivoted"
PIVOT_GROUP = "pivot_group"
#: the core's marker on a unit that made a move or charge this turn (cleared as a turn ends)
MOVED = "moved"


def other_side(side: Side) -> Side:
    return 1 if side == 0 else 0


class GSBBase(Mechanics):
    """The GSB tables and troop types, a unit's body of bases and hit points, and its
    starting state."""

    # -- data -----------------------------------------------------------------------------

    @property
    def t(self) -> Tables:
        return tables(self.ruleset)

    @property
    def loss(self) -> LossRules:
        return LossRules.of(self.t)

    def gsb_troop(self, troop: str) -> Troop:
        tr = self.ruleset.troop(troop)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop!r} is not a Grown Slightly Bald troop type")
        return tr

    def body(self, unit: Combatant) -> Body:
        return Body(
            unit.status.strength, unit.status.hits, self.gsb_troop(unit.troop).hits_per_base
        )

    def is_elephant(self, unit: Combatant) -> bool:
        return unit.troop == self.t.elephants.troop

    # -- set-up ---------------------------------------------------------------------------

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """GSB, Hit points: a unit is its bases (4; elephants 1), none yet hit."""
        self.gsb_troop(troop)
        return Status(strength=size, start_strength=size, grade=grade)

    def hits_per_base(self, troop: str) -> int:
        """GSB, Hit points: the hits a base of ``troop`` takes before it is removed: the
        hit-points table, else the troop type's own number (the data check makes the two
        agree where both are given)."""
        row = self.t.hit_points.rows.get(troop)
        return row.hits_per_base if row is not None else self.gsb_troop(troop).hits_per_base

    def status_problem(self, troop: str, status: Status) -> str | None:
        """GSB, Hit points: ``hits`` are those on the current base, so fewer than a base's
        hit points (a base that has taken them all is removed at once). A unit has at most
        MAX_HIT_POINTS in all (the bound on house rules, which keeps the odds quick)."""
        problem = super().status_problem(troop, status)
        if problem is not None:
            return problem
        hp = self.hits_per_base(troop)
        if status.start_strength * hp > MAX_HIT_POINTS:
            return (
                f"{status.start_strength} bases of {self.troop_name(troop)} are "
                f"{status.start_strength * hp} hit points, more than the {MAX_HIT_POINTS} a "
                "unit may have"
            )
        if status.hits >= hp:
            return (
                f"{status.hits} hits on the current base, but a base of "
                f"{self.troop_name(troop)} has {hp} hit points and is removed when they are "
                f"used up, so it holds at most {hp - 1} hit{'s' if hp != 2 else ''}"
            )
        return None

    def _stars_needed(self, view: TurnView, side: Side) -> int:
        enemy = other_side(side)
        start = int(view.sides[enemy].get("units_at_start", 0)) or len(view.side_units(enemy))
        return self.t.victory.stars_needed(start)

    def footprint(self, entry: ArmyEntry, size: int) -> tuple[float, float]:
        """GSB measures in unit widths: a unit is one unit width wide, its bases set as many
        abreast as fit (errata: four 40 mm bases two wide and two deep make the 8 cm
        unit)."""
        rs = self.ruleset
        if rs.counts_figures or entry.lines or rs.meta.unit_of_measure != "unit_width":
            return super().footprint(entry, size)
        b = rs.troop(entry.troop).basing
        files = max(1, min(size, int(mm_per_unit(rs) // Fraction(b.frontage_mm))))
        ranks = math.ceil(size / files)
        return (from_mm(rs, files * b.frontage_mm), from_mm(rs, ranks * b.depth_mm))
