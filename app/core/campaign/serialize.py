"""Campaigns and their steps as JSON objects, and back, strictly: the same models read a
campaign file (:mod:`app.core.campaign.campaignfile`) and the store's rows, so a value the
store holds is one a file may hold. Armies are roster-file objects
(:mod:`app.core.rosterfile`), read with its checks; everything else is typed here (JSON's own
types only, bounded, no control characters)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.core.battle.result import BattleResult, LeaderOutcome, SideOutcome, UnitOutcome
from app.core.campaign.model import (
    MAX_BATTLES,
    MAX_SIDES,
    MAX_TEXT,
    Campaign,
    CampaignBattle,
    CampaignSide,
    LostUnit,
    Participant,
)
from app.core.campaign.steps import (
    AddBattle,
    ApplyResult,
    LinkBattle,
    Promote,
    RecordResult,
    Reinforce,
    ReturnLeader,
    Step,
)
from app.core.roster import (
    MAX_LEADERS,
    MAX_SIZE,
    MAX_UNITS,
    MAX_WOUNDS,
    Leader,
    LeaderStatus,
    Roster,
    Unit,
)
from app.core.rosterfile import Ident, LeaderIn, Notes, OneLine, RosterFileError, UnitIn
from app.core.rosterfile import from_dict as roster_from_dict
from app.core.rosterfile import to_dict as roster_to_dict
from app.rules.errors import key_path
from app.rules.registry import Registry

MAX_BATTLE_ID = 2**63 - 1


class CampaignDataError(ValueError):
    """Campaign data that cannot be read; ``problems`` holds ``(key path, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p}: {m}" if p else m for p, m in problems[:5]))


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Text = Annotated[OneLine, Field(max_length=MAX_TEXT)]
Name = Annotated[OneLine, Field(min_length=1, max_length=MAX_TEXT)]
Size = Annotated[int, Field(ge=0, le=MAX_SIZE)]


class UnitOutcomeIn(_M):
    roster_unit: Ident
    index: int = Field(ge=0, le=1000)
    name: Name
    start: Size
    end: Size
    lost: bool = False
    reason: Text | None = None


class LeaderOutcomeIn(_M):
    leader: Ident
    name: Name
    fate: Literal["fit", "wounded", "killed", "captured"] = "fit"
    wounds: int = Field(default=0, ge=0, le=MAX_WOUNDS)


class SideOutcomeIn(_M):
    roster: Name
    units: list[UnitOutcomeIn] = Field(default_factory=list, max_length=MAX_UNITS * 10)
    leaders: list[LeaderOutcomeIn] = Field(default_factory=list, max_length=MAX_LEADERS)


class ResultIn(_M):
    winner: Literal[0, 1] | None
    reason: Annotated[OneLine, Field(max_length=500)]
    sides: list[SideOutcomeIn] = Field(min_length=2, max_length=2)
    notes: list[Annotated[OneLine, Field(max_length=2000)]] = Field(
        default_factory=list, max_length=200
    )
    source: Literal["fought", "hand"] = "hand"
    battle_id: int | None = Field(default=None, ge=1, le=MAX_BATTLE_ID)


class ParticipantIn(_M):
    side: Ident
    units: list[Ident] | None = Field(default=None, max_length=MAX_UNITS)
    leaders: list[Ident] | None = Field(default=None, max_length=MAX_LEADERS)


class LostIn(_M):
    unit: UnitIn
    battle: Ident
    reason: Text


def _result(doc: ResultIn) -> BattleResult:
    def side(s: SideOutcomeIn) -> SideOutcome:
        return SideOutcome(
            s.roster,
            tuple(UnitOutcome(**u.model_dump()) for u in s.units),
            tuple(LeaderOutcome(**ld.model_dump()) for ld in s.leaders),
        )

    return BattleResult(
        winner=doc.winner,
        reason=doc.reason,
        sides=(side(doc.sides[0]), side(doc.sides[1])),
        notes=tuple(doc.notes),
        source=doc.source,
        battle_id=doc.battle_id,
    )


def result_to_dict(r: BattleResult) -> dict[str, Any]:
    def side(s: SideOutcome) -> dict[str, Any]:
        return {
            "roster": s.roster,
            "units": [
                {
                    "roster_unit": u.roster_unit,
                    "index": u.index,
                    "name": u.name,
                    "start": u.start,
                    "end": u.end,
                    "lost": u.lost,
                    "reason": u.reason,
                }
                for u in s.units
            ],
            "leaders": [
                {"leader": o.leader, "name": o.name, "fate": o.fate, "wounds": o.wounds}
                for o in s.leaders
            ],
        }

    return {
        "winner": r.winner,
        "reason": r.reason,
        "sides": [side(r.sides[0]), side(r.sides[1])],
        "notes": list(r.notes),
        "source": r.source,
        "battle_id": r.battle_id,
    }


