"""The Unit and Target lists (offscreen): a list of the same units as its twin takes the
size the twin measured, and every list is sized as Qt sizes a plain one with its entries."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QComboBox, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.gui.battle.acting import UnitCombo

pytestmark = pytest.mark.gui


def _fill(combo: QComboBox, texts: list[str]) -> None:
    for i, text in enumerate(texts):
        combo.addItem(text, i)
    if isinstance(combo, UnitCombo):
        combo.entries = tuple(texts)


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
    measured.clear()  # before the first show Qt measures too; measured again once shown
    hints = [c.sizeHint() for c in (actor, target, other)]
    assert measured.count(actor) == 1 and target not in measured and measured.count(other) == 1
    assert hints[0] == hints[1] == real(plain) and hints[0].width() > hints[2].width()
    # kept, as Qt keeps a list's first size, when the entries change afterwards
    target.clear()
    _fill(target, fewer)
    assert target.sizeHint() == hints[0]
