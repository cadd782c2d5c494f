"""A campaign as an immutable value: a ruleset, two or more sides each with a campaign army
(a roster that evolves from battle to battle), and an ordered list of battles.

Every change is a step (:mod:`app.core.campaign.steps`) returning a new campaign; the
session keeps each step's campaign, so undo is exact and every past state can be shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple

from app.core.battle.result import BattleResult
from app.core.later import Later, LaterField, pending
from app.core.roster import Roster, Unit

#: how much of a unit's losses comes back before the next battle: none, half (rounded
#: down), all, or the ruleset's default (``[campaign] recovery`` of its ``ruleset.toml``)
Recovery = Literal["none", "half", "all", "ruleset"]
RECOVERIES: tuple[Recovery, ...] = ("ruleset", "none", "half", "all")
MAX_SIDES = 8
MAX_BATTLES = 500
MAX_TEXT = 200


class CampaignError(ValueError):
    """A campaign step that cannot be carried out; the campaign is unchanged."""


@dataclass(frozen=True)
class LostUnit:
    """A unit gone for good (destroyed, eliminated, routed off), as it went into the battle
    ``battle`` it was lost in. Kept, never silently dropped."""

    unit: Unit
    battle: str
    reason: str


@dataclass(frozen=True)
class CampaignSide:
    id: str
    name: str
    army: Roster
    lost: tuple[LostUnit, ...] = ()


@dataclass(frozen=True)
class Participant:
    """A side in a battle: its whole army (``units`` None) or a detachment (those roster
    units); ``leaders`` None means every leader who can be fielded goes with it."""

    side: str
    units: tuple[str, ...] | None = None
    leaders: tuple[str, ...] | None = None


class RosterHead(NamedTuple):
    """What the chronicle reads of an army as it went in, without its units and leaders:
    which side of a historical field it fights on (:func:`app.core.scenario.build.side_of`),
    and its leaders' ids (who fought there)."""

    name: str
    ruleset: str
    army: str
    side: str
    leaders: tuple[str, ...]

    @classmethod
    def of(cls, roster: Roster) -> RosterHead:
        return cls(
            roster.name,
            roster.ruleset,
            roster.army,
            roster.side,
            tuple(x.id for x in roster.leaders),
        )


class WentInLater(Later[tuple[Roster, Roster]]):
    """A battle's armies as they went in, still to be made, with each one's head known
    already (the chronicle's lines of history read only those)."""

    __slots__ = ("heads",)

    def __init__(
        self, make: Callable[[], tuple[Roster, Roster]], heads: tuple[RosterHead, RosterHead]
    ) -> None:
        super().__init__(make)
        self.heads = heads


@dataclass(frozen=True)
class CampaignBattle:
    """A battle of the campaign. ``went_in``: the two armies (or detachments) as they went
    in, recorded with the result, so the chronicle shows them exactly; ``fought``: the
    stored battle it was fought as, if it was fought in the app. A battle read back from the
    store makes ``went_in`` when it is first read (:mod:`app.core.later`): the Campaigns
    window and most commands never look at it."""

    id: str
    name: str
    participants: tuple[Participant, Participant]
    date: str = ""
    place: str = ""
    result: BattleResult | None = None
    went_in: LaterField[tuple[Roster, Roster] | None] = LaterField(None)  # noqa: RUF009 (a descriptor)
    applied: bool = False
    fought: int | None = None
    #: the historical battle (``app.core.scenario``) whose field and battle order it is
    #: fought on, and whose losses the chronicle shows beside its own; None: a bare table
    scenario: str | None = None

    @property
    def went_in_heads(self) -> tuple[RosterHead, RosterHead] | None:
        """The heads of the armies as they went in, known without making the armies while
        they are still to be made (:class:`WentInLater`)."""
        known = pending(self, "went_in")
        if isinstance(known, WentInLater):
            return known.heads
        went_in = self.went_in
        return None if went_in is None else (RosterHead.of(went_in[0]), RosterHead.of(went_in[1]))

    @property
    def state(self) -> str:
        if self.applied:
            return "applied"
        if self.result is not None:
            return "recorded"
        return "fought" if self.fought is not None else "to fight"


@dataclass(frozen=True)
class Campaign:
    name: str
    ruleset: str
    sides: tuple[CampaignSide, ...]
    battles: tuple[CampaignBattle, ...] = ()
    recovery: Recovery = "ruleset"
    notes: str = ""
    #: the historical template it was made from (its leaders' historical fates are shown)
    template: str | None = None

    def side(self, key: str) -> CampaignSide:
        """The side with id or name ``key`` (case-insensitive name)."""
        for s in self.sides:
            if s.id == key:
                return s
        for s in self.sides:
            if s.name.casefold() == key.casefold():
                return s
        known = ", ".join(s.id for s in self.sides)
        raise CampaignError(f"no side {key!r} in {self.name} (sides: {known})")

    def battle(self, key: str) -> CampaignBattle:
        """The battle with id, name or number (1-based) ``key``."""
        for b in self.battles:
            if b.id == key:
                return b
        for b in self.battles:
            if b.name.casefold() == key.casefold():
                return b
        if key.isdigit() and 1 <= int(key) <= len(self.battles):
            return self.battles[int(key) - 1]
        known = ", ".join(f"{b.id} ({b.name})" for b in self.battles) or "none yet"
        raise CampaignError(f"no battle {key!r} in {self.name} (battles: {known})")

    def next_battle(self) -> CampaignBattle | None:
        """The first battle whose result is not applied yet."""
        return next((b for b in self.battles if not b.applied), None)

    def with_side(self, side: CampaignSide) -> Campaign:
        return replace(self, sides=tuple(side if s.id == side.id else s for s in self.sides))

    def with_battle(self, battle: CampaignBattle) -> Campaign:
        return replace(
            self, battles=tuple(battle if b.id == battle.id else b for b in self.battles)
        )
