"""The command-radius overlay (Map > Command radius, key 3) draws whatever
``command_reach`` the ruleset's mechanics give: a circle of that radius about its centre,
named with its rule; a ruleset without command radii says so politely. The mechanics here
are a real ruleset's, subclassed in the test to give a radius (the rulesets' own are filled
in elsewhere): the window only draws what the hook returns."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession
from app.core.battle.sample import sample_session
from app.gui.battle.actions import BattleKey
from app.gui.battle.window import BattleWindow
from app.rules.mechanics import Mechanics, TurnView, mechanics_for
from app.rules.registry import Registry
from app.rules.sight import CommandReach, SightRules
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui

RADIUS = 8.0


def with_radius(base: Mechanics, radius: float | None) -> Mechanics:
    """``base``'s mechanics, but with a command radius of ``radius`` about the nearest
    leader of the unit's side (None: a ruleset that has radii, none reaching this unit)."""

    class Commanded(type(base)):  # type: ignore[misc]
        def command_reach(self, view: TurnView, unit_id: str) -> CommandReach | None:
            if radius is None:
                return None
            unit = view.unit(unit_id)
            ld = next(ld for ld in view.leaders if ld.side == unit.side)
            return CommandReach((ld.x, ld.y), radius, "Test rules, command")

    return Commanded(base.ruleset)  # type: ignore[no-any-return]


def command_on(qtbot: QtBot, session: BattleSession, settings: QSettings) -> BattleWindow:
    window = open_window(qtbot, session, settings)
    window.map.select_unit("A2")
    window.acts[BattleKey.OVERLAY_COMMAND].trigger()
    assert window.acts[BattleKey.OVERLAY_COMMAND].isChecked()
    return window


@pytest.mark.parametrize("rid", ["d3-ancients", "grown-slightly-bald"])
def test_a_command_radius_given_is_drawn_about_its_centre(
    qtbot: QtBot, registry: Registry, settings: QSettings, rid: str
) -> None:
    rs = registry.get(rid)
    mech = with_radius(mechanics_for(rs), RADIUS)
    window = command_on(qtbot, sample_session(rs, mech), settings)
    overlays = window.map.overlays
    frame = window.map.map_scene.frame
    reach = mech.command_reach(window.controller.state.view(), "A2")
    assert reach is not None
    item = overlays.items["command"]
    assert item.isVisible()
    box = item.path().boundingRect()
    centre = frame.to_scene(*reach.centre)
    diameter = 2 * frame.length(RADIUS)
    # the circle's box (a line to the leader lies inside or on it)
    assert box.width() == pytest.approx(diameter, rel=0.02)
    assert box.center().x() == pytest.approx(centre.x(), abs=diameter * 0.02)
    note = overlays.notes["command"]
    assert note.startswith(f"command radius: {RADIUS:g}") and "Test rules, command" in note
    assert overlays.label.isVisible()
    window.acts[BattleKey.OVERLAY_COMMAND].trigger()
    assert not item.isVisible() and "command" not in overlays.notes


def without_radius(base: Mechanics) -> Mechanics:
    """``base``'s mechanics with the hook's default: no command radius in the ruleset."""

    class Plain(type(base)):  # type: ignore[misc]
        command_reach = SightRules.command_reach

    return Plain(base.ruleset)  # type: ignore[no-any-return]


def test_no_command_radius_said_politely(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """A ruleset whose mechanics give no command radius: said, and no circle (the line to
    the nearest leader and its distance stay); one that has radii but none for this unit:
    said otherwise."""
    rs = registry.get("d3-ancients")
    window = command_on(qtbot, sample_session(rs, without_radius(mechanics_for(rs))), settings)
    overlays = window.map.overlays
    note = overlays.notes["command"]
    assert note.startswith("command: no command radius in this ruleset; ")
    assert " from " in note  # the distance to the commander, from the mechanics
    path = overlays.items["command"].path()
    assert path.elementCount() == 2  # the line to the commander only, no circle
    none = with_radius(mechanics_for(rs), None)
    window = command_on(qtbot, sample_session(rs, none), settings)
    assert window.map.overlays.notes["command"].startswith(
        "command: no command radius reaches this unit"
    )
