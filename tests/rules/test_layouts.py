"""Table layouts: the ready-made tables fit every ruleset's table with the kinds it has,
clear of the deployment zones; saved layouts round-trip through JSON and a bad file is one
line naming what is wrong; every ruleset gives every kind of terrain an effect and a note."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.core.battle import default_table
from app.rules.contact import ContactRules
from app.rules.layouts import (
    READY_MADE,
    LayoutError,
    find_layout,
    fit_layout,
    layout_from_json,
    layout_of,
    layout_to_json,
    ready_made,
)
from app.rules.loader import load_ruleset
from app.rules.measure import mm_per_unit
from app.rules.mechanics import TurnView, mechanics_for
from app.rules.registry import Registry
from app.rules.table import TERRAIN_KINDS, Table
from tests.builtin import ruleset_ids

FOLDERS = Path(__file__).resolve().parents[2] / "rulesets"
RULESETS = ruleset_ids()


@pytest.mark.parametrize("rid", RULESETS)
def test_ready_made_tables_fit_each_ruleset(registry: Registry, rid: str) -> None:
    rs = registry.get(rid)
    table = default_table(rs)
    assert [lay.name for lay in ready_made(rs.engine.mechanics.terrain_in_place_of)] == [
        "open plain",
        "river crossing",
        "hills and woods",
    ]
    for lay in ready_made(rs.engine.mechanics.terrain_in_place_of):
        pieces = fit_layout(lay, table, mm_per_unit(rs))
        assert len(pieces) == len(lay.pieces)
        on = Table(table.width, table.height, pieces)
        # the default zones, a quarter of the table deep (the ruleset's own may reach
        # farther: GSB deploys up to 1 foot in, a third of its table, where a wood may stand)
        zones = ContactRules.deployment_zones(
            QuarterDeep(), mech_view(table=on, rs_armies=("a", "b"))
        )
        for p in pieces:
            assert on.holds(p.points)
            for zone in zones:
                y0, y1 = min(y for _, y in zone), max(y for _, y in zone)
                assert p.bbox[3] <= y0 + 1e-9 or p.bbox[1] >= y1 - 1e-9, (lay.name, p.id)
    crossing = find_layout("River Crossing", rs.engine.mechanics.terrain_in_place_of)
    kinds = {p.kind for p in crossing.pieces}
    assert kinds == (
        {"stream", "broken", "woods", "hill"}
        if rid == "leg-vi-carthago"
        else {"river", "ford", "woods", "hill"}
    )


class QuarterDeep(ContactRules):
    """The core's deployment hooks alone: zones a quarter of the table deep."""


def mech_view(table: Table, rs_armies: tuple[str, str]) -> TurnView:
    return TurnView(1, 0, None, (), ({}, {}), rs_armies, ("A", "B"), table=table)


def test_a_river_is_three_inches_or_its_width_in_unit_widths(registry: Registry) -> None:
    lay = find_layout("river crossing", {})
    river = fit_layout(lay, Table(72, 48), mm_per_unit(registry.get("d3-ancients")))[0]
    assert (river.kind, river.width) == ("river", pytest.approx(3.0))
    assert river.points[0] == (0.0, 24.0)


@pytest.mark.parametrize("rid", RULESETS)
def test_every_kind_has_an_effect_and_a_note(registry: Registry, rid: str) -> None:
    rs = registry.get(rid)
    mech = mechanics_for(rs)
    from app.rules.mechanics import Combatant, Status

    for troop in rs.troops:  # a ruleset's terrain rules may depend on the troop
        u = Combatant("A1", "Unit", troop, 0, Status(1, 1))
        for kind in TERRAIN_KINDS:
            effect = mech.terrain_effect(u, kind)
            assert effect.note and effect.rule
            assert effect.cost_factor >= 1


def test_saved_layouts_round_trip(registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    pieces = fit_layout(READY_MADE[1], Table(72, 48), mm_per_unit(rs))
    saved = layout_of("My ford", Table(72, 48, pieces), mm_per_unit(rs))
    again = layout_from_json(layout_to_json(saved))
    assert again == saved
    # fitted to another table, the fractions scale and the river keeps its width
    bigger = fit_layout(again, Table(144, 96), mm_per_unit(rs))
    assert bigger[0].points[1] == pytest.approx((43.2, 46.08))
    assert bigger[0].width == pytest.approx(3.0)
    assert find_layout("my FORD", {}, [again]) is again
    with pytest.raises(LayoutError, match=r"no table layout 'nowhere' \(layouts: open plain"):
        find_layout("nowhere", {}, [again])


GOOD = {"format": "castra-table-layout", "version": 1, "name": "x", "pieces": []}
WOOD = {"kind": "woods", "points": [[0.1, 0.4], [0.2, 0.4], [0.2, 0.5]]}


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ("nonsense", "not valid JSON"),
        ('{"format": "castra-table-layout", "version": 1, "name": "x", "pieces": [NaN]}', ""),
        ({**GOOD, "format": "other"}, "not a layout file"),
        ({**GOOD, "version": 9}, "version 9"),
        ({**GOOD, "name": "a\x1bb"}, "control character"),
        ({**GOOD, "pieces": [{**WOOD, "kind": "volcano"}]}, "unknown terrain kind"),
        (
            {**GOOD, "pieces": [{**WOOD, "points": [[0, 0], [1, 1], [1, 0], [0, 0.5]]}]},
            "crosses itself",
        ),
        ({**GOOD, "pieces": [{**WOOD, "points": [[0.1, 0.1]] * 600}]}, "at most 500"),
        ({**GOOD, "pieces": [{**WOOD, "points": [[0.1, 0.1]] * 1_000_000}]}, "at most 2,000,000"),
        ({**GOOD, "pieces": [{**WOOD, "points": [[1e300, 0], [0, 1], [1, 1]]}]}, "not a fraction"),
        ({**GOOD, "pieces": [{**WOOD, "width_mm": 5}]}, "only rivers, roads and streams"),
        ({**GOOD, "pieces": [{**WOOD, "colour": "red"}]}, "no key colour"),
    ],
)
def test_bad_layout_files_are_one_line(doc: object, words: str) -> None:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(LayoutError) as err:
        layout_from_json(text)
    assert "\n" not in str(err.value) and words in str(err.value)


def test_a_house_rules_copy_keeps_its_engines_words_for_terrain(tmp_path: Path) -> None:
    """A house-rules copy of Leg VI under its own id plays Leg VI's engine, and so keeps Leg
    VI's words for the kinds of terrain (woods are rough terrain) and its ready-made tables'
    kinds (a stream for a river); they were keyed by the built-in ruleset's id, and a copy
    lost them."""
    from app.rulesets import find_engine

    folder = tmp_path / "our-leg-vi"
    shutil.copytree(FOLDERS / "leg-vi-carthago", folder)
    toml = folder / "ruleset.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('id = "leg-vi-carthago"', 'id = "our-leg-vi"', 1),
        encoding="utf-8",
    )
    copy = load_ruleset(folder, find_engine, builtin=False)
    assert copy.id == "our-leg-vi"
    mech = mechanics_for(copy)
    assert mech.terrain_term("woods") == "woods (rough terrain)"
    kinds = {p.kind for p in find_layout("river crossing", mech.terrain_in_place_of).pieces}
    assert kinds == {"stream", "broken", "woods", "hill"}
