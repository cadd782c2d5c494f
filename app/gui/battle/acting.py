"""The Actions and odds dock: pick a unit and a target (on the map, or any two units by
hand, setting flank, rear, uphill or cover as the command line can), then one of the
ruleset's actions with its options; the exact odds are shown before rolling; "Roll" resolves
it with the battle's seeded dice and "Enter dice…" with dice thrown at the table.

The options start as the core derives them from the table (a target's flank from the
units' positions) and the player may change them; only what differs from that is sent with
the command, as ``--set`` does on the command line."""

from __future__ import annotations

import heapq
import html
from fractions import Fraction
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.battle import Act, CommandError, Step
from app.core.battle.odds_summary import (
    OutcomeRow,
    chance_after,
    expected_losses,
    outcome_rows,
)
from app.core.battle.result_card import ResultCard, result_card
from app.core.battle.state import BattleState
from app.gui.battle.controller import BattleController
from app.gui.battle.odds_chart import OddsChart
from app.rules.mechanics import ActionSpec, NotImplementedRule, Odds, OptionSpec, Scalar, Side

NONE = "(none)"
#: A unit list is measured by this many of its longest entries (:class:`UnitCombo`).
MEASURED = 64
#: most height the options take before they scroll, in pixels
OPTIONS_HEIGHT = 150


class _WrapLabel(QLabel):
    """An option's name, wrapped to the dock's width. Its height for a width is measured
    once per width and text: Qt lays the words out again on every call, and the layouts of
    the Actions dock asked the fourteen option names of a melee for theirs some four hundred
    times as the window opened (each a text layout)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setWordWrap(True)
        self._heights: dict[tuple[int, str], int] = {}

    def heightForWidth(self, width: int) -> int:
        key = (width, self.text())
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) >= 64:  # a dock dragged through many widths
                self._heights.clear()
            height = self._heights[key] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)


class _BoxLabel(_WrapLabel):
    """A check box's words, wrapped, that toggle the box when clicked (a QCheckBox's own
    text never wraps, and its long option names were cut off in a narrow dock)."""

    def __init__(self, box: QCheckBox, label: QLabel) -> None:
        super().__init__(label.text())
        self.box = box
        self.setToolTip(label.toolTip())
        self.setObjectName(label.objectName())

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.box.isEnabled():
            self.box.toggle()
        event.accept()


def _option_row(widget: QWidget, label: QLabel) -> QWidget:
    """One option: a check box then its words wrapped beside it; any other field after
    its name, wrapped to what the dock leaves."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    top = Qt.AlignmentFlag.AlignTop
    if isinstance(widget, QCheckBox):
        layout.addWidget(widget, 0, top)
        layout.addWidget(_BoxLabel(widget, label), 1)
    else:
        layout.addWidget(label, 1)
        layout.addWidget(widget, 0, top)
    return row


