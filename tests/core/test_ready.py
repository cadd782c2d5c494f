"""Ready armies: a Roman and a Carthaginian army in every ruleset, valid against its lists
with nothing to warn of, the source's own where it gives one (Quincunx, GSB) and Castra's
elsewhere (said in the roster's notes and in the ruleset's errata), each leader named and
placed as his ruleset places leaders."""

from __future__ import annotations

import pytest

from app.core.campaign.model import CampaignError
from app.core.ready import find_ready, ready_armies, ready_name, ready_notes, ready_roster
from app.core.roster import Roster
from app.core.validation import validate
from app.rules.registry import Registry
from tests.builtin import ruleset_ids
from tests.core.campaign.helpers import hannibal_in_italy

RULESETS = ruleset_ids()

#: ruleset: (its Roman and Carthaginian lists, whose armies, the erratum that says so)
ARMIES = {
    "quincunx": (("roman", "carthaginian"), "source", "ready-army-leaders"),
    "grown-slightly-bald": (("rome", "carthage"), "source", "standard-general"),
    "leg-vi-carthago": (("roman", "carthaginian"), "castra", "ready-armies-built"),
    "mwan90": (("roman", "carthaginian"), "castra", "ready-armies-built"),
    "d3-ancients": (("roman", "carthaginian"), "castra", "ready-armies-built"),
}


def placements(roster: Roster) -> dict[str, tuple[str, ...]]:
    """Each leader's name: the commands he leads and the unit he stands with."""
    out: dict[str, tuple[str, ...]] = {}
    for ld in roster.leaders:
        led = tuple(f"leads {c.name}" for c in roster.commands if c.leader == ld.id)
        units = tuple(f"with {u.name}" for u in roster.units if u.leader == ld.id)
        out[ld.name] = led + units
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_roman_and_a_carthaginian_ready_army(registry: Registry, ruleset: str) -> None:
    rs = registry.get(ruleset)
    lists, origin, erratum = ARMIES[ruleset]
    ready = ready_armies(rs)
    assert [(r.army, r.side) for r in ready] == [(lists[0], "Rome"), (lists[1], "Carthage")]
    assert {r.origin for r in ready} == {origin}
    assert rs.erratum(erratum).decision
    for r in ready:
        roster = ready_roster(rs, r.army)
        assert roster.name == r.name == ready_name(rs, r.army)
        assert r.key == f"{ruleset}:{r.army}" and r.units == roster.unit_count()
        assert roster.data_version == rs.meta.data_version
        # no error, and nothing to warn of or note either
        assert validate(rs, roster).messages == (), ruleset
        # the notes say whose army it is
        assert roster.notes == ready_notes(rs, r.army)
        assert ("Built by Castra" in roster.notes) == (origin == "castra")
        assert ("as the source gives it" in roster.notes) == (origin == "source")
        assert erratum in roster.notes or origin == "source"


def test_quincunx_model_armies_keep_their_battlegroups_and_name_their_commanders(
    registry: Registry,
) -> None:
    """The source's battlegroups, each led by its commander; the names the Hannibal in Italy
    campaign gives them; the two skirmish-line commanders keep their posts as names."""
    rs = registry.get("quincunx")
    rome, carthage = ready_roster(rs, "roman"), ready_roster(rs, "carthaginian")
    assert placements(rome) == {
        "P. Cornelius Scipio": ("leads 1 - Reserve Triarii",),
        "Ti. Sempronius Longus": ("leads 4 - Right Wing Legion Battleline",),
        "C. Flaminius": ("leads 5 - Left Wing Legion Battleline",),
        "L. Aemilius Paullus": ("leads 2 - Right Wing Cavalry and Extraordinarii",),
        "C. Terentius Varro": ("leads 3 - Left Wing Cavalry and Extraordinarii",),
    }
    assert placements(carthage) == {
        "Hannibal": ("leads 3 - Elephant-Lights Battlegroups",),
        "Maharbal": ("leads 1 - Right Wing Cavalry",),
        "Hasdrubal": ("leads 2 - Left Wing Cavalry",),
        "Mago": ("leads 4 - Right Wing Infantry Battleline",),
        "Hanno": ("leads 5 - Left Wing Infantry Battleline",),
        "Right Wing Skirmish Line Commander": ("leads 6 - Right Wing Skirmish Line",),
        "Left Wing Skirmish Line Commander": ("leads 7 - Left Wing Skirmish Line",),
    }
    assert (rome.unit_count(), carthage.unit_count()) == (41, 32)
    template = rs.templates["hannibal-italy"]
    named = {(s.id, ld.id): ld.name for s in template.sides for ld in s.leaders}
    for side, roster in (("rome", rome), ("carthage", carthage)):
        for ld in roster.leaders:
            assert named.get((side, ld.id), ld.name) == ld.name  # the campaign's names
            assert ld.notes
    # the template still starts from these armies
    session = hannibal_in_italy(rs)
    assert [s.army.unit_count() for s in session.campaign.sides] == [41, 32]


