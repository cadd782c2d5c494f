"""Battle > New battle from history: the war's great battles (``app.core.scenario``), each
with its account, the forces the sources give (cited), its field and both armies in the
ruleset chosen, previewed as they will stand; Start battle opens it in a battle window, and
Rosters to edit puts the two armies in the library instead (to be fought on the field with
``castra battle new A B --scenario NAME``)."""

from __future__ import annotations

import random
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.battle import BattleSession, CommandError
from app.core.battle.look import battle_look
from app.core.battle.state import BattleState
from app.core.roster import Roster
from app.core.scenario.build import scenario_rosters
from app.core.scenario.deploy import scenario_battle
from app.core.scenario.library import Scenario, ScenarioLibrary
from app.core.scenario.start import scenario_session
from app.core.totals import roster_totals
from app.gui.battle.map.style import CLOTH
from app.gui.battle.map.style import look as terrain_look
from app.rules.mechanics import NotImplementedRule, mechanics_for
from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset
    from app.usecases.access import Store

MAX_SEED = 2**31 - 1


class FieldPreview(QWidget):
    """The battle's table as it will open: terrain, each side's deployment zone and its
    units where they stand (a picture only: nothing here changes the battle)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fieldPreview")
        self.state: BattleState | None = None
        self.zones: tuple[tuple[tuple[float, float], ...], ...] = ()
        #: each side's colour, from its army, as the battle map draws it
        self.colours: tuple[QColor, QColor] = (QColor(), QColor())
        self.setMinimumSize(320, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def show_state(
        self,
        state: BattleState | None,
        ruleset: Ruleset | None = None,
        zones: tuple[tuple[tuple[float, float], ...], ...] = (),
    ) -> None:
        self.state = state
        self.zones = zones
        if state is not None and ruleset is not None:
            a, b = (QColor(s.colour) for s in battle_look(state, ruleset).sides)
            self.colours = (a, b)
        self.update()

    def paintEvent(self, _event: object) -> None:
        state = self.state
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if state is None:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No battle chosen")
            return
        margin = 6.0
        scale = min(
            (self.width() - 2 * margin) / state.width, (self.height() - 2 * margin) / state.height
        )
        ox = (self.width() - state.width * scale) / 2
        oy = (self.height() - state.height * scale) / 2

        def at(x: float, y: float) -> QPointF:
            # side A's edge (y = 0) at the bottom, as the battle map draws it
            return QPointF(ox + x * scale, oy + (state.height - y) * scale)

        table = QRectF(ox, oy, state.width * scale, state.height * scale)
        p.fillRect(table, CLOTH)
        p.setClipRect(table)
        for piece in state.terrain:
            look = terrain_look(piece.kind)
            if piece.width is not None:
                path = QPainterPath(at(*piece.points[0]))
                for pt in piece.points[1:]:
                    path.lineTo(at(*pt))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(QPen(look.fill, max(piece.width * scale, 1.5)))
                p.drawPath(path)
            else:
                p.setPen(QPen(look.outline, 1))
                p.setBrush(QBrush(look.fill))
                p.drawPolygon(QPolygonF([at(*pt) for pt in piece.points]))
        for side, zone in enumerate(self.zones):
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(self.colours[side].lighter(150), 1, Qt.PenStyle.DashLine))
            p.drawPolygon(QPolygonF([at(*pt) for pt in zone]))
        for u in state.units:
            p.setPen(QPen(self.colours[u.side].darker(150), 0.8))
            p.setBrush(QBrush(self.colours[u.side]))
            p.drawPolygon(QPolygonF([at(*pt) for pt in u.footprint.corners()]))
        p.setClipping(False)
        p.setPen(QPen(QColor("#555555"), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(table)


class HistoryDialog(QDialog):
    """The battles on the left; the ruleset, scale and seed, the preview and the account
    with the forces on the right."""

    def __init__(
        self, registry: Registry, library: ScenarioLibrary, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("historyDialog")
        self.setWindowTitle("New battle from history")
        self.registry = registry
        self.library = library
        self.rosters_wanted = False
        self.battles = QListWidget()
        self.battles.setObjectName("historyBattles")
        self.battles.setMaximumWidth(230)
        for sc in library:
            item = QListWidgetItem(f"{sc.name}\n{sc.data.battle.date}")
            item.setData(Qt.ItemDataRole.UserRole, sc.id)
            item.setToolTip(sc.data.battle.place)
            self.battles.addItem(item)
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("historyRuleset")
        self.scale = QComboBox()
        self.scale.setObjectName("historyScale")
        self.scale.setMinimumContentsLength(16)
        self.scale.setToolTip(
            "The roster scale, where the ruleset counts figures: the same figures stand for "
            "more or fewer men"
        )
        self.seed = QSpinBox()
        self.seed.setObjectName("historySeed")
        self.seed.setRange(0, MAX_SEED)
        self.seed.setValue(random.SystemRandom().randrange(MAX_SEED))
        self.seed.setToolTip("The dice's seed: the same seed throws the same dice")
        self.preview = FieldPreview()
        self.table_label = QLabel()
        self.table_label.setObjectName("historyTable")
        self.table_label.setWordWrap(True)
        self.account = QTextBrowser()
        self.account.setObjectName("historyAccount")
        self.account.setOpenLinks(False)
        self.error = QLabel()
        self.error.setObjectName("historyError")
        self.error.setStyleSheet("color:#b00020")
        self.error.setWordWrap(True)

        choose = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.ruleset, 2)
        row.addWidget(QLabel("Scale"))
        row.addWidget(self.scale, 1)
        row.addWidget(QLabel("Dice seed"))
        row.addWidget(self.seed, 1)
        choose.addRow("Ruleset", row)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addLayout(choose)
        lv.addWidget(self.preview, 3)
        lv.addWidget(self.table_label)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.account)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        body = QHBoxLayout()
        body.addWidget(self.battles)
        body.addWidget(split, 1)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start battle")
        self.edit_first = QPushButton("Rosters to edit")
        self.edit_first.setObjectName("historyRosters")
        self.edit_first.setToolTip(
            "Put the two armies in the library to edit them first, instead of starting the battle"
        )
        self.buttons.addButton(self.edit_first, QDialogButtonBox.ButtonRole.ActionRole)
        self.edit_first.clicked.connect(self._rosters)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer = QVBoxLayout(self)
        outer.addLayout(body, 1)
        outer.addWidget(self.error)
        outer.addWidget(self.buttons)
        self.battles.currentRowChanged.connect(lambda _r: self._fill_rulesets())
        self.ruleset.currentIndexChanged.connect(lambda _i: self._fill_scales())
        self.scale.currentIndexChanged.connect(lambda _i: self._refresh())
        self.resize(1120, 640)
        if self.battles.count():
            self.battles.setCurrentRow(0)
        else:
            self.error.setText("No historical battle loaded.")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            self.edit_first.setEnabled(False)

    # ------------------------------------------------------------------ choices

    def scenario(self) -> Scenario | None:
        item = self.battles.currentItem()
        if item is None:
            return None
        return self.library.scenarios.get(str(item.data(Qt.ItemDataRole.UserRole)))

    def chosen_ruleset(self) -> Ruleset | None:
        rid = self.ruleset.currentData()
        return None if rid is None else self.registry.get(str(rid))

    def chosen_scale(self) -> str | None:
        data = self.scale.currentData()
        return None if data is None else str(data)

    def _fill_rulesets(self) -> None:
        sc = self.scenario()
        keep = self.ruleset.currentData()
        self.ruleset.blockSignals(True)
        self.ruleset.clear()
        if sc is not None:
            for rs in self.registry:
                if rs.id in sc.rulesets:
                    self.ruleset.addItem(rs.meta.short_name, rs.id)
        self.ruleset.setCurrentIndex(max(self.ruleset.findData(keep), 0))
        self.ruleset.blockSignals(False)
        self._fill_scales()

    def _fill_scales(self) -> None:
        sc, rs = self.scenario(), self.chosen_ruleset()
        self.scale.blockSignals(True)
        self.scale.clear()
        if sc is not None and rs is not None and rs.counts_figures:
            setting = sc.data.rulesets[rs.id].scale
            for s in rs.meta.scales:
                self.scale.addItem(f"{s} (the battle's)" if s == setting else s, s)
            self.scale.setCurrentIndex(max(self.scale.findData(setting), 0))
        else:
            self.scale.addItem("counts bases", None)
        self.scale.setEnabled(self.scale.count() > 1)
        self.scale.blockSignals(False)
        self._refresh()

    # ------------------------------------------------------------------ preview

    def rosters(self) -> tuple[Roster, Roster]:
        sc, rs = self.scenario(), self.chosen_ruleset()
        if sc is None or rs is None:
            raise ValueError("choose a battle and a ruleset")
        return scenario_rosters(sc, rs, scale=self.chosen_scale())

    def _refresh(self) -> None:
        sc, rs = self.scenario(), self.chosen_ruleset()
        self.error.clear()
        if sc is None or rs is None:
            self.preview.show_state(None)
            self.account.clear()
            return
        try:
            rosters = self.rosters()
            mech = mechanics_for(rs)
            state = scenario_battle(sc, rs, mech, rosters)
        except (ValueError, NotImplementedRule) as exc:
            self.preview.show_state(None)
            self.error.setText(str(exc))
            return
        self.preview.show_state(state, rs, mech.deployment_zones(state.view()))
        u = mech.length_symbol()
        self.table_label.setText(
            f"Table {state.width:g} x {state.height:g}{u}. {sc.data.field.note}"
        )
        self.account.setHtml(account_html(sc, rs, rosters))

    # ------------------------------------------------------------------ results

    def _rosters(self) -> None:
        self.rosters_wanted = True
        self.accept()

    def make_session(self) -> tuple[BattleSession, tuple[Roster, Roster]]:
        """The battle, started (ValueError in one line when it cannot be)."""
        sc, rs = self.scenario(), self.chosen_ruleset()
        if sc is None or rs is None:
            raise ValueError("choose a battle and a ruleset")
        try:
            return scenario_session(
                sc, rs, mechanics_for(rs), seed=self.seed.value(), rosters=self.rosters()
            )
        except (CommandError, NotImplementedRule) as exc:
            raise ValueError(str(exc)) from None


def account_html(sc: Scenario, rs: Ruleset, rosters: tuple[Roster, Roster]) -> str:
    """The battle in words for the dialog: the account, the outcome, each side's forces
    with their sources, and its army in ``rs`` with what a unit stands for."""
    b = sc.data.battle
    setting = sc.data.rulesets[rs.id]
    parts = [
        f"<h3>{escape(sc.name)}, {escape(b.date)}</h3>",
        f"<p><i>{escape(b.place)}</i></p>",
        f"<p>{escape(b.account)}</p>",
        f"<p><b>Outcome.</b> {escape(b.outcome)}</p>",
    ]
    for side_id, roster in zip(sc.side_ids, rosters, strict=True):
        side = sc.side(side_id)
        totals = roster_totals(rs, roster)
        men = (
            f"{totals.men * setting.factor:,} men"
            if totals.men is not None
            else "each unit a share of the army"
        )
        parts.append(
            f"<h4>{escape(side.name)}: {escape(side.commander)}</h4>"
            f"<p>In {escape(rs.meta.short_name)}: {totals.units} units, {men}; "
            f"leaders: {escape(', '.join(ld.name for ld in roster.leaders) or 'none')}.</p><ul>"
        )
        for f in side.forces:
            what = f"{f.men:,} men" if f.men else f"{f.elephants} elephants"
            reading = ", Castra's reading" if f.reading else ""
            parts.append(f"<li>{what}: {escape(f.name)} ({escape(f.cite)}{reading})</li>")
        parts.append("</ul>")
        parts.append(
            f"<p><b>Lost in history:</b> {escape(side.losses.text)} "
            f"({escape(side.losses.cite)})</p>"
        )
        if side.objective is not None:
            parts.append(f"<p><b>Objective:</b> {escape(side.objective.text)}</p>")
    parts.append(f"<p><b>{escape(rs.meta.short_name)}.</b> {escape(setting.represents)}")
    if setting.notes:
        parts.append(f" {escape(setting.notes)}")
    parts.append("</p>")
    if b.zones_note:
        parts.append(f"<p><b>Deployment.</b> {escape(b.zones_note)}</p>")
    parts.append(f"<p><b>Sources.</b> {escape('; '.join(b.sources))}. {escape(b.notes)}</p>")
    return "".join(parts)


def create_from_history(
    dialog: HistoryDialog, store: Store
) -> tuple[int, BattleSession, tuple[Roster, Roster]]:
    """Start the battle chosen and store it (ValueError in one line; nothing stored)."""
    from app.usecases.access import StoreError
    from app.usecases.battle import create_battle

    session, rosters = dialog.make_session()
    try:
        battle_id = create_battle(store, session=session, rosters=rosters)
    except StoreError as exc:
        raise ValueError(str(exc)) from None
    return battle_id, session, rosters


def save_history_rosters(dialog: HistoryDialog, store: Store) -> list[tuple[int, str]]:
    """Put the two armies chosen in the library, each under a name no roster has yet;
    (id, name) of each."""
    from app.usecases.access import StoreError
    from app.usecases.roster import save_new_rosters

    try:
        return save_new_rosters(store, dialog.rosters())
    except StoreError as exc:
        raise ValueError(str(exc)) from None
