"""The campaign view: the timeline of battles (left), each side's army with its leaders'
state and its units (right), the strength plot (middle), and the steps: record a result
(the quick form, or from the fought battle), apply it after a preview of every change, undo
and redo, fight the next battle, the chronicle PDF, export.

A thin layer: every change is a core step (:mod:`app.core.campaign.steps`) on a
:class:`~app.core.campaign.session.CampaignSession`, saved at once in the store; a write
refused because the campaign changed elsewhere reloads it instead of overwriting.

"Fight next battle" makes the battle from the campaign armies and opens it in the battle
window; when that battle ends (its ``ended`` signal), :meth:`CampaignView.battle_ended`
takes its result from the stored battle. Without a battle window (``open_battle`` None) the
battle is only made, to be played from the command line and recorded from there.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFormLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QSplitter,
    QTextBrowser,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.collector import collector_paused
from app.core.campaign.chronicle import entry as chronicle_entry
from app.core.campaign.chronicle import strength, timeline
from app.core.campaign.diff import diff, size_word
from app.core.campaign.fight import battle_rosters
from app.core.campaign.model import Campaign, CampaignBattle, CampaignError
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import ApplyResult, RecordResult, Step
from app.gui.actions import SPECS, ActionKey, make_action, set_tip
from app.gui.campaign.add_battle import AddBattleDialog
from app.gui.campaign.plot import StrengthPlot
from app.gui.campaign.record import RecordDialog
from app.gui.campaign.trees import KeptTree, army_rows, timeline_rows
from app.gui.guide import show_guide
from app.rules.registry import Registry
from app.usecases.access import StaleWrite, Store, StoreError

if TYPE_CHECKING:
    from app.gui.battle.window import BattleWindow
    from app.usecases.campaign import CampaignChanged


def _confirm_dialog(parent: QWidget | None, title: str, lines: list[str]) -> bool:
    """The preview of a step: every change in words; OK does it."""
    dialog = QDialog(parent)
    dialog.setObjectName("previewDialog")
    dialog.setWindowTitle(title)
    layout = QVBoxLayout(dialog)
    layout.addWidget(QLabel("These changes will be made to the armies:"))
    text = QPlainTextEdit("\n".join(lines) or "(no change to the armies)")
    text.setReadOnly(True)
    layout.addWidget(text)
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    dialog.resize(520, 380)
    return dialog.exec() == QDialog.DialogCode.Accepted


class SidesDialog(QDialog):
    """Campaign > Sides and players…: for each side, the club member who plays it (or
    nobody). The umpire's, on a club server."""

    NOBODY = "(nobody)"

    def __init__(
        self,
        parent: QWidget,
        sides: list[tuple[str, str]],
        members: dict[str, str],
        chosen: dict[str, str],
    ) -> None:
        super().__init__(parent)
        self.setObjectName("sidesDialog")
        self.setWindowTitle("Sides and players")
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Who plays each side: a player reinforces, promotes and returns the leaders of "
            "the sides they play; the rest is the umpire's."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.combos: dict[str, QComboBox] = {}
        for side_id, name in sides:
            combo = QComboBox()
            combo.setObjectName(f"side_{side_id}")
            combo.addItem(self.NOBODY, None)
            for member, role in members.items():
                combo.addItem(f"{member} ({role})", member)
            index = combo.findData(chosen.get(side_id))
            combo.setCurrentIndex(max(index, 0))
            self.combos[side_id] = combo
            form.addRow(name, combo)
        layout.addLayout(form)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(460, self.sizeHint().height())

    def chosen(self) -> dict[str, str | None]:
        """Side id -> the member chosen (None: nobody)."""
        return {side: combo.currentData() for side, combo in self.combos.items()}


#: what the view says while the store holds no campaign
def _no_battle(campaign: Campaign) -> str:
    """Why there is no next battle to fight, record or apply, and what to do."""
    if not campaign.battles:
        return "the campaign has no battle yet: add one with Add a battle"
    return "every battle of the campaign has been applied: add the next with Add a battle"


