"""The Campaigns window as a new club player meets it (QA pass at 1280x720)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.campaign.template import hannibal_in_italy
from app.gui.campaign.window import CampaignView
from app.rules.registry import Registry
from app.store import Store
from app.store.campaigns import create_campaign


def _view(qtbot: QtBot, registry: Registry, store: Store) -> CampaignView:
    view = CampaignView(registry, store)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_the_campaign_picker_names_the_ruleset_as_players_do(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    """'Hannibal in Italy (Quincunx)', not the data's id '(quincunx)' or
    '(grown-slightly-bald)', cut off in the toolbar."""
    create_campaign(store, session=hannibal_in_italy(registry.get("quincunx")))
    view = _view(qtbot, registry, store)
    short = registry.get("quincunx").meta.short_name
    assert view.picker.itemText(0) == f"Hannibal in Italy ({short})"


def test_the_history_campaign_dialog_shows_each_account_whole(
    qtbot: QtBot, registry: Registry
) -> None:
    """Campaign > New campaign from history: the campaign's account was squeezed to a line
    and a half, cut at top and bottom; it is as tall as its lines, for every campaign."""
    from app.core.scenario.campaigns import TEMPLATES
    from app.gui.campaign.history import HistoryCampaignDialog

    dialog = HistoryCampaignDialog(registry)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    label = dialog.summary
    for i in range(len(TEMPLATES)):
        dialog.template.setCurrentIndex(i)
        qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))
        assert label.heightForWidth(label.width()) > 2 * label.fontMetrics().height()
