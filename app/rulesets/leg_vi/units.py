"""Leg VI Carthago rules as pure functions, part one: the markers and counters a unit
carries, a unit's Leg VI view (:class:`LegUnit`), DPs and shaken, distances on the table, die
bands and dice helpers.

Every number comes from the ruleset's tables (:mod:`app.rulesets.leg_vi.tables_schema`); these
modules hold only conditions. The mechanics (:mod:`app.rulesets.leg_vi.mechanics`) turn them
into actions, resolutions and exact odds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from app.rules.dice import parse_dice
from app.rules.geometry import unit_distance
from app.rules.mechanics import Combatant, Scalar
from app.rules.schema import Category
from app.rulesets.leg_vi.schema import Troop
from app.rulesets.leg_vi.tables_schema import Band, Tables

# --------------------------------------------------------------------------- markers

SHAKEN = "shaken"
ROUTING = "routing"
PURSUING = "pursuing"
EVADING = "evading"
RETIRING = "retiring"
CONTROL_HALT = "control_halt"
CONTROL_FREE = "control_free"
CONTROL_REPEAT = "control_repeat"
STEADIED = "steadied"
REDRESSED = "redressed"
MOVED = "moved"
CHARGING = "charging"
REFORMED = "reformed"
RAMPAGE = "rampage"
RAMPAGE_TESTED = "rampage_tested"
RELIEVED = "relieved_ranks"
OPEN_RANKS = "open_ranks"
LOOTING = "looting"
#: not under control when the command phase ended, and not yet tested (Leg VI, Control)
OUT_OF_CONTROL = "out_of_control"

#: markers that last one turn: cleared when the next command phase begins
PER_TURN_MARKERS = frozenset(
    {
        CONTROL_HALT,
        CONTROL_FREE,
        CONTROL_REPEAT,
        OUT_OF_CONTROL,
        STEADIED,
        REDRESSED,
        MOVED,
        CHARGING,
        REFORMED,
        RAMPAGE_TESTED,
        EVADING,
        RETIRING,
    }
)
#: markers that keep a unit where it stands in the movement phases
HALTING_MARKERS = frozenset({CONTROL_HALT, STEADIED, REDRESSED})

# Status.extra keys
LINES = "lines"
INSPIRE = "inspire"
TURN_START = "turn_start"
RELIEFS = "reliefs"
STOP_ATTEMPTS = "stop_attempts"
RAMPAGE_DIRECTION = "rampage_direction"
#: a dice move rolled this turn, the allowance of the move made on the table: the distance
#: the unit may have moved this turn once it is made, the turn, and the kind of dice move
ROLLED_MOVE = "rolled_move"
ROLLED_TURN = "rolled_turn"
ROLLED_KIND = "rolled_kind"

#: how close a measure on the table is taken to be exact (a hundredth of an inch: measuring
#: slack, not a rules number)
MEASURE = 0.01

INFANTRY = (Category.LIGHT_INFANTRY, Category.MEDIUM_INFANTRY, Category.HEAVY_INFANTRY)


class IllegalAction(ValueError):
    """The rules forbid this action for this unit now (the message says which rule)."""


# --------------------------------------------------------------------------- a unit


@dataclass(frozen=True)
class LegUnit:
    """A :class:`Combatant` with its Leg VI troop type and the tables, answering the
    questions the rules ask of a unit."""

    c: Combatant
    troop: Troop
    t: Tables

    @property
    def name(self) -> str:
        return self.c.name

    @property
    def category(self) -> Category:
        return self.troop.category

    @property
    def elephant(self) -> bool:
        return self.category == Category.ELEPHANT

    @property
    def cavalry(self) -> bool:
        return self.category.mounted

    @property
    def infantry(self) -> bool:
        return self.category in INFANTRY

    @property
    def light(self) -> bool:
        return self.troop.light

    @property
    def heavy_infantry(self) -> bool:
        return self.category == Category.HEAVY_INFANTRY

    @property
    def legion(self) -> bool:
        """A legion carries its number of lines in ``Status.extra`` (see ``initial_status``)."""
        return LINES in self.c.status.extra

    @property
    def lines(self) -> int:
        return int(self.c.status.extra.get(LINES, 1))

    @property
    def quincunx(self) -> bool:
        return self.legion and self.c.status.formation == "quincunx"

    @property
    def column(self) -> bool:
        return self.c.status.formation == "column"

    @property
    def unformed(self) -> bool:
        """Leg VI, Formations: light troops always; others when shaken, routing, pursuing,
        evading or retiring (the table's causes are the marker names), or left unformed."""
        s = self.c.status
        if self.troop.order == "unformed" or s.formation == "unformed":
            return True
        return any(s.has(m) for m in self.t.formations.unformed_causes)

    @property
    def formed(self) -> bool:
        """Formed: not light, not an elephant (errata 'elephant-order') and not unformed."""
        return self.troop.order == "formed" and not self.unformed

    @property
    def formed_infantry(self) -> bool:
        return self.formed and self.infantry

    @property
    def shaken(self) -> bool:
        """Leg VI, Shaken: at the DP threshold, or routed."""
        return self.c.status.has(SHAKEN) or self.c.status.has(ROUTING)

    @property
    def routing(self) -> bool:
        return self.c.status.has(ROUTING)

    @property
    def grade(self) -> str:
        """The unit's grade; a unit without one fights as C (no grade factor)."""
        return self.c.status.grade or "C"

    @property
    def shaken_at(self) -> int:
        """Leg VI, Shaken: 5 DPs; a legion in quincunx one more for each line beyond the
        first (6 with two lines, 7 with three)."""
        lim = self.t.dp_limits
        if self.quincunx:
            for row in lim.legion_quincunx:
                if row.lines == self.lines:
                    return row.shaken_at
            return lim.shaken_at + lim.legion_extra_per_line * (self.lines - 1)
        return lim.shaken_at


def leg_unit(c: Combatant, troops: Mapping[str, Troop], t: Tables) -> LegUnit:
    try:
        troop = troops[c.troop]
    except KeyError:
        raise IllegalAction(f"{c.name}: {c.troop!r} is not a Leg VI troop type") from None
    return LegUnit(c, troop, t)


# --------------------------------------------------------------------------- DPs


@dataclass(frozen=True)
class DpResult:
    """What ``n`` DPs do to a unit: DPs added, bases lost, and whether it becomes shaken."""

    dps: int = 0
    casualties: int = 0
    shaken: bool = False


DpKind = Literal["fatigue", "shooting", "combat", "morale"]


def take_dps(u: LegUnit, n: int, kind: DpKind) -> DpResult:
    """Leg VI, DPs and Shaken. Fatigue and manoeuvre DPs stop once the unit has 3 DPs. A
    unit reaching its threshold becomes shaken; every further DP from shooting, combat or
    morale removes a base instead. Elephants take no DPs (callers test critical hits)."""
    if n <= 0 or u.elephant:
        return DpResult()
    dps = u.c.status.dps
    lim = u.t.dp_limits
    if kind == "fatigue":
        return DpResult(dps=max(0, min(n, lim.fatigue_manoeuvre_cap - dps)))
    if u.shaken:
        return DpResult(casualties=n * lim.shaken_casualty_per_dp)
    room = max(0, u.shaken_at - dps)
    if n < room:
        return DpResult(dps=n)
    return DpResult(dps=room, casualties=(n - room) * lim.shaken_casualty_per_dp, shaken=True)


def dp_words(r: DpResult) -> str:
    parts = []
    if r.dps:
        parts.append(f"{r.dps} DP{'s' if r.dps != 1 else ''}")
    if r.shaken:
        parts.append("now shaken")
    if r.casualties:
        parts.append(f"{r.casualties} base{'s' if r.casualties != 1 else ''} lost")
    return ", ".join(parts) or "no DPs"


# --------------------------------------------------------------------------- geometry


def nearest(unit: Combatant, candidates: Iterable[Combatant]) -> float:
    return min((unit_distance(unit, o) for o in candidates), default=math.inf)


def position_key(c: Combatant) -> str:
    """Where a unit stands, as a ``Status.extra`` value (extra holds no floats)."""
    return f"{c.x:.3f},{c.y:.3f},{c.facing:.1f}"


# --------------------------------------------------------------------------- bands


def band_of(bands: tuple[Band, ...], value: int) -> Band:
    """The band holding ``value``; open ends take rolls off the table (errata
    'control-test-range')."""
    for b in bands:
        if (b.low is None or b.low <= value) and (b.high is None or value <= b.high):
            return b
    raise LookupError(f"no band holds {value}")


def result_band(t: Tables, diff: int) -> str:
    """Leg VI, Results: the band id for a hit difference (own hits minus enemy hits)."""
    for bid, b in t.combat_results.bands.items():
        if (b.min_diff is None or b.min_diff <= diff) and (
            b.max_diff is None or diff <= b.max_diff
        ):
            return bid
    raise LookupError(f"no result band holds {diff}")


# --------------------------------------------------------------------------- dice helpers


def faces(spec: str) -> tuple[int, ...]:
    return parse_dice(spec).faces


def count_at_least(rolled: Iterable[int], hit_on: Iterable[int]) -> int:
    wanted = set(hit_on)
    return sum(1 for f in rolled if f in wanted)


def scalar_int(values: Mapping[str, Scalar], key: str) -> int:
    v = values.get(key, 0)
    return int(v) if not isinstance(v, str) or v.lstrip("-").isdigit() else 0
