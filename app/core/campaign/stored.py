"""A campaign read back from the store: built straight from the JSON object Castra wrote
(:func:`app.core.campaign.serialize.campaign_to_dict`), without validating it again.

A stored campaign state was made by the app's own steps and checked when it was written;
the store keeps its digest, so a damaged state is found by the digest (the store checks the
one every command reads), not by validating every field on every read (which was most of the
time of a read: a campaign of 50 battles took 8 s a command). An object missing a part, or
with a part no campaign has, is :class:`StoredDataError` naming where (the store makes it
one line).

A :class:`Builder` remembers what it built from each sub-object (a side, a battle, an army)
it was given: the states of one campaign rebuilt from its deltas share the sub-objects a step
left alone (:func:`app.core.timeline.apply_delta`), so building every state of a campaign
builds each battle and each army once, not once a state. Nothing here imports pydantic.
"""

from __future__ import annotations

import threading
import weakref
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, fields
from typing import Any, TypeVar, cast

from app.core.battle.result import (
    BattleResult,
    LeaderOutcome,
    SideOutcome,
    UnitOutcome,
    UnitsLater,
)
from app.core.campaign.model import (
    RECOVERIES,
    Campaign,
    CampaignBattle,
    CampaignSide,
    LostUnit,
    Participant,
    RosterHead,
    WentInLater,
)
from app.core.campaign.steps import ApplyResult
from app.core.later import Later
from app.core.leaderkeys import OTHERS, ROSTER_KEYS, unflat
from app.core.roster import MAX_ID, Command, Leader, LeaderStatus, Roster, Unit
from app.core.timeline import Packed, StateDict, canonical, load_json, unpack_snapshot
from app.rules.inputs import control_problem
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


#: The first bytes of a whole campaign stored as a head and parts (:func:`pack_campaign`);
#: a whole campaign stored before (schema 0011) is zlib's compressed JSON of it all.
PARTED = b"CS2\n"


def units_summary(units: Iterable[Mapping[str, Any]]) -> tuple[int, tuple[str, ...]]:
    """What a result side's stored units add up to: the losses in all, the names of the
    units lost (what the Campaigns window and the chronicle read of them)."""
    # one pass, each unit's four keys read together: four passes over them (a function
    # call a key) took twice the instructions, and at 50 battles the 3,300 units just
    # decoded were out of the processor's caches on every pass
    losses = 0
    gone: list[str] = []
    for u in units:
        losses += u["start"] - u["end"]
        name = u["name"]
        if u["lost"]:
            gone.append(name)
    return losses, tuple(gone)


def pack_campaign(state: Mapping[str, Any]) -> bytes:
    """The whole campaign ``state`` (a :func:`~app.core.campaign.serialize.campaign_to_dict`
    object) compressed as a head and parts: each battle's armies as they went in and each
    result side's units are parts, read only when the state read back needs them
    (:func:`unpack_campaign`; at 50 battles they are 860 KB of its 936 KB of JSON, and the
    Campaigns window shows neither); the head keeps the rest, and what each side's units
    add up to. One compressed stream, as before: no larger."""
    parts: list[bytes] = []
    size = 0

    def part(value: Any, **summary: Any) -> dict[str, Any]:
        nonlocal size
        text = canonical(value)
        parts.append(text)
        size += len(text)
        return {"part": [size - len(text), size], **summary}

    battles = []
    for b in state["battles"]:
        b = dict(b)
        if b.get("went_in") is not None:
            went_in = b["went_in"]
            went_in = went_in.value() if type(went_in) is Packed else went_in
            heads = [
                [r["name"], r["ruleset"], r["army"], r["side"], [x["id"] for x in r["leaders"]]]
                for r in went_in
            ]
            b["went_in"] = part(went_in, heads=heads)
        if b.get("result") is not None:
            result = dict(b["result"])
            sides = []
            for side in result["sides"]:
                side = dict(side)
                units = side["units"]
                units = units.value() if type(units) is Packed else units
                losses, gone = units_summary(units)
                side["units"] = part(units, losses=losses, lost=list(gone))
                sides.append(side)
            result["sides"] = sides
            b["result"] = result
        battles.append(b)
    head = canonical({**state, "battles": battles})
    body = b"%d\n" % len(head) + head + b"".join(parts)
    return PARTED + zlib.compress(body, 9)


