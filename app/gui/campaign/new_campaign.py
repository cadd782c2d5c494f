"""New campaign from the user's own rosters (Campaign > New campaign from rosters…): a name,
the ruleset, two to eight sides (each a name and the roster that becomes its campaign army)
and how losses recover between battles. The campaign is made by the core
(:func:`app.core.campaign.start.campaign_from_rosters`, as ``castra campaign new --side``);
what it refuses is shown in the dialog, which stays open."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from app.core.campaign.model import MAX_SIDES, MAX_TEXT, RECOVERIES, CampaignError, Recovery
from app.core.campaign.session import CampaignSession
from app.core.campaign.start import campaign_from_rosters
from app.rules.registry import Registry
from app.usecases.access import Store, StoreError
from app.usecases.roster import RosterSummary, list_rosters, load_roster

RECOVERY_WORDS: dict[Recovery, str] = {
    "ruleset": "as the ruleset says",
    "none": "none: losses stay lost",
    "half": "half of each unit's losses come back",
    "all": "all losses come back",
}


class NewCampaignDialog(QDialog):
    def __init__(self, registry: Registry, store: Store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newCampaignDialog")
        self.setWindowTitle("New campaign from rosters")
        self.registry = registry
        self.store = store
        self.session: CampaignSession | None = None
        self.summaries: list[RosterSummary] = [
            s for s in list_rosters(store) if s.ruleset in registry and not s.deleted
        ]
        form = QFormLayout(self)
        self.name = QLineEdit()
        self.name.setObjectName("campaignName")
        self.name.setPlaceholderText("e.g. The Second Punic War")
        self.name.setMaxLength(MAX_TEXT + 50)  # longer input gets a message, not a cut
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("campaignRuleset")
        for rid in sorted({s.ruleset for s in self.summaries}):
            self.ruleset.addItem(registry.get(rid).meta.name, rid)
        self.sides_box = QWidget()
        self.grid = QGridLayout(self.sides_box)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.addWidget(QLabel("Side"), 0, 0)
        self.grid.addWidget(QLabel("Roster (its campaign army)"), 0, 1)
        self.side_names: list[QLineEdit] = []
        self.side_rosters: list[QComboBox] = []
        self.add_button = QPushButton("Add side")
        self.add_button.setObjectName("addSide")
        self.add_button.clicked.connect(lambda: self.add_side())
        self.remove_button = QPushButton("Remove last side")
        self.remove_button.setObjectName("removeSide")
        self.remove_button.clicked.connect(self.remove_side)
        self.recovery = QComboBox()
        self.recovery.setObjectName("campaignRecovery")
        for value in RECOVERIES:
            self.recovery.addItem(RECOVERY_WORDS[value], value)
        self.error = QLabel()
        self.error.setObjectName("newCampaignError")
        self.error.setStyleSheet("color:#b00020")
        self.error.setWordWrap(True)
        form.addRow("Name", self.name)
        form.addRow("Ruleset", self.ruleset)
        form.addRow(self.sides_box)
        buttons_row = QWidget()
        row = QGridLayout(buttons_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.add_button, 0, 0)
        row.addWidget(self.remove_button, 0, 1)
        form.addRow(buttons_row)
        form.addRow("Losses recover", self.recovery)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start campaign")
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.ruleset.currentIndexChanged.connect(lambda _i: self._fill_rosters())
        self.add_side()
        self.add_side()
        self._fill_rosters()
        self.resize(560, 0)

    # ------------------------------------------------------------------ sides

    def _rosters(self) -> list[RosterSummary]:
        rid = self.ruleset.currentData()
        return sorted(
            (s for s in self.summaries if s.ruleset == rid), key=lambda s: s.name.casefold()
        )

    def add_side(self) -> None:
        if len(self.side_names) >= MAX_SIDES:
            return
        n = len(self.side_names)
        name = QLineEdit()
        name.setObjectName(f"sideName{n}")
        name.setMaxLength(MAX_TEXT + 50)
        roster = QComboBox()
        roster.setObjectName(f"sideRoster{n}")
        roster.currentIndexChanged.connect(lambda _i, k=n: self._roster_chosen(k))
        self.grid.addWidget(name, n + 1, 0)
        self.grid.addWidget(roster, n + 1, 1)
        self.side_names.append(name)
        self.side_rosters.append(roster)
        self._fill_roster(n, prefer=n)
        self._buttons()

    def remove_side(self) -> None:
        if len(self.side_names) <= 2:
            return
        for widget in (self.side_names.pop(), self.side_rosters.pop()):
            self.grid.removeWidget(widget)
            widget.deleteLater()
        self._buttons()

    def _buttons(self) -> None:
        self.add_button.setEnabled(len(self.side_names) < MAX_SIDES)
        self.remove_button.setEnabled(len(self.side_names) > 2)

    def _fill_rosters(self) -> None:
        for n in range(len(self.side_rosters)):
            self._fill_roster(n, prefer=n)
        rosters = self._rosters()
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(len(rosters) >= 1)
        self.error.setText(
            "" if rosters else "No roster to make a campaign army from: make rosters first."
        )

    def _fill_roster(self, n: int, prefer: int) -> None:
        """Side ``n``'s roster list, the ``prefer``-th roster first chosen (so two sides
        start with two rosters)."""
        combo = self.side_rosters[n]
        combo.blockSignals(True)
        combo.clear()
        rosters = self._rosters()
        for s in rosters:
            combo.addItem(f"{s.name} — {s.side} ({s.units} units)", s.id)
        if rosters:
            combo.setCurrentIndex(min(prefer, len(rosters) - 1))
        combo.blockSignals(False)
        self._roster_chosen(n)

    def _roster_chosen(self, n: int) -> None:
        """An empty side name (or one filled from the last roster) takes the roster's side."""
        name = self.side_names[n]
        summary = next(
            (s for s in self.summaries if s.id == self.side_rosters[n].currentData()), None
        )
        if summary is None:
            return
        if not name.text().strip() or name.property("filled") == name.text():
            name.setText(summary.side)
            name.setProperty("filled", summary.side)

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        """Make the campaign; on a refusal say why and stay open."""
        rid = self.ruleset.currentData()
        if rid is None:
            self.error.setText("No roster to make a campaign army from: make rosters first.")
            return
        try:
            sides = [
                (name.text(), load_roster(self.store, roster_id=int(roster.currentData())))
                for name, roster in zip(self.side_names, self.side_rosters, strict=True)
                if roster.currentData() is not None
            ]
            self.session = campaign_from_rosters(
                self.registry.get(str(rid)),
                self.name.text().strip(),
                sides,
                recovery=self.recovery.currentData(),
            )
        except (CampaignError, StoreError, KeyError, ValueError) as exc:
            text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            self.error.setText(f"Not started: {text}")
            return
        self.accept()
