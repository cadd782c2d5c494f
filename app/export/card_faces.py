"""What each ruleset prints on a unit card: its troop line, move and shooting, the fighting
numbers as boxes to tick, and the special rules. One function per engine (``face`` in
:mod:`app.export.rulesets`, built on this module's parts; an engine without one prints
:mod:`app.export.generic_parts`'s, chosen by :mod:`app.export.unit_cards`); every number
comes from the ruleset data.

- Quincunx: the melee die for each ring count 0-7 with ring tick boxes, and a casualty box
  per figure marking where the attrition table's 50%, 33% and 25% thresholds fall.
- Leg VI: grade, bases (per line for a legion) and the DP track up to shaken.
- Grown Slightly Bald: a row of hit-point boxes per base.
- MWAN #90: a box per figure, the rout threshold marked.
- D3: hit boxes up to elimination.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.roster import Roster, Unit
from app.core.totals import Strength, strength_of, unit_strength
from app.export.card_draw import Block
from app.export.common import fmt_num
from app.rules.ruleset import Ruleset
from app.rules.schema import TroopBase


@dataclass(frozen=True)
class Face:
    """The ruleset-specific parts of a card."""

    troop_line: str
    stats: list[tuple[str, str]]
    blocks: list[Block] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


def category(troop: TroopBase) -> str:
    return troop.category.value.replace("_", " ")


def weapons(troop: TroopBase, unit: str = '"') -> str:
    if not troop.weapons:
        return "-"
    parts = []
    for w in troop.weapons:
        rng = fmt_num(w.long_range) + unit
        if w.short_range is not None:
            rng = f"{fmt_num(w.short_range)}{unit}/{rng}"
        parts.append(f"{w.name} {rng}")
    return ", ".join(parts)


FaceFn = Callable[[Ruleset, Roster, Unit, TroopBase, float], Face]


def strength(rs: Ruleset, roster: Roster, unit: Unit) -> Strength:
    """:func:`unit_strength`, or the raw size when the roster's army list is not in the
    ruleset any more (the roster is kept and printed, never refused)."""
    if roster.army in rs.armies:
        return unit_strength(rs, roster, unit)
    return strength_of(rs, None, unit.size, roster.scale)


def size_line(rs: Ruleset, roster: Roster, unit: Unit) -> str:
    """Figures, bases and men of one unit at the roster's scale (app.core.totals)."""
    s = strength(rs, roster, unit)
    parts = []
    if s.figures is not None:
        parts.append(f"{s.figures:,} figure{'s' if s.figures != 1 else ''}")
    if s.bases is not None:
        parts.append(f"{s.bases:,} base{'s' if s.bases != 1 else ''}")
    if s.men is not None:
        parts.append(f"{s.men:,} men" + (f" at {roster.scale}" if roster.scale else ""))
    return " · ".join(parts) or f"size {unit.size}"
