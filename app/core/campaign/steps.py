"""Campaign steps: every change to a campaign is one of these small frozen values, logged and
undoable (the session keeps the campaign each step made). A step that cannot be carried
out raises :class:`CampaignError` and changes nothing.

- :class:`AddBattle`: a battle with its date, place and the two participating armies (a
  side's whole army or a detachment of it);
- :class:`RecordResult`: a battle's result, from a battle fought in the app or by hand, with
  the armies as they went in;
- :class:`ApplyResult`: the result carried into the armies (:mod:`.aftermath`); previewed as
  a diff (:func:`app.core.campaign.diff.diff`) before it is done;
- :class:`Reinforce`, :class:`Promote`, :class:`ReturnLeader` (exchange or ransom): between
  battles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from app.core.battle.result import BattleResult
from app.core.campaign.aftermath import leaders_after, recovery_of, units_after
from app.core.campaign.model import (
    MAX_BATTLES,
    MAX_TEXT,
    Campaign,
    CampaignBattle,
    CampaignError,
    Participant,
)
from app.core.roster import (
    Leader,
    LeaderStatus,
    Roster,
    Unit,
    leader_problems,
    unit_problems,
)
from app.rules.inputs import control_problem
from app.rules.ruleset import Ruleset


def check_text(what: str, value: str, high: int = MAX_TEXT) -> None:
    """Refuse (:class:`CampaignError`) a text holding a control character or over ``high``
    characters."""
    problem = control_problem(what, value)
    if problem is None and len(value) > high:
        problem = f"{what} is {len(value):,} characters long (at most {high:,})"
    if problem:
        raise CampaignError(problem)


def battle_roster(campaign: Campaign, part: Participant) -> Roster:
    """The roster a side fields in a battle: its whole army or the detachment's units, with
    the leaders who go with it. A killed or captured leader is never fielded: he is left
    out, his unit and command go without him, and naming him is refused."""
    side = campaign.side(part.side)
    army = side.army
    if part.units is None:
        units = list(army.units)
    else:
        ids = set(part.units)
        missing = ids - {u.id for u in army.units}
        if missing:
            raise CampaignError(f"{side.name} has no unit {sorted(missing)[0]!r}")
        units = [u for u in army.units if u.id in ids]
    if part.leaders is None:
        leaders = [ld for ld in army.leaders if ld.status.can_field]
        if part.units is not None:
            leaders = [ld for ld in leaders if ld.id in _detachment_leaders(army, units)]
    else:
        leaders = []
        for lid in part.leaders:
            try:
                ld = army.leader(lid)
            except KeyError:
                raise CampaignError(f"{side.name} has no leader {lid!r}") from None
            if not ld.status.can_field:
                raise CampaignError(f"{ld.name} is {ld.status.value} and cannot be fielded")
            leaders.append(ld)
    fielded = {ld.id for ld in leaders}
    return replace(
        army,
        units=tuple(u if u.leader in fielded else replace(u, leader=None) for u in units),
        leaders=tuple(leaders),
        commands=tuple(
            c if c.leader in fielded or c.leader is None else replace(c, leader=None)
            for c in army.commands
        ),
    )


def _detachment_leaders(army: Roster, units: Sequence[Unit]) -> set[str]:
    """The leaders who go with a detachment when none are named: those attached to one of
    its units and those leading a command one of its units belongs to (the rest stay with
    the army and run no risk)."""
    commands = {u.command for u in units if u.command is not None}
    out = {u.leader for u in units if u.leader is not None}
    out |= {c.leader for c in army.commands if c.id in commands and c.leader is not None}
    return out


class Step:
    kind: ClassVar[str] = ""
    #: the parts of the campaign (its top-level fields) the step may change: the store
    #: holds every step to it, and reads a past state's sides without reading the changes
    #: of steps that leave them alone
    changes: ClassVar[frozenset[str]] = frozenset({"sides", "battles"})

    @property
    def label(self) -> str:
        return self.kind

    def title(self, campaign: Campaign) -> str:
        """The label in words a player reads: battles and leaders by name, from
        ``campaign`` (any state of it: names do not change); :attr:`label` keeps their ids
        for the command line's history."""
        return self.label

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        raise NotImplementedError


