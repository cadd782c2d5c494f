"""Figures, bases and men for each unit and for a roster, at the roster's scale.

- Rulesets that count figures (Quincunx, MWAN #90): a unit's size is in figures; bases are
  figures divided by the troop type's figures per base; men are figures times the scale
  (10 at 1:10, 100 at 1:100).
- Rulesets that count bases (Leg VI, GSB, D3): a unit's size is in bases; figures are bases
  times figures per base where the ruleset gives it; men are bases times the ruleset's men per
  base (per line for a multi-line unit such as a Leg VI legion) where it gives one.

A value the ruleset does not define is ``None``, never a guess.

A unit whose army-list entry the current data no longer has (kept from an older data version)
has only what its size gives without the entry: figures and men in rulesets that count
figures (size x men per figure at the scale), bases in those that count bases. The roster's
figures, bases and men sum only the units whose entry is known, so all three describe the
same units and one unknown unit does not blank them; :attr:`RosterTotals.excluded` says how
many units were left out (``units`` still counts every unit).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.roster import Roster, Unit
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyEntry


@dataclass(frozen=True)
class Strength:
    """Figures, bases and men of one unit (or a sum of units); ``None`` where undefined."""

    figures: int | None
    bases: int | None
    men: int | None

    def __add__(self, other: Strength) -> Strength:
        return Strength(
            _add(self.figures, other.figures),
            _add(self.bases, other.bases),
            _add(self.men, other.men),
        )

    def times(self, n: int) -> Strength:
        return Strength(_mul(self.figures, n), _mul(self.bases, n), _mul(self.men, n))


ZERO = Strength(0, 0, 0)


@dataclass(frozen=True)
class UnitTotals:
    unit: Unit
    each: Strength
    total: Strength
    #: the unit's army-list entry is in the current data (else it is left out of the totals)
    known: bool = True


@dataclass(frozen=True)
class RosterTotals:
    """``units`` counts every unit of the roster; ``strength`` sums the units whose entry is
    known, and ``excluded`` is how many units (counting ``count``) it leaves out."""

    units: int
    strength: Strength
    per_unit: tuple[UnitTotals, ...]
    excluded: int = 0

    @property
    def figures(self) -> int | None:
        return self.strength.figures

    @property
    def bases(self) -> int | None:
        return self.strength.bases

    @property
    def men(self) -> int | None:
        return self.strength.men


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _mul(a: int | None, n: int) -> int | None:
    return None if a is None else a * n


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def strength_of(
    rs: Ruleset,
    entry: ArmyEntry | None,
    size: int,
    scale: str | None,
    lines: dict[str, int] | None = None,
) -> Strength:
    """Strength of one unit of ``size`` (figures or bases) of ``entry``. An unknown entry
    (kept from an older data version) has its raw size, and its men where they do not depend
    on the entry (figures times the scale)."""
    if entry is None:
        if rs.counts_figures:
            men_each = rs.men_per_figure(scale)
            return Strength(size, None, size * men_each if men_each is not None else None)
        return Strength(None, size, None)
    troop = rs.troops.get(entry.troop)
    basing = troop.basing if troop is not None else None
    if rs.counts_figures:
        per_base = basing.figures_per_base if basing is not None else None
        bases = _ceil_div(size, per_base) if per_base else None
        men_each = rs.men_per_figure(scale)
        return Strength(size, bases, size * men_each if men_each is not None else None)
    if entry.lines:
        return _lines_strength(rs, entry, lines or {})
    figures = (
        size * basing.figures_per_base if basing is not None and basing.figures_per_base else None
    )
    men = size * basing.men_per_base if basing is not None and basing.men_per_base else None
    return Strength(figures, size, men)


def _lines_strength(rs: Ruleset, entry: ArmyEntry, lines: dict[str, int]) -> Strength:
    """A multi-line unit: each line's bases, with an alternative base count (understrength
    bases) counting as the line's standard number for men."""
    total = ZERO
    for line in entry.lines:
        physical = lines.get(line.name, line.bases)
        effective = line.bases if physical == line.alternative_bases else physical
        basing = rs.troops[line.troop].basing
        figures = physical * basing.figures_per_base if basing.figures_per_base else None
        men = effective * basing.men_per_base if basing.men_per_base else None
        total = total + Strength(figures, physical, men)
    return total


def unit_strength(rs: Ruleset, roster: Roster, unit: Unit) -> Strength:
    """Strength of one of the ``unit.count`` identical units."""
    entry = rs.army(roster.army).entries.get(unit.entry)
    return strength_of(rs, entry, unit.size, roster.scale, dict(unit.lines) if unit.lines else None)


def roster_totals(
    rs: Ruleset, roster: Roster, previous: tuple[Roster, RosterTotals] | None = None
) -> RosterTotals:
    """Each unit's strength, and the roster's: the sum of the units whose entry is known (all
    are unknown if the data no longer has the roster's army list).

    ``previous``: the totals of an earlier value of the roster (an edit changes a unit or
    two of a thousand): a unit that is the same object there, at the same army list and
    scale, keeps its strength, and the sums are made in whole numbers; the result is the
    same as without it."""
    army = rs.armies.get(roster.army)
    reuse: dict[int, UnitTotals] = {}
    if (
        previous is not None
        and previous[0].army == roster.army
        and previous[0].scale == roster.scale
    ):
        reuse = {id(t.unit): t for t in previous[1].per_unit}
    per_unit = []
    figures: int | None = 0
    bases: int | None = 0
    men: int | None = 0
    excluded = 0
    for unit in roster.units:
        done = reuse.get(id(unit))
        if done is None or done.unit is not unit:
            entry = army.entries.get(unit.entry) if army is not None else None
            lines = dict(unit.lines) if unit.lines else None
            each = strength_of(rs, entry, unit.size, roster.scale, lines)
            done = UnitTotals(unit, each, each.times(unit.count), entry is not None)
        per_unit.append(done)
        if done.known:
            t = done.total
            figures = None if figures is None or t.figures is None else figures + t.figures
            bases = None if bases is None or t.bases is None else bases + t.bases
            men = None if men is None or t.men is None else men + t.men
        else:
            excluded += unit.count
    return RosterTotals(
        roster.unit_count(), Strength(figures, bases, men), tuple(per_unit), excluded
    )
