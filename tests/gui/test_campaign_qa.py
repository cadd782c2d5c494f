"""The Campaigns window as a new club player meets it (QA pass at 1280x720)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.gui.campaign.window import CampaignView
from app.rules.registry import Registry
from app.store import Store
from app.store.campaigns import create_campaign
from tests.core.campaign.helpers import hannibal_in_italy


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


def _from_rosters(registry: Registry, store: Store, rid: str) -> None:
    from app.core.battle.sample import sample_roster
    from app.core.campaign.start import campaign_from_rosters

    rs = registry.get(rid)
    armies = list(rs.armies)
    sides = [("Rome", sample_roster(rs, armies[-1])), ("Carthage", sample_roster(rs, armies[0]))]
    create_campaign(store, session=campaign_from_rosters(rs, "A night", sides))


def test_a_campaign_from_rosters_gets_its_battles_in_the_window(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    """A campaign started from rosters has no battle, and the window had no way to add one:
    Fight, Record and Apply sat disabled with nothing saying why (only the command line's
    ``campaign add-battle`` could). Add a battle puts the next battle in, on the ruleset's
    table or a historical field, and Fight makes it."""
    from app.gui.actions import ActionKey
    from app.gui.campaign.add_battle import AddBattleDialog

    _from_rosters(registry, store, "grown-slightly-bald")
    view = _view(qtbot, registry, store)
    fight = view.action(ActionKey.CV_FIGHT)
    assert not fight.isEnabled() and "add one with Add a battle" in fight.toolTip()
    add = view.action(ActionKey.CV_ADD_BATTLE)
    assert add.isEnabled()

    seen: list[AddBattleDialog] = []

    def fill(dialog: AddBattleDialog) -> bool:
        seen.append(dialog)
        assert [dialog.side_a.itemText(i) for i in range(dialog.side_a.count())] == [
            "Rome",
            "Carthage",
        ]
        assert dialog.side_b.currentText() == "Carthage"
        dialog.side_b.setCurrentIndex(0)  # the same side twice: said, and the form stays
        dialog._accept()
        assert "two different sides" in dialog.error.text() and dialog.step is None
        dialog.side_b.setCurrentIndex(1)
        dialog.name.setText("Cannae again")
        dialog.place.setText("Apulia")
        fields = [dialog.field.itemText(i) for i in range(dialog.field.count())]
        assert any(f.startswith("Cannae") for f in fields), fields
        dialog.field.setCurrentIndex(
            next(i for i, f in enumerate(fields) if f.startswith("Cannae"))
        )
        dialog._accept()
        return dialog.step is not None

    view.ask_battle = fill
    add.trigger()
    assert seen
    c = view.session.campaign if view.session else None
    assert c is not None and [b.name for b in c.battles] == ["Cannae again"]
    assert (c.battles[0].place, c.battles[0].scenario) == ("Apulia", "cannae")
    assert view.timeline.topLevelItem(0).text(0) == "Cannae again"
    assert fight.isEnabled()
    battle_id = view.fight()  # no battle window here: the battle is made, to play
    assert battle_id is not None
    assert view.session is not None and view.session.campaign.battles[0].fought == battle_id
