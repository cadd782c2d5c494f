"""The Campaigns window follows the main window's store (offscreen): when the main window
moves to another store (a club server, or back to the local file), the view left on the old
store, which is closed, is closed and deleted, and the next one opens on the new store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

from app.gui.campaign.menu import open_view
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import open_store
from app.store.campaigns import create_campaign
from tests.core.campaign.helpers import leg_vi_campaign

pytestmark = pytest.mark.gui


def test_a_store_switch_closes_the_old_stores_campaign_view(
    qtbot: QtBot, make_window: Any, registry: Registry, tmp_path: Path
) -> None:
    window: MainWindow = make_window()
    store = window.builder.store
    assert store is not None
    cid = create_campaign(store, session=leg_vi_campaign(registry))
    view = open_view(window, cid)
    assert view is not None and view.store is store
    qtbot.waitExposed(view)
    assert open_view(window, cid) is view  # the same store: the same view
    gone: list[bool] = []
    view.destroyed.connect(lambda *_: gone.append(True))

    other = open_store(tmp_path / "other.sqlite3")
    try:
        assert window.club._switch(other)
        assert not view.isVisible()
        assert getattr(window, "campaign_view", None) is None
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        assert gone == [True]
        again = open_view(window)
        assert again is not None and again.store is other
        assert again.campaign_id is None  # the other store has no campaign
    finally:
        window.builder.close_roster(forget=False)
        window.campaign_view.close()  # type: ignore[attr-defined]
        other.close()
