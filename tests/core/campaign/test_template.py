"""The Hannibal in Italy template as ruleset data (issue 27): the campaign it makes is the one
the code made before it became data, its leaders' historical fates are unchanged, a ruleset
whose ready armies are not the template's is refused as before, and bad template data is
refused at load with the file and key named."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.campaign.chronicle import leader_sheet
from app.core.campaign.model import Campaign, CampaignError, CampaignSide, Participant
from app.core.campaign.serialize import campaign_to_dict
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle
from app.core.campaign.template import (
    find_shipped,
    from_template,
    historical_fate,
    shipped,
    supported,
)
from app.core.ready import first_samples
from app.core.roster import new_roster
from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR, Registry
from app.rules.ruleset import Ruleset
from app.rulesets import load_ruleset

# The template as app/core/campaign/template.py held it in code before it became Quincunx's
# data (its LEADERS, BATTLES and sides, copied verbatim): what the data must still make.
OLD_LEADERS = (
    ("rome", "scipio", "P. Cornelius Scipio", "wounded at the Ticinus (218 BC); survived"),
    ("rome", "right_legion_commander", "Ti. Sempronius Longus", "beaten at the Trebia; survived"),
    ("rome", "left_legion_commander", "C. Flaminius", "killed at Lake Trasimene (217 BC)"),
    ("rome", "right_cavalry_commander", "L. Aemilius Paullus", "killed at Cannae (216 BC)"),
    ("rome", "left_cavalry_commander", "C. Terentius Varro", "escaped from Cannae; survived"),
    ("carthage", "hannibal", "Hannibal", "victor of all three; survived"),
    ("carthage", "right_cavalry_commander", "Maharbal", "survived"),
    ("carthage", "left_cavalry_commander", "Hasdrubal", "survived"),
    ("carthage", "right_infantry_commander", "Mago", "survived"),
    ("carthage", "left_infantry_commander", "Hanno", "survived"),
)
OLD_BATTLES = (
    ("The Trebia", "December 218 BC", "River Trebia, near Placentia", "trebia"),
    ("Lake Trasimene", "June 217 BC", "north shore of Lake Trasimene", "trasimene"),
    ("Cannae", "2 August 216 BC", "Cannae, on the Aufidus", "cannae"),
)
OLD_REFUSAL = (
    "the Hannibal in Italy template is built on Quincunx's model armies, their battlegroups "
    "and named leaders; {name}'s ready armies are others (make a campaign from your own "
    "rosters instead)"
)


def old_hannibal_in_italy(
    rs: Ruleset, *, name: str = "Hannibal in Italy", recovery: Any = "ruleset"
) -> CampaignSession:
    """The old code's ``hannibal_in_italy``, step for step."""
    names = {(side, lid): n for side, lid, n, _ in OLD_LEADERS}
    sides = []
    for side_id, army_id, label in (
        ("rome", "roman", "Rome"),
        ("carthage", "carthaginian", "Carthage"),
    ):
        roster = new_roster(rs, army_id, name=f"{label}, 218 BC", standard=True)
        leaders = tuple(
            replace(ld, name=names.get((side_id, ld.id), ld.name)) for ld in roster.leaders
        )
        sides.append(CampaignSide(side_id, label, replace(roster, leaders=leaders)))
    campaign = Campaign(
        name=name, ruleset=rs.id, sides=tuple(sides), recovery=recovery, template="hannibal-italy"
    )
    session = CampaignSession(rs, campaign)
    for battle, date, place, field in OLD_BATTLES:
        session.do(
            AddBattle(
                battle,
                (Participant("rome"), Participant("carthage")),
                date=date,
                place=place,
                scenario=field,
            )
        )
    return session


def comparable(campaign: Campaign) -> dict[str, Any]:
    """``campaign_to_dict`` with the units' random ids replaced by their order (a roster's
    unit ids are new uuids each time it is made, by the old code as by the new)."""
    data = campaign_to_dict(campaign)
    for side in data["sides"]:
        for n, unit in enumerate(side["army"]["units"]):
            unit["id"] = f"{side['id']}-{n}"
    return data


def test_the_template_is_shipped_by_quincunx_alone(registry: Registry) -> None:
    assert [(s.ruleset.id, s.id, s.template.name) for s in shipped(registry)] == [
        ("quincunx", "hannibal-italy", "Hannibal in Italy")
    ]
    found = find_shipped(registry, "hannibal-italy")
    assert found is not None and found.ruleset is registry.get("quincunx")
    assert find_shipped(registry, "spain") is None  # the historical battles' templates are not


@pytest.mark.parametrize(
    ("kwargs", "old_kwargs"),
    [({}, {}), ({"name": "Italy", "recovery": "half"}, {"name": "Italy", "recovery": "half"})],
)
def test_the_campaign_is_the_one_the_code_made(
    registry: Registry, kwargs: dict[str, Any], old_kwargs: dict[str, Any]
) -> None:
    rs = registry.get("quincunx")
    made = from_template(rs, "hannibal-italy", rs.templates["hannibal-italy"], **kwargs)
    old = old_hannibal_in_italy(rs, **old_kwargs)
    assert comparable(made.campaign) == comparable(old.campaign)
    assert [b.name for b in made.campaign.battles] == ["The Trebia", "Lake Trasimene", "Cannae"]
    assert len(made.done) == len(old.done) == 3


