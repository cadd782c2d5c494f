"""The result of a battle, for a campaign: who won, what each roster unit lost and what
became of each leader, taken from the battle's final state -- or typed in by hand for a battle
fought on a real table, with exactly the same fields.

Strength is in the ruleset's own terms, the roster's ``size`` (figures for Quincunx and
MWAN #90, bases for Leg VI and GSB; a D3 unit is whole until eliminated). A unit that is
destroyed, eliminated or gone by one of its ruleset's lost markers (routed off, a berserk
elephant: :attr:`Mechanics.lost_markers <app.rules.mechanics.Mechanics.lost_markers>`) is
marked lost, never dropped. A leader's ``wounds`` are the wounds received in this battle;
the campaign adds them to those he had and applies the ruleset's rule for the wound that
kills (``[leaders] wounds_to_kill``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.core.battle.state import BattleState, BattleUnit
from app.core.later import Later, LaterField, pending
from app.core.roster import Roster
from app.rules.mechanics import Side

Fate = Literal["fit", "wounded", "killed", "captured"]
FATES: tuple[Fate, ...] = ("fit", "wounded", "killed", "captured")
#: at most this many lines of a battle's log are kept as a result's notes
MAX_NOTES = 40


@dataclass(frozen=True)
class UnitOutcome:
    """One of the ``count`` identical units of roster line ``roster_unit`` (``index`` says
    which), with its strength at the start and at the end of the battle."""

    roster_unit: str
    index: int
    name: str
    start: int
    end: int
    lost: bool = False
    #: why it is lost, in words ("destroyed", "routed off"); None when it is not
    reason: str | None = None

    @property
    def losses(self) -> int:
        return self.start - self.end


@dataclass(frozen=True)
class LeaderOutcome:
    """What became of roster leader ``leader``; ``wounds``: received in this battle."""

    leader: str
    name: str
    fate: Fate = "fit"
    wounds: int = 0


class UnitsLater(Later[tuple[UnitOutcome, ...]]):
    """A side's units still to be made (:class:`~app.core.later.Later`), with what they add
    up to known already: what the side lost in all and the names of its units lost."""

    __slots__ = ("gone", "losses")

    def __init__(
        self, make: Callable[[], tuple[UnitOutcome, ...]], losses: int, gone: tuple[str, ...]
    ) -> None:
        super().__init__(make)
        self.losses = losses
        self.gone = gone


@dataclass(frozen=True)
class SideOutcome:
    roster: str
    #: one a unit; a result read back from the store makes them when they are first read
    #: (:mod:`app.core.later`): the Campaigns window shows only what they add up to
    units: LaterField[tuple[UnitOutcome, ...]] = LaterField(())  # noqa: RUF009 (a descriptor)
    leaders: tuple[LeaderOutcome, ...] = ()

    @property
    def losses(self) -> int:
        """What the side's units lost in all."""
        known = pending(self, "units")
        if isinstance(known, UnitsLater):
            return known.losses
        return sum(u.losses for u in self.units)

    @property
    def gone(self) -> tuple[str, ...]:
        """The names of the side's units lost, in order."""
        known = pending(self, "units")
        if isinstance(known, UnitsLater):
            return known.gone
        return tuple(u.name for u in self.units if u.lost)


@dataclass(frozen=True)
class BattleResult:
    """``winner`` is the side index of the battle (0: the first roster), None for a draw.
    ``source``: ``fought`` (taken from a battle's final state, ``battle_id`` its stored id)
    or ``hand`` (recorded in the form)."""

    winner: Side | None
    reason: str
    sides: tuple[SideOutcome, SideOutcome]
    notes: tuple[str, ...] = ()
    source: Literal["fought", "hand"] = "hand"
    battle_id: int | None = None


class ResultError(ValueError):
    """A result that does not fit the rosters it is for (an unknown unit or leader, a
    strength out of range); nothing is changed."""


# --------------------------------------------------------------------------- from a battle


