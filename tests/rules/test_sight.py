"""Measuring (``Mechanics.measure``): base edge to base edge, arcs, line of sight between
base edges blocked by a wood or a unit in the way but not by a small copse a line can pass,
the terrain between, and the distance to a commander."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules.mechanics import LeaderView
from app.rules.registry import Registry
from app.rules.table import TerrainPiece
from tests.rules.test_movement import Plain, unit, view

A1, B1 = unit("A1", 0, 30, 10), unit("B1", 1, 30, 30, 180)


def wood(pid: str, x0: float, y0: float, x1: float, y1: float, kind: str = "woods") -> TerrainPiece:
    return TerrainPiece(pid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))  # type: ignore[arg-type]


@pytest.fixture
def mech(registry: Registry) -> Plain:
    return Plain(registry.get("d3-ancients"))


def test_open_ground(mech: Plain) -> None:
    m = mech.measure(view(A1, B1), "A1", "B1")
    assert m.distance == pytest.approx(18)  # front edges at y = 11 and y = 29
    assert (m.arc, m.target_arc, m.los) == ("front", "front", True)
    assert m.blocked_by == m.crossing == ()
    assert m.command_distance is None


def test_a_wood_between_blocks_sight_and_is_crossed(mech: Plain) -> None:
    m = mech.measure(view(A1, B1, terrain=(wood("T1", 20, 18, 40, 22),)), "A1", "B1")
    assert (m.los, m.blocked_by, m.crossing) == (False, ("T1",), ("T1",))
    assert m.distance == pytest.approx(18)  # terrain does not change the distance


def test_a_copse_narrower_than_the_bases_leaves_a_line_clear(mech: Plain) -> None:
    m = mech.measure(view(A1, B1, terrain=(wood("T1", 29, 18, 31, 22),)), "A1", "B1")
    assert m.los and m.crossing == ("T1",)


def test_a_marsh_does_not_block_and_units_on_a_hill_see_out(mech: Plain) -> None:
    marsh = wood("T1", 20, 18, 40, 22, "marsh")
    assert mech.measure(view(A1, B1, terrain=(marsh,)), "A1", "B1").los
    hill = wood("T2", 20, 8, 40, 14, "hill")
    assert mech.measure(view(A1, B1, terrain=(hill,)), "A1", "B1").los


def test_a_unit_in_the_way_blocks_sight(mech: Plain) -> None:
    wall = replace(unit("A2", 0, 30, 20), width=12.0)
    m = mech.measure(view(A1, B1, wall), "A1", "B1")
    assert (m.los, m.blocked_by) == (False, ("A2",))
    grazed = unit("A2", 0, 30, 20)  # as wide as the bases: lines along its edges graze it
    assert mech.measure(view(A1, B1, grazed), "A1", "B1").los
    wider = replace(grazed, width=4.5)
    assert not mech.measure(view(A1, B1, wider), "A1", "B1").los
    aside = unit("A2", 0, 40, 20)
    assert mech.measure(view(A1, B1, aside), "A1", "B1").los


def test_arcs(mech: Plain) -> None:
    flank = unit("B2", 1, 40, 10, 270)
    m = mech.measure(view(A1, flank), "A1", "B2")
    assert (m.arc, m.target_arc) == ("flank", "front")
    behind = unit("B3", 1, 30, 2)
    assert mech.measure(view(A1, behind), "A1", "B3").arc == "rear"


def test_command_distance(mech: Plain) -> None:
    general = LeaderView("g", "Scipio", "general", side=0, x=30, y=5)
    v = replace(view(A1, B1), leaders=(general,))
    assert mech.measure(v, "A1", "B1").command_distance == pytest.approx(4)  # base y 9-11
    attached = replace(v, leaders=(replace(general, attached_to="A1"),))
    assert mech.measure(attached, "A1", "B1").command_distance == 0
    assert mech.measure(v, "B1", "A1").command_distance is None  # Carthage has no leader
