"""Opening a stored battle in its window (offscreen) pauses Python's cyclic collector while
it makes its many objects -- reading the battle back, building the window and its docks,
laying the map's labels out -- and gives it back as it was, even when a part fails."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.gui.battle import window as window_module
from app.gui.battle.controller import BattleController
from app.gui.battle.map import plates
from app.gui.battle.window import BattleWindow
from app.rules.registry import Registry
from app.store import Store
from app.store import battles as stored
from app.store.battles import battle_rosters, create_battle, load_battle
from tests.gui.battle.test_window import gsb_rosters, gsb_session

pytestmark = pytest.mark.gui


def test_the_open_pauses_the_collector_and_gives_it_back(
    qtbot: QtBot,
    registry: Registry,
    settings: QSettings,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bid = create_battle(store, session=gsb_session(registry), rosters=gsb_rosters(registry))
    seen: dict[str, list[bool]] = {"load": [], "build": [], "labels": []}

    def spy(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen[name].append(gc.isenabled())
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(stored, "_load", spy("load", stored._load))
    monkeypatch.setattr(
        window_module.BattleWindow, "refresh", spy("build", window_module.BattleWindow.refresh)
    )
    monkeypatch.setattr(plates.Layout, "full", spy("labels", plates.Layout.full))
    assert gc.isenabled()
    session = load_battle(store, battle_id=bid, registry=registry)
    assert gc.isenabled()
    rosters = battle_rosters(store, battle_id=bid, registry=registry)
    controller = BattleController(session, store=store, battle_id=bid, rosters=rosters)
    window = BattleWindow(controller, settings)
    qtbot.addWidget(window)
    assert gc.isenabled()
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: bool(seen["labels"]))
    assert gc.isenabled()
    assert seen["load"] == [False] and seen["build"][:1] == [False] and not any(seen["labels"])
    # later refreshes (a command, an undo) run with the collector as it is
    window.refresh()
    assert seen["build"][-1] is True


def test_a_collector_already_off_stays_off(registry: Registry, store: Store) -> None:
    bid = create_battle(store, session=gsb_session(registry), rosters=gsb_rosters(registry))
    gc.disable()
    try:
        load_battle(store, battle_id=bid, registry=registry)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_battle_that_cannot_be_read_gives_the_collector_back(
    registry: Registry, store: Store
) -> None:
    with pytest.raises(KeyError):
        load_battle(store, battle_id=999, registry=registry)
    assert gc.isenabled()