def unit_to_dict(u: Unit) -> dict[str, Any]:
    return roster_to_dict(Roster("u", "r", "a", "", None, units=(u,)))["units"][0]  # type: ignore[no-any-return]


def leader_to_dict(ld: Leader) -> dict[str, Any]:
    return roster_to_dict(Roster("u", "r", "a", "", None, leaders=(ld,)))["leaders"][0]  # type: ignore[no-any-return]


def _unit(u: UnitIn, where: str) -> Unit:
    if u.id is None or u.size is None:
        raise CampaignDataError([(where, "a unit here needs its id and size")])
    return Unit(
        id=u.id,
        entry=u.entry,
        name=u.name or u.entry,
        size=u.size,
        count=u.count,
        grade=u.grade,
        command=u.command,
        leader=u.leader,
        notes=u.notes,
        lines=dict(u.lines) if u.lines else None,
    )


def _leader(ld: LeaderIn) -> Leader:
    return Leader(
        id=ld.id,
        name=ld.name,
        rank=ld.rank,
        status=LeaderStatus(ld.status),
        wounds=ld.wounds,
        notes=ld.notes,
        fields=ld.field_values(),
    )


def _model(model: type[_M], obj: object, where: str) -> Any:
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        raise CampaignDataError(
            [
                (
                    key_path((*([where] if where else []), *e["loc"])),
                    e["msg"].removeprefix("Value error, "),
                )
                for e in exc.errors()
            ]
        ) from None


def _roster(obj: object, registry: Registry, where: str) -> Roster:
    try:
        return roster_from_dict(obj, registry, source=where)
    except RosterFileError as exc:
        raise CampaignDataError(
            [(f"{where}.{p}" if p else where, m) for p, m in exc.problems]
        ) from None


