"""What the main window's own parts (the campaign menu, the club link) use of it, declared
apart from :class:`~app.gui.main_window.MainWindow` so that they can name the window's type
without importing it (it imports them). Declarations only: the window sets each one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QLabel, QMainWindow

from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.gui.actions import Actions
    from app.gui.battle.manager import BattleManager
    from app.gui.controller import Builder
    from app.gui.settings import WindowSettings
    from app.usecases.access import Store
    from app.usecases.roster import RosterSummary


class Attach(Protocol):
    """The window's ``attach``: give it its rulesets and store."""

    def __call__(
        self,
        registry: Registry,
        store: Store | None,
        store_error: str | None,
        summaries: list[RosterSummary] | None = None,
    ) -> None: ...


class WindowBase(QMainWindow):
    """The main window as its parts see it: the rulesets, the store's builder, the battles,
    the actions, the settings, the store's label in the status bar, and ``attach``."""

    registry: Registry
    prefs: WindowSettings
    action_registry: Actions
    battles: BattleManager
    builder: Builder
    store_label: QLabel
    attach: Attach