NO_CAMPAIGN = (
    "No campaign yet: start one in the main window with Campaign > New campaign from "
    "rosters…, or the Hannibal in Italy template"
)


class CampaignView(QMainWindow):
    def __init__(self, registry: Registry, store: Store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # the window with its campaign read and shown makes some 24,000 objects the
        # collector tracks at 50 battles (11,000 kept), few of them in a cycle: one pass of
        # the collector after, not young passes walking them as they are made and moving
        # them on to older generations, whose full passes then came inside later openings
        with collector_paused():
            self._build(registry, store)

    def _build(self, registry: Registry, store: Store) -> None:
        self.setObjectName("campaignView")
        self.setWindowTitle("Campaigns - Castra")
        self.registry = registry
        self.store = store
        self.session: CampaignSession | None = None
        self.campaign_id: int | None = None
        #: opens a stored battle in the battle window (the main window's battle manager);
        #: None: "Fight next battle" only makes the battle, to play from the command line
        self.open_battle: Callable[[int], BattleWindow | None] | None = None
        #: asked before a step is done, with its preview; tests answer for the user. Over
        #: this window, known by a weak reference: a function holding the window itself
        #: made a cycle, and a deleted window (with its campaign, some 10,000 objects at 50
        #: battles) stayed in memory until a pass of the collector went over it
        me = weakref.ref(self)
        self.confirm: Callable[[str, list[str]], bool] = lambda t, lines: _confirm_dialog(
            me(), t, lines
        )
        #: runs the record form; returns whether it was accepted
        self.ask_result: Callable[[RecordDialog], bool] = lambda d: (
            d.exec() == QDialog.DialogCode.Accepted
        )
        #: runs the add-a-battle form; returns whether it was accepted
        self.ask_battle: Callable[[AddBattleDialog], bool] = lambda d: (
            d.exec() == QDialog.DialogCode.Accepted
        )
        #: runs the sides-and-players form; returns whether it was accepted
        self.ask_sides: Callable[[SidesDialog], bool] = lambda d: (
            d.exec() == QDialog.DialogCode.Accepted
        )
        self.actions_: dict[ActionKey, QAction] = {}
        #: this member's role on a club server (``player``, ``umpire``), or None: a local
        #: store, or the club's admin
        self.role: str | None = None
        if store.on_server:
            from app.usecases.club import member_role

            try:
                self.role = member_role(store)
            except StoreError:
                self.role = None

        self.plot = StrengthPlot()
        self.setCentralWidget(self.plot)
        self.timeline = KeptTree()
        self.timeline.setObjectName("timelineTree")
        self.timeline.setHeaderLabels(["Battle", "State", "Winner", "When and where"])
        self.timeline.setColumnWidth(0, 130)
        self.timeline.setColumnWidth(1, 60)
        self.timeline.setWordWrap(True)
        self.armies = KeptTree()
        self.armies.setObjectName("armiesTree")
        self.armies.setHeaderLabels(["Army", "State", "In history"])
        self.armies.setColumnWidth(0, 205)
        self.armies.setColumnWidth(1, 135)
        self.details = QTextBrowser()
        self.details.setObjectName("battleDetails")
        self.timeline.currentItemChanged.connect(lambda *_: self._show_details())
        battles = QSplitter(Qt.Orientation.Vertical)
        battles.addWidget(self.timeline)
        battles.addWidget(self.details)
        battles.setSizes([380, 220])
        left = self._dock("timelineDock", "Battles", battles, Qt.DockWidgetArea.LeftDockWidgetArea)
        right = self._dock(
            "armiesDock", "Armies", self.armies, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.resizeDocks([left, right], [300, 390], Qt.Orientation.Horizontal)
        self.picker = QComboBox()
        self.picker.setObjectName("campaignPicker")
        self.picker.setMinimumWidth(220)
        self.picker.currentIndexChanged.connect(self._picked)
        self._toolbar()
        self.resize(1240, 680)
        self.fill_picker()

    # ------------------------------------------------------------------ layout

    def _dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        widget.setMinimumWidth(280)
        self.addDockWidget(area, dock)
        return dock

    def _toolbar(self) -> None:
        bar = QToolBar("Campaign", self)
        bar.setObjectName("campaignToolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.addWidget(self.picker)
        menu = self.menuBar().addMenu("&Campaign")
        handlers: dict[ActionKey, Callable[[], object]] = {
            ActionKey.CV_RECORD: self.record,
            ActionKey.CV_APPLY: self.apply,
            ActionKey.CV_UNDO: self.undo,
            ActionKey.CV_REDO: self.redo,
            ActionKey.CV_ADD_BATTLE: self.add_battle,
            ActionKey.CV_FIGHT: self.fight,
            ActionKey.CV_CHRONICLE: self.chronicle,
            ActionKey.CV_EXPORT: self.export,
            ActionKey.CV_ASSIGN: self.assign_sides,
            ActionKey.CV_CLOSE: self.close,
            ActionKey.GUIDE: lambda: show_guide(self, "campaigns.md"),
        }
        for key, handler in handlers.items():
            action = make_action(self, key)
            action.triggered.connect(lambda _=False, h=handler: h())
            self.actions_[key] = action
            menu.addAction(action)
            if key == ActionKey.CV_CLOSE:
                menu.insertSeparator(action)
            if key not in (
                ActionKey.CV_EXPORT,
                ActionKey.CV_ASSIGN,
                ActionKey.CV_CLOSE,
                ActionKey.GUIDE,
            ):
                bar.addAction(action)
        self.actions_[ActionKey.CV_ASSIGN].setVisible(self.store.on_server)
        self.addToolBar(bar)
        # the read-only banner, as the roster editor shows one (a player's window)
        self.lock_bar = QToolBar("Read-only", self)
        self.lock_bar.setObjectName("campaignLockBar")
        self.lock_bar.setMovable(False)
        self.lock_bar.toggleViewAction().setVisible(False)
        self.lock_banner = QLabel()
        self.lock_banner.setObjectName("readOnlyBanner")
        self.lock_banner.setStyleSheet(
            "QLabel { background: #fff3cd; color: #5c4400; padding: 4px 8px; }"
        )
        self.lock_bar.addWidget(self.lock_banner)
        self.addToolBarBreak()
        self.addToolBar(self.lock_bar)
        self.lock_bar.hide()

    def action(self, key: ActionKey) -> QAction:
        return self.actions_[key]

    # ------------------------------------------------------------------ loading

    def fill_picker(self, select: int | None = None) -> None:
        from app.usecases.campaign import list_campaigns

        self.picker.blockSignals(True)
        self.picker.clear()
        for c in list_campaigns(self.store):
            rs = self.registry.get(c.ruleset) if c.ruleset in self.registry else None
            self.picker.addItem(f"{c.name} ({rs.meta.short_name if rs else c.ruleset})", c.id)
        self.picker.blockSignals(False)
        index = self.picker.findData(select) if select is not None else 0
        if self.picker.count():
            self.picker.setCurrentIndex(max(index, 0))
            self._picked()
        else:
            self._refresh()

    def _picked(self, _: int = 0) -> None:
        cid = self.picker.currentData()
        if cid is not None:
            self.open_campaign(int(cid))

    def open_campaign(self, campaign_id: int) -> None:
        # as the window's build (the campaign read, its trees and chart made)
        with collector_paused():
            self._open_campaign(campaign_id)

    def _open_campaign(self, campaign_id: int) -> None:
        from app.usecases.campaign import load_campaign

        try:
            self.session = load_campaign(
                self.store, campaign_id=campaign_id, registry=self.registry
            )
        except (StoreError, KeyError) as exc:
            self._say(str(exc))
            return
        self.campaign_id = campaign_id
        index = self.picker.findData(campaign_id)
        if index >= 0 and index != self.picker.currentIndex():
            self.picker.blockSignals(True)
            self.picker.setCurrentIndex(index)
            self.picker.blockSignals(False)
        try:
            self._refresh(expand_new=True)
        except StoreError as exc:  # a battle's armies (read when shown) damaged in the store
            self.session = None
            self._refresh()
            self._say(str(exc))

    def reload_if_changed(self) -> bool:
        """Load the open campaign again when the store holds another version of it (another
        member made or undid a step on a club server). True when it was reloaded."""
        from app.usecases.campaign import campaign_version

        if self.session is None or self.campaign_id is None:
            return False
        try:
            stored = campaign_version(self.store, campaign_id=self.campaign_id)
        except StoreError as exc:
            self._say(str(exc))
            return False
        if stored is None or stored == self.session.version:
            return False
        self.fill_picker(select=self.campaign_id)
        self._say("Reloaded: another member changed this campaign")
        return True

    # ------------------------------------------------------------------ showing

    def _say(self, text: str) -> None:
        self.statusBar().showMessage(text, 10000)

    def _refresh(self, *, expand_new: bool = False) -> None:
        s = self.session
        enabled = s is not None
        for action in self.actions_.values():
            action.setEnabled(enabled)
        if s is None:
            self.timeline.clear()
            self.armies.clear()
            self.picker.setPlaceholderText("no campaign yet")
            self.statusBar().showMessage(NO_CAMPAIGN)
            return
        rs, c = s.ruleset, s.campaign
        self.timeline.rebuild(timeline_rows(timeline(rs, c)), expand_new=expand_new)
        self.armies.rebuild(army_rows(rs, c, size_word(rs)), expand_new=expand_new)
        self.plot.show_strength(strength(rs, s))
        undo, redo = s.undo_label(), s.redo_label()
        a = self.actions_
        a[ActionKey.CV_UNDO].setEnabled(undo is not None)
        a[ActionKey.CV_UNDO].setText(f"&Undo {undo}" if undo else "&Undo")
        a[ActionKey.CV_REDO].setEnabled(redo is not None)
        a[ActionKey.CV_REDO].setText(f"&Redo {redo}" if redo else "&Redo")
        nxt = c.next_battle()
        a[ActionKey.CV_FIGHT].setEnabled(nxt is not None)
        a[ActionKey.CV_RECORD].setEnabled(nxt is not None)
        a[ActionKey.CV_APPLY].setEnabled(nxt is not None and nxt.result is not None)
        self._limit(undo is not None, redo is not None)
        if nxt is None:  # disabled, saying why (a campaign from rosters starts with none)
            for key in (ActionKey.CV_FIGHT, ActionKey.CV_RECORD, ActionKey.CV_APPLY):
                a[key].setToolTip(f"Disabled: {_no_battle(c)}")
        self.setWindowTitle(f"{c.name} - Campaigns - Castra")
        first = self.timeline.topLevelItem(0)
        if self.timeline.currentItem() is None and first is not None:
            self.timeline.setCurrentItem(first)
        self._show_details()

    def _limit(self, can_undo: bool, can_redo: bool) -> None:
        """A player's window on a club server: what the server would refuse is disabled,
        saying why, and the banner says what is theirs (the sides they play)."""
        from app.usecases.campaign import campaign_sides, step_makers

        a = self.actions_
        for key, action in a.items():
            set_tip(action, SPECS[key].tip)
        if self.role != "player" or self.session is None or self.campaign_id is None:
            self.lock_bar.hide()
            return
        me = self.store.member or "?"
        umpires = f"the umpire's (you are {me}, a player)"
        tips = {
            ActionKey.CV_RECORD: f"Recording a result is {umpires}",
            ActionKey.CV_APPLY: f"Applying a result is {umpires}",
            ActionKey.CV_ADD_BATTLE: f"Adding a battle is {umpires}",
            ActionKey.CV_FIGHT: f"Fighting the next battle is {umpires}",
            ActionKey.CV_ASSIGN: f"Giving sides is {umpires}",
        }
        for key, tip in tips.items():
            a[key].setEnabled(False)
            a[key].setToolTip(f"Disabled: {tip}")
        try:
            makers = step_makers(self.store, campaign_id=self.campaign_id)
            sides = campaign_sides(self.store, campaign_id=self.campaign_id)
        except StoreError as exc:
            self._say(str(exc))
            makers, sides = [], {}
        cursor = self.session.cursor
        mine_back = can_undo and 0 < cursor <= len(makers) and makers[cursor - 1] == me
        mine_next = can_redo and cursor < len(makers) and makers[cursor] == me
        a[ActionKey.CV_UNDO].setEnabled(mine_back)
        a[ActionKey.CV_REDO].setEnabled(mine_next)
        if can_undo and not mine_back:
            a[ActionKey.CV_UNDO].setToolTip("Disabled: you undo only steps you made")
        if can_redo and not mine_next:
            a[ActionKey.CV_REDO].setToolTip("Disabled: you redo only steps you made")
        played = [s.name for s in self.session.campaign.sides if sides.get(s.id) == me]
        if played:
            text = (
                f"You play {', '.join(played)}: you reinforce it, promote and return its "
                f"leaders; the rest is {umpires}"
            )
        else:
            text = f"Read-only: you play no side of this campaign; it is {umpires}"
        self.lock_banner.setText(text)
        self.lock_bar.show()

    def _show_details(self) -> None:
        """The selected battle in full: date, place, result, losses, fates, notes."""
        item = self.timeline.currentItem()
        if self.session is None or item is None:
            self.details.clear()
            return
        top = item
        while (up := top.parent()) is not None:
            top = up
        key = str(top.data(0, Qt.ItemDataRole.UserRole)).removeprefix("battle:")
        c = self.session.campaign
        battle = next((b for b in c.battles if b.id == key), None)
        if battle is None:
            self.details.clear()
            return
        entry = chronicle_entry(self.session.ruleset, c, battle)
        b = entry.battle
        where = ", ".join(x for x in (b.date, b.place) if x)
        parts = [
            f"<b>{escape(b.name)}</b>" + (f" ({escape(where)})" if where else ""),
            f"<i>{escape(entry.state)}</i>",
        ]
        parts += [escape(w) for w in entry.words]
        parts += [f"<i>{escape(w)}</i>" for w in entry.history]
        if entry.notes:
            parts.append("<span style='color:#5A5A5A'>From the battle:</span>")
            parts += [f"<span style='color:#5A5A5A'>{escape(n)}</span>" for n in entry.notes]
        self.details.setHtml("<br>".join(parts))

    # ------------------------------------------------------------------ steps

    def _saved(self, op: Callable[[], CampaignChanged[Step]]) -> Step | None:
        """Run a campaign use case (one transaction, as ``castra campaign`` does); the step
        it did, or None when the store refused it (said, and the campaign reloaded). A step
        the core refuses raises."""
        assert self.campaign_id is not None
        try:
            return op().value
        except StaleWrite as exc:
            self._say(f"{exc}; reloaded")
        except StoreError as exc:
            self._say(str(exc))
        self.open_campaign(self.campaign_id)
        return None

    def _change(self, change: Callable[[CampaignSession], Step]) -> CampaignChanged[Step]:
        from app.usecases.campaign import change_campaign

        assert self.session is not None and self.campaign_id is not None
        return change_campaign(
            self.store, campaign_id=self.campaign_id, session=self.session, change=change
        )

    def do(self, step: Step) -> bool:
        """Do a step, save it, show it; a step the core refuses is a message."""

        def do_step(session: CampaignSession) -> Step:
            session.do(step)
            return step

        return self._do(lambda: self._change(do_step))

    def _do(self, op: Callable[[], CampaignChanged[Step]]) -> bool:
        if self.session is None:
            return False
        try:
            step = self._saved(op)
        except (CampaignError, ValueError) as exc:
            self._say(str(exc))
            return False
        self._refresh()
        if step is not None and self.session is not None:
            self._say(f"{step.title(self.session.campaign)}: done")
        return step is not None

    def _next(self) -> CampaignBattle | None:
        if self.session is None:
            return None
        battle = self.session.campaign.next_battle()
        if battle is None:
            self._say(_no_battle(self.session.campaign))
        return battle

    def add_battle(self) -> bool:
        """The next battle, between two sides, from the Add-a-battle form."""
        if self.session is None:
            return False
        from app.core.scenario.start import scenario_library
        from app.paths import user_scenarios_dir

        rs = self.session.ruleset
        dialog = AddBattleDialog(
            self,
            campaign=self.session.campaign,
            ruleset=rs,
            library=scenario_library([rs], user_scenarios_dir()),
        )
        if not self.ask_battle(dialog) or dialog.step is None:
            return False
        return self.do(dialog.step)

    def record(self) -> bool:
        """Record the next battle's result: from its fought battle when it has ended,
        else in the quick form."""
        battle = self._next()
        if battle is None or self.session is None:
            return False
        if battle.fought is not None and self._fought_ended(battle.fought):
            return self.battle_ended(battle.fought)
        c = self.session.campaign
        sides = (c.side(battle.participants[0].side).name, c.side(battle.participants[1].side).name)
        dialog = RecordDialog(
            self,
            battle=battle.name,
            sides=sides,
            rosters=battle_rosters(c, battle.id),
            unit_word=size_word(self.session.ruleset),
        )
        if not self.ask_result(dialog) or dialog.outcome is None:
            return False
        return self.do(RecordResult(battle.id, dialog.outcome))

    def preview_apply(self) -> list[str]:
        battle = self._next()
        if battle is None or self.session is None:
            return []
        after = self.session.preview(ApplyResult(battle.id))
        return diff(self.session.ruleset, self.session.campaign, after)

    def apply(self) -> bool:
        battle = self._next()
        if battle is None or self.session is None:
            return False
        try:
            lines = self.preview_apply()
        except CampaignError as exc:
            self._say(str(exc))
            return False
        if not self.confirm(f"Apply the result of {battle.name}", lines):
            return False
        return self.do(ApplyResult(battle.id))

    def undo(self) -> None:
        if self.session is None or not self.session.can_undo():
            return
        step = self._saved(lambda: self._change(lambda s: s.undo()))
        if step is not None:
            self._say(f"undone: {step.title(self.session.campaign)}")
        self._refresh()

    def redo(self) -> None:
        if self.session is None or not self.session.can_redo():
            return
        step = self._saved(lambda: self._change(lambda s: s.redo()))
        if step is not None:
            self._say(f"redone: {step.title(self.session.campaign)}")
        self._refresh()

    # ------------------------------------------------------------------ battles

    def _fought_ended(self, battle_id: int) -> bool:
        from app.usecases.campaign import battle_ended

        return battle_ended(self.store, battle_id=battle_id, registry=self.registry)

    def fight(self) -> int | None:
        """Make the next battle from the campaign armies through the core; its id."""
        from app.usecases.campaign import fight

        battle = self._next()
        if battle is None or self.session is None:
            return None
        try:
            fought = fight(self.store, session=self.session, battle=battle.id)
        except (CampaignError, ValueError) as exc:
            self._say(str(exc))
            return None
        except StoreError as exc:  # a player's window: the server refuses (one line)
            self._say(f"Not fought: {exc}")
            return None
        bid, bs = fought.battle_id, fought.battle
        self.do(fought.link)
        window = self.open_battle(bid) if self.open_battle is not None else None
        if window is not None:
            # when the battle ends, its result comes back to this campaign battle
            window.ended.connect(lambda: self.battle_ended(bid))
            self._say(
                f"Battle {bid} opened in the battle window: {bs.name}. When it ends, its "
                "result comes back here to preview and apply."
            )
            return bid
        self._say(
            f"Battle {bid} made: {bs.name}. Play it (castra battle ... {bid}); when it ends, "
            "Record a result takes it from there."
        )
        return bid

    def battle_ended(self, battle_id: int) -> bool:
        """The entry point for the battle window: the stored battle ``battle_id`` has
        ended; its result goes to the campaign battle it was fought for."""
        from app.usecases.campaign import record_fought

        if self.session is None:
            return False
        target = next((b for b in self.session.campaign.battles if b.fought == battle_id), None)
        if target is None:
            self._say(f"battle {battle_id} was not fought for this campaign")
            return False
        assert self.campaign_id is not None
        cid, session = self.campaign_id, self.session
        return self._do(
            lambda: record_fought(
                self.store,
                campaign_id=cid,
                battle=target.id,
                fought=battle_id,
                registry=self.registry,
                session=session,
            )
        )

    # ------------------------------------------------------------------ club

    def assign_sides(self) -> bool:
        """Campaign > Sides and players…: the umpire gives each side to a club member (or
        to nobody). True when something changed."""
        from app.usecases.campaign import assign_side, campaign_sides, unassign_side
        from app.usecases.club import club_members

        if self.session is None or self.campaign_id is None or not self.store.on_server:
            return False
        cid = self.campaign_id
        try:
            members = club_members(self.store)
            before = campaign_sides(self.store, campaign_id=cid)
        except StoreError as exc:
            self._say(str(exc))
            return False
        sides = [(s.id, s.name) for s in self.session.campaign.sides]
        dialog = SidesDialog(self, sides, members, before)
        if not self.ask_sides(dialog):
            return False
        changed = {s: m for s, m in dialog.chosen().items() if before.get(s) != m}
        try:
            for side, member in changed.items():
                if member is None:
                    unassign_side(self.store, campaign_id=cid, side=side)
                else:
                    assign_side(self.store, campaign_id=cid, side=side, member=member)
        except StoreError as exc:
            self._say(f"Not saved: {exc}")
            return False
        names = dict(sides)
        said = [f"{names[s]}: {m or 'nobody'}" for s, m in changed.items()]
        self._say("Sides: " + "; ".join(said) if said else "Sides unchanged")
        self._refresh()
        return bool(changed)

    # ------------------------------------------------------------------ files

    def chronicle(self, path: Path | None = None) -> Path | None:
        from app.export.chronicle import chronicle_pdf
        from app.export.common import write_bytes

        if self.session is None:
            return None
        if path is None:
            from app.gui.files import save_file_name

            path = save_file_name(self, "Chronicle PDF", "", "PDF (*.pdf)")
            if path is None:
                return None
        try:
            write_bytes(path, chronicle_pdf(self.session.ruleset, self.session))
        except OSError as exc:
            QMessageBox.warning(self, "Chronicle", f"{path}: {exc.strerror or exc}")
            return None
        except StoreError as exc:  # a battle's armies, damaged in the store, read only here
            self._say(f"No chronicle: {exc}")
            return None
        self._say(f"wrote {path}")
        return path

    def export(self, path: Path | None = None) -> Path | None:
        from app.core.campaign.campaignfile import export_file

        if self.session is None:
            return None
        if path is None:
            from app.gui.files import save_file_name

            path = save_file_name(self, "Export campaign", "", "JSON (*.json)")
            if path is None:
                return None
        try:
            export_file(self.session, path)
        except OSError as exc:
            QMessageBox.warning(self, "Export", f"{path}: {exc.strerror or exc}")
            return None
        except StoreError as exc:  # a battle's armies, damaged in the store, read only here
            self._say(f"Not exported: {exc}")
            return None
        self._say(f"wrote {path}")
        return path