class _ActButton(QPushButton):
    """The button that does the chosen action: "Roll", or the action's own name when it
    throws no dice. A long name is cut short with "…" to the room the row leaves (the whole
    name in its tooltip) instead of widening the dock: MWAN #90's "End of the first side's
    move" pushed the Actions dock wider, the map narrower and the table's edge out of
    sight."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.full_text = text
        policy = self.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.setSizePolicy(policy)

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self._elide()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(self.fontMetrics().horizontalAdvance("Roll…") + 16, hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        room = self.width() - 16  # the frame's padding
        shown = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, room)
        if shown != self.text():
            self.setText(shown)
        self.setToolTip(self.full_text if shown != self.full_text else "")


class UnitCombo(QComboBox):
    """The Unit or Target list: the battle's units. Qt sizes such a list to its entries,
    measuring the text of every entry, and measures again once it is first shown (opening a
    1,000-unit battle measured the 1,000 names of a list: 3.5% of the open). Here:

    - a size is measured once for the same entries in the same font and style: a list whose
      entries are its twin's takes the size the twin measured, and a list first shown in the
      font and style it was measured in keeps that size (what Qt would measure again);
    - a list of more than :data:`MEASURED` entries is as wide as Qt makes a list of its
      :data:`MEASURED` longest (by characters): a shorter name is wider only where its
      letters are much wider, and the list then shows it elided (the list is as wide as the
      dock anyway; its width decides only how narrow the dock may be).

    Otherwise as Qt's: the size is kept until the list is first shown, then looked up again
    and kept (until the font or style changes)."""

    def __init__(self, sizes: dict[tuple[object, ...], QSize]) -> None:
        super().__init__()
        #: the sizes measured, by the entries, font and style they were measured for (shared
        #: by the twins)
        self._sizes = sizes
        #: what the list holds: each unit's id and text (set by :meth:`fill`)
        self.entries: tuple[tuple[str, str], ...] = ()
        #: the texts of its rows, as filled
        self._texts: list[str] = []
        #: each entry's unit id, by row (None: the first row, no unit)
        self._ids: list[str | None] = []
        self._rows: dict[str, int] = {}
        self._size: QSize | None = None
        self._shown = False
        #: a hidden list holding only the longest entries, measured in this one's place
        self._measurer: QComboBox | None = None

    def fill(self, listed: tuple[tuple[str, str], ...]) -> None:
        """Offer :data:`NONE` then each ``(unit id, text)`` of ``listed``. The texts go in
        at once (one insertion, where an item a unit made Qt insert a row and tell its view
        1,000 times: about 2 ms a list on opening a 1,000-unit battle); the ids stay here,
        and :meth:`currentData`, :meth:`itemData` and :meth:`findData` read them."""
        self.clear()
        self._ids = [None, *(unit_id for unit_id, _ in listed)]
        self._rows = {unit_id: row for row, unit_id in enumerate(self._ids) if unit_id is not None}
        self.entries = listed
        self._texts = [NONE, *(text for _, text in listed)]
        self.addItems(self._texts)

    def itemData(self, index: int, role: int = Qt.ItemDataRole.UserRole) -> Any:
        if role != Qt.ItemDataRole.UserRole:
            return super().itemData(index, role)
        return self._ids[index] if 0 <= index < len(self._ids) else None

    def currentData(self, role: int = Qt.ItemDataRole.UserRole) -> Any:
        return self.itemData(self.currentIndex(), role)

    def findData(
        self,
        data: object,
        role: int = Qt.ItemDataRole.UserRole,
        flags: Qt.MatchFlag = Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchCaseSensitive,
    ) -> int:
        if role != Qt.ItemDataRole.UserRole:
            return super().findData(data, role, flags)
        if data is None:
            return 0 if self._ids else -1
        return self._rows.get(data, -1) if isinstance(data, str) else -1

    def sizeHint(self) -> QSize:
        if self._size is None:
            key = (self.entries, self.font().key(), self.style().name())
            size = self._sizes.get(key)
            if size is None:
                size = self._sizes[key] = self._measure()
            self._size = size
        return QSize(self._size)

    def _measure(self) -> QSize:
        """Qt's size for this list, or, for a long one, for its longest entries alone."""
        count = self.count()
        if count <= MEASURED:
            return super().sizeHint()
        texts = self._texts
        if len(texts) != count:  # filled other than by fill(): Qt measures every entry
            return super().sizeHint()
        measurer = self._measurer
        if measurer is None:
            # a hidden child: it goes with the list (a window of its own, never shown, it
            # stayed among the application's top-level widgets until Python dropped it)
            measurer = self._measurer = QComboBox(self)
            measurer.hide()
        measurer.setStyle(self.style())
        measurer.setFont(self.font())
        measurer.clear()
        measurer.addItems(heapq.nlargest(MEASURED, texts, key=len))
        return measurer.sizeHint()

    def showEvent(self, event: QShowEvent) -> None:
        if not self._shown:
            self._shown = True
            self._size = None  # as Qt: looked up again once first shown
        super().showEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._size = None
            self._sizes.clear()
        super().changeEvent(event)


