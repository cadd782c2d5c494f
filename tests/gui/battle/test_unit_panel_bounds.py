"""The Unit panel's correction field (issue 14 follow-up, found by driving the window): a
count the field cannot hold (stored before corrections were bounded) is neither a crash nor
replaced by another number that Set would write."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.core.battle.commands import MAX_ADJUST
from app.rules.registry import Registry
from tests.gui.battle.test_window import gsb_session, open_window

pytestmark = pytest.mark.gui


def test_a_count_beyond_the_field_disables_set(
    qtbot: QtBot, registry: Registry, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = gsb_session(registry)
    window = open_window(qtbot, session, settings)
    panel = window.unit_panel
    assert panel.value.maximum() == MAX_ADJUST
    unit = session.state.unit("A1")
    huge = replace(unit, status=replace(unit.status, hits=10**23))
    monkeypatch.setattr(panel, "_unit", lambda: huge)
    panel.show_unit("A1")
    panel.field.setCurrentText("hits")  # OverflowError here before
    assert not panel.set_button.isEnabled() and not panel.value.isEnabled()
    panel.field.setCurrentText("rings")
    assert panel.set_button.isEnabled() and panel.value.value() == unit.status.rings