class _Rest:
    """The parts of a whole campaign stored (:func:`unpack_campaign`), inflated when the
    first of them is read: the bytes after its head."""

    __slots__ = ("_got", "_inflate", "_lock")

    def __init__(self, inflate: Any, got: bytes) -> None:
        self._inflate = inflate
        self._got = got
        self._lock = threading.Lock()

    def __call__(self) -> bytes:
        with self._lock:
            inflate, self._inflate = self._inflate, None
            if inflate is not None:
                try:
                    self._got += inflate.decompress(inflate.unconsumed_tail) + inflate.flush()
                except zlib.error as exc:
                    raise ValueError(
                        f"the parts of a whole state stored are damaged ({exc})"
                    ) from None
                if not inflate.eof:
                    raise ValueError("the parts of a whole state stored are cut short")
            return self._got


def unpack_campaign(blob: bytes) -> StateDict:
    """The whole campaign stored as ``blob`` (:func:`pack_campaign`, or compressed whole as
    before it), its parts :class:`~app.core.timeline.Packed`, read when first asked for.
    :class:`ValueError` (zlib's error too) for bytes that are not one."""
    if not blob.startswith(PARTED):
        return unpack_snapshot(blob)
    # only the head is inflated now (the parts, 90% of the text at 50 battles, when the
    # first of them is read)
    inflate = zlib.decompressobj()
    data = inflate.decompress(blob[len(PARTED) :], 24)
    end = data.find(b"\n")
    if end < 1 or not data[:end].isdigit():
        raise ValueError("a whole state stored has no head")
    base = end + 1 + int(data[:end])
    if base > len(data):
        data += inflate.decompress(inflate.unconsumed_tail, base - len(data))
    if base > len(data):
        raise ValueError("a whole state stored is cut short")
    state = load_json(data[end + 1 : base])
    if type(state) is not dict or type(state.get("battles")) is not list:
        raise ValueError("a whole state stored is not a campaign")
    rest = _Rest(inflate, data[base:])

    def packed(ref: Any, summary: Any = None) -> Packed:
        at = ref.get("part") if type(ref) is dict else None
        if (
            type(at) is not list
            or len(at) != 2
            or not all(type(x) is int for x in at)
            or not 0 <= at[0] <= at[1]
        ):
            raise ValueError("a part of a whole state stored is not where it says")
        return Packed(rest, at[0], at[1], summary)

    for b in state["battles"]:
        if type(b) is not dict:
            continue
        if b.get("went_in") is not None:
            ref = b["went_in"]
            heads = ref.pop("heads", None) if type(ref) is dict else None
            if (
                type(heads) is not list
                or len(heads) != 2
                or not all(type(h) is list and len(h) == 5 for h in heads)
                or not all(type(x) is str for h in heads for x in h[:4])
                or not all(type(h[4]) is list for h in heads)
                or not all(type(x) is str for h in heads for x in h[4])
            ):
                raise ValueError("a battle's armies stored apart have no heads")
            x, y = (RosterHead(h[0], h[1], h[2], h[3], tuple(h[4])) for h in heads)
            b["went_in"] = packed(ref, (x, y))
        result = b.get("result")
        if type(result) is dict and type(result.get("sides")) is list:
            for side in result["sides"]:
                if type(side) is not dict:
                    continue
                ref = side.get("units")
                losses = ref.pop("losses", None) if type(ref) is dict else None
                gone = ref.pop("lost", None) if type(ref) is dict else None
                if (
                    type(losses) is not int
                    or type(gone) is not list
                    or not all(type(x) is str for x in gone)
                ):
                    raise ValueError("a result's units stored apart have no losses")
                side["units"] = packed(ref, (losses, tuple(gone)))
    return state


