"""At 1280x720 nothing in the battle window's docks is cut off or pushed out of sight, for
every ruleset: each action's options fit the Actions dock's width (long names wrap), the
odds chart writes each outcome's whole name, and the Leaders table keeps all its columns in
the dock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QCheckBox, QLabel
from pytestqt.qtbot import QtBot

from app.core.battle.sample import sample_session
from app.gui.battle.window import BattleWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.builtin import ruleset_ids
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui

RULESETS = ruleset_ids()


def sample_window(qtbot: QtBot, registry: Registry, settings: QSettings, rid: str) -> BattleWindow:
    rs = registry.get(rid)
    window = open_window(qtbot, sample_session(rs, mechanics_for(rs)), settings)
    window.resize(1280, 720)
    qtbot.wait(5)
    return window


@pytest.mark.parametrize("rid", RULESETS)
def test_every_action_s_options_fit_the_actions_dock(
    qtbot: QtBot, registry: Registry, settings: QSettings, rid: str
) -> None:
    window = sample_window(qtbot, registry, settings, rid)
    acting = window.acting
    acting.set_pair("A1", "B1")
    viewport = acting.options_scroll.viewport()
    for i in range(acting.action.count()):
        acting.action.setCurrentIndex(i)
        if not acting._option_widgets:
            continue
        what = acting.action.currentText()
        assert acting.options_box.minimumSizeHint().width() <= viewport.width(), what
        # laid out, a scroll bar shown if need be, laid out again: then every field lies
        # inside the viewport and every name has the height its wrapped lines need (an
        # overflow never settles, and the wait fails)
        qtbot.wait(5)  # the last action's rows deleted
        labels = {
            key: acting.options_box.findChild(QLabel, f"optionLabel_{key}")
            for key in acting._option_widgets
        }

        def fits(labels: dict[str, QLabel | None] = labels) -> bool:
            box = acting.options_box
            return box.width() == viewport.width() and all(
                w.mapTo(box, w.rect().topRight()).x() <= viewport.width()
                and (label := labels[key]) is not None
                and label.width() > 40
                and label.height() >= label.heightForWidth(label.width())
                for key, w in acting._option_widgets.items()
            )

        qtbot.waitUntil(fits, timeout=3000)
        for key, widget in acting._option_widgets.items():
            label = labels[key]
            assert label is not None and label.wordWrap(), (what, key)
            if isinstance(widget, QCheckBox):
                assert widget.text() == ""  # its words are the wrapped label beside it
        # the options take their rows' height up to a cap, then scroll
        assert acting.options_scroll.height() > 20


@pytest.mark.parametrize("rid", RULESETS)
def test_outcome_names_whole_and_leaders_columns_in_the_dock(
    qtbot: QtBot, registry: Registry, settings: QSettings, rid: str
) -> None:
    window = sample_window(qtbot, registry, settings, rid)
    acting = window.acting
    acting.set_pair("A1", "B1")
    melee = next(
        acting.action.itemData(i)
        for i in range(acting.action.count())
        if acting.action.itemData(i) in ("melee", "combat")
    )
    acting.choose_action(str(melee))
    texts = [
        item.toPlainText()
        for item in acting.chart.outcomes.getPlotItem().items
        if hasattr(item, "toPlainText")
    ]
    for label, _chance in acting.chart.bars:
        assert any(t.endswith(label) for t in texts), label  # never cut to a few letters
    window.leaders_dock.raise_()
    qtbot.wait(5)
    table = window.leaders_panel.table
    widths = sum(table.columnWidth(i) for i in range(table.columnCount()))
    assert widths <= table.viewport().width() + 1