class ActingPanel(QWidget):
    #: the actor chosen here (the map selects it too)
    actorChosen = Signal(str)

    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("actingPanel")
        self._derived: dict[str, Scalar] = {}
        self._option_widgets: dict[str, QWidget] = {}
        self._filling = False
        # fits the options again once their new rows are laid out (the dock's own timer: it
        # goes with the dock, and with it the hold it has on the dock)
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_options)
        #: what each unit list holds (filled again only when that changes)
        self._listed: dict[int, tuple[tuple[str, str], ...]] = {}
        #: the odds shown last: every outcome row and the expected losses (exact), the
        #: distribution itself and the command they are for (a result card reads its chance)
        self.rows: list[OutcomeRow] = []
        self.expected: dict[str, Fraction] = {}
        self.odds: Odds | None = None
        self.odds_command: Act | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        form = QFormLayout()
        sizes: dict[tuple[object, ...], QSize] = {}
        self.actor = UnitCombo(sizes)
        self.actor.setObjectName("actorCombo")
        self.target = UnitCombo(sizes)
        self.target.setObjectName("targetCombo")
        self.side = QComboBox()
        self.side.setObjectName("sideCombo")
        self.action = QComboBox()
        self.action.setObjectName("actionCombo")
        form.addRow("Unit", self.actor)
        form.addRow("Target", self.target)
        form.addRow("Side", self.side)
        form.addRow("Action", self.action)
        layout.addLayout(form)
        self.options_box = QWidget()
        # a column of rows (not a QFormLayout: its rows were too short for wrapped names)
        self.options_rows = QVBoxLayout(self.options_box)
        self.options_rows.setContentsMargins(2, 2, 2, 2)
        self.options_rows.setSpacing(3)
        self.options_scroll = QScrollArea()
        self.options_scroll.setWidgetResizable(True)
        self.options_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.options_scroll.setWidget(self.options_box)
        layout.addWidget(self.options_scroll)
        # the result of the last roll, kept until the next command (issue 23: it was only in
        # a status line cut off at 1280 pixels)
        self.card = QLabel()
        self.card.setObjectName("resultCard")
        self.card.setWordWrap(True)
        self.card.setTextFormat(Qt.TextFormat.RichText)
        self.card.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.card.setStyleSheet(
            "QLabel#resultCard { background: #fff8e1; color: #2b2100; padding: 4px; }"
        )
        self.card.hide()
        #: the card shown (None: none)
        self.shown_card: ResultCard | None = None
        self.summary = QLabel()
        self.summary.setObjectName("oddsSummary")
        self.summary.setWordWrap(True)
        self.chart = OddsChart()
        # the summary and the chart (as tall as its rows) scroll in what the dock leaves them,
        # so showing odds never makes the dock taller than the window allows at 1280x720 (it
        # grew the window past 720 pixels, or the Log dock covered the buttons below)
        odds = QWidget()
        odds.setObjectName("oddsBox")
        odds_layout = QVBoxLayout(odds)
        odds_layout.setContentsMargins(0, 0, 0, 0)
        odds_layout.addWidget(self.card)
        odds_layout.addWidget(self.summary)
        odds_layout.addWidget(self.chart, 1)
        self.odds_scroll = QScrollArea()
        self.odds_scroll.setObjectName("oddsScroll")
        self.odds_scroll.setWidgetResizable(True)
        self.odds_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.odds_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.odds_scroll.setWidget(odds)
        layout.addWidget(self.odds_scroll, 1)
        row = QHBoxLayout()
        self.roll_button = _ActButton("Roll")
        self.roll_button.setObjectName("rollButton")
        self.dice_button = QPushButton("Enter dice…")
        self.dice_button.setObjectName("enterDiceButton")
        self.charge_button = QPushButton("Charge")
        self.charge_button.setObjectName("chargeButton")
        self.charge_button.setToolTip("The unit charges the target (the rules find the path)")
        row.addWidget(self.roll_button, 1)
        row.addWidget(self.dice_button)
        row.addWidget(self.charge_button)
        layout.addLayout(row)
        for combo in (self.actor, self.target, self.side):
            combo.currentIndexChanged.connect(lambda _i: self._pair_changed())
        self.action.currentIndexChanged.connect(lambda _i: self._action_changed())
        self.actor.currentIndexChanged.connect(self._actor_signal)
        self._fill_actions()

    # ------------------------------------------------------------------ lists

    def _fill_actions(self) -> None:
        self.action.clear()
        for spec in self.controller.session.mechanics.actions():
            self.action.addItem(f"{spec.label} [{spec.targets}]", spec.key)

    def refresh(self) -> None:
        """Units and sides from the state shown; keeps the choices that still exist."""
        state = self.controller.state
        actor, target = self.actor.currentData(), self.target.currentData()
        side = self.side.currentData()
        self._filling = True
        self._fill_units(self.actor, actor)
        self._fill_units(self.target, target, without=self.actor.currentData())
        self.side.clear()
        self.side.addItem("(the unit's)", None)
        for i, s in enumerate(state.sides):
            self.side.addItem(s.name, i)
        self.side.setCurrentIndex(max(self.side.findData(side), 0))
        self._filling = False
        self._pair_changed()

    def _fill_units(self, combo: UnitCombo, keep: object, without: object = None) -> None:
        """Every unit of the battle shown (``without``: the unit acting, never its own
        target), keeping the choice when it is still offered. Filled again only when what it
        lists changed (a unit out of the battle, another actor): a step of a 1,000-unit
        battle filled two lists of 1,000 each time."""
        listed = tuple(
            (u.id, f"{u.id} {u.name}{' (out)' if u.status.eliminated else ''}")
            for u in self.controller.state.units
            if u.id != without
        )
        if self._listed.get(id(combo)) != listed:
            combo.fill(listed)
            self._listed[id(combo)] = listed
        combo.setCurrentIndex(max(combo.findData(keep), 0))

    def set_pair(self, actor: str | None, target: str | None = None) -> None:
        self._filling = True
        self.actor.setCurrentIndex(max(self.actor.findData(actor), 0))
        keep = target if target is not None else self.target.currentData()
        self._fill_units(self.target, keep, without=self.actor.currentData())
        self._filling = False
        self._pair_changed()

    def choose_action(self, key: str) -> None:
        index = self.action.findData(key)
        if index < 0:
            raise KeyError(f"no action {key!r} here")
        self.action.setCurrentIndex(index)

    def _actor_signal(self, _index: int) -> None:
        actor = self.actor.currentData()
        if self._filling:
            return
        # the target list never offers the unit acting (odds of a unit against itself)
        self._filling = True
        self._fill_units(self.target, self.target.currentData(), without=actor)
        self._filling = False
        self._pair_changed()
        if actor is not None:
            self.actorChosen.emit(str(actor))

    # ------------------------------------------------------------------ options

    def spec(self) -> ActionSpec | None:
        key = self.action.currentData()
        return None if key is None else self.controller.session.mechanics.action(str(key))

    def _action_changed(self) -> None:
        self._build_options()
        self._pair_changed()

    def _build_options(self) -> None:
        while (old := self.options_rows.takeAt(0)) is not None:
            if (row := old.widget()) is not None:
                row.hide()
                row.deleteLater()
        self._option_widgets = {}
        spec = self.spec()
        if spec is None:
            return
        for o in spec.options:
            w = self._option_widget(o)
            w.setObjectName(f"option_{o.key}")
            w.setToolTip(o.help or o.label)
            self._option_widgets[o.key] = w
            label = _WrapLabel(o.label)
            label.setToolTip(o.help or o.label)
            label.setObjectName(f"optionLabel_{o.key}")
            self.options_rows.addWidget(_option_row(w, label))
        self.options_rows.addStretch(1)
        self.options_scroll.setVisible(bool(spec.options))
        self._fit_options()
        # once the new rows are laid out, their true height
        self._refit.start()

    def _fit_options(self) -> None:
        """The options take the height their rows need (labels wrapped to the dock's
        width), up to :data:`OPTIONS_HEIGHT`; more scroll."""
        if not self._option_widgets:
            self.options_scroll.setFixedHeight(0)
            return
        width = max(self.options_scroll.viewport().width(), 120)
        layout = self.options_rows
        need = layout.heightForWidth(width) if layout.hasHeightForWidth() else -1
        if need < 0:
            need = self.options_box.sizeHint().height()
        frame = 2 * self.options_scroll.frameWidth()
        self.options_scroll.setFixedHeight(min(need + frame, OPTIONS_HEIGHT))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_options()

    def _option_widget(self, o: OptionSpec) -> QWidget:
        if o.kind == "bool":
            box = QCheckBox()
            box.toggled.connect(lambda _v: self._options_changed())
            return box
        if o.kind == "int":
            spin = QSpinBox()
            spin.setRange(
                o.minimum if o.minimum is not None else -1000,
                o.maximum if o.maximum is not None else 1000,
            )
            spin.valueChanged.connect(lambda _v: self._options_changed())
            return spin
        combo = QComboBox()
        # as wide as its longest choice, never as wide as the dock
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(max((len(c) for c in o.choices), default=4) + 1)
        combo.addItems(list(o.choices))
        combo.currentIndexChanged.connect(lambda _v: self._options_changed())
        return combo

    def _set_widget(self, key: str, value: Scalar) -> None:
        w = self._option_widgets.get(key)
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(w.findText(str(value)), 0))

    def _widget_value(self, key: str) -> Scalar:
        w = self._option_widgets[key]
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QSpinBox):
            return w.value()
        assert isinstance(w, QComboBox)
        return w.currentText()

    def set_option(self, key: str, value: Scalar) -> None:
        """Set an option by hand (flank, uphill, cover, ...)."""
        if key not in self._option_widgets:
            raise KeyError(f"this action has no option {key!r}")
        self._set_widget(key, value)

    def options(self) -> dict[str, Scalar]:
        """The options the player changed from what the table gives."""
        return {
            k: v
            for k in self._option_widgets
            if (v := self._widget_value(k)) != self._derived.get(k)
        }

    # ------------------------------------------------------------------ the command

    def _side(self) -> Side | None:
        data = self.side.currentData()
        return None if data is None else (0 if int(data) == 0 else 1)

    def command(self) -> Act | None:
        spec = self.spec()
        if spec is None:
            return None
        actor = self.actor.currentData() if spec.targets != "none" else None
        target = self.target.currentData() if spec.targets == "pair" else None
        side = self._side() if spec.targets in ("side", "none") else None
        return Act(
            action=spec.key,
            actor=None if actor is None else str(actor),
            target=None if target is None else str(target),
            side=side,
            options=self.options(),
        )

    def _pair_changed(self) -> None:
        """New units, side or action: the options as the table gives them, then the odds."""
        if self._filling:
            return
        cmd = self.command()
        self._derived = {}
        if cmd is not None:
            try:
                bare = Act(action=cmd.action, actor=cmd.actor, target=cmd.target, side=cmd.side)
                sit = bare.situation(self.controller.state, self.controller.session.mechanics)
                self._derived = dict(sit.options)
            except (CommandError, NotImplementedRule, KeyError, ValueError):
                spec = self.spec()
                self._derived = spec.defaults() if spec is not None else {}
        self._filling = True
        for key, value in self._derived.items():
            self._set_widget(key, value)
        self._filling = False
        self._options_changed()

    def _options_changed(self) -> None:
        if self._filling:
            return
        self.update_odds()

    def update_odds(self) -> None:
        """The exact odds of the action as chosen, from the core, before any roll."""
        c = self.controller
        playable = not c.read_only and c.state.result is None
        cmd, spec = self.command(), self.spec()
        throws = self._throws(cmd)
        # the button says what it does: Roll for an action that throws dice, else the
        # action itself (MWAN #90's "End move" sat behind a button labelled Roll)
        self.roll_button.set_full_text("Roll" if throws or spec is None else spec.label)
        self.roll_button.setEnabled(playable)
        self.dice_button.setEnabled(playable and throws)
        self.charge_button.setEnabled(playable)
        self.rows, self.expected = [], {}
        self.odds, self.odds_command = None, None
        if cmd is None or spec is None:
            self.summary.setText("Choose an action.")
            self.chart.clear()
            return
        if not spec.odds:
            self.summary.setText(f"{spec.label}: no odds to show for this action.")
            self.chart.clear()
            return
        missing = _missing_choice(spec.targets, cmd)
        if missing is not None:
            self.summary.setText(f"{spec.label}: {missing} to see the odds.")
            self.chart.clear()
            return
        try:
            odds = c.session.mechanics.odds(spec.key, cmd.situation(c.state, c.session.mechanics))
        except (CommandError, NotImplementedRule, KeyError, ValueError) as exc:
            text = str(exc.args[0]) if exc.args else str(exc)
            self.summary.setText(f"No odds: {text}")
            self.chart.clear()
            return
        self.odds, self.odds_command = odds, cmd
        rows = self.rows = outcome_rows(odds)
        expected = self.expected = expected_losses(odds)
        self.summary.setText(f"{spec.label}: {len(rows)} possible outcomes (exact).")
        self.summary.setToolTip(odds_tooltip(rows))
        self.chart.show_odds(rows, expected)

    def _throws(self, cmd: Act | None) -> bool:
        """Whether the command as chosen throws dice (it is tried on the battle, changing
        nothing); True when that cannot be told yet (a choice missing)."""
        if cmd is None:
            return True
        try:
            return self.controller.next_request(cmd, ()) is not None
        except (CommandError, NotImplementedRule, KeyError, ValueError):
            return True

    # ------------------------------------------------------------------ the result card

    def show_step(self, step: Step | None, before: BattleState | None) -> None:
        """The card of a step just done (its dice, what they meant, what changed, the chance
        its outcome had when the odds were shown for it); a step without dice clears it, as
        does an undo or a redo (``step`` None)."""
        if step is None or before is None or (not step.rolls and step.outcome is None):
            self.clear_card()
            return
        odds = self.odds if step.command == self.odds_command else None
        unit_word = self.controller.session.mechanics.strength_unit
        self.show_card(result_card(step, before, odds, unit_word))

    def show_card(self, card: ResultCard) -> None:
        self.shown_card = card
        self.card.setText(card_html(card))
        self.card.setToolTip(card_text(card))
        self.card.show()

    def clear_card(self) -> None:
        self.shown_card = None
        self.card.clear()
        self.card.hide()


