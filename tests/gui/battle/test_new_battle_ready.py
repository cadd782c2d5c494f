"""The New battle dialog offers each ruleset's ready armies for both sides, even when the
library holds no roster of that ruleset: a first battle is a ruleset, Start battle, and the
armies stand in their zones (on a larger table where the ruleset's is too small for them).
The library's own rosters come first; side B prefers the other side."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.core.battle.sample import sample_roster
from app.core.ready import ready_armies
from app.gui.battle.new_battle import NewBattleDialog
from app.gui.main_window import MainWindow
from app.rules.contact import zone_holds
from app.rules.registry import Registry
from app.store import Store, list_rosters
from app.store.battles import list_battles
from app.store.repo import save_roster
from tests.builtin import ruleset_ids

pytestmark = pytest.mark.gui

RULESETS = ruleset_ids()


def items(combo: Any) -> list[tuple[object, str]]:
    return [(combo.itemData(i), combo.itemText(i)) for i in range(combo.count())]


def open_dialog(main_window: MainWindow) -> NewBattleDialog:
    dialog = main_window.battles.new_battle()
    assert dialog is not None
    return dialog


def test_with_an_empty_library_every_ruleset_offers_its_ready_armies(
    make_window: Any, registry: Registry, store: Store
) -> None:
    assert list_rosters(store) == []
    dialog = open_dialog(make_window())
    rulesets = [dialog.ruleset.itemData(i) for i in range(dialog.ruleset.count())]
    assert sorted(rulesets) == list(RULESETS)
    for rid in RULESETS:
        dialog.ruleset.setCurrentIndex(rulesets.index(rid))
        ready = ready_armies(registry.get(rid))
        a, b = items(dialog.roster_a), items(dialog.roster_b)
        assert [data for data, _ in a] == [r.key for r in ready]
        roman, carthaginian = ready
        # side A the Roman army, side B the Carthaginian
        assert dialog.roster_a.currentData() == roman.key
        assert dialog.roster_b.currentData() == carthaginian.key
        assert [data for data, _ in b] == [carthaginian.key]
        whose = "the source's army" if roman.origin == "source" else "built by Castra"
        assert a[0][1] == f"Ready army: {roman.name} — Rome, {whose} ({roman.units} units)"
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert ok.isEnabled() and dialog.error.text() == ""
        assert dialog.side_flags["supply_problems"][1].isVisibleTo(dialog) == (rid == "d3-ancients")
    dialog.reject()


@pytest.mark.parametrize("rid", RULESETS)
def test_a_first_battle_from_the_ready_armies(
    make_window: Any, registry: Registry, store: Store, qtbot: QtBot, rid: str
) -> None:
    main_window: MainWindow = make_window()
    dialog = open_dialog(main_window)
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData(rid))
    dialog.seed.setValue(5)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    [battle] = list_battles(store)
    window = main_window.battles.windows[battle.id]
    qtbot.waitExposed(window)
    session = window.controller.session
    state = session.state
    rs = registry.get(rid)
    assert state.started and session.seed == 5 and state.ruleset == rid
    assert [s.roster for s in state.sides] == [r.name for r in ready_armies(rs)]
    assert len(state.units) == sum(r.units for r in ready_armies(rs))
    zones = session.mechanics.deployment_zones(state.view())
    assert all(zone_holds(zones[u.side], u.footprint.corners()) for u in state.units)
    assert window.map.deploying
    assert len(window.map.map_scene.units) == len(state.units)
    # the ready armies are not put in the library: the battle keeps its own rosters
    assert list_rosters(store) == []
    window.close()


def test_library_rosters_come_first_and_side_b_takes_the_other_side(
    make_window: Any, registry: Registry, store: Store
) -> None:
    rs = registry.get("d3-ancients")
    rome = save_roster(store, roster=sample_roster(rs, "roman"))
    dialog = open_dialog(make_window())
    assert dialog.ruleset.currentData() == "d3-ancients"  # the ruleset worked in last
    keys = [r.key for r in ready_armies(rs)]
    assert [data for data, _ in items(dialog.roster_a)] == [rome, *keys]
    assert dialog.roster_a.currentData() == rome
    # B: the Carthaginian ready army first (another side), then the Roman one
    assert [data for data, _ in items(dialog.roster_b)] == [keys[1], keys[0]]
    dialog.roster_a.setCurrentIndex(dialog.roster_a.findData(keys[1]))
    assert dialog.roster_b.currentData() == rome  # Rome again: the library's roster first
    assert dialog.chosen() == (keys[1], rome)
    dialog.reject()


def test_a_layout_is_laid_on_the_table_the_armies_need(
    make_window: Any, registry: Registry, store: Store
) -> None:
    dialog = open_dialog(make_window())
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("quincunx"))
    names = [dialog.table.itemText(i) for i in range(dialog.table.count())]
    dialog.table.setCurrentIndex(names.index("river crossing"))
    rs = registry.get("quincunx")
    rosters = (dialog.ready_roster("quincunx:roman"), dialog.ready_roster("quincunx:carthaginian"))
    table = dialog.chosen_table(rs, rosters)
    assert table is not None and (table.width, table.height) == (108, 72)
    assert max(x for piece in table.terrain for x, _ in piece.points) > 72
    dialog.reject()
