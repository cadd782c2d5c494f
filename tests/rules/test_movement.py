"""The generic checks of a move (``Mechanics.check_move``): each breach can be triggered, and
none is there for a legal move; terrain cost; the allowance cumulative over a turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

import pytest

from app.rules.mechanics import Combatant, Mechanics, Side, Status, TurnView
from app.rules.movement import GENERIC_TERRAIN, MoveCheck, MoveReason
from app.rules.paths import Path
from app.rules.registry import Registry
from app.rules.table import Table, TerrainKind, TerrainPiece


class Plain(Mechanics):
    """The base class's generic rules with a fixed 6" move (the base says None)."""

    engine = "plain"
    #: the D3 ruleset's word for woods (it reads D3's numbers; the words are an engine's)
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {"woods": "woods"}
    moving: Side | None = None
    friends_pass = False
    allowance = 6.0

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        return None if unit.status.has("dice") else self.allowance

    def side_to_move(self, view: TurnView) -> Side | None:
        return self.moving

    def may_pass_through(self, view: TurnView, unit: Combatant, other: Combatant) -> bool:
        return self.friends_pass


@pytest.fixture
def mech(registry: Registry) -> Plain:
    return Plain(registry.get("d3-ancients"))


def unit(uid: str, side: Side, x: float, y: float, facing: float = 0.0, **kw: object) -> Combatant:
    return Combatant(
        uid,
        f"Unit {uid}",
        "heavy_infantry",
        side,
        Status(1, 1, **kw),  # type: ignore[arg-type]
        x=x,
        y=y,
        facing=facing,
        width=4.0,
        depth=2.0,
    )


def view(*units: Combatant, terrain: tuple[TerrainPiece, ...] = ()) -> TurnView:
    return TurnView(
        turn=1,
        phase=0,
        initiative=0,
        units=units,
        sides=({}, {}),
        armies=("roman", "carthaginian"),
        side_names=("Rome", "Carthage"),
        table=Table(72, 48, terrain),
    )


def check(
    mech: Mechanics, v: TurnView, path: str, who: str = "A1", reason: MoveReason = "move"
) -> MoveCheck:
    return mech.check_move(v, who, Path.parse(path), reason=reason)


A1 = unit("A1", 0, 36, 10)


def texts(c: MoveCheck) -> list[str]:
    return [f"{b.severity}: {b}" for b in c.breaches]


def test_a_legal_move_breaks_nothing(mech: Plain) -> None:
    c = check(mech, view(A1, unit("B1", 1, 36, 40, 180)), "forward 2; wheel 30 right; forward 1")
    assert c.ok and not c.forbidden and not c.needs_confirmation, texts(c)
    assert [leg.kind for leg in c.legs] == ["straight", "wheel", "straight"]
    assert c.legs[1].cost == pytest.approx(4 * 3.14159265 / 6)  # width x 30 degrees
    assert c.cost == pytest.approx(sum(leg.cost for leg in c.legs))
    assert (c.allowance, c.used_before, c.left) == (6.0, 0.0, 6.0)
    assert c.remaining == pytest.approx(6 - c.cost)
    assert c.end.facing == 30 and c.end == c.traced[-1].end


def test_leaving_the_table_is_forbidden_unless_routing(mech: Plain) -> None:
    near_edge = unit("A1", 0, 36, 3, 180)
    (b,) = check(mech, view(near_edge), "forward 3").breaches
    assert b.severity == "forbidden" and "would leave the table (leg 1: forward 3)" in b.text
    assert b.rule == "Castra, table"
    rout = check(mech, view(near_edge), "forward 3", reason="rout")
    assert [x.severity for x in rout.breaches if "leave" in x.text] == ["confirm"]


def test_ending_on_a_unit_and_passing_through_units(mech: Plain) -> None:
    mech.allowance = 20.0
    blocker = unit("B1", 1, 36, 15)
    c = check(mech, view(A1, blocker), "forward 4")
    assert texts(c) == ["forbidden: Castra, table: would end on top of Unit B1 (B1)"]
    c = check(mech, view(A1, blocker), "forward 5; forward 5")
    assert texts(c) == [
        "forbidden: Castra, table: would pass through the enemy Unit B1 (B1) (leg 1)"
    ]
    friend = unit("A2", 0, 36, 15)
    c = check(mech, view(A1, friend), "forward 10")
    assert "a friend it may not pass" in texts(c)[0] and "(leg 1)" in texts(c)[0]
    mech.friends_pass = True
    assert check(mech, view(A1, friend), "forward 10").ok
    # ending on a friend is never allowed, passing or not
    assert "would end on top of Unit A2" in texts(check(mech, view(A1, friend), "forward 4"))[0]
    # touching a unit at the end is contact, not overlap
    touching = unit("B2", 1, 36, 17)
    assert check(mech, view(A1, touching), "forward 5").ok
    # out-of-battle units are not in the way
    gone = replace(blocker, status=Status(0, 1, eliminated=True))
    assert check(mech, view(A1, gone), "forward 5").ok


