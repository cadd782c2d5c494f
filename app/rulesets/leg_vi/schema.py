"""Leg VI Carthago (author unnamed): the troop model, and typed access to a loaded ruleset's
tables and troops.

Leg VI counts 20mm bases of 6mm figures and measures in inches. A unit's wear is tracked as
Death, Desertion and Disorder Points (DPs); elephants take none and test for critical hits
and rampage instead. The tables are modelled in :mod:`app.rulesets.leg_vi.tables_schema`, the
cross-checks of the data in :mod:`app.rulesets.leg_vi.checks`.
"""

from __future__ import annotations

from app.rules.record import Field
from app.rules.ruleset import Ruleset
from app.rules.schema import Id, Text, TroopBase
from app.rulesets.leg_vi.tables_schema import (
    MAX_MOVE_DICE,
    MAX_SMALL,
    ChargeResponseKind,
    ChargeTarget,
    Faces,
    Grade,
    Inches,
    MoveDie,
    Order,
    Small,
    Tables,
)

# --------------------------------------------------------------------------- troop type


class Troop(TroopBase):
    """A Leg VI troop type: its own numbers on top of the common fields.

    The keys (``movement_class``, ``fatigue``, ``rough_terrain``, ``charge_rule``,
    ``combat_factors``) name rows of ``tables.toml``; the inline values repeat those rows so a
    card can print a troop alone, and :func:`check` makes sure the two agree.
    """

    abbreviation: Text
    light: bool = False
    order: Order = "formed"
    takes_dps: bool = True
    allowed_grades: tuple[Grade, ...] = ()
    movement_class: Id
    march_move: Inches
    move_dice: tuple[MoveDie, ...] = Field(min_length=1, max_length=MAX_MOVE_DICE)
    manoeuvres_as: Id | None = None
    fatigue: Id
    fatigue_on: Faces = ()
    rough_terrain: Id
    rough_terrain_dps: Small | None = None
    side_step_grades: tuple[Grade, ...] = ()
    charge_rule: Id
    charge_targets: tuple[ChargeTarget, ...] = Field(min_length=1)
    charge_responses: tuple[ChargeResponseKind, ...] = Field(min_length=1)
    combat_dice_per_base: int = Field(strict=True, ge=1, le=MAX_SMALL)
    combat_factors: tuple[Id, ...] = ()


# --------------------------------------------------------------------------- access


def tables(rs: Ruleset) -> Tables:
    """The Leg VI tables of ``rs``; TypeError if ``rs`` is not a Leg VI ruleset."""
    if not isinstance(rs.tables, Tables):
        raise TypeError(f"ruleset {rs.id!r} does not hold Leg VI tables")
    return rs.tables


def troops(rs: Ruleset) -> dict[str, Troop]:
    """The Leg VI troop types of ``rs``; TypeError if one is not a Leg VI troop."""
    out: dict[str, Troop] = {}
    for tid, troop in rs.troops.items():
        if not isinstance(troop, Troop):
            raise TypeError(f"ruleset {rs.id!r}: troop {tid!r} is not a Leg VI troop")
        out[tid] = troop
    return out
