"""The Unit and Target lists (offscreen): a list of the same units as its twin takes the
size the twin measured, and every list is sized as Qt sizes a plain one with its entries."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication, QComboBox, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.gui.battle.acting import MEASURED, NONE, UnitCombo

pytestmark = pytest.mark.gui


def _fill(combo: QComboBox, texts: list[str]) -> None:
    """As the dock fills a unit list; a plain list with the same texts, one at a time."""
    if isinstance(combo, UnitCombo):
        combo.fill(tuple((f"u{i}", text) for i, text in enumerate(texts)))
        return
    combo.addItem(NONE, None)
    for i, text in enumerate(texts):
        combo.addItem(text, i)


def test_twins_are_measured_once_and_sized_as_plain_lists(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    units = [f"A{i} Hastati {i % 10}" for i in range(300)] + ["B7 Libyan spearmen of Hannibal"]
    fewer = units[:-1]
    sizes: dict[tuple[object, ...], QSize] = {}
    box = QWidget()
    qtbot.addWidget(box)
    column = QVBoxLayout(box)
    actor, target, other, plain = UnitCombo(sizes), UnitCombo(sizes), UnitCombo(sizes), QComboBox()
    for combo, texts in ((actor, units), (target, units), (other, fewer), (plain, units)):
        _fill(combo, texts)
        column.addWidget(combo)
    measured: list[object] = []
    real = QComboBox.sizeHint

    def counting(self: QComboBox) -> QSize:
        measured.append(self)
        return real(self)

    monkeypatch.setattr(QComboBox, "sizeHint", counting)
    box.show()
    qtbot.waitExposed(box)
    # measured once each before the first show (the twin not at all), and not again once
    # shown in the same font and style
    hints = [c.sizeHint() for c in (actor, target, other)]
    # (each long list is measured by its measurer: a list of its longest entries)
    mine = [m for m in measured if m not in (plain, actor, target, other)]
    assert mine.count(actor._measurer) == 1 and mine.count(other._measurer) == 1
    assert target._measurer is None and len(mine) == 2
    assert hints[0] == hints[1] == real(plain) and hints[0].width() > hints[2].width()
    # kept, as Qt keeps a list's first size, when the entries change afterwards
    target.clear()
    _fill(target, fewer)
    assert target.sizeHint() == hints[0]


def test_a_list_shown_in_another_font_is_measured_again(qtbot: QtBot) -> None:
    units = [f"A{i} Hastati {i % 10}" for i in range(50)] + ["B7 Libyan spearmen of Hannibal"]
    sizes: dict[tuple[object, ...], QSize] = {}
    combo, plain = UnitCombo(sizes), QComboBox()
    qtbot.addWidget(combo)
    qtbot.addWidget(plain)
    _fill(combo, units)
    _fill(plain, units)
    before = combo.sizeHint()
    font = combo.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    combo.setFont(font)
    plain.setFont(font)
    combo.show()
    plain.show()
    qtbot.waitExposed(combo)
    assert combo.sizeHint() == plain.sizeHint()
    assert combo.sizeHint().width() > before.width()


def test_filled_at_once_with_each_units_id(qtbot: QtBot) -> None:
    combo = UnitCombo({})
    qtbot.addWidget(combo)
    combo.fill((("A1", "A1 Hastati 1"), ("B2", "B2 Libyans (out)")))
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "(none)",
        "A1 Hastati 1",
        "B2 Libyans (out)",
    ]
    assert [combo.itemData(i) for i in range(combo.count())] == [None, "A1", "B2"]
    assert (combo.findData("B2"), combo.findData(None), combo.findData("C9")) == (2, 0, -1)
    combo.setCurrentIndex(combo.findData("A1"))
    assert combo.currentData() == "A1" and combo.entries[0] == ("A1", "A1 Hastati 1")
    combo.fill((("B2", "B2 Libyans"),))  # filled again: the old rows and ids are gone
    assert combo.count() == 2 and combo.findData("A1") == -1 and combo.itemData(1) == "B2"


def test_a_long_list_is_sized_by_its_longest_entries(qtbot: QtBot) -> None:
    """Qt's size for the whole list, measured on its longest entries alone: the same where
    the widest entry is among them (as a battle's names are), and never measuring them
    all."""
    units = [f"A{i} Hastati {i % 10}" for i in range(5 * MEASURED)]
    units.insert(100, "B7 Libyan spearmen of Hannibal")
    combo, plain = UnitCombo({}), QComboBox()
    for w in (combo, plain):
        qtbot.addWidget(w)
        _fill(w, units)
    asked: list[int] = []
    real = QComboBox.sizeHint

    def counting(self: QComboBox) -> QSize:
        asked.append(self.count())
        return real(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(QComboBox, "sizeHint", counting)
        hint = combo.sizeHint()
    assert asked == [MEASURED]  # its measurer, holding the longest entries only
    measurer = combo._measurer
    assert measurer is not None and measurer.parent() is combo and measurer.isHidden()
    assert measurer not in QApplication.topLevelWidgets()
    assert hint == real(plain)
    short = UnitCombo({})
    qtbot.addWidget(short)
    _fill(short, units[:10])
    assert short.sizeHint() != hint and short.count() == 11