def test_gsb_sample_armies_name_their_generals(registry: Registry) -> None:
    rs = registry.get("grown-slightly-bald")
    rome, carthage = ready_roster(rs, "rome"), ready_roster(rs, "carthage")
    assert placements(rome) == {"Ti. Sempronius Longus": ("with Legionaries (heavy infantry)",)}
    assert placements(carthage) == {"Hannibal": ("with Spanish and Gallic horse (heavy cavalry)",)}
    assert (rome.unit_count(), carthage.unit_count()) == (12, 11)


def test_leg_vi_armies_are_commanded_as_at_cannae(registry: Registry) -> None:
    """A General and a Commander for each command; an infantry command holds at most one
    cavalry unit, a cavalry command at most one heavy or medium infantry unit (no error);
    each general stands with a unit where he stood, Varro also leading his wing."""
    rs = registry.get("leg-vi-carthago")
    rome, carthage = ready_roster(rs, "roman"), ready_roster(rs, "carthaginian")
    assert placements(rome) == {
        "C. Terentius Varro": ("leads Left wing: allied horse", "with Allied horse"),
        "L. Aemilius Paullus": ("leads Right wing: Roman horse",),
        "Cn. Servilius Geminus": ("leads Centre, right: a Roman and an allied legion",),
        "M. Atilius Regulus": ("leads Centre, left: a Roman and an allied legion",),
    }
    assert placements(carthage) == {
        "Hannibal": ("with Spanish scutarii",),
        "Mago": ("leads Centre: Libyans, Spaniards and Gauls",),
        "Hasdrubal": ("leads Left wing: Spanish and Gallic horse",),
        "Hanno": ("leads Right wing: Numidians",),
    }
    assert [ld.rank for ld in rome.leaders].count("general") == 1
    hannibal = carthage.leader("hannibal")
    assert hannibal.rank == "general" and hannibal.fields.get("exceptional")  # 3 actions
    assert not rome.leader("varro").fields.get("exceptional")
    assert all(c.kind in ("infantry", "cavalry") for c in (*rome.commands, *carthage.commands))
    assert all(u.command is not None for u in (*rome.units, *carthage.units))
    assert (rome.unit_count(), carthage.unit_count()) == (8, 10)


def test_d3_armies_are_zama_in_eight_units(registry: Registry) -> None:
    """Eight units a side (the rules' 6-8), each commander on a heavy infantry unit and a
    good one (his deck swaps a No Event card for an Initiative card)."""
    rs = registry.get("d3-ancients")
    rome, carthage = ready_roster(rs, "roman"), ready_roster(rs, "carthaginian")
    assert placements(rome) == {"P. Cornelius Scipio": ("with Principes",)}
    assert placements(carthage) == {"Hannibal": ("with Veterans of Italy",)}
    assert {ld.fields.get("quality") for ld in (*rome.leaders, *carthage.leaders)} == {"good"}
    assert (rome.unit_count(), carthage.unit_count()) == (8, 8)


def test_mwan90_armies_have_no_leaders(registry: Registry) -> None:
    """The article has no leader rules: the ready armies have none, and as many figures."""
    rs = registry.get("mwan90")
    rome, carthage = ready_roster(rs, "roman"), ready_roster(rs, "carthaginian")
    for roster in (rome, carthage):
        assert roster.leaders == () and roster.commands == ()
        assert sum(u.size * u.count for u in roster.units) == 114
        assert "no rules for them" in roster.notes
    assert (rome.unit_count(), carthage.unit_count()) == (12, 12)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("leg-vi-carthago:roman", ("leg-vi-carthago", "roman")),
        ("Leg VI: Republican Roman", ("leg-vi-carthago", "roman")),
        ("  leg vi :  CARTHAGINIAN ", ("leg-vi-carthago", "carthaginian")),
        ("Quincunx: Carthaginian army of Hannibal", ("quincunx", "carthaginian")),
        ("grown-slightly-bald:rome", ("grown-slightly-bald", "rome")),
        ("MWAN #90: Roman", ("mwan90", "roman")),
        ("leg-vi-carthago:gauls", None),
        ("leg-vi:roman", None),
        ("roman", None),
        (":", None),
        ("", None),
    ],
)
def test_find_a_ready_army_by_ids_or_names(
    registry: Registry, text: str, found: tuple[str, str] | None
) -> None:
    got = find_ready(registry, text)
    assert (None if got is None else (got[0].id, got[1])) == found


@pytest.mark.parametrize(
    "ruleset", ["d3-ancients", "grown-slightly-bald", "leg-vi-carthago", "mwan90"]
)
def test_the_hannibal_in_italy_template_stays_quincunx_s(registry: Registry, ruleset: str) -> None:
    """The other rulesets' ready armies are not the template's armies: refused, saying why."""
    with pytest.raises(CampaignError, match="built on Quincunx's model armies"):
        hannibal_in_italy(registry.get(ruleset), registry)
