"""The main window's Campaign menu: open the campaign view, start a campaign from rosters or
from the Hannibal in Italy template, import a campaign file. Installed by the main window in
one call, so the main window keeps only that line. The dialogs' Qt classes are imported
where they are used (the window's start needs none of them)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu

from app.gui.actions import ActionKey

if TYPE_CHECKING:
    from app.core.campaign.session import CampaignSession
    from app.gui.campaign.history import HistoryCampaignDialog
    from app.gui.campaign.window import CampaignView
    from app.gui.window_base import WindowBase


def install(window: WindowBase) -> QMenu:
    a = window.action_registry
    menu = QMenu("&Campaign", window)
    menu.setObjectName("campaignMenu")
    for key in (
        ActionKey.CAMPAIGNS,
        ActionKey.NEW_CAMPAIGN,
        ActionKey.NEW_CAMPAIGN_TEMPLATE,
        ActionKey.NEW_CAMPAIGN_HISTORY,
        ActionKey.IMPORT_CAMPAIGN,
    ):
        menu.addAction(a[key])
    help_menu = window.findChild(QMenu, "helpMenu")
    bar = window.menuBar()
    if help_menu is not None:
        bar.insertMenu(help_menu.menuAction(), menu)
    else:
        bar.addMenu(menu)
    a[ActionKey.CAMPAIGNS].triggered.connect(lambda: open_view(window))
    a[ActionKey.NEW_CAMPAIGN].triggered.connect(lambda: new_from_rosters(window))
    a[ActionKey.NEW_CAMPAIGN_TEMPLATE].triggered.connect(lambda: new_from_template(window))
    a[ActionKey.NEW_CAMPAIGN_HISTORY].triggered.connect(lambda: new_from_history(window))
    a[ActionKey.IMPORT_CAMPAIGN].triggered.connect(lambda: import_campaign(window))
    return menu


def open_view(window: WindowBase, campaign_id: int | None = None) -> CampaignView | None:
    """The campaign view (one per main window), showing ``campaign_id`` if given."""
    from PySide6.QtWidgets import QMessageBox

    from app.gui.campaign.window import CampaignView

    store = window.builder.store
    if store is None:
        QMessageBox.information(window, "Campaigns", "Campaigns need the store, which is not open.")
        return None
    forget_view(window, unless=store)
    view: CampaignView | None = getattr(window, "campaign_view", None)
    if view is None:
        view = CampaignView(window.registry, store)
        view.open_battle = window.battles.open_battle
        window.campaign_view = view  # type: ignore[attr-defined]
    if campaign_id is not None:
        view.fill_picker(select=campaign_id)
    view.show()
    view.activateWindow()
    return view


def forget_view(window: WindowBase, *, unless: object = None) -> None:
    """Close and delete the window's campaign view unless it shows the store ``unless``
    (the main window moved to another store: the old one is closed, and a view left on it
    would stay on screen, and in memory, beside the next one)."""
    view = getattr(window, "campaign_view", None)
    if view is None or (unless is not None and view.store is unless):
        return
    window.campaign_view = None  # type: ignore[attr-defined]
    view.close()
    view.deleteLater()


def new_from_rosters(window: WindowBase) -> CampaignView | None:
    """The New campaign dialog; the campaign it makes is stored and shown."""
    from PySide6.QtWidgets import QDialog, QMessageBox

    from app.gui.campaign.new_campaign import NewCampaignDialog

    store = window.builder.store
    if store is None:
        QMessageBox.information(window, "Campaigns", "Campaigns need the store, which is not open.")
        return None
    dialog = NewCampaignDialog(window.registry, store, window)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.session is None:
        return None
    return start_campaign(window, dialog.session)


def start_campaign(window: WindowBase, session: CampaignSession) -> CampaignView | None:
    """Store a new campaign and show it in the campaign view."""
    from app.usecases.campaign import create_campaign

    store = window.builder.store
    if store is None:
        return None
    return open_view(window, create_campaign(store, session=session))


def new_from_template(window: WindowBase) -> CampaignView | None:
    from PySide6.QtWidgets import QMessageBox

    from app.core.campaign.model import CampaignError
    from app.core.campaign.template import from_template, shipped
    from app.usecases.campaign import create_campaign

    store = window.builder.store
    # the first template a ruleset ships (Hannibal in Italy, which Quincunx's data holds)
    found = next(iter(shipped(window.registry)), None) if store is not None else None
    if store is None or found is None:
        QMessageBox.information(
            window, "Campaigns", "The template needs the store and the ruleset that ships it."
        )
        return None
    try:
        session = from_template(found.ruleset, found.id, found.template)
    except CampaignError as exc:
        QMessageBox.warning(window, "Campaigns", str(exc))
        return None
    cid = create_campaign(store, session=session)
    return open_view(window, cid)


def new_from_history(window: WindowBase) -> HistoryCampaignDialog | None:
    """Campaign > New campaign from history: a template built on the historical battles
    (:mod:`app.core.scenario.campaigns`) in a ruleset; the campaign opens in the view."""
    from PySide6.QtWidgets import QMessageBox

    from app.gui.campaign.history import HistoryCampaignDialog

    if window.builder.store is None:
        QMessageBox.information(window, "Campaigns", "Campaigns need the store, which is not open.")
        return None
    dialog = HistoryCampaignDialog(window.registry, window)
    dialog.accepted.connect(lambda: _create_from_history(window, dialog))
    dialog.open()
    return dialog


def _create_from_history(window: WindowBase, dialog: HistoryCampaignDialog) -> None:
    from PySide6.QtWidgets import QMessageBox

    from app.core.campaign.model import CampaignError
    from app.usecases.campaign import create_campaign

    store = window.builder.store
    if store is None:
        return
    try:
        session = dialog.make_campaign()
    except CampaignError as exc:
        QMessageBox.warning(window, "Campaigns", str(exc))
        return
    open_view(window, create_campaign(store, session=session))


def import_campaign(window: WindowBase, path: Path | None = None) -> CampaignView | None:
    from PySide6.QtWidgets import QMessageBox

    from app.core.campaign.campaignfile import CampaignFileError, read_file
    from app.gui.files import open_file_name
    from app.usecases.campaign import create_campaign

    store = window.builder.store
    if store is None:
        return None
    if path is None:
        chosen = open_file_name(window, "Import campaign", "", "JSON (*.json)")
        if chosen is None:
            return None
        path = chosen
    try:
        session = read_file(path, window.registry)
    except CampaignFileError as exc:
        QMessageBox.warning(window, "Import campaign", str(exc))
        return None
    return open_view(window, create_campaign(store, session=session))