def test_a_unit_standing_on_another_moves_off_it_and_each_check_of_a_view_reads_its_own(
    mech: Plain,
) -> None:
    """A unit set down overlapping another (by hand) is not passing through it when it moves
    off; a view's checks keep which units each mover overlaps where it stands, so ask them
    in turn of one view, of two movers, and again."""
    mech.allowance = 20.0
    on = unit("A2", 0, 37, 10)  # overlaps A1 where both stand
    ahead = unit("B1", 1, 36, 20, 180)
    v = view(A1, on, ahead)
    for _ in range(2):
        assert check(mech, v, "back 4").ok, texts(check(mech, v, "back 4"))
        assert check(mech, v, "back 4", who="A2").ok
        # but the enemy ahead is still in the way, for either of them
        assert "pass through the enemy Unit B1" in texts(check(mech, v, "forward 14"))[0]
        assert "pass through the enemy Unit B1" in texts(check(mech, v, "forward 14", "A2"))[0]
    # B1 overlaps neither where it stands: its way back through them is barred
    assert "would end on top of Unit A1" in texts(check(mech, v, "forward 10", "B1"))[0]


def test_terrain_costs_and_bars(mech: Plain) -> None:
    woods = TerrainPiece("T1", "woods", ((30, 12), (42, 12), (42, 20), (30, 20)), "Silva")
    c = check(mech, view(A1, terrain=(woods,)), "forward 4")
    assert c.cost == pytest.approx(6)  # 2" open, 2" in woods at half speed
    assert c.legs[0].terrain == ("T1",) and "2.0 in woods x2" in c.legs[0].note
    note = GENERIC_TERRAIN["woods"].note + " (generic; D3 Ancients: woods)"
    assert c.terrain_crossed == (("T1", "woods", note, "Silva"),)
    assert c.terrain_crossed[0].words() == 'woods T1 "Silva"'  # as the ruler names it
    assert c.ok
    lake = TerrainPiece("T2", "lake", ((30, 12), (42, 12), (42, 20), (30, 20)))
    c = check(mech, view(A1, terrain=(lake,)), "forward 4")
    (b,) = c.breaches
    assert b.severity == "forbidden" and "cannot enter the lake T2" in b.text
    assert b.rule.startswith("Castra, generic terrain")
    # a lake beside the path but under the end pose
    beside = TerrainPiece("T3", "lake", ((37.5, 13), (45, 13), (45, 20), (37.5, 20)))
    assert (
        "cannot enter the lake T3"
        in texts(check(mech, view(A1, terrain=(beside,)), "forward 4"))[0]
    )
    # a river needs the umpire; a ford laid on it is where it is crossed
    river = TerrainPiece("T4", "river", ((0, 14), (72, 14)), width=1)
    c = check(mech, view(A1, terrain=(river,)), "forward 4")
    assert [b.severity for b in c.breaches] == ["confirm"] and "the umpire decides" in texts(c)[0]
    ford = TerrainPiece("T5", "ford", ((34, 13), (38, 13), (38, 15), (34, 15)))
    c = check(mech, view(A1, terrain=(river, ford)), "forward 4")
    assert c.ok and c.legs[0].terrain == ("T5",) and c.cost == pytest.approx(5)


def test_the_allowance_is_cumulative_and_dice_need_confirmation(mech: Plain) -> None:
    tired = replace(A1, moved=4.0)
    (b,) = check(mech, view(tired), "forward 3").breaches
    assert b.severity == "forbidden" and b.rule == "D3 Ancients, movement"
    assert b.text == 'Unit A1 (A1) would move 3.0" with 2.0" of its 6" left (4.0" used this turn)'
    assert check(mech, view(tired), "forward 2").ok
    rolled = unit("A1", 0, 36, 10, markers=frozenset({"dice"}))
    c = check(mech, view(rolled), "forward 3")
    assert c.allowance is None and c.left is None and c.remaining is None
    assert [x.severity for x in c.breaches] == ["confirm"] and "confirm 3.0" in c.breaches[0].text
    # other reasons than a move or a charge: the rules set the distance case by case
    assert check(mech, view(A1), "back 2", reason="evade").needs_confirmation


def test_only_the_side_in_play_moves_except_for_the_other_sides_reasons(mech: Plain) -> None:
    mech.moving = 1
    c = check(mech, view(A1), "forward 2")
    assert texts(c)[0].startswith("forbidden: Castra, table: it is Carthage's move")
    assert not any(
        "Carthage's move" in t for t in texts(check(mech, view(A1), "back 1", reason="evade"))
    )
    mech.moving = 0
    assert check(mech, view(A1), "forward 2").ok


def test_the_base_class_defaults(registry: Registry) -> None:
    base = Mechanics(registry.get("d3-ancients"))
    v = view(A1)
    assert base.side_to_move(v) is None and base.may_move(v, "A1", "move") is None
    assert base.terrain_effect(A1, "lake").passable is False
    c = base.check_move(v, "A1", Path.parse("forward 1"))
    assert c.needs_confirmation  # the base has no move allowance: dice decide
    assert base.length_symbol() == '"'
