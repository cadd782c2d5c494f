"""A stored campaign is built back exactly as it was written, without pydantic, and what
is not what Castra writes is refused with where."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from app.core.campaign.serialize import campaign_from_dict, campaign_to_dict
from app.core.campaign.stored import Builder, StoredDataError, campaign_from_stored
from app.rules.registry import Registry
from tests.core.campaign.helpers import fight, hannibal_in_italy, leg_vi_campaign


def test_a_written_campaign_is_built_back_equal(registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    fight(registry, session, "Trebia", ([("A1", 2)], [("A-paullus", "wounded", 1)], 1))
    quincunx = hannibal_in_italy(registry.get("quincunx"))
    for c in (session.start, session.campaign, quincunx.campaign):
        d = campaign_to_dict(c)
        assert campaign_from_stored(d) == c == campaign_from_dict(d, registry)


def test_states_that_share_parts_build_them_once(registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    a = campaign_to_dict(session.campaign)
    b = {**a, "notes": "winter quarters"}  # the sides and battles are the same objects
    builder = Builder()
    first, second = builder.campaign(a), builder.campaign(b)
    assert second.notes == "winter quarters"
    assert second.sides[0] is first.sides[0] and second.battles[1] is first.battles[1]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.pop("name"), "campaign: name"),
        (lambda d: d["sides"][1]["army"]["units"][0].update(colour="red"), "sides[1].army"),
        (lambda d: d["sides"][0]["army"]["leaders"][0].update(status="ill"), "'ill'"),
        (lambda d: d.update(recovery="most"), "no recovery rule 'most'"),
        (lambda d: d["battles"][0].update(participants=[]), "battles[0]"),
        (lambda d: d["sides"][0].pop("army"), "sides[0]: army"),
    ],
)
def test_what_castra_does_not_write_is_refused(registry: Registry, change, where) -> None:  # type: ignore[no-untyped-def]
    """(A value of the wrong type where Castra writes that part is found by the digest the
    store checks: tests/store/test_store_campaigns.py.)"""
    d = campaign_to_dict(leg_vi_campaign(registry).campaign)
    change(d)
    with pytest.raises(StoredDataError, match=where.replace("[", r"\[").replace("]", r"\]")):
        campaign_from_stored(d)


def test_a_built_part_is_the_dataclass_its_init_makes() -> None:
    """The stored parts skip the frozen ``__init__`` (speed); what they make is the same
    object: equal, of equal hash, with its defaults, and a part missing a field or with one
    it does not have is refused."""
    from dataclasses import dataclass, field

    from app.core.battle.result import UnitOutcome
    from app.core.campaign.stored import _maker, unit_from_stored
    from app.core.roster import Unit

    d: dict[str, Any] = {"roster_unit": "u1", "index": 0, "name": "Hastati", "start": 4, "end": 2}
    made = _maker(UnitOutcome)(d)
    assert made == UnitOutcome(**d) and hash(made) == hash(UnitOutcome(**d))
    assert made.lost is False and made.reason is None and made.losses == 2
    whole = {**d, "lost": True, "reason": "routed off"}  # every field, as Castra writes them
    assert _maker(UnitOutcome)(whole) == UnitOutcome(**whole)
    unit: dict[str, Any] = {
        "id": "u",
        "entry": "hastati",
        "name": "Hastati",
        "size": 4,
        "lines": {"a": 1},
    }
    assert unit_from_stored(unit) == Unit(**unit)
    with pytest.raises(TypeError, match="UnitOutcome is missing end, start"):
        _maker(UnitOutcome)({"roster_unit": "u1", "index": 0, "name": "x"})
    with pytest.raises(TypeError, match="UnitOutcome has no colour"):
        _maker(UnitOutcome)({**d, "colour": "red"})

    @dataclass(frozen=True)
    class Tagged:
        name: str
        tags: list[str] = field(default_factory=list)

    @dataclass(frozen=True)
    class Checked:
        name: str

        def __post_init__(self) -> None:
            object.__setattr__(self, "name", self.name.strip())

    assert _maker(Checked)({"name": " x "}) == Checked("x") == Checked(" x ")
    a, b = _maker(Tagged)({"name": "x"}), _maker(Tagged)({"name": "y"})
    assert a == Tagged("x") and a.tags == [] and a.tags is not b.tags
    assert _maker(Tagged)({"name": "x", "tags": ["t"]}) == Tagged("x", ["t"])


def test_reading_a_stored_campaign_imports_no_pydantic() -> None:
    code = (
        "import sys; import app.store.campaigns, app.core.campaign.stored; "
        "print('pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_strength_chart_counts_as_the_roster_totals_do(registry: Registry) -> None:
    """The chart's one-pass count (each unit's strength looked up once a campaign) gives
    the roster totals' men for every army, in every ruleset's sample campaign."""
    from app.core.campaign.chronicle import _army_strength, men

    session = leg_vi_campaign(registry)
    fight(registry, session, "Trebia", ([("A1", 2)], [("A-paullus", "wounded", 1)], 1))
    quincunx = hannibal_in_italy(registry.get("quincunx"))
    for s in (session, quincunx):
        known: dict[tuple[object, ...], object] = {}
        for n in range(len(s.done) + 1):
            for side in s.at(n).sides:
                whole, _ = _army_strength(s.ruleset, side.army, known)  # type: ignore[arg-type]
                assert whole == men(s.ruleset, side.army)


@pytest.mark.parametrize(
    "obj",
    [
        {"kind": "apply", "battle": "b1"},
        {"kind": "apply", "battle": "x" * 64},
        {"kind": "apply", "battle": "x" * 65},
        {"kind": "apply", "battle": ""},
        {"kind": "apply", "battle": "b\u00071"},
        {"kind": "apply", "battle": "b\n1"},
        {"kind": "apply", "battle": 1},
        {"kind": "apply", "battle": None},
        {"kind": "apply"},
        {"kind": "apply", "battle": "b1", "more": 1},
        {"kind": "record", "battle": "b1"},
        {"kind": "add-battle", "battle": "b1"},
        ["apply", "b1"],
        "apply",
    ],
)
def test_an_apply_step_is_read_back_as_the_validated_read_reads_it(
    registry: Registry, obj: object
) -> None:
    """The store reads an apply step without pydantic; what it takes is exactly what the
    validated read takes, and anything else goes to the validated read (which names the
    problem)."""
    from app.core.campaign.serialize import CampaignDataError, step_from_dict
    from app.core.campaign.stored import apply_step_from_stored

    try:
        validated = step_from_dict(obj, registry)
    except CampaignDataError:
        validated = None
    quick = apply_step_from_stored(obj)
    if validated is not None and validated.kind == "apply":
        assert quick == validated
    else:
        assert quick is None


def test_a_campaign_stored_as_a_head_and_parts_reads_its_parts_only_when_asked(
    registry: Registry,
) -> None:
    """A whole campaign packed as a head and parts reads back as the same state (the same
    canonical JSON, so the same digest) and builds the same campaign; building it and
    reading what the Campaigns window and the chronicle read (each side's losses and units
    lost) decodes no part; a battle's armies as they went in, or a side's units, decode
    their own part when read. Hardly larger than the whole state compressed (a whole state stored
    at 8 battles and more is smaller: tests/store/test_campaign_parts.py)."""
    from app.core.campaign.model import RosterHead
    from app.core.campaign.stored import PARTED, pack_campaign, unpack_campaign
    from app.core.timeline import Packed, canonical, pack_snapshot

    session = leg_vi_campaign(registry)
    fight(registry, session, "Trebia", ([("A1", 7), ("A3", 0)], [], 1))
    fight(registry, session, "Trasimene", ([("A2", 2)], [], 0))
    campaign = session.campaign
    d = campaign_to_dict(campaign)
    blob = pack_campaign(d)
    assert blob.startswith(PARTED) and len(blob) <= len(pack_snapshot(d)) * 1.15  # (refs, heads)
    back = unpack_campaign(blob)
    assert canonical(back) == canonical(d)
    assert unpack_campaign(pack_snapshot(d)) == d  # the form stored before still reads

    back = unpack_campaign(blob)
    parts = [b["went_in"] for b in back["battles"] if b["went_in"] is not None]
    parts += [s["units"] for b in back["battles"] if b["result"] for s in b["result"]["sides"]]
    assert parts and all(type(p) is Packed for p in parts)
    built = Builder().campaign(back)
    fought = [b for b in built.battles if b.result is not None]
    assert [(s.losses, s.gone) for b in fought for s in b.result.sides] == [  # type: ignore[union-attr]
        (s.losses, s.gone) for b in campaign.battles if b.result for s in b.result.sides
    ]
    assert [b.went_in_heads for b in fought] == [
        tuple(map(RosterHead.of, b.went_in)) for b in campaign.battles if b.went_in
    ]
    from app.core.campaign.chronicle import leader_sheet

    rs = registry.get(campaign.ruleset)
    assert leader_sheet(rs, built) == leader_sheet(rs, campaign)
    assert any(row.battles for row in leader_sheet(rs, built))
    assert not any(p.read for p in parts)
    assert fought[0].went_in == next(b.went_in for b in campaign.battles if b.result)
    assert sum(p.read for p in parts) == 1
    assert built == campaign and all(p.read for p in parts)
    assert pack_campaign(back) == blob  # packed again from a state read back: the same


def test_a_damaged_part_is_refused_when_it_is_read(registry: Registry) -> None:
    """A part that is not what Castra wrote is not seen until it is read, then is the
    builder's ``damaged`` error naming where; a head that is not one is refused at once."""
    import zlib

    from app.core.campaign.stored import PARTED, pack_campaign, unpack_campaign

    session = leg_vi_campaign(registry)
    fight(registry, session, "Trebia", ([("A1", 7), ("A3", 0)], [], 1))
    losses = session.campaign.battles[0].result.sides[0].losses  # type: ignore[union-attr]
    blob = pack_campaign(campaign_to_dict(session.campaign))
    body = zlib.decompress(blob[len(PARTED) :])

    newline = body.index(b"\n")
    base = newline + 1 + int(body[:newline])  # where the parts begin

    def damaged(old: bytes, new: bytes) -> Any:
        """The state stored with the first ``old`` in its parts made ``new``."""
        parts = body[base:]
        assert old in parts
        return unpack_campaign(PARTED + zlib.compress(body[:base] + parts.replace(old, new, 1)))

    class Damaged(Exception):
        pass

    state = damaged(b'"size":', b'"sise":')  # in the first part: the armies as they went in
    battle = Builder(damaged=lambda exc: Damaged(str(exc))).campaign(state).battles[0]
    with pytest.raises(Damaged, match=r"battles\[0\]\.went_in\[0\]"):
        battle.went_in  # noqa: B018
    assert battle.result is not None and battle.result.sides[0].losses == losses > 0
    state = damaged(b'"end":', b'"emd":')
    units = [s["units"] for b in state["battles"] if b["result"] for s in b["result"]["sides"]]
    assert units
    side = Builder(damaged=lambda exc: Damaged(str(exc))).campaign(state).battles[0]
    with pytest.raises(Damaged, match=r"battles\[0\]\.result"):
        side.result.sides[0].units  # type: ignore[union-attr]  # noqa: B018
    # units that do not add up to the losses the head says
    state = unpack_campaign(blob)
    first = next(b for b in state["battles"] if b["result"])["result"]["sides"][0]["units"]
    first.summary = (first.summary[0] + 1, first.summary[1])
    result = Builder(damaged=lambda exc: Damaged(str(exc))).campaign(state).battles[0].result
    with pytest.raises(Damaged, match="not what its losses stored say"):
        result.sides[0].units  # type: ignore[union-attr]  # noqa: B018
    # armies that are not the ones their heads say
    state = unpack_campaign(blob)
    went_in = state["battles"][0]["went_in"]
    went_in.summary = (went_in.summary[1], went_in.summary[0])
    battle = Builder(damaged=lambda exc: Damaged(str(exc))).campaign(state).battles[0]
    assert battle.went_in_heads == went_in.summary
    with pytest.raises(Damaged, match="not what its heads stored say"):
        battle.went_in  # noqa: B018
    # the parts are inflated only when the first is read: a stream cut short is said then
    cut = Builder(damaged=lambda exc: Damaged(str(exc))).campaign(unpack_campaign(blob[:-12]))
    assert cut.battles[0].result is not None and cut.battles[0].result.sides[0].losses == losses
    with pytest.raises(Damaged, match=r"battles\[0\]\.went_in: the parts .* (cut short|damaged)"):
        cut.battles[0].went_in  # noqa: B018
    for bad in (PARTED + b"x", PARTED + zlib.compress(b"12\n{}"), PARTED + zlib.compress(b"x\n")):
        with pytest.raises((ValueError, zlib.error)):
            unpack_campaign(bad)
    head = body[newline + 1 : base].replace(b'"part":[0,', b'"part":[-1,', 1)
    moved = b"%d\n" % len(head) + head + body[base:]
    with pytest.raises(ValueError, match="not where it says"):
        unpack_campaign(PARTED + zlib.compress(moved))
