"""New battle: a ruleset, an army for each side (a roster of the library, or one of the
ruleset's ready armies, :mod:`app.core.ready`, so a first battle needs no roster built), a
table, a dice seed (random unless one is typed, so a battle can be played again), and the
conditions the ruleset's engine declares a side may start under (D3's supply problems). The
battle starts as ``castra battle new`` starts it: both armies stand in their deployment
zones (on a larger table when the ruleset's is too small for them), and the first phase is
where they are deployed (dragged inside their zones).

Either side (or both) may be given to Castra (issue 30), with a temperament for the side and,
where its roster has commands, for each command, and Castra's own seed (the same seed, the
same choices). Who plays each side is kept in the battle (the side's record)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from app.core.battle import BattleSession, CommandError, StartBattle, new_battle
from app.core.battle.base import battle_name_problem
from app.core.battle.players import Player, Temperament
from app.core.battle.setup import Table, default_table, fitting_table
from app.core.ready import ReadyArmy, ready_armies, ready_roster
from app.core.roster import Roster
from app.house import HouseError, with_house
from app.rules.engine import side_flags_of
from app.rules.layouts import Layout, LayoutError, fit_layout, ready_made
from app.rules.measure import mm_per_unit
from app.rules.mechanics import NotImplementedRule, Scalar, Side, mechanics_for
from app.rules.registry import Registry
from app.rules.table import TerrainError

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset
    from app.usecases.access import Store
    from app.usecases.roster import RosterSummary

MAX_SEED = 2**31 - 1

#: A side's choice: a stored roster's id, or a ready army's ``RULESET:ARMY`` key
Choice = int | str
#: who plays a side: a player (None), or Castra with a temperament
PLAYED_BY: tuple[tuple[str, Temperament | None], ...] = (
    ("A player", None),
    ("Castra, steady", Temperament.STEADY),
    ("Castra, bold", Temperament.BOLD),
    ("Castra, cautious", Temperament.CAUTIOUS),
)
#: a command's temperament: its side's, or its own
AS_SIDE = "as its side"


class NewBattleDialog(QDialog):
    def __init__(
        self,
        registry: Registry,
        summaries: list[RosterSummary],
        parent: QWidget | None = None,
        load_roster: Callable[[int], Roster] | None = None,
    ) -> None:
        super().__init__(parent)
        #: reads a stored roster (for its commands); None: commands of stored rosters unknown
        self.load_roster = load_roster
        self.setObjectName("newBattleDialog")
        self.setWindowTitle("New battle")
        self.registry = registry
        self.summaries = [s for s in summaries if s.ruleset in registry and not s.deleted]
        self.ready: dict[str, ReadyArmy] = {
            ra.key: ra for rs in registry for ra in ready_armies(rs)
        }
        form = QFormLayout(self)
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("rulesetCombo")
        for rs in registry:
            self.ruleset.addItem(rs.meta.short_name, rs.id)
            self.ruleset.setItemData(
                self.ruleset.count() - 1, rs.meta.name, Qt.ItemDataRole.ToolTipRole
            )
        self.roster_a = QComboBox()
        self.roster_a.setObjectName("rosterA")
        self.roster_b = QComboBox()
        self.roster_b.setObjectName("rosterB")
        for combo in (self.roster_a, self.roster_b):
            combo.setToolTip(
                "A roster of your library, or one of the ruleset's ready armies (the source's "
                "own where it gives one, else one Castra built): no roster needed"
            )
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
        #: a check box per side for each condition an engine declares (side_flags_of)
        self.side_flags: dict[str, tuple[QLabel, QCheckBox, QCheckBox]] = {}
        flag_rows: list[tuple[QLabel, QHBoxLayout]] = []
        for flag in side_flags_of(rs.engine for rs in registry):
            label, box_a, box_b = QLabel(flag.label), QCheckBox("side A"), QCheckBox("side B")
            row = QHBoxLayout()
            row.addWidget(box_a)
            row.addWidget(box_b)
            self.side_flags[flag.name] = (label, box_a, box_b)
            flag_rows.append((label, row))
        self.played_a = self._played_by("playedByA")
        self.played_b = self._played_by("playedByB")
        played_row = QHBoxLayout()
        played_row.addWidget(QLabel("Side A"))
        played_row.addWidget(self.played_a, 1)
        played_row.addWidget(QLabel("Side B"))
        played_row.addWidget(self.played_b, 1)
        self.commands = QTableWidget(0, 3)
        self.commands.setObjectName("castraCommands")
        self.commands.setHorizontalHeaderLabels(("Side", "Command", "Temperament"))
        self.commands.verticalHeader().setVisible(False)
        self.commands.setWordWrap(False)
        header = self.commands.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.commands.setMaximumHeight(130)
        self.commands.setToolTip(
            "Each command Castra plays may have its own temperament (bold: takes risks for "
            "gains; cautious: weighs losses heavily); by default the side's"
        )
        self.commands_label = QLabel("Castra's commands")
        self.castra_seed = QSpinBox()
        self.castra_seed.setObjectName("castraSeed")
        self.castra_seed.setRange(0, MAX_SEED)
        self.castra_seed.setValue(random.SystemRandom().randrange(MAX_SEED))
        self.castra_seed.setToolTip("Castra's seed: the same seed, the same choices")
        self.castra_seed_label = QLabel("Castra's seed")
        self.error = QLabel()
        self.error.setObjectName("newBattleError")
        self.error.setStyleSheet("color:#b00020")
        self.error.setWordWrap(True)
        form.addRow("Ruleset", self.ruleset)
        form.addRow("Side A", self.roster_a)
        form.addRow("Side B", self.roster_b)
        form.addRow("Table", self.table)
        form.addRow("Dice seed", seed_row)
        for label, row in flag_rows:
            form.addRow(label, row)
        form.addRow("Played by", played_row)
        form.addRow(self.commands_label, self.commands)
        form.addRow(self.castra_seed_label, self.castra_seed)
        form.addRow("Name", self.name)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start battle")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.ruleset.setCurrentIndex(max(self.ruleset.findData(self._first_ruleset()), 0))
        self.ruleset.currentIndexChanged.connect(lambda _i: self._fill_a())
        self.roster_a.currentIndexChanged.connect(lambda _i: self._fill_b())
        self.roster_b.currentIndexChanged.connect(lambda _i: self._fill_commands())
        self.played_a.currentIndexChanged.connect(lambda _i: self._fill_commands())
        self.played_b.currentIndexChanged.connect(lambda _i: self._fill_commands())
        self._fill_a()
        self.resize(560, 0)

    @staticmethod
    def _played_by(name: str) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        for text, temper in PLAYED_BY:
            combo.addItem(text, None if temper is None else temper.value)
        combo.setToolTip(
            "Give the side to Castra to play against it (solo play), or both to watch; "
            "Castra plays through the same commands you use, each logged and undoable"
        )
        return combo

    def temperament(self, side: int) -> Temperament | None:
        """Side ``side``'s temperament when Castra plays it, else None."""
        data = (self.played_a if side == 0 else self.played_b).currentData()
        return None if data is None else Temperament(str(data))

    def _roster_of(self, choice: Choice | None) -> Roster | None:
        if isinstance(choice, str) and choice in self.ready:
            return self.ready_roster(choice)
        if isinstance(choice, int) and self.load_roster is not None:
            try:
                return self.load_roster(choice)
            except (KeyError, ValueError):
                return None
        return None

    def _fill_commands(self) -> None:
        """The commands of each side Castra plays, each with its temperament."""
        self.commands.setRowCount(0)
        rows: list[tuple[int, str, str]] = []
        for side, combo in ((0, self.roster_a), (1, self.roster_b)):
            if self.temperament(side) is None:
                continue
            roster = self._roster_of(combo.currentData())
            if roster is not None:
                rows += [(side, c.id, c.name) for c in roster.commands]
        self.commands.setRowCount(len(rows))
        for row, (side, cid, name) in enumerate(rows):
            for col, text in enumerate(("A" if side == 0 else "B", name)):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, (side, cid))
                self.commands.setItem(row, col, item)
            choice = QComboBox()
            choice.addItem(AS_SIDE, None)
            for t in Temperament:
                choice.addItem(t.value, t.value)
            self.commands.setCellWidget(row, 2, choice)
        castra = self.temperament(0) is not None or self.temperament(1) is not None
        for w in (self.castra_seed, self.castra_seed_label):
            w.setVisible(castra)
        for w2 in (self.commands, self.commands_label):
            w2.setVisible(bool(rows))

    def players(self) -> dict[int, Player]:
        """The sides given to Castra, each with its temperaments and Castra's seed."""
        out: dict[int, Player] = {}
        for side in (0, 1):
            temper = self.temperament(side)
            if temper is None:
                continue
            commands: dict[str, Temperament] = {}
            for row in range(self.commands.rowCount()):
                item = self.commands.item(row, 0)
                widget = self.commands.cellWidget(row, 2)
                if item is None or not isinstance(widget, QComboBox):
                    continue
                row_side, cid = item.data(Qt.ItemDataRole.UserRole)
                if row_side == side and widget.currentData() is not None:
                    commands[str(cid)] = Temperament(str(widget.currentData()))
            s: Side = 0 if side == 0 else 1
            out[side] = Player(s, temper, commands, self.castra_seed.value())
        return out

    def _first_ruleset(self) -> str | None:
        """The ruleset of the roster changed last, else the first with a ready army."""
        if self.summaries:
            return max(self.summaries, key=lambda s: s.updated_at).ruleset
        return next((ra.ruleset for ra in self.ready.values()), None)

    def _text(self, s: RosterSummary) -> str:
        return f"{s.name} — {s.side} ({s.units} units)"

    @staticmethod
    def _ready_text(ra: ReadyArmy) -> str:
        whose = "the source's army" if ra.origin == "source" else "built by Castra"
        return f"Ready army: {ra.name} — {ra.side}, {whose} ({ra.units} units)"

    def _options(self, ruleset_id: str) -> list[tuple[Choice, str, str]]:
        """A side's choices in the ruleset: (data, text, side), the library's rosters first,
        then the ready armies."""
        out: list[tuple[Choice, str, str]] = [
            (s.id, self._text(s), s.side) for s in self.summaries if s.ruleset == ruleset_id
        ]
        out += [
            (key, self._ready_text(ra), ra.side)
            for key, ra in self.ready.items()
            if ra.ruleset == ruleset_id
        ]
        return out

    def ruleset_id(self) -> str | None:
        data = self.ruleset.currentData()
        return None if data is None else str(data)

    def _fill_a(self) -> None:
        """Side A: the ruleset's rosters, then its ready armies; then side B, the table and
        what the ruleset asks for."""
        rid = self.ruleset_id()
        self.roster_a.blockSignals(True)
        self.roster_a.clear()
        if rid is not None:
            for data, text, _side in self._options(rid):
                self.roster_a.addItem(text, data)
        self.roster_a.blockSignals(False)
        self.roster_a.setCurrentIndex(0 if self.roster_a.count() else -1)
        self._fill_b()

    def _fill_b(self) -> None:
        """Side B: the other choices of side A's ruleset, another side first, the library's
        rosters before the ready armies."""
        rid = self.ruleset_id()
        a = self.roster_a.currentData()
        keep = self.roster_b.currentData()
        self.roster_b.clear()
        options = [] if rid is None or a is None else self._options(rid)
        a_side = next((side for data, _text, side in options if data == a), None)
        others = [o for o in options if o[0] != a]
        others.sort(key=lambda o: (o[2] == a_side, isinstance(o[0], str)))
        for data, text, _side in others:
            self.roster_b.addItem(text, data)
        self.roster_b.setCurrentIndex(max(self.roster_b.findData(keep), 0))
        # the conditions the ruleset's engine declares (D3: supply problems change the deck)
        declared = (
            set() if rid is None else {f.name for f in self.registry.get(rid).engine.side_flags}
        )
        for name, widgets in self.side_flags.items():
            for w in widgets:
                w.setVisible(name in declared)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(others))
        self.error.setText("" if others else "No other army of this ruleset to fight.")
        if rid is not None:
            self._fill_tables(rid)
        self._fill_commands()

    def _fill_tables(self, ruleset_id: str) -> None:
        """The tables for side A's ruleset: its standard table with no terrain, the
        ready-made layouts ("open plain", "river crossing", "hills and woods") and the
        user's saved layouts (a bad file there is named in the dialog, never fatal)."""
        from app.core.layouts import saved_layouts
        from app.paths import data_dir

        keep = self.table.currentText()
        saved, problems = saved_layouts(data_dir() / "tables")
        in_place_of = self.registry.get(ruleset_id).engine.mechanics.terrain_in_place_of
        self.layouts = [*ready_made(in_place_of), *saved]
        self.table.clear()
        self.table.addItem("The ruleset's standard table, no terrain", None)
        for i, lay in enumerate(self.layouts):
            mine = i >= len(self.layouts) - len(saved)
            self.table.addItem(f"{lay.name} (saved)" if mine else lay.name, i)
        self.table.setCurrentIndex(max(self.table.findText(keep), 0))
        if problems:  # a bad saved layout is named, never fatal
            self.error.setText("\n".join(filter(None, (self.error.text(), problems[0]))))

    def chosen_table(
        self, rs: Ruleset, rosters: tuple[Roster, Roster] | None = None
    ) -> Table | None:
        """The table chosen, its layout fitted to the ruleset's standard size, or to the larger
        one ``rosters`` need to stand in their zones (None: that table with no terrain)."""
        index = self.table.currentData()
        if index is None:
            return None
        if rosters is None:
            base = default_table(rs)
        else:
            base = fitting_table(rs, mechanics_for(rs), rosters)
        pieces = fit_layout(self.layouts[int(index)], base, mm_per_unit(rs))
        return Table(base.width, base.height, pieces)

    def chosen(self) -> tuple[Choice, Choice] | None:
        """Each side's choice: a stored roster's id, or a ready army's ``RULESET:ARMY``."""
        a, b = self.roster_a.currentData(), self.roster_b.currentData()
        if a is None or b is None:
            return None
        return (a if isinstance(a, str) else int(a), b if isinstance(b, str) else int(b))

    def ready_roster(self, key: str) -> Roster:
        """The roster of ready army ``key`` (``RULESET:ARMY``)."""
        ra = self.ready[key]
        return ready_roster(self.registry.get(ra.ruleset), ra.army)

    def make_session(self, rosters: tuple[Roster, Roster]) -> BattleSession:
        """The battle, started (ValueError in one line when it cannot be)."""
        if rosters[0].ruleset != rosters[1].ruleset:
            raise ValueError(
                f"the rosters are for different rulesets: {rosters[0].ruleset} "
                f"and {rosters[1].ruleset}"
            )
        rs = self.registry.get(rosters[0].ruleset)
        records: tuple[dict[str, Scalar], dict[str, Scalar]] = ({}, {})
        for flag in rs.engine.side_flags:
            _label, box_a, box_b = self.side_flags[flag.name]
            records[0][flag.name] = box_a.isChecked()
            records[1][flag.name] = box_b.isChecked()
        players = self.players()
        records = (
            {**records[0], **(players[0].record() if 0 in players else {})},
            {**records[1], **(players[1].record() if 1 in players else {})},
        )
        name = self.name.text().strip() or f"{rosters[0].name} vs {rosters[1].name}"
        bad = battle_name_problem(name)
        if bad:
            raise ValueError(bad)
        try:
            records = with_house(rs.id, rs.meta.engine, records)  # a club's own tables
        except HouseError as exc:
            raise ValueError(f"The club's morale table: {exc}") from None
        try:
            mech = mechanics_for(rs)
            table = self.chosen_table(rs, rosters)
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
    from app.usecases.access import StoreError
    from app.usecases.battle import create_battle
    from app.usecases.roster import load_roster

    chosen = dialog.chosen()
    if chosen is None:
        raise ValueError("choose two rosters")

    def roster(choice: Choice) -> Roster:
        if isinstance(choice, str):
            return dialog.ready_roster(choice)
        return load_roster(store, roster_id=choice)

    try:
        rosters = (roster(chosen[0]), roster(chosen[1]))
        session = dialog.make_session(rosters)
        battle_id = create_battle(store, session=session, rosters=rosters)
    except (StoreError, KeyError) as exc:
        raise ValueError(str(exc.args[0]) if exc.args else str(exc)) from None
    return battle_id, session, rosters
