"""New roster: ruleset, army list, side, scale (where the ruleset counts figures), name, and
"start from the ready army" where the list has one (:mod:`app.core.ready`). The roster is
made by the core (``new_roster``); a bad value keeps the dialog open with a message naming
the field."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.ready import ready_notes
from app.core.roster import Roster, new_roster
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset

MAX_NAME = 200


class NewRosterDialog(QDialog):
    def __init__(self, registry: Registry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newRosterDialog")
        self.setWindowTitle("New roster")
        self.registry = registry
        self.result_roster: Roster | None = None
        self._name_touched = False

        self.ruleset_combo = QComboBox()
        self.ruleset_combo.setObjectName("rulesetCombo")
        for rs in registry:
            self.ruleset_combo.addItem(rs.meta.name, rs.id)
        self.army_combo = QComboBox()
        self.army_combo.setObjectName("armyCombo")
        self.side_edit = QLineEdit()
        self.side_edit.setObjectName("sideEdit")
        self.scale_combo = QComboBox()
        self.scale_combo.setObjectName("scaleCombo")
        self.scale_note = QLabel()
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("nameEdit")
        self.name_edit.setMaxLength(MAX_NAME + 50)  # longer input gets a message, not a cut
        self.name_edit.textEdited.connect(self._name_edited)
        self.standard_check = QCheckBox("Start from the ready army")
        self.standard_check.setObjectName("standardCheck")
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.about.setStyleSheet("color: palette(mid);")
        self.error_label = QLabel()
        self.error_label.setObjectName("formError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020; font-weight: bold;")
        self.error_label.hide()

        form = QFormLayout()
        form.addRow("&Ruleset:", self.ruleset_combo)
        form.addRow("&Army list:", self.army_combo)
        form.addRow("S&ide:", self.side_edit)
        self.scale_label = QLabel("Figure &scale:")
        self.scale_label.setBuddy(self.scale_combo)
        scale_row = QWidget()
        scale_layout = QVBoxLayout(scale_row)
        scale_layout.setContentsMargins(0, 0, 0, 0)
        scale_layout.addWidget(self.scale_combo)
        scale_layout.addWidget(self.scale_note)
        form.addRow(self.scale_label, scale_row)
        form.addRow("&Name:", self.name_edit)
        form.addRow("", self.standard_check)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.about)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)

        self.ruleset_combo.currentIndexChanged.connect(self._ruleset_changed)
        self.army_combo.currentIndexChanged.connect(self._army_changed)
        if not len(registry):
            self._show_error("No ruleset is loaded; a roster cannot be made.")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        else:
            self._ruleset_changed()

    # ------------------------------------------------------------------ form

    def ruleset(self) -> Ruleset | None:
        rid = self.ruleset_combo.currentData()
        return self.registry.get(rid) if rid in self.registry else None

    def _ruleset_changed(self) -> None:
        rs = self.ruleset()
        self.army_combo.blockSignals(True)
        self.army_combo.clear()
        if rs is not None:
            for army_id, army in rs.armies.items():
                self.army_combo.addItem(f"{army.name} ({army.side})", army_id)
        self.army_combo.blockSignals(False)
        self.scale_combo.clear()
        if rs is not None and rs.counts_figures:
            for scale in rs.meta.scales:
                self.scale_combo.addItem(
                    f"{scale}  (one figure is {scale.men_per_figure} men)", scale.value
                )
            default = self.scale_combo.findData(rs.meta.default_scale)
            self.scale_combo.setCurrentIndex(max(default, 0))
            self.scale_combo.show()
            self.scale_label.show()
            self.scale_note.hide()
        else:
            self.scale_combo.hide()
            self.scale_label.show()
            self.scale_note.setText("none: this ruleset counts bases, not figures")
            self.scale_note.show()
        self._army_changed()

    def _army_changed(self) -> None:
        rs = self.ruleset()
        army_id = self.army_combo.currentData()
        army = rs.armies.get(army_id) if rs is not None and army_id else None
        if army is None:
            return
        self.side_edit.setText(army.side)
        std = army.standard
        self.standard_check.setEnabled(std is not None)
        self.standard_check.setChecked(std is not None)
        whose = (
            "" if std is None else (" (the source's)" if std.origin == "source" else " (Castra's)")
        )
        self.standard_check.setText(
            f"Start from the ready army{whose}: {std.name}"
            if std is not None
            else "Start from the ready army (this list has none)"
        )
        if std is not None:
            self.standard_check.setToolTip(f"{std.name} — {std.source}")
        if not self._name_touched:
            self.name_edit.setText(f"{rs.meta.short_name}: {army.name}" if rs else army.name)
        self.about.setText(army.description)
        self.error_label.hide()

    def _name_edited(self, _text: str) -> None:
        self._name_touched = True
        self.error_label.hide()

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()

    # ------------------------------------------------------------------ result

    def build(self) -> Roster | None:
        """The roster the form describes, or None with the message shown."""
        rs = self.ruleset()
        if rs is None:
            self._show_error("Choose a ruleset.")
            return None
        army_id = self.army_combo.currentData()
        if army_id not in rs.armies:
            self._show_error("Choose an army list.")
            return None
        name = self.name_edit.text().strip()
        if not name:
            self._show_error("Name: a roster needs a name.")
            self.name_edit.setFocus()
            return None
        if len(name) > MAX_NAME:
            self._show_error(f"Name: at most {MAX_NAME} characters (this one has {len(name)}).")
            self.name_edit.setFocus()
            return None
        side = self.side_edit.text().strip()
        if not side:
            self._show_error("Side: say which side this army fights for (e.g. Rome).")
            self.side_edit.setFocus()
            return None
        if len(side) > 100:
            self._show_error("Side: at most 100 characters.")
            self.side_edit.setFocus()
            return None
        scale = self.scale_combo.currentData() if rs.counts_figures else None
        standard = self.standard_check.isChecked() and self.standard_check.isEnabled()
        try:
            roster = new_roster(rs, army_id, name=name, side=side, scale=scale, standard=standard)
            # a roster from the ready army says where it comes from, as the samples do
            return replace(roster, notes=ready_notes(rs, army_id)) if standard else roster
        except (KeyError, ValueError) as exc:
            self._show_error(str(exc.args[0]) if exc.args else str(exc))
            return None

    def accept(self) -> None:
        roster = self.build()
        if roster is None:
            return
        self.result_roster = roster
        super().accept()

    def select(self, ruleset_id: str, army_id: str | None = None) -> None:
        """Choose a ruleset and army list (for tests and for "New roster like this")."""
        i = self.ruleset_combo.findData(ruleset_id)
        if i >= 0:
            self.ruleset_combo.setCurrentIndex(i)
        if army_id is not None:
            j = self.army_combo.findData(army_id)
            if j >= 0:
                self.army_combo.setCurrentIndex(j)
