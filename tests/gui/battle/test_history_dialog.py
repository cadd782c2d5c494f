"""Battle > New battle from history: the war's battles in the order they were fought, each
previewed on its field in the ruleset chosen with its account and forces; Start battle
opens it in a battle window, deployed as the sources describe it; Rosters to edit puts the
two armies in the library instead. The dialog fits a 1280x720 screen."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.core.scenario.deploy import deployment_breaches
from app.gui.battle.history_dialog import HistoryDialog
from app.gui.main_window import MainWindow
from app.store import Store, list_rosters
from app.store.battles import list_battles

pytestmark = pytest.mark.gui


def open_dialog(main_window: MainWindow) -> HistoryDialog:
    dialog = main_window.battles.new_battle_from_history()
    assert dialog is not None
    return dialog


def choose(dialog: HistoryDialog, battle: str, ruleset: str) -> None:
    for i in range(dialog.battles.count()):
        if dialog.battles.item(i).data(Qt.ItemDataRole.UserRole) == battle:
            dialog.battles.setCurrentRow(i)
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData(ruleset))


def test_the_battles_in_order_with_field_forces_and_armies(make_window: Any) -> None:
    dialog = open_dialog(make_window())
    ids = [dialog.battles.item(i).data(Qt.ItemDataRole.UserRole) for i in range(6)]
    assert ids[:3] == ["trebia", "trasimene", "cannae"]
    choose(dialog, "cannae", "quincunx")
    assert dialog.scale.currentData() == "1:100" and dialog.scale.isEnabled()
    state = dialog.preview.state
    assert state is not None and state.scenario == "cannae"
    assert {u.side for u in state.units} == {0, 1}
    assert any(p.kind == "river" and p.name == "Aufidus" for p in state.terrain)
    text = dialog.account.toPlainText()
    for words in ("Polybius 3.113.5", "Aufidus", "Quincunx: 62 units", "Lost in history"):
        assert words in text, words
    # a ruleset that counts bases has no scale to choose
    choose(dialog, "cannae", "d3-ancients")
    assert dialog.scale.currentData() is None and not dialog.scale.isEnabled()
    assert "D3 Ancients: 8 units" in dialog.account.toPlainText()
    # it fits a 1280x720 screen
    assert dialog.width() <= 1280 and dialog.height() <= 720
    dialog.reject()


def test_start_battle_opens_the_field_deployed(
    make_window: Any, store: Store, qtbot: QtBot
) -> None:
    main_window: MainWindow = make_window()
    dialog = open_dialog(main_window)
    choose(dialog, "trasimene", "grown-slightly-bald")
    dialog.seed.setValue(3)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    [battle] = list_battles(store)
    window = main_window.battles.windows[battle.id]
    qtbot.waitExposed(window)
    session = window.controller.session
    state = session.state
    assert state.started and session.seed == 3 and state.scenario == "trasimene"
    assert state.zones is not None  # Hannibal's ambush: the battle's own zones
    assert deployment_breaches(state, session.mechanics) == []
    assert [s.roster for s in state.sides] == ["Lake Trasimene: Rome", "Lake Trasimene: Carthage"]
    # at the end the result stands beside what happened
    from PySide6.QtWidgets import QTextBrowser

    from app.core.battle import EndBattle

    window.controller.execute(EndBattle(winner=1, reason="the mist"))
    shown = window.show_result()
    text = shown.findChild(QTextBrowser, "resultDialogText").toPlainText()
    assert "Beside history" in text and "as in history" in text
    assert "Polybius 3.84.7-3.85.2" in text
    shown.close()
    window.close()


def test_rosters_to_edit_puts_both_armies_in_the_library(make_window: Any, store: Store) -> None:
    main_window: MainWindow = make_window()
    dialog = open_dialog(main_window)
    choose(dialog, "zama", "leg-vi-carthago")
    dialog.edit_first.click()
    names = sorted(r.name for r in list_rosters(store))
    assert names == ["Zama: Carthage", "Zama: Rome"]
    assert list_battles(store) == []


def test_a_campaign_from_history(make_window: Any, qtbot: QtBot) -> None:
    """Campaign > New campaign from history: Scipio in Africa in D3; its first battle is
    fought on the Great Plains' field."""
    from app.gui.actions import ActionKey

    main_window: MainWindow = make_window()
    main_window.action_registry[ActionKey.NEW_CAMPAIGN_HISTORY].trigger()
    dialog: Any = main_window.findChild(QDialog, "historyCampaignDialog")
    assert dialog is not None
    dialog.template.setCurrentIndex(dialog.template.findData("africa"))
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("d3-ancients"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    view: Any = main_window.campaign_view  # type: ignore[attr-defined]
    qtbot.waitExposed(view)
    campaign = view.session.campaign
    assert campaign.template == "africa" and campaign.ruleset == "d3-ancients"
    assert [b.scenario for b in campaign.battles] == ["great-plains", "zama"]
    view.confirm = lambda title, lines: True
    bid = view.fight()
    battle_window = main_window.battles.windows[bid]
    assert battle_window.controller.session.state.scenario == "great-plains"
    battle_window.close()
    view.close()


def test_the_preview_draws_each_side_in_its_armys_colour(make_window: Any) -> None:
    """The preview is the field as the battle map will show it: Carthage in the purple its
    army list names, as on the map and in the legend, not a blue of the dialog's own."""
    from PySide6.QtGui import QColor

    from app.core.battle.look import battle_look

    dialog = open_dialog(make_window())
    choose(dialog, "cannae", "quincunx")
    dialog.preview.resize(640, 400)
    state, rs = dialog.preview.state, dialog.chosen_ruleset()
    assert state is not None and rs is not None
    rome, carthage = (s.colour for s in battle_look(state, rs).sides)
    assert (rome, carthage) == ("#a83232", "#5b3b8c")  # from the army lists
    image = dialog.preview.grab().toImage()
    seen = {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    }
    assert rome in seen and carthage in seen
    assert QColor("#2b5a8c").name() not in seen  # the old side-B blue
    dialog.reject()
