"""The roster editor (the window's centre): the roster's name and scale, its units in a tree by
command or battlegroup, its leaders, and its totals always in sight.

Edits go to the session as ``app.core.edits`` commands; the widgets redraw when the session
says the roster changed.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.core.capabilities import line_choices
from app.core.edits import (
    AddCommand,
    Batch,
    DuplicateUnit,
    RemoveCommand,
    RemoveUnits,
    SplitUnit,
    UpdateRoster,
)
from app.core.roster import Command, new_id
from app.core.totals import strength_of
from app.core.validation import Severity
from app.gui.delegates import ChoiceDelegate
from app.gui.fit import CELL_PADDING, ColumnFitter, short_name, text_width
from app.gui.icons import bundled_icon, number
from app.gui.leaders import LeadersPanel
from app.gui.roster_model import ID_ROLE, KIND_ROLE, Col, RosterTreeModel
from app.gui.session import RosterSession

#: Narrowest the long columns get when the tree is too narrow for all (the user can widen).
_MIN_WIDTH = 110
_TYPE_MIN = 150


PLACEHOLDER = (
    "<h2>No roster open</h2><p>Open a roster from the library on the left "
    "(double-click it), or create one with <b>File &gt; New roster</b> (Ctrl+N).</p>"
    "<p>You can also drop a roster file (.json) on this window.</p>"
)


class RosterTreeView(QTreeView):
    """The roster tree: drag units between commands, drop army-list entries onto it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rosterTree")
        self.setItemDelegate(ChoiceDelegate(self, minimum=1))
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        self.setAllColumnsShowFocus(True)
        self.setWordWrap(False)