def _end_size(size: int, unit: BattleUnit) -> int:
    """The roster size a unit ends with: its strength when the battle counts as the roster
    does (figures or bases), else the same share of its size (a D3 unit counts 1 while its
    roster counts bases), rounded up while anything is left."""
    st = unit.status
    if st.eliminated or st.strength <= 0:
        return 0
    if st.start_strength == size:
        return min(size, st.strength)
    return min(size, math.ceil(size * st.strength / st.start_strength))


def _lost(unit: BattleUnit, lost_markers: Mapping[str, str]) -> str | None:
    st = unit.status
    if st.eliminated or st.strength <= 0:
        return "destroyed"
    for marker, words in lost_markers.items():
        if st.has(marker):
            return words
    return None


def _side_outcome(
    state: BattleState, side: Side, roster: Roster, lost_markers: Mapping[str, str]
) -> SideOutcome:
    units: list[UnitOutcome] = []
    seen: dict[str, int] = {}
    for bu in state.units:
        if bu.side != side or bu.roster_unit is None:
            continue
        try:
            ru = roster.unit(bu.roster_unit)
        except KeyError:
            raise ResultError(f"{bu.name} ({bu.id}) is not a unit of {roster.name}") from None
        index = seen.get(ru.id, 0)
        seen[ru.id] = index + 1
        reason = _lost(bu, lost_markers)
        end = 0 if reason is not None else _end_size(ru.size, bu)
        units.append(UnitOutcome(ru.id, index, bu.name, ru.size, end, reason is not None, reason))
    prefix = f"{'AB'[side]}-"
    leaders: list[LeaderOutcome] = []
    for bl in state.leaders:
        if bl.side != side or not bl.id.startswith(prefix):
            continue
        lid = bl.id.removeprefix(prefix)
        try:
            before = roster.leader(lid)
        except KeyError:
            continue  # a leader made during the battle (a second in command) has no roster line
        new_wounds = max(0, bl.wounds - before.wounds)
        leaders.append(LeaderOutcome(lid, before.name, bl.status, new_wounds))
    return SideOutcome(roster.name, tuple(units), tuple(leaders))


def notes_from_log(lines: Iterable[str], names: Sequence[str] = ()) -> tuple[str, ...]:
    """The lines of a battle's log worth keeping in a chronicle: the result, what happened to
    leaders (any line naming one), and units destroyed, routed, captured or disintegrating."""
    words = (
        *("wins", "ends", "destroyed", "eliminated", "rout", "captured", "killed", "wounded"),
        *("disintegrates", "berserk", "lost with", "draw"),
    )
    #: lines that name a leader or say "wins" but tell nothing of the outcome: the
    #: initiative ("Carthage wins and chooses to move") and a leader joining a unit
    noise = ("initiative", "chooses to", " joins ", " leaves ", "detached")
    out: list[str] = []
    for line in lines:
        low = line.lower()
        if any(w in low for w in noise):
            continue
        keep = any(w in low for w in words) or any(n and n in line for n in names)
        if keep and line not in out:
            out.append(line)
    return tuple(out[-MAX_NOTES:])


def result_from_state(
    state: BattleState,
    rosters: tuple[Roster, Roster],
    *,
    lost_markers: Mapping[str, str],
    log: Iterable[str] = (),
    battle_id: int | None = None,
) -> BattleResult:
    """The result of a battle from its final state and the rosters it was made from:
    the declared or rule-given winner, each roster unit's end strength, each fielded
    leader's fate, and notes from the log."""
    sides = (
        _side_outcome(state, 0, rosters[0], lost_markers),
        _side_outcome(state, 1, rosters[1], lost_markers),
    )
    names = [ld.name for r in rosters for ld in r.leaders]
    winner = state.result.winner if state.result is not None else None
    reason = state.result.reason if state.result is not None else "no result was declared"
    return BattleResult(
        winner=winner,
        reason=reason,
        sides=sides,
        notes=notes_from_log(log, names),
        source="fought",
        battle_id=battle_id,
    )


# --------------------------------------------------------------------------- by hand