def _fail(where: str, exc: Exception) -> StoredDataError:
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    return StoredDataError(f"{where}: {text}")


def _maker(cls: type[T]) -> Callable[[Mapping[str, Any]], T]:
    """``cls(**d)`` for a frozen dataclass read from a stored object: the same object (its
    ``__post_init__`` run), and a TypeError for a field missing or unknown, without the
    frozen ``__init__``'s ``object.__setattr__`` a field (a campaign of 50 battles builds
    some 4,000 unit outcomes and 1,800 units on a read; that ``__init__`` was two thirds of
    building them). An object with every field, as Castra writes them, is taken as it is,
    with no default to fill in (that check and filling were half the time left)."""
    every = fields(cast(Any, cls))
    names = frozenset(f.name for f in every)
    required = frozenset(
        f.name for f in every if f.default is MISSING and f.default_factory is MISSING
    )
    defaults = {f.name: f.default for f in every if f.default is not MISSING}
    factories = {f.name: f.default_factory for f in every if f.default_factory is not MISSING}
    post_init = getattr(cls, "__post_init__", None)
    new = object.__new__

    def make(d: Mapping[str, Any]) -> T:
        keys = d.keys()
        if keys == names:  # every field given, as Castra writes them: no default to put
            obj = new(cls)
            obj.__dict__.update(d)
            if post_init is not None:
                post_init(obj)
            return obj
        if not required <= keys <= names:
            missing = sorted(required - keys)
            if missing:
                raise TypeError(f"{cls.__name__} is missing {', '.join(missing)}")
            raise TypeError(f"{cls.__name__} has no {', '.join(sorted(keys - names))}")
        obj = new(cls)
        attrs = obj.__dict__
        attrs.update(defaults)
        for name, factory in factories.items():
            if name not in keys:
                attrs[name] = factory()
        attrs.update(d)
        if post_init is not None:
            post_init(obj)
        return obj

    return make


_unit = _maker(Unit)
_leader = _maker(Leader)
_command = _maker(Command)
_unit_outcome = _maker(UnitOutcome)
_leader_outcome = _maker(LeaderOutcome)


def unit_from_stored(d: Mapping[str, Any]) -> Unit:
    return _unit(d)


def leader_from_stored(d: Mapping[str, Any]) -> Leader:
    common = {k: v for k, v in d.items() if k not in ROSTER_KEYS and k != OTHERS}
    fields = unflat(d, ROSTER_KEYS, d.get(OTHERS))
    return _leader({**common, "status": LeaderStatus(d["status"]), "fields": fields})


