"""New battle: two rosters of one ruleset, a table, a dice seed (random unless one is
typed, so a battle can be played again), and for D3 the sides with supply problems. The
battle starts as ``castra battle new`` starts it: both armies stand in their deployment
zones, and the first phase is where they are deployed (dragged inside their zones)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.core.battle import BattleSession, CommandError, StartBattle, new_battle
from app.core.battle.base import battle_name_problem
from app.core.battle.setup import Table, default_table
from app.core.roster import Roster
from app.rules.layouts import Layout, LayoutError, fit_layout, ready_made
from app.rules.measure import mm_per_unit
from app.rules.mechanics import NotImplementedRule, Scalar, mechanics_for
from app.rules.registry import Registry
from app.rules.table import TerrainError

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset
    from app.store import RosterSummary, Store

MAX_SEED = 2**31 - 1


class NewBattleDialog(QDialog):
    def __init__(
        self,
        registry: Registry,
        summaries: list[RosterSummary],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("newBattleDialog")
        self.setWindowTitle("New battle")
        self.registry = registry
        self.summaries = [s for s in summaries if s.ruleset in registry and not s.deleted]
        form = QFormLayout(self)
        self.roster_a = QComboBox()
        self.roster_a.setObjectName("rosterA")
        self.roster_b = QComboBox()
        self.roster_b.setObjectName("rosterB")
        for s in self.summaries:
            self.roster_a.addItem(self._text(s), s.id)
        self.table = QComboBox()
        self.table.setObjectName("tableCombo")
        self.table.setToolTip(
            "A ready-made table of the ruleset, or one saved from a battle "
            "(Map > Save table as layout in a battle, or castra battle table --save)"
        )
        self.layouts: list[Layout] = []
        self.seed = QSpinBox()
        self.seed.setObjectName("seedSpin")
        self.seed.setRange(0, MAX_SEED)
        self.seed.setValue(random.SystemRandom().randrange(MAX_SEED))
        self.seed.setToolTip("The dice's seed: the same seed throws the same dice")
        reroll = QPushButton("Random")
        reroll.clicked.connect(
            lambda: self.seed.setValue(random.SystemRandom().randrange(MAX_SEED))
        )
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(reroll)
        self.name = QLineEdit()
        self.name.setObjectName("battleName")
        self.name.setPlaceholderText("Roster A vs Roster B")
        self.name.setMaxLength(200)
        self.supply_a = QCheckBox("side A")
        self.supply_b = QCheckBox("side B")
        supply_row = QHBoxLayout()
        supply_row.addWidget(self.supply_a)
        supply_row.addWidget(self.supply_b)
        self.supply_label = QLabel("Supply problems (D3)")
        self.error = QLabel()
        self.error.setObjectName("newBattleError")
        self.error.setStyleSheet("color:#b00020")
        self.error.setWordWrap(True)
        form.addRow("Side A", self.roster_a)
        form.addRow("Side B", self.roster_b)
        form.addRow("Table", self.table)
        form.addRow("Dice seed", seed_row)
        form.addRow(self.supply_label, supply_row)
        form.addRow("Name", self.name)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start battle")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.roster_a.currentIndexChanged.connect(lambda _i: self._fill_b())
        self._fill_b()
        self.resize(520, 0)

    def _text(self, s: RosterSummary) -> str:
        rs = self.registry.get(s.ruleset)
        return f"{s.name} — {s.side}, {rs.meta.short_name} ({s.units} units)"

    def _summary(self, roster_id: object) -> RosterSummary | None:
        return next((s for s in self.summaries if s.id == roster_id), None)

    def _fill_b(self) -> None:
        """Side B: rosters of side A's ruleset, another side first."""
        a = self._summary(self.roster_a.currentData())
        keep = self.roster_b.currentData()
        self.roster_b.clear()
        if a is None:
            return
        same = [s for s in self.summaries if s.ruleset == a.ruleset and s.id != a.id]
        same.sort(key=lambda s: (s.side == a.side, s.name.casefold()))
        for s in same:
            self.roster_b.addItem(self._text(s), s.id)
        self.roster_b.setCurrentIndex(max(self.roster_b.findData(keep), 0))
        # supply problems change a side's chance-card deck (D3 Ancients)
        cards = self.registry.get(a.ruleset).engine.has_chance_cards
        for w in (self.supply_label, self.supply_a, self.supply_b):
            w.setVisible(cards)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(same))
        self.error.setText("" if same else "No other roster of this ruleset to fight.")
        self._fill_tables(a.ruleset)

    def _fill_tables(self, ruleset_id: str) -> None:
        """The tables for side A's ruleset: its standard table with no terrain, the
        ready-made layouts ("open plain", "river crossing", "hills and woods") and the
        user's saved layouts (a bad file there is named in the dialog, never fatal)."""
        from app.core.layouts import saved_layouts
        from app.paths import data_dir

        keep = self.table.currentText()
        saved, problems = saved_layouts(data_dir() / "tables")
        self.layouts = [*ready_made(ruleset_id), *saved]
        self.table.clear()
        self.table.addItem("The ruleset's standard table, no terrain", None)
        for i, lay in enumerate(self.layouts):
            mine = i >= len(self.layouts) - len(saved)
            self.table.addItem(f"{lay.name} (saved)" if mine else lay.name, i)
        self.table.setCurrentIndex(max(self.table.findText(keep), 0))
        if problems:  # a bad saved layout is named, never fatal
            self.error.setText("\n".join(filter(None, (self.error.text(), problems[0]))))

    def chosen_table(self, rs: Ruleset) -> Table | None:
        """The table chosen, its layout fitted to the ruleset's standard size (None: the
        standard table with no terrain)."""
        index = self.table.currentData()
        if index is None:
            return None
        base = default_table(rs)
        pieces = fit_layout(self.layouts[int(index)], base, mm_per_unit(rs))
        return Table(base.width, base.height, pieces)

    def chosen(self) -> tuple[int, int] | None:
        a, b = self.roster_a.currentData(), self.roster_b.currentData()
        return None if a is None or b is None else (int(a), int(b))

    def make_session(self, rosters: tuple[Roster, Roster]) -> BattleSession:
        """The battle, started (ValueError in one line when it cannot be)."""
        if rosters[0].ruleset != rosters[1].ruleset:
            raise ValueError(
                f"the rosters are for different rulesets: {rosters[0].ruleset} "
                f"and {rosters[1].ruleset}"
            )
        rs = self.registry.get(rosters[0].ruleset)
        records: tuple[dict[str, Scalar], dict[str, Scalar]] = ({}, {})
        if rs.engine.has_chance_cards:
            records = (
                {"supply_problems": self.supply_a.isChecked()},
                {"supply_problems": self.supply_b.isChecked()},
            )
        name = self.name.text().strip() or f"{rosters[0].name} vs {rosters[1].name}"
        bad = battle_name_problem(name)
        if bad:
            raise ValueError(bad)
        try:
            mech = mechanics_for(rs)
            table = self.chosen_table(rs)
            state = new_battle(rs, mech, rosters, table=table, records=records)
            session = BattleSession(rs, mech, state, seed=self.seed.value(), name=name)
            session.do(StartBattle())
        except (CommandError, NotImplementedRule, LayoutError, TerrainError) as exc:
            raise ValueError(str(exc)) from None
        return session


def create_from_dialog(
    dialog: NewBattleDialog, store: Store
) -> tuple[int, BattleSession, tuple[Roster, Roster]]:
    """Load the two rosters chosen, start the battle and store it; ValueError (one line)
    when that cannot be done, and nothing is stored."""
    from app.store import StoreError, load_roster
    from app.store.battles import create_battle

    chosen = dialog.chosen()
    if chosen is None:
        raise ValueError("choose two rosters")
    try:
        rosters = (
            load_roster(store, roster_id=chosen[0]),
            load_roster(store, roster_id=chosen[1]),
        )
        session = dialog.make_session(rosters)
        battle_id = create_battle(store, session=session, rosters=rosters)
    except (StoreError, KeyError) as exc:
        raise ValueError(str(exc.args[0]) if exc.args else str(exc)) from None
    return battle_id, session, rosters
