"""The battle window's docks keep their title bar buttons' icons once made (offscreen): the
same icon each time a dock asks, drawn as the application's style draws it; every other icon
and all drawing are the application style's own."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle
from pytestqt.qtbot import QtBot

from app.core.battle.sample import sample_session
from app.gui.dock_style import KEPT, DockStyle, dock_style
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui


def _same_look(a: QIcon, b: QIcon) -> bool:
    return all(a.pixmap(px).toImage() == b.pixmap(px).toImage() for px in (10, 16, 32))


def test_every_dock_of_the_battle_window_keeps_its_title_bar_icons(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    rs = registry.get("quincunx")
    window = open_window(qtbot, sample_session(rs, mechanics_for(rs)), settings)
    docks = [
        window.turn_dock,
        window.unit_dock,
        window.leaders_dock,
        window.sides_dock,
        window.actions_dock,
        window.log_dock,
        window.advice_dock,
    ]
    assert all(dock.style() is dock_style() for dock in docks)
    app_style = QApplication.style()
    for pixmap in KEPT:
        first = docks[0].style().standardIcon(pixmap, None, docks[0])
        again = docks[-1].style().standardIcon(pixmap, None, docks[-1])
        assert first.cacheKey() == again.cacheKey(), pixmap
        assert _same_look(first, app_style.standardIcon(pixmap)), pixmap


def test_other_icons_and_measures_are_the_application_style_s(qtbot: QtBot) -> None:
    style, app_style = dock_style(), QApplication.style()
    assert isinstance(style, DockStyle) and isinstance(style, QProxyStyle)
    assert style.baseStyle().name() == app_style.name()
    for pixmap in (QStyle.StandardPixmap.SP_DialogOkButton, QStyle.StandardPixmap.SP_ArrowUp):
        assert _same_look(style.standardIcon(pixmap), app_style.standardIcon(pixmap))
        assert pixmap not in style._icons  # asked of the application's style each time
    for metric in (
        QStyle.PixelMetric.PM_DockWidgetTitleMargin,
        QStyle.PixelMetric.PM_DockWidgetFrameWidth,
        QStyle.PixelMetric.PM_SmallIconSize,
    ):
        assert style.pixelMetric(metric) == app_style.pixelMetric(metric)