@dataclass(frozen=True)
class AddBattle(Step):
    kind: ClassVar[str] = "add-battle"
    changes: ClassVar[frozenset[str]] = frozenset({"battles"})
    name: str
    participants: tuple[Participant, Participant]
    date: str = ""
    place: str = ""
    id: str | None = None
    #: the battle (id, name or number) it comes before; None: after the last. A battle
    #: goes only before battles whose results are not applied yet, as the armies carry
    #: each battle's aftermath into the next in order.
    before: str | None = None
    #: the historical battle it is fought on (``app.core.scenario``)
    scenario: str | None = None

    @property
    def label(self) -> str:
        return f"Add battle {self.name}"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        check_text("the battle name", self.name)
        if not self.name.strip():
            raise CampaignError("the battle name cannot be empty")
        check_text("the date", self.date)
        check_text("the place", self.place)
        if len(campaign.battles) >= MAX_BATTLES:
            raise CampaignError(f"a campaign holds at most {MAX_BATTLES} battles")
        a, b = self.participants
        if campaign.side(a.side).id == campaign.side(b.side).id:
            raise CampaignError("a battle is fought between two different sides")
        for part in self.participants:
            battle_roster(campaign, part)  # the detachment exists and can be fielded
        ident = self.id or _new_battle_id(campaign)
        if any(x.id == ident for x in campaign.battles):
            raise CampaignError(f"there is already a battle {ident!r}")
        at = len(campaign.battles)
        if self.before is not None:
            later = campaign.battle(self.before)
            if later.applied:
                raise CampaignError(
                    f"the result of {later.name} is applied: a battle goes only before "
                    "battles not applied yet (undo first)"
                )
            at = campaign.battles.index(later)
        battle = CampaignBattle(
            id=ident,
            name=self.name,
            participants=(
                replace(a, side=campaign.side(a.side).id),
                replace(b, side=campaign.side(b.side).id),
            ),
            date=self.date,
            place=self.place,
            scenario=self.scenario,
        )
        battles = campaign.battles
        return replace(campaign, battles=(*battles[:at], battle, *battles[at:]))


def _new_battle_id(campaign: Campaign) -> str:
    """``b<N>``: the first number past those already used (a battle put before another
    keeps ids unique, never reused)."""
    used = {b.id for b in campaign.battles}
    n = len(campaign.battles) + 1
    while f"b{n}" in used:
        n += 1
    return f"b{n}"


def battle_words(campaign: Campaign, key: str) -> str:
    """A battle by name (its key when the campaign has no such battle)."""
    try:
        return campaign.battle(key).name
    except (CampaignError, KeyError):
        return key


def leader_words(campaign: Campaign, side: str, leader: str) -> str:
    """A side's leader by name (his id when the side has no such leader)."""
    try:
        return campaign.side(side).army.leader(leader).name
    except (CampaignError, KeyError, ValueError):
        return leader


def _open(campaign: Campaign, key: str) -> CampaignBattle:
    battle = campaign.battle(key)
    if battle.applied:
        raise CampaignError(f"the result of {battle.name} is already applied (undo it first)")
    return battle


@dataclass(frozen=True)
class LinkBattle(Step):
    """A battle fought in the app for this campaign battle (its stored id)."""

    kind: ClassVar[str] = "link-battle"
    changes: ClassVar[frozenset[str]] = frozenset({"battles"})
    battle: str
    fought: int

    @property
    def label(self) -> str:
        return f"Fight battle {self.battle}"

    def title(self, campaign: Campaign) -> str:
        return f"Fight {battle_words(campaign, self.battle)}"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        return campaign.with_battle(replace(_open(campaign, self.battle), fought=self.fought))


