"""A campaign read back from the store: built straight from the JSON object Castra wrote
(:func:`app.core.campaign.serialize.campaign_to_dict`), without validating it again.

A stored campaign state was made by the app's own steps and checked when it was written;
the store keeps its digest, so a damaged state is found by the digest, not by validating
every field on every read (which was most of the time of a read: a campaign of 50 battles
took 8 s a command). The builder still checks each value's JSON type and shape as it goes,
cheaply, so content that is not what Castra writes is :class:`StoredDataError` (the store
makes it one line), never a wrong object.

A :class:`Builder` remembers what it built from each sub-object (a side, a battle, an army)
it was given: the states of one campaign rebuilt from its deltas share the sub-objects a step
left alone (:func:`app.core.timeline.apply_delta`), so building every state of a campaign
builds each battle and each army once, not once a state. Nothing here imports pydantic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from app.core.battle.result import BattleResult, LeaderOutcome, SideOutcome, UnitOutcome
from app.core.campaign.model import (
    RECOVERIES,
    Campaign,
    CampaignBattle,
    CampaignSide,
    LostUnit,
    Participant,
)
from app.core.roster import Command, Leader, LeaderStatus, Roster, Unit
from app.rules.scale import Scale

T = TypeVar("T")

#: A whole campaign is stored after at least this many steps since the last whole one.
SNAPSHOT_EVERY = 20
#: The steps a side makes for itself (a player's, on a club server): they never carry a
#: whole campaign, since the server checks a player's change and cannot read a compressed one.
SIDE_STEPS = ("reinforce", "promote", "return-leader")


def snapshot_due(n: int, last: int, kind: str) -> bool:
    """Whether step ``n`` (0-based) of kind ``kind`` stores the whole campaign it made, the
    last whole one being the state after step ``last`` (0: the start)."""
    return n + 1 - last >= SNAPSHOT_EVERY and kind not in SIDE_STEPS


class StoredDataError(ValueError):
    """A stored campaign object that is not what Castra writes (names where)."""


def _get(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    try:
        value = d[key]
    except (KeyError, TypeError):
        raise StoredDataError(f"{where}: no {key}") from None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise StoredDataError(f"{where}.{key}: {type(value).__name__} where it cannot be")
    return value


def _opt(d: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if d.get(key) is None:
        return None
    return _get(d, key, kind, where)


def _list(d: Mapping[str, Any], key: str, where: str) -> list[Any]:
    return cast(list[Any], _get(d, key, list, where))


def _strs(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise StoredDataError(f"{where}: not a list of texts")
    return tuple(value)


def unit_from_stored(d: Mapping[str, Any], where: str = "unit") -> Unit:
    lines = d.get("lines")
    if lines is not None and not (
        isinstance(lines, dict) and all(type(v) is int for v in lines.values())
    ):
        raise StoredDataError(f"{where}.lines: not bases by line")
    return Unit(
        id=_get(d, "id", str, where),
        entry=_get(d, "entry", str, where),
        name=_get(d, "name", str, where),
        size=_get(d, "size", int, where),
        count=_get(d, "count", int, where),
        grade=_opt(d, "grade", str, where),
        command=_opt(d, "command", str, where),
        leader=_opt(d, "leader", str, where),
        notes=_get(d, "notes", str, where),
        lines=dict(lines) if lines else None,
    )


def leader_from_stored(d: Mapping[str, Any], where: str = "leader") -> Leader:
    try:
        status = LeaderStatus(_get(d, "status", str, where))
    except ValueError:
        raise StoredDataError(f"{where}.status: not a leader's status") from None
    return Leader(
        id=_get(d, "id", str, where),
        name=_get(d, "name", str, where),
        rank=_get(d, "rank", str, where),
        status=status,
        wounds=_get(d, "wounds", int, where),
        bonus=_opt(d, "bonus", int, where),
        exceptional=_get(d, "exceptional", bool, where),
        quality=_opt(d, "quality", str, where),
        notes=_get(d, "notes", str, where),
    )


def roster_from_stored(d: Mapping[str, Any], where: str = "roster") -> Roster:
    """A roster from the object :func:`app.core.rosterfile.to_dict` wrote, as it was."""
    scale = _opt(d, "scale", str, where)
    try:
        scale = None if scale is None else Scale(scale)
    except ValueError:
        raise StoredDataError(f"{where}.scale: not a scale") from None
    return Roster(
        name=_get(d, "name", str, where),
        ruleset=_get(d, "ruleset", str, where),
        army=_get(d, "army", str, where),
        side=_get(d, "side", str, where),
        scale=scale,
        units=tuple(
            unit_from_stored(u, f"{where}.units[{i}]")
            for i, u in enumerate(_list(d, "units", where))
        ),
        leaders=tuple(
            leader_from_stored(x, f"{where}.leaders[{i}]")
            for i, x in enumerate(_list(d, "leaders", where))
        ),
        commands=tuple(
            Command(
                id=_get(c, "id", str, where),
                name=_get(c, "name", str, where),
                leader=_opt(c, "leader", str, where),
                kind=_opt(c, "kind", str, where),
            )
            for c in _list(d, "commands", where)
        ),
        data_version=_opt(d, "ruleset_data_version", str, where),
        notes=_get(d, "notes", str, where),
    )


def result_from_stored(d: Mapping[str, Any], where: str = "result") -> BattleResult:
    def side(s: Mapping[str, Any], at: str) -> SideOutcome:
        return SideOutcome(
            _get(s, "roster", str, at),
            tuple(
                UnitOutcome(
                    roster_unit=_get(u, "roster_unit", str, at),
                    index=_get(u, "index", int, at),
                    name=_get(u, "name", str, at),
                    start=_get(u, "start", int, at),
                    end=_get(u, "end", int, at),
                    lost=_get(u, "lost", bool, at),
                    reason=_opt(u, "reason", str, at),
                )
                for u in _list(s, "units", at)
            ),
            tuple(
                LeaderOutcome(
                    leader=_get(o, "leader", str, at),
                    name=_get(o, "name", str, at),
                    fate=_get(o, "fate", str, at),
                    wounds=_get(o, "wounds", int, at),
                )
                for o in _list(s, "leaders", at)
            ),
        )

    sides = _list(d, "sides", where)
    if len(sides) != 2:
        raise StoredDataError(f"{where}.sides: not two sides")
    winner = _opt(d, "winner", int, where)
    if winner not in (None, 0, 1):
        raise StoredDataError(f"{where}.winner: not a side")
    return BattleResult(
        winner=winner,
        reason=_get(d, "reason", str, where),
        sides=(side(sides[0], f"{where}.sides[0]"), side(sides[1], f"{where}.sides[1]")),
        notes=_strs(d.get("notes", []), f"{where}.notes"),
        source=_get(d, "source", str, where),
        battle_id=_opt(d, "battle_id", int, where),
    )


def _participant(d: Mapping[str, Any], where: str) -> Participant:
    units, leaders = d.get("units"), d.get("leaders")
    return Participant(
        _get(d, "side", str, where),
        None if units is None else _strs(units, f"{where}.units"),
        None if leaders is None else _strs(leaders, f"{where}.leaders"),
    )


class Builder:
    """Builds campaigns from stored objects, remembering what it built from each side,
    battle and army object (by identity: the object is kept, so its id is not reused)."""

    def __init__(self) -> None:
        self._memo: dict[int, tuple[object, object]] = {}

    def _once(self, d: object, make: Callable[[], T]) -> T:
        got = self._memo.get(id(d))
        if got is not None and got[0] is d:
            return cast(T, got[1])
        value = make()
        self._memo[id(d)] = (d, value)
        return value

    def roster(self, d: Mapping[str, Any], where: str) -> Roster:
        return self._once(d, lambda: roster_from_stored(d, where))

    def side(self, d: Mapping[str, Any], where: str) -> CampaignSide:
        def make() -> CampaignSide:
            lost = tuple(
                LostUnit(
                    unit_from_stored(_get(x, "unit", dict, where), f"{where}.lost[{j}].unit"),
                    _get(x, "battle", str, where),
                    _get(x, "reason", str, where),
                )
                for j, x in enumerate(_list(d, "lost", where))
            )
            army = self.roster(_get(d, "army", dict, where), f"{where}.army")
            return CampaignSide(_get(d, "id", str, where), _get(d, "name", str, where), army, lost)

        return self._once(d, make)

    def battle(self, d: Mapping[str, Any], where: str) -> CampaignBattle:
        def make() -> CampaignBattle:
            parts = _list(d, "participants", where)
            if len(parts) != 2:
                raise StoredDataError(f"{where}.participants: not two")
            result = d.get("result")
            went_in = d.get("went_in")
            if went_in is not None and (not isinstance(went_in, list) or len(went_in) != 2):
                raise StoredDataError(f"{where}.went_in: not two rosters")
            return CampaignBattle(
                id=_get(d, "id", str, where),
                name=_get(d, "name", str, where),
                participants=(
                    _participant(parts[0], f"{where}.participants[0]"),
                    _participant(parts[1], f"{where}.participants[1]"),
                ),
                date=_get(d, "date", str, where),
                place=_get(d, "place", str, where),
                result=None if result is None else result_from_stored(result, f"{where}.result"),
                went_in=None
                if went_in is None
                else (
                    self.roster(went_in[0], f"{where}.went_in[0]"),
                    self.roster(went_in[1], f"{where}.went_in[1]"),
                ),
                applied=_get(d, "applied", bool, where),
                fought=_opt(d, "fought", int, where),
            )

        return self._once(d, make)

    def campaign(self, d: Mapping[str, Any], where: str = "campaign") -> Campaign:
        """The campaign :func:`~app.core.campaign.serialize.campaign_to_dict` wrote as
        ``d``; :class:`StoredDataError` when ``d`` is not such an object."""
        if not isinstance(d, Mapping):
            raise StoredDataError(f"{where}: not a JSON object")
        recovery = _get(d, "recovery", str, where)
        if recovery not in RECOVERIES:
            raise StoredDataError(f"{where}.recovery: not a recovery rule")
        return Campaign(
            name=_get(d, "name", str, where),
            ruleset=_get(d, "ruleset", str, where),
            sides=tuple(
                self.side(s, f"{where}.sides[{i}]") for i, s in enumerate(_list(d, "sides", where))
            ),
            battles=tuple(
                self.battle(b, f"{where}.battles[{i}]")
                for i, b in enumerate(_list(d, "battles", where))
            ),
            recovery=recovery,
            notes=_get(d, "notes", str, where),
            template=_opt(d, "template", str, where),
        )


def campaign_from_stored(d: Mapping[str, Any], where: str = "campaign") -> Campaign:
    """One campaign from its stored object (a :class:`Builder` of its own)."""
    return Builder().campaign(d, where)
