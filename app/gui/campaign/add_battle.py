"""Campaign > Add a battle: the next battle between two of the campaign's sides, each with
its whole army, on the ruleset's table or on a historical battle's field. The form makes the
core's :class:`~app.core.campaign.steps.AddBattle` step (``castra campaign add-battle``
without its detachments); the campaign refuses what cannot be, in one line."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.core.campaign.model import MAX_TEXT, Campaign, Participant
from app.core.campaign.steps import AddBattle
from app.core.scenario.library import ScenarioLibrary
from app.rules.ruleset import Ruleset

#: the field choice that is no historical battle
NO_FIELD = "the ruleset's table (no historical field)"


class AddBattleDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        *,
        campaign: Campaign,
        ruleset: Ruleset,
        library: ScenarioLibrary | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("addBattleDialog")
        self.setWindowTitle("Add a battle")
        self.campaign = campaign
        self.name = QLineEdit()
        self.name.setObjectName("addBattleName")
        self.name.setMaxLength(MAX_TEXT)
        self.name.setPlaceholderText(f"Battle {len(campaign.battles) + 1}")
        self.side_a = QComboBox()
        self.side_a.setObjectName("addBattleSideA")
        self.side_b = QComboBox()
        self.side_b.setObjectName("addBattleSideB")
        for combo in (self.side_a, self.side_b):
            for side in campaign.sides:
                combo.addItem(side.name, side.id)
        self.side_b.setCurrentIndex(min(1, self.side_b.count() - 1))
        self.date = QLineEdit()
        self.date.setObjectName("addBattleDate")
        self.date.setMaxLength(MAX_TEXT)
        self.date.setPlaceholderText("e.g. 218 BC, December")
        self.place = QLineEdit()
        self.place.setObjectName("addBattlePlace")
        self.place.setMaxLength(MAX_TEXT)
        self.field = QComboBox()
        self.field.setObjectName("addBattleField")
        self.field.addItem(NO_FIELD, None)
        for sc in library or ():
            if ruleset.id in sc.rulesets:
                self.field.addItem(f"{sc.name} ({sc.data.battle.year} BC)", sc.id)
        note = QLabel(
            "Each side fights with its whole army as it stands: killed and captured leaders "
            "stay at home, wounded ones fight wounded. Fight next battle then opens it."
        )
        note.setWordWrap(True)
        self.error = QLabel()
        self.error.setObjectName("addBattleError")
        self.error.setStyleSheet("color:#b00020")
        self.error.setWordWrap(True)
        self.error.hide()
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        form.addRow("Side A", self.side_a)
        form.addRow("Side B", self.side_b)
        form.addRow("Date", self.date)
        form.addRow("Place", self.place)
        form.addRow("Field", self.field)
        form.addRow(note)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Add battle")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        #: the step the form made (None until it is accepted)
        self.step: AddBattle | None = None
        self.resize(520, 0)
        self.setMinimumHeight(self.heightForWidth(self.width()))

    def make_step(self) -> AddBattle:
        """The step as the form stands (the campaign checks it when it is done)."""
        a, b = self.side_a.currentData(), self.side_b.currentData()
        field = self.field.currentData()
        return AddBattle(
            self.name.text().strip() or self.name.placeholderText(),
            (Participant(str(a)), Participant(str(b))),
            self.date.text().strip(),
            self.place.text().strip(),
            scenario=None if field is None else str(field),
        )

    def _accept(self) -> None:
        if self.side_a.currentData() == self.side_b.currentData():
            self.say("A battle is fought between two different sides: choose another side B")
            return
        self.step = self.make_step()
        self.accept()

    def say(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()