def test_the_historical_fates_are_unchanged(registry: Registry) -> None:
    rs = registry.get("quincunx")
    campaign = from_template(rs, "hannibal-italy", rs.templates["hannibal-italy"]).campaign
    fates = {(side, lid): fate for side, lid, _, fate in OLD_LEADERS}
    seen = 0
    for side in campaign.sides:
        for ld in side.army.leaders:
            assert historical_fate(rs, campaign, side.id, ld.id) == fates.get((side.id, ld.id))
            seen += (side.id, ld.id) in fates
    assert seen == len(OLD_LEADERS)
    rows = {(r.side, r.name): r.history for r in leader_sheet(rs, campaign)}
    assert rows[("Rome", "C. Flaminius")] == "killed at Lake Trasimene (217 BC)"
    assert rows[("Carthage", "Hannibal")] == "victor of all three; survived"
    # a campaign from no template shows none
    assert historical_fate(rs, replace(campaign, template=None), "rome", "scipio") is None


@pytest.mark.parametrize("ruleset", ["d3-ancients", "grown-slightly-bald", "leg-vi-carthago"])
def test_other_rulesets_are_refused_with_todays_message(registry: Registry, ruleset: str) -> None:
    rs = registry.get(ruleset)
    found = find_shipped(registry, "hannibal-italy")
    assert found is not None and not supported(rs, found.template)
    with pytest.raises(CampaignError) as info:
        from_template(rs, found.id, found.template)
    assert str(info.value) == OLD_REFUSAL.format(name=rs.meta.short_name)


def test_every_shipped_template_fits_its_own_armies(registry: Registry) -> None:
    """The data check of today's ``_supported``: each ruleset's templates name leaders its
    own standard armies hold (a ruleset without them would be refused its own template)."""
    for s in shipped(registry):
        assert supported(s.ruleset, s.template), (s.ruleset.id, s.id)


def test_a_user_copy_without_the_leaders_is_refused(registry: Registry) -> None:
    """A house-rules copy whose standard army lost a named leader is refused the template
    when it is used (it still loads), as before."""
    rs = registry.get("quincunx")
    roman = rs.armies["roman"]
    assert roman.standard is not None
    standard = roman.standard.model_copy(update={"leaders": roman.standard.leaders[1:]})
    house = replace(
        rs, armies={**rs.armies, "roman": roman.model_copy(update={"standard": standard})}
    )
    with pytest.raises(CampaignError, match="built on Quincunx's model armies"):
        from_template(house, "hannibal-italy", rs.templates["hannibal-italy"])


def test_the_first_sample_is_data(registry: Registry) -> None:
    """FIRST_SAMPLE was ("quincunx", "Rome"): Quincunx's Roman model legion, now marked in
    the data; only one army of all the rulesets is."""
    assert first_samples(registry) == {("quincunx", "roman")}
    assert registry.get("quincunx").armies["roman"].side == "Rome"


# --------------------------------------------------------------------------- bad data


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "rulesets" / "quincunx"
    shutil.copytree(BUILTIN_DIR / "quincunx", dest)
    return dest


def problems_after(folder: Path, old: str, new: str) -> list[tuple[str, str, str]]:
    path = folder / "armies.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    for p in info.value.problems:
        assert "\n" not in str(p)
    return [(p.file, p.path, p.message) for p in info.value.problems]


def test_a_template_naming_an_unknown_army(copy: Path) -> None:
    found = problems_after(copy, 'army = "roman"\nroster', 'army = "romans"\nroster')
    assert found == [
        ("armies.toml", "templates.hannibal-italy.sides[0].army", "unknown army list 'romans'")
    ]


def test_a_battle_naming_an_unknown_side(copy: Path) -> None:
    [(file, path, msg)] = problems_after(
        copy,
        'name = "Cannae"\nsides = ["rome", "carthage"]',
        'name = "Cannae"\nsides = ["rome", "gaul"]',
    )
    assert (file, path) == ("armies.toml", "templates.hannibal-italy")
    assert msg == "battle 'Cannae' names unknown side 'gaul'"


def test_a_template_missing_a_key_or_with_a_wrong_one(copy: Path) -> None:
    found = problems_after(copy, "built_on =", "built_upon =")
    assert ("armies.toml", "templates.hannibal-italy.built_on", "Field required") in found
    assert (
        "armies.toml",
        "templates.hannibal-italy.built_upon",
        "Extra inputs are not permitted",
    ) in found


def test_a_leader_without_a_fate(copy: Path) -> None:
    found = problems_after(copy, ', fate = "survived" }', " }")
    assert found[0] == (
        "armies.toml",
        "templates.hannibal-italy.sides[1].leaders[1].fate",
        "Field required",
    )


def test_first_sample_must_be_a_flag(copy: Path) -> None:
    [(file, path, _)] = problems_after(copy, "first_sample = true", 'first_sample = "yes"')
    assert (file, path) == ("armies.toml", "armies.roman.standard.first_sample")
