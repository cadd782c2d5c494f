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
