"""Campaign > New campaign from rosters… (found driving the window: a campaign could be
started from one's own rosters only with ``castra campaign new --side``). The dialog offers
the rulesets that have rosters, starts with two sides on two rosters named after their
sides, and refuses in its own words what the core refuses (as the command line does), then
the campaign is stored and shown."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.core.campaign.model import MAX_SIDES
from app.gui.campaign import menu
from app.gui.campaign.new_campaign import NewCampaignDialog
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import Store
from app.store.campaigns import list_campaigns, load_campaign
from app.store.repo import seed_samples

pytestmark = pytest.mark.gui


def _dialog(qtbot: QtBot, registry: Registry, store: Store) -> NewCampaignDialog:
    seed_samples(store, registry=registry)
    dialog = NewCampaignDialog(registry, store)
    qtbot.addWidget(dialog)
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("quincunx"))
    return dialog


def test_two_sides_on_two_rosters_start_a_stored_campaign(
    qtbot: QtBot, window: MainWindow, registry: Registry, store: Store
) -> None:
    dialog = _dialog(qtbot, registry, store)
    # the samples seeded on first start: a ready army of each side in every ruleset
    assert {dialog.ruleset.itemData(i) for i in range(dialog.ruleset.count())} == {
        "d3-ancients",
        "grown-slightly-bald",
        "leg-vi-carthago",
        "mwan90",
        "quincunx",
    }
    rosters = [c.currentData() for c in dialog.side_rosters]
    assert len(rosters) == 2 and len(set(rosters)) == 2
    assert sorted(n.text() for n in dialog.side_names) == ["Carthage", "Rome"]
    dialog.name.setText("Italy, 218 BC")
    dialog.recovery.setCurrentIndex(dialog.recovery.findData("half"))
    dialog.start()
    assert dialog.result() == NewCampaignDialog.DialogCode.Accepted
    assert dialog.session is not None
    view = menu.start_campaign(window, dialog.session)
    assert view is not None
    [row] = list_campaigns(store)
    campaign = load_campaign(store, campaign_id=row.id, registry=registry).campaign
    assert (campaign.name, campaign.recovery) == ("Italy, 218 BC", "half")
    assert sorted(s.name for s in campaign.sides) == ["Carthage", "Rome"]
    assert {s.army.ruleset for s in campaign.sides} == {"quincunx"}


@pytest.mark.parametrize(
    ("name", "sides", "words"),
    [
        ("", ("Rome", "Carthage"), "campaign name"),
        ("C", ("Rome", "rome"), "already a side named 'Rome'"),
        ("C", ("Rome", ""), "a side needs a name"),
        ("C", ("Rome", "Car\x1bthage"), "control character"),
    ],
)
def test_what_the_core_refuses_is_said_and_nothing_is_stored(
    qtbot: QtBot,
    registry: Registry,
    store: Store,
    name: str,
    sides: tuple[str, str],
    words: str,
) -> None:
    dialog = _dialog(qtbot, registry, store)
    dialog.name.setText(name)
    for edit, text in zip(dialog.side_names, sides, strict=True):
        edit.setText(text)
    dialog.start()
    assert dialog.result() != NewCampaignDialog.DialogCode.Accepted and dialog.session is None
    assert dialog.error.text().startswith("Not started: ") and words in dialog.error.text()
    assert list_campaigns(store) == []


def test_two_to_eight_sides(qtbot: QtBot, registry: Registry, store: Store) -> None:
    dialog = _dialog(qtbot, registry, store)
    assert not dialog.remove_button.isEnabled()
    for _ in range(MAX_SIDES + 2):
        dialog.add_button.click()
    assert len(dialog.side_names) == MAX_SIDES and not dialog.add_button.isEnabled()
    for _ in range(MAX_SIDES):
        dialog.remove_button.click()
    assert len(dialog.side_names) == 2


def test_the_menu_offers_it(window: MainWindow) -> None:
    from PySide6.QtWidgets import QMenu

    campaign_menu = window.findChild(QMenu, "campaignMenu")
    assert campaign_menu is not None
    texts = [a.text() for a in campaign_menu.actions()]
    assert "&New campaign from rosters…" in texts


def test_the_empty_campaign_view_says_how_to_start_one(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    from app.gui.campaign.window import NO_CAMPAIGN, CampaignView

    view = CampaignView(registry, store)
    qtbot.addWidget(view)
    view.show()
    view.fill_picker()
    assert view.statusBar().currentMessage() == NO_CAMPAIGN
    assert "New campaign from rosters" in NO_CAMPAIGN
