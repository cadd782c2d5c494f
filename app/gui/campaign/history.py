"""Campaign > New campaign from history: one of the campaign templates built on the
historical battles (Scipio in Spain, Scipio in Africa, the Metaurus:
:mod:`app.core.scenario.campaigns`), in a ruleset those battles are set for."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QWidget,
)

from app.core.campaign.session import CampaignSession
from app.core.scenario.campaigns import TEMPLATES, library_finder, template_campaign
from app.rules.registry import Registry


class HistoryCampaignDialog(QDialog):
    def __init__(self, registry: Registry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyCampaignDialog")
        self.setWindowTitle("New campaign from history")
        self.registry = registry
        self.template = QComboBox()
        self.template.setObjectName("historyTemplate")
        for t in TEMPLATES:
            self.template.addItem(t.name, t.id)
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("historyCampaignRuleset")
        for rs in registry:
            self.ruleset.addItem(rs.meta.short_name, rs.id)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow("Campaign", self.template)
        form.addRow("Ruleset", self.ruleset)
        form.addRow(self.summary)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create campaign")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.buttons = buttons
        self.template.currentIndexChanged.connect(lambda _i: self._describe())
        self.resize(520, 0)
        self._describe()

    def _describe(self) -> None:
        t = TEMPLATES[max(self.template.currentIndex(), 0)]
        self.summary.setText(
            f"{t.summary} Each side starts with the army its first battle's sources give it "
            "in the ruleset; every battle is fought on its historical field."
        )
        # as tall as the account's wrapped lines need at the dialog's width: a dialog's
        # least height reads no height-for-width, and the account was cut to a line and a
        # half at top and bottom
        need = self.heightForWidth(self.width())
        self.setMinimumHeight(need)
        if self.height() < need:
            self.resize(self.width(), need)

    def make_campaign(self) -> CampaignSession:
        """The campaign chosen (CampaignError in one line when it cannot be made)."""
        from app.paths import user_scenarios_dir

        t = TEMPLATES[max(self.template.currentIndex(), 0)]
        rs = self.registry.get(str(self.ruleset.currentData()))
        return template_campaign(t, rs, library_finder(rs, user_scenarios_dir()))
