"""Contact and deployment geometry (``app.rules.contact``): the poses a charge ends in touch
the target squarely, the approach paths reach them, the default contact search finds a
legal path or names the rule it breaks, and the default deployment zones."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules.contact import approach_paths, contact_pose, corner_pose, zone_holds
from app.rules.geometry import Footprint, edge_distance
from app.rules.paths import end_pose
from app.rules.registry import Registry
from tests.rules.test_movement import Plain, unit, view

TARGET = Footprint(30.0, 30.0, 180.0, 4.0, 2.0)  # faces -y: its front edge is at y = 29


@pytest.fixture
def mech(registry: Registry) -> Plain:
    return Plain(registry.get("d3-ancients"))


@pytest.mark.parametrize(
    ("edge", "where", "facing"),
    [
        ("front", (30.0, 28.0), 0.0),
        ("rear", (30.0, 32.0), 180.0),
        ("right", (27.0, 30.0), 90.0),  # facing -y, the target's right is towards -x
        ("left", (33.0, 30.0), 270.0),
    ],
)
def test_contact_poses_touch_squarely(edge: str, where: tuple[float, float], facing: float) -> None:
    pose = contact_pose(TARGET, 4.0, 2.0, edge)  # type: ignore[arg-type]
    assert (pose.x, pose.y, pose.facing) == pytest.approx((*where, facing))
    assert edge_distance(pose, TARGET) == pytest.approx(0.0, abs=1e-9)


def test_corner_to_corner_touches_only_at_a_corner() -> None:
    right = corner_pose(TARGET, 4.0, 2.0, "right")
    assert (right.x, right.y, right.facing) == pytest.approx((26.0, 28.0, 0.0))
    assert edge_distance(right, TARGET) == pytest.approx(0.0, abs=1e-9)
    assert corner_pose(TARGET, 4.0, 2.0, "left").x == pytest.approx(34.0)


def test_every_approach_path_ends_on_the_pose() -> None:
    start = Footprint(20.0, 10.0, 30.0, 4.0, 2.0)
    end = contact_pose(TARGET, 4.0, 2.0, "front")
    paths = approach_paths(start, end)
    assert len(paths) >= 2
    for legs in paths:
        got = end_pose(start, legs)
        assert (got.x, got.y, got.facing % 360) == pytest.approx((end.x, end.y, end.facing))
    lined_up = Footprint(30.0, 20.0, 0.0, 4.0, 2.0)
    assert str(approach_paths(lined_up, end)[0][0]) == "forward 8"


def test_the_default_contact_is_front_to_front_within_reach(mech: Plain) -> None:
    a, b = unit("A1", 0, 30, 24), unit("B1", 1, 30, 30, 180)
    found = mech.contact(view(a, b), "A1", "B1")
    assert found.how == "front" and not found.breaches and found.path is not None
    assert (found.aligned_end.x, found.aligned_end.y) == pytest.approx((30, 28))
    assert str(found.path) == "forward 4"


def test_a_flank_charge_ends_against_the_flank(mech: Plain) -> None:
    a, b = unit("A1", 0, 24, 30, 90), unit("B1", 1, 30, 30, 180)
    found = mech.contact(view(a, b), "A1", "B1")
    assert found.how == "flank" and not found.breaches
    assert (found.aligned_end.x, found.aligned_end.facing) == pytest.approx((27, 90))


def test_contact_names_what_it_breaks(mech: Plain) -> None:
    a, b = unit("A1", 0, 30, 10), unit("B1", 1, 30, 30, 180)
    far = mech.contact(view(a, b), "A1", "B1")
    assert far.forbidden and far.path is not None
    assert any("would move 18.0" in b.text for b in far.breaches)
    friend = unit("A2", 0, 30, 14, 180)
    mine = mech.contact(view(a, friend), "A1", "A2")
    assert mine.forbidden and "is a friend" in mine.breaches[0].text


def test_default_zones_and_deployment_checks(mech: Plain) -> None:
    v = view(unit("A1", 0, 36, 5), unit("A2", 0, 46, 5))
    near, far = mech.deployment_zones(v)
    assert near == ((0, 0), (72, 0), (72, 12), (0, 12))
    assert far == ((0, 36), (72, 36), (72, 48), (0, 48))
    assert mech.check_deploy(v, "A1", Footprint(10, 5, 0, 4, 2)) == ()
    outside = mech.check_deploy(v, "A1", Footprint(10, 11.5, 0, 4, 2))
    assert [b.text for b in outside] == ["Unit A1 (A1) would stand outside Rome's deployment zone"]
    on = mech.check_deploy(v, "A1", Footprint(45, 5, 0, 4, 2))
    assert [b.text for b in on] == ["Unit A1 (A1) would stand on Unit A2 (A2)"]
    later = mech.check_deploy(replace(v, phase=1), "A1", Footprint(10, 5, 0, 4, 2))
    assert "only before play" in later[0].text


def test_zone_holds_a_base_on_its_edge_but_not_across_it() -> None:
    zone = ((0.0, 0.0), (10.0, 0.0), (10.0, 4.0), (0.0, 4.0))
    assert zone_holds(zone, Footprint(5, 3, 0, 4, 2).corners())
    assert not zone_holds(zone, Footprint(5, 3.5, 0, 4, 2).corners())
    notch = ((0.0, 0.0), (10.0, 0.0), (10.0, 4.0), (6.0, 4.0), (5.0, 1.0), (4.0, 4.0), (0.0, 4.0))
    assert not zone_holds(notch, Footprint(5, 2.5, 0, 4, 1).corners())
