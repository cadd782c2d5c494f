"""Print or export PDFs from the window: unit cards, the roster sheet, a quick-reference sheet
and the D3 chance-card deck. A small dialog chooses the document, the page size and the file;
``app.export`` writes it; the PDF then opens in the system's viewer (the preview).

Widgets only gather choices: the documents come from ``app.export``, the deck's substitutions
from the ruleset data, and the roster from the open session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QCursor, QDesktopServices
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.roster import Roster
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings


class Document(Enum):
    CARDS = "Unit cards"
    ROSTER = "Roster sheet"
    REFSHEET = "Quick-reference sheet"
    CHANCE_CARDS = "Chance-card deck (D3)"


@dataclass(frozen=True)
class PrintJob:
    """What to print: the document, for which ruleset (and roster), where, on what paper."""

    document: Document
    ruleset: str
    path: Path
    page_size: str = "a4"
    side: str | None = None
    commander: str = "average"
    supply_problems: bool = False
    open_after: bool = True


def _file_name(text: str) -> str:
    return re.sub(r"[^\w\- ]+", "_", text).strip().replace(" ", "-").lower() or "castra"


def suggested_name(document: Document, ruleset: Ruleset, roster: Roster | None) -> str:
    if document is Document.REFSHEET or roster is None:
        base = f"{ruleset.id}-refsheet"
    elif document is Document.CHANCE_CARDS:
        base = f"{roster.side}-chance-cards"
    else:
        base = f"{roster.name}-{'cards' if document is Document.CARDS else 'roster'}"
    return f"{_file_name(base)}.pdf"


def write(job: PrintJob, registry: Registry, roster: Roster | None) -> int:
    """Write the PDF of ``job``; returns its page count. Raises ``ValueError`` or ``OSError``
    with a message for the user."""
    from app.export import (
        write_chance_cards,
        write_refsheet,
        write_roster_sheet,
        write_unit_cards,
    )
    from app.export.chance_cards import commander_quality

    rs = registry.get(job.ruleset)
    if job.document is Document.REFSHEET:
        return write_refsheet(rs, job.path, page_size=job.page_size).pages
    if job.document is Document.CHANCE_CARDS:
        if job.side is None:
            raise ValueError("choose the side whose deck to print")
        return write_chance_cards(
            rs,
            job.path,
            side=job.side,
            commander=commander_quality(job.commander),
            supply_problems=job.supply_problems,
            page_size=job.page_size,
        ).pages
    if roster is None:
        raise ValueError("open a roster first")
    if job.document is Document.CARDS:
        return write_unit_cards(rs, roster, job.path, page_size=job.page_size).pages
    return write_roster_sheet(rs, roster, job.path, page_size=job.page_size).pages


class PrintDialog(QDialog):
    """Choose the document, its ruleset (for a reference sheet), the D3 deck's side and
    substitutions, the page size and the file."""

    def __init__(
        self,
        parent: QWidget | None,
        registry: Registry,
        roster: Roster | None,
        document: Document,
        *,
        folder: str,
        page_size: str,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("printDialog")
        self.setWindowTitle("Print or export PDF")
        self.registry = registry
        self.roster = roster
        self._folder = folder
        self._path_edited = False

        self.document = QComboBox()
        for doc in Document:
            self.document.addItem(doc.value, doc)
        self.ruleset = QComboBox()
        for rs in sorted(registry, key=lambda r: r.meta.short_name):
            self.ruleset.addItem(rs.meta.name, rs.id)
        if roster is not None:
            self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(roster.ruleset)))
        self.side = QComboBox()
        self.commander = QComboBox()
        for quality in ("average", "good", "poor"):
            self.commander.addItem(quality.capitalize(), quality)
        self.supply = QCheckBox("Supply problems (a No Event becomes an Ammunition Shortage)")
        self.page = QComboBox()
        self.page.addItem("A4", "a4")
        self.page.addItem("Letter", "letter")
        self.page.setCurrentIndex(max(0, self.page.findData(page_size)))
        self.path = QLineEdit()
        self.path.setObjectName("printPath")
        self.path.textEdited.connect(self._mark_edited)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.open_after = QCheckBox("Open the PDF when it is written")
        self.open_after.setChecked(True)
        self.problem = QLabel()
        self.problem.setObjectName("printProblem")
        self.problem.setStyleSheet("color: #b00020")
        self.problem.setWordWrap(True)

        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        form = QFormLayout()
        form.addRow("&Document:", self.document)
        form.addRow("&Ruleset:", self.ruleset)
        form.addRow("&Side:", self.side)
        form.addRow("&Commander:", self.commander)
        form.addRow("", self.supply)
        form.addRow("&Paper:", self.page)
        form.addRow("File:", path_row)
        form.addRow("", self.open_after)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Write PDF")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self._form = form

        self.document.currentIndexChanged.connect(self._refresh)
        self.ruleset.currentIndexChanged.connect(self._refresh)
        self.document.setCurrentIndex(self.document.findData(document))
        self._refresh()
        self.resize(560, self.sizeHint().height())

    # ------------------------------------------------------------------ state

    def chosen_document(self) -> Document:
        doc = self.document.currentData()
        assert isinstance(doc, Document)
        return doc

    def chosen_ruleset(self) -> Ruleset:
        return self.registry.get(str(self.ruleset.currentData()))

    def _mark_edited(self) -> None:
        self._path_edited = True

    def _show_row(self, field: QWidget, visible: bool) -> None:
        self._form.setRowVisible(field, visible)

    def _refresh(self) -> None:
        doc = self.chosen_document()
        rs = self.chosen_ruleset()
        needs_roster = doc in (Document.CARDS, Document.ROSTER)
        deck = doc is Document.CHANCE_CARDS
        self.ruleset.setEnabled(not needs_roster or self.roster is None)
        if needs_roster and self.roster is not None:
            self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(self.roster.ruleset)))
        if deck:
            decks = next((r for r in self.registry if r.engine.has_chance_cards), None)
            if decks is not None and not rs.engine.has_chance_cards:
                self.ruleset.setCurrentIndex(self.ruleset.findData(decks.id))
                return  # _refresh runs again from the ruleset change
            self._fill_sides(rs)
        for field, visible in ((self.side, deck), (self.commander, deck), (self.supply, deck)):
            self._show_row(field, visible)
        problem = ""
        if needs_roster and self.roster is None:
            problem = "Open a roster to print its cards or its roster sheet."
        elif deck and not rs.engine.has_chance_cards:
            problem = "None of the loaded rulesets has chance cards."
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not problem)
        if not self._path_edited:
            self.path.setText(str(Path(self._folder) / suggested_name(doc, rs, self.roster)))

    def _fill_sides(self, rs: Ruleset) -> None:
        current = self.side.currentData()
        self.side.clear()
        for army_id, army in rs.armies.items():
            self.side.addItem(f"{army.side} ({army.name})", army_id)
        if current is not None and self.side.findData(current) >= 0:
            self.side.setCurrentIndex(self.side.findData(current))
        elif self.roster is not None and self.roster.ruleset == rs.id:
            self.side.setCurrentIndex(max(0, self.side.findData(self.roster.army)))
            general = next((ld for ld in self.roster.leaders if ld.rank == "general"), None)
            if general is not None and general.quality:
                self.commander.setCurrentIndex(max(0, self.commander.findData(general.quality)))

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Write PDF", self.path.text(), "PDF documents (*.pdf)"
        )
        if path:
            self.path.setText(path if path.lower().endswith(".pdf") else f"{path}.pdf")
            self._path_edited = True

    def job(self) -> PrintJob:
        side = self.side.currentData() if self.chosen_document() is Document.CHANCE_CARDS else None
        return PrintJob(
            document=self.chosen_document(),
            ruleset=self.chosen_ruleset().id,
            path=Path(self.path.text().strip()).expanduser(),
            page_size=str(self.page.currentData()),
            side=None if side is None else str(side),
            commander=str(self.commander.currentData()),
            supply_problems=self.supply.isChecked(),
            open_after=self.open_after.isChecked(),
        )

    def _accept(self) -> None:
        job = self.job()
        if not self.path.text().strip():
            self.problem.setText("Give a file name for the PDF.")
            self.problem.setVisible(True)
            return
        if not job.path.parent.is_dir():
            self.problem.setText(f"The folder {job.path.parent} does not exist.")
            self.problem.setVisible(True)
            return
        self.accept()


class Printer(QObject):
    """The window's printing: opens the dialog, writes the PDF, opens it in the viewer."""

    message = Signal(str)
    #: the file written and its page count (tests and the status bar listen)
    written = Signal(Path, int)

    def __init__(self, window: QWidget, registry: Registry, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.registry = registry
        self.settings = settings

    def dialog(self, document: Document, roster: Roster | None) -> PrintDialog:
        folder = str(self.settings.value("print/folder", "")) or str(Path.home())
        page = str(self.settings.value("print/pageSize", "a4"))
        return PrintDialog(
            self.window, self.registry, roster, document, folder=folder, page_size=page
        )

    def ask_and_print(self, document: Document, roster: Roster | None) -> Path | None:
        box = self.dialog(document, roster)
        if box.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.run(box.job(), roster)

    def run(self, job: PrintJob, roster: Roster | None) -> Path | None:
        from app.gui import dialogs

        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        try:
            pages = write(job, self.registry, roster)
        except (ValueError, KeyError, OSError) as exc:
            text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            dialogs.error(self.window, "Cannot write the PDF", f"{job.path}: {text}")
            return None
        finally:
            QApplication.restoreOverrideCursor()
        self.settings.setValue("print/folder", str(job.path.parent))
        self.settings.setValue("print/pageSize", job.page_size)
        self.message.emit(f"Wrote {job.document.value.lower()} to {job.path} ({pages} pages)")
        self.written.emit(job.path, pages)
        if job.open_after:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(job.path)))
        return job.path
