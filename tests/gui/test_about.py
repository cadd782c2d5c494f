"""Help > About: Castra's version from its one source (``app.__version__``, as ``castra
--version`` prints it), and every loaded ruleset with its data version."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QTextBrowser
from pytestqt.qtbot import QtBot

import app
from app.gui import app as gui_app
from app.gui.actions import ActionKey
from app.gui.main_window import MainWindow
from app.rules.registry import Registry

pytestmark = pytest.mark.gui


def test_about_names_the_version_and_each_rulesets_data(qtbot: QtBot, registry: Registry) -> None:
    window = MainWindow(registry, None, gui_app._settings())
    qtbot.addWidget(window)
    window.action_registry[ActionKey.ABOUT].trigger()
    dialog = window.findChild(QTextBrowser, "aboutDialogText")
    assert dialog is not None
    text = dialog.toPlainText()
    assert text.startswith(f"Castra {app.__version__}\n")
    assert len(registry.rulesets) == 5
    lines = text.splitlines()  # a table's cells, one a line: name, data version, source
    for rs in registry:
        at = lines.index(rs.meta.name)
        assert lines[at + 1 : at + 3] == [rs.meta.data_version, rs.credit]
