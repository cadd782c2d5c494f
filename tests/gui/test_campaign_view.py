"""The campaign view driven as a user would: record a result in the quick form, preview and
apply it, undo, the strength plot, a battle fought and handed back, the Campaign menu; trees
keep expansion and selection across steps and undo; the view fits 1280x720."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from app.core.battle import EndBattle
from app.gui.actions import ActionKey
from app.gui.campaign.record import RecordDialog
from app.gui.campaign.trees import KEY
from app.gui.campaign.window import CampaignView
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import Store
from app.store.battles import battle_for_update
from app.store.campaigns import create_campaign, load_campaign
from tests.core.campaign.helpers import hannibal_in_italy


def _view(qtbot: QtBot, registry: Registry, store: Store) -> CampaignView:
    create_campaign(store, session=hannibal_in_italy(registry.get("quincunx")))
    view = CampaignView(registry, store)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view


def _fill(dialog: RecordDialog) -> bool:
    """The user's form: Rome's first unit ends at 5, the second is lost, Flaminius is
    killed and Scipio wounded; Carthage won."""
    dialog.winner.setCurrentIndex(1)
    t = dialog.units
    end = t.cellWidget(0, 3)
    assert isinstance(end, QSpinBox)
    end.setValue(5)
    lost = t.cellWidget(1, 4)
    assert isinstance(lost, QCheckBox)
    lost.setChecked(True)
    for row in range(dialog.leaders.rowCount()):
        name = dialog.leaders.item(row, 1).text()
        fate = dialog.leaders.cellWidget(row, 2)
        assert isinstance(fate, QComboBox)
        if name == "C. Flaminius":
            fate.setCurrentText("killed")
        if name == "P. Cornelius Scipio":
            fate.setCurrentText("wounded")
    dialog.notes.setPlainText("Fog on the river.")
    dialog.accept()
    return True


def test_a_deleted_view_lets_go_of_its_campaign_at_once(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    """A Campaigns window deleted (its main window moved to another store) frees its
    campaign with it, by reference counting: the preview the window asks with held the
    window in a cycle, and a deleted window with its campaign (some 10,000 objects at 50
    battles) waited for a pass of the collector."""
    import gc
    import weakref

    from PySide6.QtCore import QCoreApplication, QEvent

    create_campaign(store, session=hannibal_in_italy(registry.get("quincunx")))
    collecting = gc.isenabled()
    gc.disable()
    try:
        view = CampaignView(registry, store)
        view.show()
        assert view.session is not None
        campaign = weakref.ref(view.session)
        view.close()
        view.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        del view
        assert campaign() is None
    finally:
        if collecting:
            gc.enable()


def test_record_preview_apply_undo_and_plot(qtbot: QtBot, registry: Registry, store: Store) -> None:
    view = _view(qtbot, registry, store)
    assert view.timeline.topLevelItemCount() == 3
    assert len(view.plot.series()) == 2 and len(view.plot.plot.listDataItems()) == 2
    assert not view.action(ActionKey.CV_APPLY).isEnabled()
    view.ask_result = _fill
    view.action(ActionKey.CV_RECORD).trigger()
    assert view.timeline.topLevelItem(0).text(1) == "recorded"
    assert view.action(ActionKey.CV_APPLY).isEnabled()

    # the user expands Rome's leaders and selects Scipio; the view keeps that
    leaders = view.armies.item_of("leaders:rome")
    assert leaders is not None
    leaders.setExpanded(True)
    view.armies.setCurrentItem(view.armies.item_of("leader:rome:scipio"))

    seen: list[list[str]] = []
    view.confirm = lambda title, lines: seen.append(lines) or True
    view.action(ActionKey.CV_APPLY).trigger()
    lines = seen[0]
    assert "  C. Flaminius: fit -> killed" in lines
    assert "  P. Cornelius Scipio: fit -> wounded (1 wound)" in lines
    assert any("-> lost (lost)" in line for line in lines)
    flaminius = view.armies.item_of("leader:rome:left_legion_commander")
    assert flaminius is not None and flaminius.text(1) == "killed"
    assert view.plot.data is not None and view.plot.data.labels == ("Start", "The Trebia")
    assert view.plot.data.sides[0][1][1] < view.plot.data.sides[0][1][0]
    current = view.armies.currentItem()
    assert current is not None and current.data(0, KEY) == "leader:rome:scipio"
    assert view.armies.item_of("leaders:rome").isExpanded()  # type: ignore[union-attr]
    stored = load_campaign(store, campaign_id=1, registry=registry)
    assert stored.campaign.battle("b1").applied

    # undo the application: the armies as before, the tree as the user left it
    view.action(ActionKey.CV_UNDO).trigger()
    flaminius = view.armies.item_of("leader:rome:left_legion_commander")
    assert flaminius is not None and flaminius.text(1) == "fit"
    current = view.armies.currentItem()
    assert current is not None and current.data(0, KEY) == "leader:rome:scipio"
    assert view.armies.item_of("leaders:rome").isExpanded()  # type: ignore[union-attr]
    assert not load_campaign(store, campaign_id=1, registry=registry).campaign.battle("b1").applied
    assert view.plot.data.labels == ("Start",)
    # the troop-type view of the plot
    view.plot.view.setCurrentIndex(1)
    assert len(view.plot.plot.listDataItems()) == len(view.plot.series()) > 3


def test_fight_next_battle_and_hand_back(qtbot: QtBot, registry: Registry, store: Store) -> None:
    view = _view(qtbot, registry, store)
    bid = view.fight()
    assert bid is not None
    assert view.session is not None and view.session.campaign.battle("b1").fought == bid
    with battle_for_update(store, battle_id=bid, registry=registry) as battle:
        battle.do(EndBattle(winner=0, reason="the Romans hold the river"))
    view.ask_result = lambda d: False  # the form is not wanted: the battle gives the result
    assert view.record()
    result = view.session.campaign.battle("b1").result
    assert result is not None and result.source == "fought" and result.battle_id == bid
    assert view.timeline.topLevelItem(0).text(2) == "Rome"


def test_campaign_menu_and_fit(qtbot: QtBot, window: MainWindow) -> None:
    menu = window.findChild(type(window.print_menu), "campaignMenu")
    assert menu is not None and menu.menuAction() in window.menuBar().actions()
    window.action_registry[ActionKey.NEW_CAMPAIGN_TEMPLATE].trigger()
    view: Any = window.campaign_view  # type: ignore[attr-defined]
    qtbot.waitExposed(view)
    assert view.session is not None and view.session.campaign.name == "Hannibal in Italy"
    view.resize(1280, 720)
    qtbot.wait(50)
    for widget in (view.timeline, view.armies, view.plot):
        assert widget.isVisible() and widget.width() >= 250
        pos = widget.mapTo(view, widget.rect().bottomRight())
        assert pos.x() <= view.width() and pos.y() <= view.height()
    view.close()


def test_fight_opens_the_battle_window_and_its_end_comes_back(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Fight next battle opens the campaign battle in the battle window; when the battle
    ends there, its result is recorded for the campaign battle (from the fought battle)."""
    window.action_registry[ActionKey.NEW_CAMPAIGN_TEMPLATE].trigger()
    view: Any = window.campaign_view  # type: ignore[attr-defined]
    qtbot.waitExposed(view)
    view.confirm = lambda title, lines: True
    bid = view.fight()
    assert bid is not None and bid in window.battles.windows
    battle_window = window.battles.windows[bid]
    qtbot.waitExposed(battle_window)
    assert view.session.campaign.battle("b1").result is None
    battle_window.controller.execute(EndBattle(winner=1, reason="Hannibal's ambush"))
    result = view.session.campaign.battle("b1").result
    assert result is not None and result.source == "fought" and result.battle_id == bid
    assert result.winner == 1
    battle_window.close()
    view.close()


