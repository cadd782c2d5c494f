"""D3 Ancients on the table, from the examples its text gives: "Woods - Only light infantry
and warbands can enter", "Marshland and lakes - Impassable", "Rivers - Can only be crossed at
bridges and fords", "Broken Terrain ... Only infantry can enter", "Roads - Units moving all
their move on roads add 3"", "Only light infantry may pass through other friendly units",
"Only one attacking unit can contact each side of an enemy unit", "Cavalry cannot charge
elephants"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.battle import new_battle
from app.core.battle.sample import sample_roster
from app.rules.mechanics import TurnView, mechanics_for
from app.rules.paths import Path, parse_path
from app.rules.registry import Registry
from app.rules.table import Table, TerrainKind, TerrainPiece
from app.rulesets.d3.mechanics import D3Mechanics

MOVEMENT = 1  # the phase index of Movement in D3's sequence


@pytest.fixture
def mech(registry: Registry) -> D3Mechanics:
    m = mechanics_for(registry.get("d3-ancients"))
    assert isinstance(m, D3Mechanics)
    return m


@pytest.fixture
def view(mech: D3Mechanics) -> TurnView:
    rs = mech.ruleset
    state = new_battle(rs, mech, (sample_roster(rs, "roman"), sample_roster(rs, "carthaginian")))
    return replace(state.view(), phase=MOVEMENT, initiative=0)  # Rome's movement step


def with_terrain(
    view: TurnView, *pieces: tuple[TerrainKind, tuple[tuple[float, float], ...]]
) -> TurnView:
    widths = {"river": 3.0, "road": 1.0, "stream": 1.0}  # D3 measures in inches
    terrain = tuple(
        TerrainPiece(f"T{i + 1}", kind, pts, width=widths.get(kind))
        for i, (kind, pts) in enumerate(pieces)
    )
    return replace(view, table=Table(view.table.width, view.table.height, terrain))


def place(
    view: TurnView, unit_id: str, x: float, y: float, facing: float | None = None
) -> TurnView:
    units = tuple(
        replace(u, x=x, y=y, facing=u.facing if facing is None else facing)
        if u.unit_id == unit_id
        else u
        for u in view.units
    )
    return replace(view, units=units)


def rules(check: object) -> list[str]:
    return [f"{b.rule}: {b.text}" for b in check.breaches]  # type: ignore[attr-defined]


# a wood and a stretch of broken ground just ahead of the Roman line (A1 heavy infantry at
# x 10.6, A3 light infantry at x 36, A4 heavy cavalry at x 48.7, all at y 8.7 facing +y)
WOOD = ((0.0, 12.0), (72.0, 12.0), (72.0, 16.0), (0.0, 16.0))


def test_only_light_infantry_and_warbands_enter_woods(mech: D3Mechanics, view: TurnView) -> None:
    v = with_terrain(view, ("woods", WOOD))
    hi = mech.check_move(v, "A1", Path(parse_path("forward 5")))
    assert hi.forbidden
    assert any("D3, Terrain" in r and "may not enter" in r for r in rules(hi)), rules(hi)
    li = mech.check_move(v, "A3", Path(parse_path("forward 5")))
    assert not li.forbidden, rules(li)
    assert li.cost == pytest.approx(5.0)  # no terrain slows a D3 unit


def test_broken_ground_only_for_infantry(mech: D3Mechanics, view: TurnView) -> None:
    v = with_terrain(view, ("broken", WOOD))
    assert not mech.check_move(v, "A1", Path(parse_path("forward 5"))).forbidden
    cavalry = mech.check_move(v, "A4", Path(parse_path("forward 5")))
    assert cavalry.forbidden and any("broken ground" in r for r in rules(cavalry))
    # streams are broken ground in D3 ("Rocky, Fields and Streams")
    v = with_terrain(view, ("stream", ((0.0, 13.0), (72.0, 13.0))))
    assert mech.check_move(v, "A4", Path(parse_path("forward 5"))).forbidden


def test_rivers_only_at_a_ford_and_marsh_never(mech: D3Mechanics, view: TurnView) -> None:
    river = ((0.0, 14.0), (72.0, 14.0))
    v = with_terrain(view, ("river", river))
    assert mech.check_move(v, "A3", Path(parse_path("forward 7"))).forbidden
    ford = ((28.0, 11.0), (44.0, 11.0), (44.0, 17.0), (28.0, 17.0))
    v = with_terrain(view, ("river", river), ("ford", ford))
    at_ford = mech.check_move(v, "A3", Path(parse_path("forward 7")))
    assert not at_ford.forbidden, rules(at_ford)
    v = with_terrain(view, ("marsh", WOOD))
    assert mech.check_move(v, "A3", Path(parse_path("forward 5"))).forbidden


def test_a_move_wholly_on_a_road_goes_3_inches_farther(mech: D3Mechanics, view: TurnView) -> None:
    road = ((10.6, 0.0), (10.6, 48.0))
    v = place(with_terrain(view, ("road", road)), "A1", 10.6, 20.0)
    on_road = mech.check_move(v, "A1", Path(parse_path("forward 9")))
    assert not on_road.forbidden, rules(on_road)
    assert on_road.allowance == pytest.approx(9.0)  # heavy infantry 6" + 3"
    # the same 9" with a step off the road: 6" only
    off = mech.check_move(v, "A1", Path(parse_path("right 2; forward 7")))
    assert off.allowance == pytest.approx(6.0) and off.forbidden
    assert any('would move 9.0" with 6.0" of its 6" left' in r for r in rules(off)), rules(off)


def test_only_light_infantry_pass_through_friends(mech: D3Mechanics, view: TurnView) -> None:
    # A2 (veteran heavy infantry) stands 5" ahead of A3 and A1
    v = place(view, "A2", 36.0, 14.0)
    li = mech.check_move(v, "A3", Path(parse_path("forward 9")))
    assert not li.forbidden, rules(li)
    v = place(v, "A1", 36.0, 8.7)
    v = replace(v, units=tuple(u for u in v.units if u.unit_id != "A3"))
    hi = mech.check_move(v, "A1", Path(parse_path("forward 9")))
    assert hi.forbidden


def test_cavalry_cannot_charge_elephants(mech: D3Mechanics, view: TurnView) -> None:
    # A4 heavy cavalry faces B8 elephants 6" ahead (B4 moved out of the way)
    v = place(place(view, "B4", 70.0, 47.0), "A4", 48.7, 33.0)
    refused = mech.contact(v, "A4", "B8")
    assert refused.forbidden
    assert any(b.rule == "D3, Charges" and "elephants" in b.text for b in refused.breaches)
    # heavy infantry may charge them
    v = place(place(view, "B4", 70.0, 47.0), "A1", 48.7, 34.0)
    v = place(v, "A4", 70.0, 2.0)
    allowed = mech.contact(v, "A1", "B8")
    assert not allowed.forbidden, [str(b) for b in allowed.breaches]


def test_one_attacker_to_each_side_of_an_enemy(mech: D3Mechanics, view: TurnView) -> None:
    # B2 stands alone at the centre facing the Romans; A1 already touches its front
    v = place(view, "B2", 36.0, 24.0, 180.0)
    for other in ("B1", "B3", "B4", "B5", "B6", "B7", "B8"):
        v = place(v, other, 70.0 - 2 * int(other[1]), 47.0)
    v = place(v, "A1", 36.0, 21.0, 0.0)  # front edge to front edge
    v = place(v, "A2", 36.0, 12.0, 0.0)  # straight behind A1: only the front is ahead
    v = place(v, "A3", 10.0, 2.0)
    front = mech.contact(v, "A2", "B2")
    assert front.forbidden
    assert any(
        b.rule == "D3, Charges" and "only one attacking unit" in b.text and "front" in b.text
        for b in front.breaches
    ), [str(b) for b in front.breaches]
    # from the flank, the side is free: the charge reaches it
    v = place(v, "A2", 55.0, 24.0, 270.0)
    flank = mech.contact(v, "A2", "B2")
    assert not any("only one attacking unit" in b.text for b in flank.breaches)
    assert flank.path is not None and flank.how == "flank"


def test_a_wood_blocks_the_line_of_sight(mech: D3Mechanics, view: TurnView) -> None:
    """Errata sight-through-terrain: woods block sight (the text says nothing of sight)."""
    v = place(view, "A5", 61.4, 8.7)
    clear, _ = mech.line_of_sight(v, "A5", "B5")
    assert clear
    v = with_terrain(v, ("woods", ((55.0, 20.0), (68.0, 20.0), (68.0, 26.0), (55.0, 26.0))))
    seen, blockers = mech.line_of_sight(v, "A5", "B5")
    assert not seen and "T1" in blockers
    assert "sight-through-terrain" in {e.id for e in mech.ruleset.errata}


def test_light_troops_charge_only_an_enemy_already_in_combat(
    mech: D3Mechanics, view: TurnView
) -> None:
    v = place(view, "B2", 36.0, 24.0, 180.0)
    for other in ("B1", "B3", "B4", "B5", "B6", "B7", "B8"):
        v = place(v, other, 70.0 - 2 * int(other[1]), 47.0)
    v = place(v, "A3", 36.0, 17.0, 0.0)  # light infantry 4" from B2's front
    alone = mech.contact(v, "A3", "B2")
    assert any(b.rule == "D3, Charges" and "already in combat" in b.text for b in alone.breaches)
    v = place(v, "A1", 43.5, 24.0, 270.0)  # A1 touches B2's flank: engaged
    joined = mech.contact(v, "A3", "B2")
    assert not any("already in combat" in b.text for b in joined.breaches)


def test_shooting_reach_for_the_map(mech: D3Mechanics, view: TurnView) -> None:
    """D3, Shooting: light infantry and light cavalry 12", in the front arc; heavy
    infantry does not shoot (the map's range overlay reads this)."""
    li = mech.shooting_reach(view, "A3")
    assert li is not None and li.range == 12 and li.arc == 90 and li.rule == "D3, Shooting"
    assert mech.shooting_reach(view, "A5") is not None
    assert mech.shooting_reach(view, "A1") is None