def _obj(obj: object, where: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise CampaignDataError([(where, "must be a JSON object")])
    return obj


def _keys(obj: Mapping[str, Any], where: str, allowed: set[str], required: set[str]) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise CampaignDataError([(f"{where}.{extra[0]}" if where else extra[0], "unknown key")])
    missing = sorted(required - set(obj))
    if missing:
        raise CampaignDataError([(f"{where}.{missing[0]}" if where else missing[0], "missing")])


# --------------------------------------------------------------------------- the campaign


def campaign_to_dict(c: Campaign) -> dict[str, Any]:
    return {
        "name": c.name,
        "ruleset": c.ruleset,
        "recovery": c.recovery,
        "notes": c.notes,
        "template": c.template,
        "sides": [
            {
                "id": s.id,
                "name": s.name,
                "army": roster_to_dict(s.army),
                "lost": [
                    {"unit": unit_to_dict(x.unit), "battle": x.battle, "reason": x.reason}
                    for x in s.lost
                ],
            }
            for s in c.sides
        ],
        "battles": [_battle_dict(b) for b in c.battles],
    }


def _battle_dict(b: CampaignBattle) -> dict[str, Any]:
    """A battle as JSON; its ``scenario`` only when it has one (older files and stored
    campaigns read the same)."""
    d = {
        "id": b.id,
        "name": b.name,
        "date": b.date,
        "place": b.place,
        "participants": [_part_dict(p) for p in b.participants],
        "result": None if b.result is None else result_to_dict(b.result),
        "went_in": None
        if b.went_in is None
        else [roster_to_dict(b.went_in[0]), roster_to_dict(b.went_in[1])],
        "applied": b.applied,
        "fought": b.fought,
    }
    if b.scenario is not None:
        d["scenario"] = b.scenario
    return d


def _part_dict(p: Participant) -> dict[str, Any]:
    return {
        "side": p.side,
        "units": None if p.units is None else list(p.units),
        "leaders": None if p.leaders is None else list(p.leaders),
    }


def _part(obj: object, where: str) -> Participant:
    doc: ParticipantIn = _model(ParticipantIn, obj, where)
    return Participant(
        doc.side,
        None if doc.units is None else tuple(doc.units),
        None if doc.leaders is None else tuple(doc.leaders),
    )


class _HeadIn(_M):
    name: Name
    ruleset: Ident
    recovery: Literal["ruleset", "none", "half", "all"] = "ruleset"
    notes: Annotated[Notes, Field(max_length=100_000)] = ""
    template: Ident | None = None


class _BattleHeadIn(_M):
    id: Ident
    name: Name
    date: Text = ""
    place: Text = ""
    applied: bool = False
    fought: int | None = Field(default=None, ge=1, le=MAX_BATTLE_ID)
    scenario: Ident | None = None


def campaign_from_dict(obj: object, registry: Registry, where: str = "campaign") -> Campaign:
    """A campaign from its JSON object; :class:`CampaignDataError` names the key path."""
    o = _obj(obj, where)
    _keys(o, where, {*_HeadIn.model_fields, "sides", "battles"}, {"name", "ruleset", "sides"})
    head: _HeadIn = _model(
        _HeadIn, {k: v for k, v in o.items() if k in _HeadIn.model_fields}, where
    )
    if head.ruleset not in registry:
        raise CampaignDataError([(f"{where}.ruleset", f"unknown ruleset {head.ruleset!r}")])
    sides_in = o["sides"]
    if not isinstance(sides_in, list) or not 2 <= len(sides_in) <= MAX_SIDES:
        raise CampaignDataError([(f"{where}.sides", f"a list of 2 to {MAX_SIDES} sides")])
    sides: list[CampaignSide] = []
    for i, s in enumerate(sides_in):
        at = f"{where}.sides[{i}]"
        so = _obj(s, at)
        _keys(so, at, {"id", "name", "army", "lost"}, {"id", "name", "army"})
        ident = _model(_IdName, {"id": so["id"], "name": so["name"]}, at)
        army = _roster(so["army"], registry, f"{at}.army")
        if army.ruleset != head.ruleset:
            raise CampaignDataError([(f"{at}.army.ruleset", f"not {head.ruleset}")])
        lost_in = so.get("lost", [])
        if not isinstance(lost_in, list) or len(lost_in) > MAX_UNITS:
            raise CampaignDataError([(f"{at}.lost", "must be a list")])
        lost = []
        for j, x in enumerate(lost_in):
            doc: LostIn = _model(LostIn, x, f"{at}.lost[{j}]")
            lost.append(LostUnit(_unit(doc.unit, f"{at}.lost[{j}].unit"), doc.battle, doc.reason))
        sides.append(CampaignSide(ident.id, ident.name, army, tuple(lost)))
    if len({s.id for s in sides}) != len(sides):
        raise CampaignDataError([(f"{where}.sides", "two sides share an id")])
    battles_in = o.get("battles", [])
    if not isinstance(battles_in, list) or len(battles_in) > MAX_BATTLES:
        raise CampaignDataError([(f"{where}.battles", f"a list of at most {MAX_BATTLES}")])
    battles = [_battle(b, registry, f"{where}.battles[{i}]") for i, b in enumerate(battles_in)]
    side_ids = {s.id for s in sides}
    for i, b in enumerate(battles):
        for p in b.participants:
            if p.side not in side_ids:
                raise CampaignDataError([(f"{where}.battles[{i}]", f"no side {p.side!r}")])
    if len({b.id for b in battles}) != len(battles):
        raise CampaignDataError([(f"{where}.battles", "two battles share an id")])
    return Campaign(
        name=head.name,
        ruleset=head.ruleset,
        sides=tuple(sides),
        battles=tuple(battles),
        recovery=head.recovery,
        notes=head.notes,
        template=head.template,
    )


class _IdName(_M):
    id: Ident
    name: Name


def _battle(obj: object, registry: Registry, at: str) -> CampaignBattle:
    o = _obj(obj, at)
    _keys(
        o,
        at,
        {*_BattleHeadIn.model_fields, "participants", "result", "went_in"},
        {"id", "name", "participants"},
    )
    head: _BattleHeadIn = _model(
        _BattleHeadIn, {k: v for k, v in o.items() if k in _BattleHeadIn.model_fields}, at
    )
    parts = o["participants"]
    if not isinstance(parts, list) or len(parts) != 2:
        raise CampaignDataError([(f"{at}.participants", "exactly two participants")])
    result = None
    if o.get("result") is not None:
        result = _result(_model(ResultIn, o["result"], f"{at}.result"))
    went_in = None
    if o.get("went_in") is not None:
        w = o["went_in"]
        if not isinstance(w, list) or len(w) != 2:
            raise CampaignDataError([(f"{at}.went_in", "exactly two rosters")])
        went_in = (
            _roster(w[0], registry, f"{at}.went_in[0]"),
            _roster(w[1], registry, f"{at}.went_in[1]"),
        )
    if head.applied and result is None:
        raise CampaignDataError([(f"{at}.applied", "a battle without a result is not applied")])
    return CampaignBattle(
        id=head.id,
        name=head.name,
        participants=(
            _part(parts[0], f"{at}.participants[0]"),
            _part(parts[1], f"{at}.participants[1]"),
        ),
        date=head.date,
        place=head.place,
        result=result,
        went_in=went_in,
        applied=head.applied,
        fought=head.fought,
        scenario=head.scenario,
    )


# --------------------------------------------------------------------------- steps


def step_to_dict(step: Step) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": step.kind}
    if isinstance(step, AddBattle):
        d |= {
            "id": step.id,
            "name": step.name,
            "date": step.date,
            "place": step.place,
            "participants": [_part_dict(p) for p in step.participants],
        }
        if step.before is not None:
            d["before"] = step.before
        if step.scenario is not None:
            d["scenario"] = step.scenario
    elif isinstance(step, LinkBattle):
        d |= {"battle": step.battle, "fought": step.fought}
    elif isinstance(step, RecordResult):
        d |= {
            "battle": step.battle,
            "result": result_to_dict(step.result),
            "went_in": None
            if step.went_in is None
            else [roster_to_dict(step.went_in[0]), roster_to_dict(step.went_in[1])],
        }
    elif isinstance(step, ApplyResult):
        d |= {"battle": step.battle}
    elif isinstance(step, Reinforce):
        d |= {
            "side": step.side,
            "units": [unit_to_dict(u) for u in step.units],
            "leaders": [leader_to_dict(ld) for ld in step.leaders],
        }
    elif isinstance(step, Promote):
        d |= {"side": step.side, "leader": step.leader, "replaces": step.replaces}
    elif isinstance(step, ReturnLeader):
        d |= {
            "side": step.side,
            "leader": step.leader,
            "how": step.how,
            "for_side": step.for_side,
            "for_leader": step.for_leader,
            "terms": step.terms,
        }
    return d


class _AddIn(_M):
    kind: Literal["add-battle"]
    id: Ident | None = None
    name: Name
    date: Text = ""
    place: Text = ""
    participants: list[ParticipantIn] = Field(min_length=2, max_length=2)
    before: Name | None = None
    scenario: Ident | None = None


class _LinkIn(_M):
    kind: Literal["link-battle"]
    battle: Ident
    fought: int = Field(ge=1, le=MAX_BATTLE_ID)


class _ApplyIn(_M):
    kind: Literal["apply"]
    battle: Ident


class _ReinforceIn(_M):
    kind: Literal["reinforce"]
    side: Ident
    units: list[UnitIn] = Field(default_factory=list, max_length=MAX_UNITS)
    leaders: list[LeaderIn] = Field(default_factory=list, max_length=MAX_LEADERS)


class _PromoteIn(_M):
    kind: Literal["promote"]
    side: Ident
    leader: Ident
    replaces: Ident | None = None


class _ReturnIn(_M):
    kind: Literal["return-leader"]
    side: Ident
    leader: Ident
    how: Literal["exchange", "ransom"] = "ransom"
    for_side: Ident | None = None
    for_leader: Ident | None = None
    terms: Annotated[OneLine, Field(max_length=500)] = ""


def step_from_dict(obj: object, registry: Registry, where: str = "step") -> Step:
    o = _obj(obj, where)
    kind = o.get("kind")
    if kind == "record":
        _keys(o, where, {"kind", "battle", "result", "went_in"}, {"battle", "result"})
        battle = _model(_IdName, {"id": o["battle"], "name": "x"}, where).id
        result = _result(_model(ResultIn, o["result"], f"{where}.result"))
        w = o.get("went_in")
        went_in = None
        if w is not None:
            if not isinstance(w, list) or len(w) != 2:
                raise CampaignDataError([(f"{where}.went_in", "exactly two rosters")])
            went_in = (
                _roster(w[0], registry, f"{where}.went_in[0]"),
                _roster(w[1], registry, f"{where}.went_in[1]"),
            )
        return RecordResult(battle, result, went_in)
    models: dict[object, type[_M]] = {
        "add-battle": _AddIn,
        "link-battle": _LinkIn,
        "apply": _ApplyIn,
        "reinforce": _ReinforceIn,
        "promote": _PromoteIn,
        "return-leader": _ReturnIn,
    }
    model = models.get(kind)
    if model is None:
        known = ", ".join(["record", *(str(k) for k in models)])
        raise CampaignDataError([(f"{where}.kind", f"unknown step {kind!r} (steps: {known})")])
    doc = _model(model, o, where)
    if isinstance(doc, _AddIn):
        a, b = (_part(p.model_dump(), where) for p in doc.participants)
        return AddBattle(doc.name, (a, b), doc.date, doc.place, doc.id, doc.before, doc.scenario)
    if isinstance(doc, _LinkIn):
        return LinkBattle(doc.battle, doc.fought)
    if isinstance(doc, _ApplyIn):
        return ApplyResult(doc.battle)
    if isinstance(doc, _ReinforceIn):
        units = tuple(_unit(u, f"{where}.units[{i}]") for i, u in enumerate(doc.units))
        return Reinforce(doc.side, units, tuple(_leader(ld) for ld in doc.leaders))
    if isinstance(doc, _PromoteIn):
        return Promote(doc.side, doc.leader, doc.replaces)
    assert isinstance(doc, _ReturnIn)
    return ReturnLeader(doc.side, doc.leader, doc.how, doc.for_side, doc.for_leader, doc.terms)