#: outcomes listed in the odds' tooltip (a tooltip taller than the screen is cut off)
TOOLTIP_OUTCOMES = 30


def odds_tooltip(rows: list[OutcomeRow]) -> str:
    """The likeliest :data:`TOOLTIP_OUTCOMES` outcomes a line each, likeliest first: its
    chance in percent, its result and what it does to each side (the summary's tooltip);
    where there are more, a last line says how many more and what chance they share (the
    odds of big units have thousands: a line each made a tooltip taller than any screen).
    ``castra odds`` lists them all."""
    lines = [
        f"{r.share * 100:6.2f}%  {r.result}: attacker {r.attacker}; defender {r.defender}"
        for r in rows[:TOOLTIP_OUTCOMES]
    ]
    more = len(rows) - TOOLTIP_OUTCOMES
    if more > 0:
        rest = chance_after(rows, TOOLTIP_OUTCOMES)
        lines.append(
            f"{float(rest) * 100:6.2f}%  {more:,} less likely outcomes "
            "(castra odds lists every one)"
        )
    return "\n".join(lines)


def card_html(card: ResultCard) -> str:
    """The card as the dock shows it: the outcome in bold, its chance, the dice, what
    changed, and what the dice meant."""
    e = html.escape
    parts = [f"<b>{e(card.title)}</b>"]
    if card.outcome is not None:
        line = f"Result: <b>{e(card.outcome)}</b>"
        if card.chance_words is not None:
            line += f" &mdash; a {e(card.chance_words)} chance"
        parts.append(line)
    if card.dice:
        parts.append("Dice: " + "; ".join(e(d) for d in card.dice))
    if card.changes:
        parts.append("<br>".join(e(c) for c in card.changes))
    if card.lines:
        parts.append(f"<span style='color:#5a4a1a'>{'<br>'.join(e(t) for t in card.lines)}</span>")
    return "<br>".join(parts)


def card_text(card: ResultCard) -> str:
    """The card as plain text (its tooltip, and what tests read)."""
    out = [card.title]
    if card.outcome is not None:
        out.append(
            f"Result: {card.outcome}"
            + (f" ({card.chance_words} chance)" if card.chance_words else "")
        )
    out += [f"Dice: {d}" for d in card.dice]
    out += list(card.changes)
    out += list(card.lines)
    return "\n".join(out)


def _missing_choice(targets: str, cmd: Act) -> str | None:
    """What the user has still to choose in the dock before the action has odds (the
    dock's words, not the command line's), or None when nothing is missing."""
    if targets in ("unit", "pair") and cmd.actor is None:
        return "choose a unit"
    if targets == "pair" and cmd.target is None:
        return "choose a target"
    if targets == "side" and cmd.actor is None and cmd.side is None:
        return "choose a unit or a side"
    return None
