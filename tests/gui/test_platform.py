"""Known platform fact: PySide6 6.12.0 on CPython 3.11 aborts the interpreter after about a
thousand QGraphicsItem.setPos() calls. pyproject pins PySide6 below 6.12 on Python < 3.12;
this test moves an item many thousands of times so a bad pin shows up as a crash here."""

from __future__ import annotations

import sys

import pytest
from PySide6 import __version__ as pyside_version
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene

pytestmark = pytest.mark.gui


def test_pyside_pin_matches_python() -> None:
    major, minor = (int(x) for x in pyside_version.split(".")[:2])
    if sys.version_info < (3, 12):
        assert (major, minor) < (6, 12), f"PySide6 {pyside_version} on Python 3.11 crashes"


def test_setpos_many_thousands_of_times(qapp: object) -> None:
    scene = QGraphicsScene()
    item = QGraphicsRectItem(0, 0, 10, 5)
    scene.addItem(item)
    for i in range(20_000):
        item.setPos(i % 97, i % 89)
    assert (item.pos().x(), item.pos().y()) == (19_999 % 97, 19_999 % 89)
