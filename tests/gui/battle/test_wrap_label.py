"""The Actions dock's option names (offscreen): each is as tall, for a width, as a plain
wrapped QLabel with its words, measured once per width and text; new words or a new font
are measured again."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QCheckBox, QLabel
from pytestqt.qtbot import QtBot

from app.gui.battle.acting import _BoxLabel, _WrapLabel

pytestmark = pytest.mark.gui

WORDS = "Defender at the edge of a wood (attacker fighting into it, both sides in the open)"


def _plain(text: str, font: QFont | None = None) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    if font is not None:
        label.setFont(font)
    return label


def test_heights_are_a_plain_wrapped_labels(qtbot: QtBot) -> None:
    label, plain = _WrapLabel(WORDS), _plain(WORDS)
    box = _BoxLabel(QCheckBox(), QLabel(WORDS))
    for w in (label, plain, box):
        qtbot.addWidget(w)
    assert label.wordWrap() and box.wordWrap()
    for width in (60, 120, 200, 400, 1000):
        assert label.heightForWidth(width) == plain.heightForWidth(width)
        assert box.heightForWidth(width) == plain.heightForWidth(width)
    assert label.heightForWidth(60) > label.heightForWidth(400)


def test_measured_once_per_width_and_text(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    label = _WrapLabel(WORDS)
    qtbot.addWidget(label)
    short = _plain("Short")
    qtbot.addWidget(short)
    expected = short.heightForWidth(100)
    asked: list[int] = []
    real = QLabel.heightForWidth

    def counting(self: QLabel, width: int) -> int:
        asked.append(width)
        return real(self, width)

    monkeypatch.setattr(QLabel, "heightForWidth", counting)
    first = [label.heightForWidth(w) for w in (100, 200, 100, 200, 100)]
    assert asked == [100, 200]
    assert first[0] == first[2] == first[4] and first[1] == first[3]
    # new words: measured again, as a plain label with them
    label.setText("Short")
    assert label.heightForWidth(100) == expected
    assert asked == [100, 200, 100]


def test_a_new_font_is_measured_again(qtbot: QtBot) -> None:
    label = _WrapLabel(WORDS)
    qtbot.addWidget(label)
    before = label.heightForWidth(150)
    big = QFont(label.font())
    big.setPixelSize(40)
    label.setFont(big)
    after = label.heightForWidth(150)
    assert after == _plain(WORDS, big).heightForWidth(150)
    assert after > before


def test_a_dock_dragged_through_many_widths_keeps_few_heights(qtbot: QtBot) -> None:
    label, plain = _WrapLabel(WORDS), _plain(WORDS)
    qtbot.addWidget(label)
    qtbot.addWidget(plain)
    for width in range(40, 440, 2):
        assert label.heightForWidth(width) == plain.heightForWidth(width)
    assert 0 < len(label._heights) <= 64