class RosterEditor(QWidget):
    """Central widget. Shows a placeholder until a roster is opened."""

    #: a message for the status bar
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: RosterSession | None = None
        self.model: RosterTreeModel | None = None
        self._collapsed: set[str | None] = set()

        # header: name, what it is, scale
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("rosterName")
        self.name_edit.setPlaceholderText("Roster name")
        font = self.name_edit.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.name_edit.setFont(font)
        self.name_edit.setFrame(False)
        self.name_edit.setStyleSheet("QLineEdit { background: transparent; }")
        self.name_edit.setToolTip("The roster's name (type to rename it)")
        self.name_edit.editingFinished.connect(self._rename)
        self.info = QLabel()
        self.info.setObjectName("rosterInfo")
        # A long ruleset name wraps instead of setting the window's minimum width.
        self.info.setWordWrap(True)
        self.info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.name_edit.setMinimumWidth(120)
        self.scale_label = QLabel("Figure &scale:")
        self.scale_combo = QComboBox()
        self.scale_combo.setObjectName("scaleCombo")
        self.scale_combo.setToolTip(
            "Men one figure represents; figures on the table stay as they are"
        )
        self.scale_label.setBuddy(self.scale_combo)
        self.scale_combo.activated.connect(self._scale_chosen)
        head = QHBoxLayout()
        names = QVBoxLayout()
        names.addWidget(self.name_edit)
        names.addWidget(self.info)
        #: the window fills its menu with the print actions
        self.print_button = QToolButton()
        self.print_button.setObjectName("printButton")
        self.print_button.setText("Print / PDF")
        self.print_button.setToolTip("Print or export this roster's cards or sheet as a PDF")
        self.print_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.print_button.setIcon(bundled_icon("printer"))
        self.print_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        head.addLayout(names, 1)
        head.addWidget(self.print_button)
        head.addSpacing(12)
        head.addWidget(self.scale_label)
        head.addWidget(self.scale_combo)

        # body: roster tree over leaders
        self.tree = RosterTreeView()
        self.leaders = LeadersPanel()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("editorSplitter")
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(self.leaders)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([2400, 1000])  # the roster first; the layout is remembered
        self.fitter = ColumnFitter(self.tree.header(), self._fit_columns, self)
        #: what each column wanted at the last whole fit (an edit refits only past it)
        self._wanted: dict[Col, int] = {}
        self.tree.expanded.connect(lambda i: self._collapsed.discard(i.data(ID_ROLE)))
        self.tree.collapsed.connect(lambda i: self._collapsed.add(i.data(ID_ROLE)))

        # footer: totals, always in sight
        self.totals = QLabel()
        self.totals.setObjectName("totals")
        self.totals.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        footer = QFrame()
        footer.setFrameShape(QFrame.Shape.StyledPanel)
        foot = QHBoxLayout(footer)
        foot.setContentsMargins(8, 4, 8, 4)
        foot.addWidget(self.totals)

        #: why the open roster cannot be changed here (another member's, on a club server)
        self.read_only_banner = QLabel()
        self.read_only_banner.setObjectName("readOnlyBanner")
        self.read_only_banner.setWordWrap(True)
        self.read_only_banner.setStyleSheet(
            "QLabel { background: #fff3cd; color: #5c4400; padding: 4px 8px; }"
        )
        self.read_only_banner.hide()

        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addWidget(self.read_only_banner)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(footer)

        self.placeholder = QLabel(PLACEHOLDER)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(page)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.stack)
        self.setTabOrder(self.name_edit, self.scale_combo)
        self.setTabOrder(self.scale_combo, self.tree)
        self.setTabOrder(self.tree, self.leaders.add_button)
        self.setTabOrder(self.leaders.add_button, self.leaders.remove_button)
        self.setTabOrder(self.leaders.remove_button, self.leaders.view)

    # ------------------------------------------------------------------ session

    def set_session(self, session: RosterSession | None) -> None:
        old_model = self.model
        if self.session is not None:
            self.session.changed.disconnect(self.refresh)
        self.session = session
        self._collapsed.clear()
        self.leaders.set_session(session)
        if session is None:
            self.model = None
            self.tree.setModel(None)
            self.stack.setCurrentIndex(0)
        else:
            self.model = RosterTreeModel(session, self)
            self.tree.setModel(self.model)
            session.changed.connect(self.refresh)
            self._setup_columns(session)
            self.tree.expandAll()
            self.fitter.reset()
            self.fitter.fit_now()
            self.fitter.schedule()  # again once laid out at full width
            self.stack.setCurrentIndex(1)
            self.refresh()
        self._show_lock(session)
        if old_model is not None:
            old_model.session.changed.disconnect(old_model.refresh)
            old_model.deleteLater()

    def _show_lock(self, session: RosterSession | None) -> None:
        """A roster the store says this user may not change: the banner says why, and the
        name, the scale and the cells are not editable (the session refuses edits too)."""
        lock = session.read_only if session is not None else None
        self.read_only_banner.setText(lock or "")
        self.read_only_banner.setVisible(lock is not None)
        self.name_edit.setReadOnly(lock is not None)
        self.scale_combo.setEnabled(lock is None)

    def _setup_columns(self, session: RosterSession) -> None:
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # Hide what this ruleset does not define (men per base in D3, figures in Leg VI).
        rs = session.ruleset
        strengths = [
            strength_of(rs, e, e.default_size, session.roster.scale)
            for e in session.army.entries.values()
        ]
        self.tree.setColumnHidden(Col.FIGURES, all(s.figures is None for s in strengths))
        self.tree.setColumnHidden(Col.BASES, all(s.bases is None for s in strengths))
        self.tree.setColumnHidden(Col.MEN, all(s.men is None for s in strengths))
        self.tree.setColumnHidden(
            Col.GRADE, not any(e.grades for e in session.army.entries.values())
        )
        self.tree.setColumnHidden(
            Col.LINES, not any(line_choices(e) for e in session.army.entries.values())
        )
        counts_figures = rs.counts_figures
        self.scale_label.setVisible(counts_figures)
        self.scale_combo.setVisible(counts_figures)
        self.scale_combo.clear()
        for scale in rs.meta.scales:
            self.scale_combo.addItem(scale.value, scale.value)

    def rows_width(self) -> int:
        """The width of the tree's viewport (where the rows are), from the tree's own
        geometry: asking Python for the viewport itself made PySide6 build some twenty widget
        classes (message boxes, file dialogs, wizards: ~8 ms of the window's start) while it
        worked out what kind of widget the viewport is."""
        bar = self.tree.verticalScrollBar()
        return self.tree.contentsRect().width() - (bar.width() if bar.isVisible() else 0)

    def _fit_columns(self) -> None:
        """Each column as wide as its contents; where the tree is too narrow for all of
        them, the long ones (name, troop type, leader) are cut to a limit first."""
        if self.model is None:
            return
        header = self.tree.header()
        columns: list[Col] = [c for c in Col if c != Col.NOTES and not self.tree.isColumnHidden(c)]
        touched = self.model.take_touched()
        if touched is not None:
            # an edit of a few units: the columns are fitted again only if one of them
            # (or a group's sums) needs more room than its column has
            model = self.model
            if not any(
                self._content_width(
                    c,
                    model.unit_texts(touched, c),
                    model.column_texts(c, sample=0, widest=False)[1],
                )
                > self._wanted.get(c, 0)
                for c in columns
            ):
                return
        want: dict[Col, int] = {}
        for col in columns:
            texts, bold = self.model.column_texts(col)
            want[col] = max(header.sectionSizeHint(col), self._content_width(col, texts, bold))
        self._wanted = dict(want)  # before any column is cut to fit the tree
        room = self.rows_width() - 100  # leave the notes some room
        if not self.tree.isVisible():
            room = 1000
        deficit = sum(want.values()) - room
        if deficit > 0:
            # The lines give way first, to what the rows show (the column was as wide as
            # the longest lines a unit could be given, "understrength triarii (4 bases)",
            # over empty cells), then the troop type (the name says much the same), then
            # the name and the leader are cut to one common limit.
            if Col.LINES in want:
                shown = max(
                    header.sectionSizeHint(Col.LINES),
                    self._content_width(
                        Col.LINES, *self.model.column_texts(Col.LINES, widest=False)
                    ),
                )
                give = min(deficit, max(want[Col.LINES] - shown, 0))
                want[Col.LINES] -= give
                deficit -= give
            if Col.TYPE in want:
                want[Col.TYPE] -= min(deficit, max(want[Col.TYPE] - _TYPE_MIN, 0))
            long_cols = [c for c in (Col.NAME, Col.LEADER) if c in want]
            fixed = sum(w for c, w in want.items() if c not in long_cols)
            limit = max((want[c] for c in long_cols), default=0)
            while limit > _MIN_WIDTH and fixed + sum(min(want[c], limit) for c in long_cols) > room:
                limit -= 4
            for col in long_cols:
                want[col] = min(want[col], limit)
        for col, width in want.items():
            self.fitter.resize(col, width)

    def _content_width(self, col: Col, texts: list[str], bold: list[str]) -> int:
        """What column ``col`` needs for unit texts ``texts`` and group texts ``bold``."""
        font = self.tree.font()
        units, groups = text_width(font, texts), text_width(font, bold, bold=True)
        if col == Col.NAME:  # the tree's indentation (units one level deeper), the icon
            icon = self.tree.iconSize().width() + 4
            indent = self.tree.indentation()
            units += 2 * indent + icon
            groups += indent + icon
        return max(units, groups) + CELL_PADDING

    def refresh(self) -> None:
        """Redraw the header and totals from the session (the tree redraws itself), open
        the groups that appeared (unless the user closed them before) and fit the columns."""
        s = self.session
        if s is None or self.model is None:
            return
        for row in range(self.model.rowCount()):
            index = self.model.index(row, 0)
            if index.data(ID_ROLE) not in self._collapsed and not self.tree.isExpanded(index):
                self.tree.expand(index)
        self.fitter.schedule()
        roster = s.roster
        if not self.name_edit.hasFocus():
            self.name_edit.setText(roster.name)
        group = s.group_name
        self.info.setText(
            f"{s.ruleset.meta.name} · {s.army.name} · {roster.side}"
            f" · {len(roster.commands)} {group}{'' if len(roster.commands) == 1 else 's'}"
            f" · {len(roster.leaders)} leader{'' if len(roster.leaders) == 1 else 's'}"
        )
        i = self.scale_combo.findData(roster.scale)
        if i >= 0:
            self.scale_combo.setCurrentIndex(i)
        t = s.totals
        parts = [f"<b>{number(t.units)}</b> units"]
        if not self.tree.isColumnHidden(Col.FIGURES):
            parts.append(f"<b>{number(t.figures)}</b> figures")
        if not self.tree.isColumnHidden(Col.BASES):
            parts.append(f"<b>{number(t.bases)}</b> bases")
        if not self.tree.isColumnHidden(Col.MEN):
            scale = f" at {roster.scale}" if roster.scale else ""
            parts.append(f"<b>{number(t.men)}</b> men{scale}")
        report = s.report
        errors = report.count(Severity.ERROR)
        state = (
            "<span style='color:#1b5e20'>valid</span>"
            if report.valid
            else f"<span style='color:#b00020'>{errors} error{'' if errors == 1 else 's'}</span>"
        )
        if t.excluded:
            n = t.excluded
            parts.append(f"excludes {n} unit{'' if n == 1 else 's'} not in the current list")
        self.totals.setText("Totals: " + " · ".join(parts) + f" — {state}")

    # ------------------------------------------------------------------ selection

    def _select(self, indexes: list[QModelIndex], current: QModelIndex | None = None) -> None:
        sel = self.tree.selectionModel()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        sel.clearSelection()
        for index in indexes:
            if index.isValid():
                sel.select(index, flags)
        target = (
            current
            if current is not None and current.isValid()
            else next((i for i in indexes if i.isValid()), None)
        )
        if target is not None:
            sel.setCurrentIndex(target, QItemSelectionModel.SelectionFlag.NoUpdate)
            self.tree.scrollTo(target)

    def select_unit(self, unit_id: str) -> None:
        if self.model is not None:
            index = self.model.unit_index(unit_id)
            self.tree.expand(index.parent())
            self._select([index])

    def select_subject(self, kind: str, ident: str) -> None:
        """Show what a validation message concerns."""
        if self.model is None:
            return
        # The focus goes with the selection, so Delete, F2 and the arrows act on it rather
        # than on the validation panel the user came from.
        if kind == "unit":
            self.select_unit(ident)
            self.tree.setFocus()
        elif kind == "command":
            self._select([self.model.group_index(ident)])
            self.tree.setFocus()
        elif kind == "leader":
            self.leaders.select_leader(ident)
            self.leaders.view.setFocus()

    def selected_units(self) -> list[str]:
        if self.model is None:
            return []
        rows = self.tree.selectionModel().selectedRows()
        if not rows and self.tree.currentIndex().isValid():
            rows = [self.tree.currentIndex()]
        wanted = {u.id for i in rows if (u := self.model.unit_at(i)) is not None}
        return [u.id for u in self.model.session.roster.units if u.id in wanted]

    def selected_commands(self) -> list[str]:
        if self.model is None:
            return []
        out = []
        for i in self.tree.selectionModel().selectedRows():
            if i.data(KIND_ROLE) == "command":
                out.append(str(i.data(ID_ROLE)))
        return out

    def target_command(self) -> str | None:
        """The command a new unit goes to: the selected command, or the selected unit's."""
        if self.model is None:
            return None
        group = self.model.group_of(self.tree.currentIndex())
        return group.key if group is not None else None

    # ------------------------------------------------------------------ requests

    def add_entry(self, entry_id: str) -> None:
        if self.model is None or self.session is None:
            return
        before = {u.id for u in self.session.roster.units}
        if self.model.add_entry(entry_id, self.target_command()):
            new = [u.id for u in self.session.roster.units if u.id not in before]
            if new:
                self.select_unit(new[0])

    def remove_selected(self) -> bool:
        s = self.session
        if s is None:
            return False
        units = self.selected_units()
        commands = self.selected_commands()
        if not units and not commands:
            return False
        edits: list[object] = []
        if units:
            edits.append(RemoveUnits(tuple(units)))
        edits.extend(RemoveCommand(c) for c in commands)
        # The label names how many units go: one line of 4 identical units is 4 units.
        lines = [s.roster.unit(u) for u in units]
        n_units = sum(u.count for u in lines)
        if len(lines) == 1 and not commands:
            unit = lines[0]
            label = (
                f"Remove {unit.count} × {unit.name}" if unit.count > 1 else f"Remove {unit.name}"
            )
        elif commands and not units and len(commands) == 1:
            label = f"Remove {s.roster.command(commands[0]).name}"
        elif not commands:
            label = f"Remove {n_units} units ({len(lines)} lines)"
        else:
            parts = [f"{n_units} unit{'' if n_units == 1 else 's'}"] if units else []
            n = len(commands)
            parts.append(f"{n} {s.group_name}{'' if n == 1 else 's'}")
            label = f"Remove {' and '.join(parts)}"
        return s.apply(Batch(tuple(edits), label))

    def duplicate_selected(self) -> bool:
        s = self.session
        units = self.selected_units()
        if s is None or not units:
            self.message.emit("Select a unit to duplicate")
            return False
        edits = tuple(DuplicateUnit(u) for u in units)
        label = (
            f"Duplicate {s.roster.unit(units[0]).name}"
            if len(units) == 1
            else f"Duplicate {len(units)} units"
        )
        if s.apply(Batch(edits, label)):
            self.select_unit(edits[-1].new_unit_id)
            return True
        return False

    def split_selected(self) -> bool:
        s = self.session
        units = self.selected_units()
        if s is None or len(units) != 1:
            self.message.emit("Select one unit of quantity 2 or more to split one off")
            return False
        edit = SplitUnit(units[0])
        if s.apply(Batch((edit,), f"Split one off {s.roster.unit(units[0]).name}")):
            self.select_unit(edit.new_unit_id)
            return True
        return False

    def add_command(self) -> None:
        s = self.session
        if s is None or self.model is None:
            return
        group = s.group_name
        n = len(s.roster.commands) + 1
        command = Command(id=new_id("c"), name=f"{group.capitalize()} {n}")
        if s.apply(Batch((AddCommand(command),), f"Add {group}")):
            index = self.model.group_index(command.id)
            self._select([index])
            self.tree.setFocus()
            self.tree.edit(index)

    def _rename(self) -> None:
        s = self.session
        if s is None:
            return
        name = self.name_edit.text().strip()
        if not name:
            self.name_edit.setText(s.roster.name)
            self.message.emit("A roster needs a name; the old name is kept")
            return
        if name != s.roster.name:
            s.apply(UpdateRoster({"name": name}, f"Rename roster to {short_name(name)}"))

    def _scale_chosen(self, _i: int) -> None:
        s = self.session
        scale = self.scale_combo.currentData()
        if s is not None and scale != s.roster.scale:
            s.apply(UpdateRoster({"scale": scale}, f"Scale {scale}"))