@dataclass(frozen=True)
class RecordResult(Step):
    """The result of a battle; ``went_in``: the two rosters it was fought with (those of a
    fought battle as stored with it; by hand, the campaign's armies now)."""

    kind: ClassVar[str] = "record"
    changes: ClassVar[frozenset[str]] = frozenset({"battles"})
    battle: str
    result: BattleResult
    went_in: tuple[Roster, Roster] | None = None

    @property
    def label(self) -> str:
        return f"Record the result of {self.battle}"

    def title(self, campaign: Campaign) -> str:
        return f"Record the result of {battle_words(campaign, self.battle)}"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        battle = _open(campaign, self.battle)
        went_in = self.went_in or (
            battle_roster(campaign, battle.participants[0]),
            battle_roster(campaign, battle.participants[1]),
        )
        check_text("the reason", self.result.reason, 500)
        for note in self.result.notes:
            check_text("a note", note, 2000)
        for k in (0, 1):
            army = went_in[k]
            units = {u.id: u for u in army.units}
            for o in self.result.sides[k].units:
                u = units.get(o.roster_unit)
                if u is None or o.index >= u.count:
                    raise CampaignError(f"{o.name} was not in {army.name} at {battle.name}")
                if not 0 <= o.end <= o.start:
                    raise CampaignError(f"{o.name}: {o.end} is not from 0 to {o.start}")
        fought = self.result.battle_id if self.result.battle_id is not None else battle.fought
        return campaign.with_battle(
            replace(battle, result=self.result, went_in=went_in, fought=fought)
        )


@dataclass(frozen=True)
class ApplyResult(Step):
    kind: ClassVar[str] = "apply"
    changes: ClassVar[frozenset[str]] = frozenset({"sides", "battles"})
    battle: str

    @property
    def label(self) -> str:
        return f"Apply the result of {self.battle}"

    def title(self, campaign: Campaign) -> str:
        return f"Apply the result of {battle_words(campaign, self.battle)}"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        battle = _open(campaign, self.battle)
        if battle.result is None:
            raise CampaignError(f"{battle.name} has no result yet: record it first")
        earlier = campaign.battles[: campaign.battles.index(battle)]
        waiting = [b.name for b in earlier if not b.applied]
        if waiting:
            raise CampaignError(f"apply the result of {waiting[0]} first")
        rule = recovery_of(rs, campaign.recovery)
        for k, part in enumerate(battle.participants):
            side = campaign.side(part.side)
            outcome = battle.result.sides[k]
            side = units_after(rs, side, outcome.units, rule, battle.id)
            side = replace(side, army=leaders_after(rs, side, outcome.leaders))
            campaign = campaign.with_side(side)
        return campaign.with_battle(replace(battle, applied=True))


@dataclass(frozen=True)
class Reinforce(Step):
    """New units (and leaders) join a side's army between battles."""

    kind: ClassVar[str] = "reinforce"
    changes: ClassVar[frozenset[str]] = frozenset({"sides"})
    side: str
    units: tuple[Unit, ...] = ()
    leaders: tuple[Leader, ...] = ()

    @property
    def label(self) -> str:
        n = sum(u.count for u in self.units) + len(self.leaders)
        return f"Reinforce {self.side} ({n})"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        side = campaign.side(self.side)
        army = side.army
        taken = {u.id for u in army.units} | {ld.id for ld in army.leaders}
        entries = rs.army(army.army).entries
        for u in self.units:
            problems = unit_problems(u)
            if u.entry not in entries:
                problems.append(f"{army.army} has no entry {u.entry!r}")
            if problems:
                raise CampaignError("; ".join(problems))
        for ld in self.leaders:
            if leader_problems(ld):
                raise CampaignError("; ".join(leader_problems(ld)))
        for ident in [u.id for u in self.units] + [ld.id for ld in self.leaders]:
            if ident in taken:
                raise CampaignError(f"the id {ident!r} is already used in {side.name}")
            taken.add(ident)
        army = replace(
            army, units=army.units + self.units, leaders=army.leaders + tuple(self.leaders)
        )
        return campaign.with_side(replace(side, army=army))