#: a unit of a hand-recorded result: (roster unit id, index), or (side, roster unit id,
#: index) where both sides' rosters could hold that id
UnitKey = tuple[str, int] | tuple[Side, str, int]
#: a leader: his roster id, or (side, roster id) (ids are unique only within a roster)
LeaderKey = str | tuple[Side, str]


def _sided(
    keys: Sequence[object], rosters: tuple[Roster, Roster], what: str
) -> dict[object, object]:
    """Each key as (side, ...): a key without a side names the one side that has it."""
    out: dict[object, object] = {}
    for key in keys:
        if isinstance(key, tuple) and len(key) == (3 if what == "unit" else 2):
            out[key] = key
            continue
        ident = key[0] if isinstance(key, tuple) else key
        found = []
        for side, roster in enumerate(rosters):
            ids = (
                {u.id for u in roster.units} if what == "unit" else {ld.id for ld in roster.leaders}
            )
            if ident in ids:
                found.append(side)
        if len(found) != 1:
            where = "both armies" if found else "these armies"
            raise ResultError(f"{what} {ident!r} is in {where}: give its side")
        rest = key if isinstance(key, tuple) else (key,)
        out[key] = (found[0], *rest)
    return out


def hand_result(
    rosters: tuple[Roster, Roster],
    *,
    winner: Side | None,
    reason: str = "recorded by hand",
    ends: Mapping[UnitKey, int] | None = None,
    lost: Mapping[UnitKey, str] | None = None,
    fates: Mapping[LeaderKey, tuple[Fate, int]] | None = None,
    notes: Sequence[str] = (),
) -> BattleResult:
    """A result typed in for a battle fought without the app. ``ends`` maps a unit (roster
    unit id and index, with its side where ids could clash) to its end strength (units not
    named end as they started), ``lost`` the units gone with the reason, ``fates`` a leader
    to (fate, wounds received). Leaders not named were fielded and came through fit, unless
    they could not be fielded."""
    ends_in, lost_in, fates_in = dict(ends or {}), dict(lost or {}), dict(fates or {})
    keys = _sided([*ends_in, *lost_in], rosters, "unit")
    ends_by = {keys[k]: v for k, v in ends_in.items()}
    lost_by = {keys[k]: v for k, v in lost_in.items()}
    lkeys = _sided(list(fates_in), rosters, "leader")
    fates_by = {lkeys[k]: v for k, v in fates_in.items()}
    sides: list[SideOutcome] = []
    known: set[object] = set()
    for side, roster in enumerate(rosters):
        units: list[UnitOutcome] = []
        for ru in roster.units:
            for i in range(ru.count):
                key = (side, ru.id, i)
                known.add(key)
                name = ru.name if ru.count == 1 else f"{ru.name} {i + 1}"
                end = ends_by.get(key, ru.size)
                if not 0 <= end <= ru.size:
                    raise ResultError(f"{name}: {end} is not from 0 to {ru.size}")
                # a unit named lost is lost, with "lost" when no reason was given
                why = (lost_by[key] or "lost") if key in lost_by else None
                why = why or ("destroyed" if end == 0 else None)
                units.append(
                    UnitOutcome(ru.id, i, name, ru.size, 0 if why else end, why is not None, why)
                )
        leaders: list[LeaderOutcome] = []
        for ld in roster.leaders:
            lkey = (side, ld.id)
            known.add(lkey)
            if lkey not in fates_by and not ld.status.can_field:
                continue
            fate, wounds = fates_by.get(lkey, ("fit", 0))
            if fate not in FATES or not 0 <= wounds <= 20:
                raise ResultError(f"{ld.name}: {fate} with {wounds} wounds is not a fate")
            leaders.append(LeaderOutcome(ld.id, ld.name, fate, wounds))
        sides.append(SideOutcome(roster.name, tuple(units), tuple(leaders)))
    for bad in (*ends_by, *lost_by):
        if bad not in known:
            parts = tuple(bad) if isinstance(bad, tuple) else (bad,)
            raise ResultError(f"no unit {parts[1:]!r} in these armies")
    return BattleResult(
        winner=winner, reason=reason, sides=(sides[0], sides[1]), notes=tuple(notes)
    )