def test_a_long_campaign_names_some_battles_on_the_chart_axis() -> None:
    """Fifty battles' names ran into one another under the chart: a short campaign names
    every point, a long one every few and the last, the others ticked without a name."""
    from app.gui.campaign.plot import MAX_LABELS, ticks

    short = ("Start", "The Trebia", "Cannae")
    assert ticks(short) == [list(enumerate(short)), []]
    season = ("Start", *(f"Battle {k}" for k in range(1, 51)))
    named, rest = ticks(season)
    assert len(named) <= MAX_LABELS + 1
    assert named[0] == (0, "Start") and named[-1] == (50, "Battle 50")
    assert sorted([i for i, _ in named] + [i for i, _ in rest]) == list(range(51))
    assert all(text == "" for _, text in rest)


def test_the_strength_chart_draws_each_side_in_its_armys_colour(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    """Rome red and Carthage purple on the strength chart and in the chronicle PDF's, as the
    battle map, its legend and the history preview draw them (the chart drew Carthage blue);
    the troop-type view keeps its palette."""
    from reportlab.lib import colors

    from app.export.chronicle import _line_chart, _side_colour

    view = _view(qtbot, registry, store)
    data = view.plot.data
    assert data is not None
    rs = registry.get("quincunx")
    armies = [rs.armies[s.army.army] for s in view.session.campaign.sides]  # type: ignore[union-attr]
    assert data.colours == tuple(a.colour for a in armies) == ("#a83232", "#5b3b8c")
    pens = [item.opts["pen"].color().name() for item in view.plot.plot.listDataItems()]
    assert pens == ["#a83232", "#5b3b8c"]
    chart = _line_chart(data, 400)
    lines = next(c for c in chart.contents if hasattr(c, "lines")).lines
    assert [lines[i].strokeColor.hexval() for i in range(2)] == ["0xa83232", "0x5b3b8c"]
    assert _side_colour(data, 1) == colors.HexColor("#5b3b8c")


def _recorded_then_damaged(store: Store, registry: Registry, session: Any, battle: str) -> int:
    """A campaign with ``battle`` recorded and applied, whose armies as they went in are
    then damaged in the store."""
    import json

    from app.core.battle.result import hand_result
    from app.core.campaign.fight import battle_rosters
    from app.core.campaign.steps import ApplyResult, RecordResult
    from tests.store.conftest import sql

    b = session.campaign.battle(battle)
    session.do(RecordResult(b.id, hand_result(battle_rosters(session.campaign, b.id), winner=1)))
    session.do(ApplyResult(b.id))
    cid = create_campaign(store, session=session)
    rows = sql(store, "SELECT n, delta FROM campaign_step")
    for n, text in rows:
        change = json.loads(text)
        item = change.get("battles", {}).get("items", {}).get("0", {}).get("keys", {})
        if "went_in" in item:
            item["went_in"] = {"whole": [{"name": 3}, {}]}
            text = json.dumps(change)
            sql(store, "UPDATE campaign_step SET delta = :s WHERE n = :n", s=text, n=n)
    return cid


def test_damaged_armies_of_a_battle_are_said_in_the_window(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    """A battle's armies as they went in are built when they are read. Damaged in the
    store, they are said in one line when the window needs them: at once for a battle on a
    historical field (its losses beside history's), at the chronicle otherwise."""
    from tests.core.campaign.helpers import leg_vi_campaign

    cid = _recorded_then_damaged(store, registry, leg_vi_campaign(registry), "Trebia")
    view = CampaignView(registry, store)
    qtbot.addWidget(view)
    view.show()
    assert view.session is not None and view.timeline.topLevelItemCount() == 3
    assert view.chronicle(Path(tempfile.mkdtemp()) / "c.pdf") is None
    said = view.statusBar().currentMessage()
    assert said.startswith("No chronicle: ") and f"campaign {cid} cannot be read" in said

    other = _recorded_then_damaged(
        store, registry, hannibal_in_italy(registry.get("quincunx")), "b1"
    )
    view.open_campaign(other)
    assert view.session is None and view.timeline.topLevelItemCount() == 0
    assert f"campaign {other} cannot be read" in view.statusBar().currentMessage()
    view.open_campaign(cid)  # and the other campaign shows again
    assert view.session is not None and view.timeline.topLevelItemCount() == 3
