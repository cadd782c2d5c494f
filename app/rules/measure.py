"""Lengths on the table: the millimetres in each unit a ruleset or a table size may be given
in, and a ruleset's own unit of measure (inches, centimetres, or GSB's unit width)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset

#: millimetres in each unit a ruleset or a table size may be given in (unit conversions,
#: not rules numbers; a unit width is the ruleset's own ``meta.unit_width_mm``), exact so
#: that 6 feet are 72 inches, not 72.00000000000001
MM_PER: dict[str, Fraction] = {
    "inch": Fraction("25.4"),
    "cm": Fraction(10),
    "ft": Fraction("304.8"),
}


def mm_per_unit(rs: Ruleset) -> Fraction:
    """Millimetres in one of the ruleset's units of measure."""
    if rs.meta.unit_of_measure == "unit_width":
        if rs.meta.unit_width_mm is None:  # the schema requires it; kept for the type checker
            raise ValueError(f"{rs.meta.short_name} measures in unit widths but gives no width")
        return Fraction(rs.meta.unit_width_mm)
    return MM_PER[rs.meta.unit_of_measure]


def from_mm(rs: Ruleset, mm: float) -> float:
    """``mm`` millimetres in the ruleset's unit of measure."""
    return mm / float(mm_per_unit(rs))