def roster_from_stored(d: Mapping[str, Any], where: str = "roster") -> Roster:
    """A roster from the object :func:`app.core.rosterfile.to_dict` wrote, as it was."""
    try:
        scale = d["scale"]
        return Roster(
            name=d["name"],
            ruleset=d["ruleset"],
            army=d["army"],
            side=d["side"],
            scale=None if scale is None else Scale(scale),
            units=tuple(map(_unit, d["units"])),
            leaders=tuple(map(leader_from_stored, d["leaders"])),
            commands=tuple(map(_command, d["commands"])),
            data_version=d["ruleset_data_version"],
            notes=d["notes"],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise _fail(where, exc) from None


def _later_units(
    units: Any, where: str, damaged: Callable[[StoredDataError], Exception] | None
) -> UnitsLater:
    """A side's stored units, made when they are first read (a result of 50 battles has
    some 3,600), with what the chronicle says of them (the losses in all, the units lost)
    read now, or, for units stored apart (:class:`~app.core.timeline.Packed`), as the head
    says, the units then decoded only when read (and held to what the head said). A unit
    that proves not to be what Castra writes is ``damaged`` of the :class:`StoredDataError`
    then (the store makes it its own one-line error)."""
    if type(units) is Packed:
        losses, gone = units.summary
    else:
        losses, gone = units_summary(units)

    def make() -> tuple[UnitOutcome, ...]:
        try:
            stored = units
            if type(stored) is Packed:
                stored = stored.value()
                if units_summary(stored) != (losses, gone):
                    raise ValueError("its units are not what its losses stored say")
            return tuple(map(_unit_outcome, stored))
        except (KeyError, TypeError, ValueError) as exc:
            if damaged is None:
                raise _fail(where, exc) from None
            raise damaged(_fail(where, exc)) from None

    return UnitsLater(make, losses, gone)


def result_from_stored(
    d: Mapping[str, Any],
    where: str = "result",
    damaged: Callable[[StoredDataError], Exception] | None = None,
) -> BattleResult:
    """A result from the object Castra wrote, its units made when first read
    (:func:`_later_units`)."""
    try:
        a, b = (
            SideOutcome(
                s["roster"],
                _later_units(s["units"], where, damaged),
                tuple(map(_leader_outcome, s["leaders"])),
            )
            for s in d["sides"]
        )
        return BattleResult(
            winner=d["winner"],
            reason=d["reason"],
            sides=(a, b),
            notes=tuple(d["notes"]),
            source=d["source"],
            battle_id=d["battle_id"],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise _fail(where, exc) from None


def apply_step_from_stored(d: object) -> ApplyResult | None:
    """The stored step ``d`` when it is an apply step (``{"kind": "apply", "battle": id}``),
    checked as :func:`~app.core.campaign.serialize.step_from_dict` checks one (no other key,
    the id a string of 1 to ``MAX_ID`` characters with no control character) without its
    pydantic models: the strength chart reads every apply step of a campaign, and nothing
    else of a chronicle needs pydantic. None for any other object (that function decodes it,
    and says what is wrong with it)."""
    if type(d) is not dict or d.keys() != {"kind", "battle"} or d["kind"] != "apply":
        return None
    battle = d["battle"]
    if type(battle) is not str or not 1 <= len(battle) <= MAX_ID:
        return None
    if control_problem("the text", battle) is not None:
        return None
    return ApplyResult(battle)


def _participant(d: Mapping[str, Any]) -> Participant:
    units, leaders = d["units"], d["leaders"]
    return Participant(
        d["side"],
        None if units is None else tuple(units),
        None if leaders is None else tuple(leaders),
    )


class Builder:
    """Builds campaigns from stored objects, remembering what it built from each side,
    battle and army object (by identity: the object is kept, so its id is not reused).

    A battle's ``went_in`` (its two armies as they went in, half of a stored campaign) is
    built when it is first read (:class:`~app.core.later.Later`). Should it prove not to be
    what Castra writes then, the error raised is ``damaged`` of the
    :class:`StoredDataError` (the store makes it its own one-line error)."""

    def __init__(self, damaged: Callable[[StoredDataError], Exception] | None = None) -> None:
        self._memo: dict[int, tuple[object, object]] = {}
        self._damaged = damaged

    def learn(self, other: Builder) -> None:
        """Know what ``other`` built (from the same objects, the same values)."""
        self._memo.update(other._memo)

    def built_from(self, state: Mapping[str, Any]) -> Builder:
        """A builder that knows only what this one built from the sides, battles and armies
        of the stored campaign ``state`` (to build another state sharing them without
        building them again, and without holding what was built from other states)."""
        parts: list[object] = []
        for side in state.get("sides") or ():
            parts += (side, side.get("army") if isinstance(side, dict) else None)
        for battle in state.get("battles") or ():
            parts.append(battle)
            went_in = battle.get("went_in") if isinstance(battle, dict) else None
            if type(went_in) is Packed and went_in.read:
                went_in = went_in.value()
            parts += went_in if isinstance(went_in, list) else ()
        out = Builder(self._damaged)
        memo = self._memo
        for d in parts:
            got = memo.get(id(d))
            if got is not None and got[0] is d:
                out._memo[id(d)] = got
        return out

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
            try:
                lost = tuple(
                    LostUnit(_unit(x["unit"]), x["battle"], x["reason"]) for x in d["lost"]
                )
                army = self.roster(d["army"], f"{where}.army")
                return CampaignSide(d["id"], d["name"], army, lost)
            except (KeyError, TypeError, ValueError) as exc:
                raise _fail(where, exc) from None

        return self._once(d, make)

    def battle(self, d: Mapping[str, Any], where: str) -> CampaignBattle:
        def make() -> CampaignBattle:
            try:
                a, b = (_participant(p) for p in d["participants"])
                result, went_in = d["result"], d["went_in"]
                if result is not None:
                    result = result_from_stored(result, f"{where}.result", self._damaged)
                if went_in is not None:
                    went_in = self._later_went_in(went_in, where)
                return CampaignBattle(
                    id=d["id"],
                    name=d["name"],
                    participants=(a, b),
                    date=d["date"],
                    place=d["place"],
                    result=result,
                    went_in=went_in,
                    applied=d["applied"],
                    fought=d["fought"],
                    scenario=d.get("scenario"),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise _fail(where, exc) from None

        return self._once(d, make)

    def _later_went_in(self, stored: Any, where: str) -> Later[tuple[Roster, Roster]]:
        packed = stored if type(stored) is Packed else None
        if packed is None:
            x, y = stored  # two of them, checked now; what they hold when they are read
            stored = (x, y)
        # the builder known by a weak reference: the battle holds this function and the
        # builder holds the battle, and a cycle kept every campaign read (its battles and
        # their results, some 6,500 objects at 50 battles) until a pass of the collector;
        # once the builder is gone, the rosters are built without it (the same values)
        builder = weakref.ref(self)
        damaged = self._damaged

        def make() -> tuple[Roster, Roster]:
            try:
                pair = stored
                if packed is not None:  # stored apart: decoded, and checked, when read
                    try:
                        x, y = packed.value()
                    except (TypeError, ValueError) as exc:
                        raise _fail(f"{where}.went_in", exc) from None
                    pair = (x, y)
                b = builder()
                build = roster_from_stored if b is None else b.roster
                made = (
                    build(pair[0], f"{where}.went_in[0]"),
                    build(pair[1], f"{where}.went_in[1]"),
                )
                if packed is not None and tuple(map(RosterHead.of, made)) != packed.summary:
                    raise _fail(f"{where}.went_in", ValueError("not what its heads stored say"))
                return made
            except StoredDataError as exc:
                if damaged is None:
                    raise
                raise damaged(exc) from None

        if packed is not None:
            return WentInLater(make, packed.summary)
        return Later(make)

    def sides(self, d: Mapping[str, Any], where: str = "campaign") -> tuple[CampaignSide, ...]:
        """The sides of the campaign stored as ``d``, without building the rest of it."""
        try:
            return tuple(self.side(s, f"{where}.sides[{i}]") for i, s in enumerate(d["sides"]))
        except (KeyError, TypeError) as exc:
            raise _fail(where, exc) from None

    def campaign(self, d: Mapping[str, Any], where: str = "campaign") -> Campaign:
        """The campaign :func:`~app.core.campaign.serialize.campaign_to_dict` wrote as
        ``d``; :class:`StoredDataError` when ``d`` is not such an object."""
        try:
            recovery = d["recovery"]
            if recovery not in RECOVERIES:
                raise ValueError(f"no recovery rule {recovery!r}")
            return Campaign(
                name=d["name"],
                ruleset=d["ruleset"],
                sides=tuple(self.side(s, f"{where}.sides[{i}]") for i, s in enumerate(d["sides"])),
                battles=tuple(
                    self.battle(b, f"{where}.battles[{i}]") for i, b in enumerate(d["battles"])
                ),
                recovery=recovery,
                notes=d["notes"],
                template=d["template"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(where, exc) from None


def campaign_from_stored(d: Mapping[str, Any], where: str = "campaign") -> Campaign:
    """One campaign from its stored object (a :class:`Builder` of its own)."""
    return Builder().campaign(d, where)