@dataclass(frozen=True)
class Promote(Step):
    """A commander becomes the general (or takes over a dead or captured leader's commands,
    and his unit): the leader he replaces, if he was the general, is general no more."""

    kind: ClassVar[str] = "promote"
    changes: ClassVar[frozenset[str]] = frozenset({"sides"})
    side: str
    leader: str
    replaces: str | None = None

    @property
    def label(self) -> str:
        return f"Promote {self.leader}"

    def title(self, campaign: Campaign) -> str:
        return f"Promote {leader_words(campaign, self.side, self.leader)}"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        side = campaign.side(self.side)
        army = side.army
        try:
            new = army.leader(self.leader)
            old = army.leader(self.replaces) if self.replaces else None
        except KeyError as exc:
            raise CampaignError(str(exc.args[0])) from None
        if not new.status.can_field:
            raise CampaignError(f"{new.name} is {new.status.value} and cannot take command")
        if old is not None and old.id == new.id:
            raise CampaignError("a leader cannot replace himself")
        if old is None:
            old = next((ld for ld in army.leaders if ld.rank == "general"), None)
            if old is not None and old.status.can_field:
                raise CampaignError(f"{old.name} is the general and can still command")
        leaders = []
        for ld in army.leaders:
            if ld.id == new.id:
                ld = replace(ld, rank="general" if old is None else old.rank)
            elif old is not None and ld.id == old.id and ld.rank == "general":
                ld = replace(ld, rank="commander")
            leaders.append(ld)
        units = army.units
        commands = army.commands
        if old is not None:
            had_unit = any(u.leader == new.id for u in units)
            units = tuple(
                replace(u, leader=new.id) if u.leader == old.id and not had_unit else u
                for u in units
            )
            commands = tuple(
                replace(c, leader=new.id) if c.leader == old.id else c for c in commands
            )
        army = replace(army, leaders=tuple(leaders), units=units, commands=commands)
        return campaign.with_side(replace(side, army=army))


@dataclass(frozen=True)
class ReturnLeader(Step):
    """A captured leader comes back: exchanged for a captured enemy leader (who goes back
    to his own side too) or ransomed (``terms``: what was paid, in words)."""

    kind: ClassVar[str] = "return-leader"
    changes: ClassVar[frozenset[str]] = frozenset({"sides"})
    side: str
    leader: str
    how: Literal["exchange", "ransom"] = "ransom"
    for_side: str | None = None
    for_leader: str | None = None
    terms: str = ""

    @property
    def label(self) -> str:
        return f"{self.how.capitalize()} {self.leader}"

    def title(self, campaign: Campaign) -> str:
        return f"{self.how.capitalize()} {leader_words(campaign, self.side, self.leader)}"

    def apply(self, campaign: Campaign, rs: Ruleset) -> Campaign:
        check_text("the terms", self.terms, 500)
        pairs: list[tuple[str, str]] = [(self.side, self.leader)]
        if self.how == "exchange":
            if self.for_side is None or self.for_leader is None:
                raise CampaignError("an exchange names the enemy leader given back for him")
            pairs.append((self.for_side, self.for_leader))
        for side_key, lid in pairs:
            side = campaign.side(side_key)
            try:
                ld = side.army.leader(lid)
            except KeyError:
                raise CampaignError(f"{side.name} has no leader {lid!r}") from None
            if ld.status is not LeaderStatus.CAPTURED:
                raise CampaignError(f"{ld.name} is {ld.status.value}, not captured")
            back = replace(ld, status=LeaderStatus.WOUNDED if ld.wounds else LeaderStatus.FIT)
            army = replace(
                side.army,
                leaders=tuple(back if x.id == lid else x for x in side.army.leaders),
            )
            campaign = campaign.with_side(replace(side, army=army))
        return campaign


STEPS: dict[str, type[Step]] = {
    s.kind: s
    for s in (AddBattle, LinkBattle, RecordResult, ApplyResult, Reinforce, Promote, ReturnLeader)
}


def applied_battles(campaign: Campaign) -> Sequence[CampaignBattle]:
    return [b for b in campaign.battles if b.applied]


#: the kinds of step that leave the sides (the armies, their losses) as they are
SIDES_KEPT = frozenset(k for k, s in STEPS.items() if "sides" not in s.changes)
