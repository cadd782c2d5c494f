"""Print or export PDFs from the window: unit cards, the roster sheet, a quick-reference sheet
and the D3 chance-card deck. A small dialog chooses the document, the page size and the file;
``app.export`` writes it; the PDF then opens in the system's viewer (the preview).

Widgets only gather choices: the documents come from ``app.export``, the deck's substitutions
from the ruleset data, and the roster from the open session.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QCursor, QDesktopServices
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
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
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.core.roster import CONFIRM_CARDS, Roster
from app.gui.print_job import PrintThread, PrintWorker, new_printer, print_pdf
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
    #: to a printer through the system's print dialog (``path`` is then a temporary file)
    to_printer: bool = False


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


def write(
    job: PrintJob,
    registry: Registry,
    roster: Roster | None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the PDF of ``job``; returns its page count. Raises ``ValueError`` or ``OSError``
    with a message for the user. ``progress`` hears of the unit cards drawn (and may raise
    to stop)."""
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
        return write_unit_cards(
            rs, roster, job.path, page_size=job.page_size, progress=progress
        ).pages
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
        self.to_printer = QRadioButton("To a &printer (the system's print dialog comes next)")
        self.to_printer.setObjectName("toPrinter")
        self.to_pdf = QRadioButton("To a PDF &file")
        self.to_pdf.setObjectName("toPdf")
        self.to_pdf.setChecked(True)
        destination = QVBoxLayout()
        destination.addWidget(self.to_pdf)
        destination.addWidget(self.to_printer)
        self.to_printer.toggled.connect(self._refresh)
        self.font_warning = QLabel()
        self.font_warning.setObjectName("printFontWarning")
        self.font_warning.setStyleSheet("color: #8a5a00")
        self.font_warning.setWordWrap(True)
        self.size_note = QLabel()
        self.size_note.setObjectName("printSize")
        self.size_note.setWordWrap(True)
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
        form.addRow("Send:", destination)
        self._file_label = QLabel("File:")
        form.addRow(self._file_label, path_row)
        self._path_row = path_row
        form.addRow("", self.open_after)
        form.addRow("", self.size_note)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Write PDF")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.font_warning)
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
        printer = self.to_printer.isChecked()
        self._form.setRowVisible(self._path_row, not printer)
        self._show_row(self.open_after, not printer)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Print…" if printer else "Write PDF")
        self.size_note.setText(self._size_text(doc))
        warning = None
        if needs_roster and self.roster is not None:
            from app.export.fonts import unprintable_warning

            warning = unprintable_warning(self.roster)
        self.font_warning.setText(f"⚠ {warning}." if warning else "")
        self.font_warning.setVisible(bool(warning))
        self._show_row(self.size_note, bool(self.size_note.text()))
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

    def _size_text(self, doc: Document) -> str:
        if doc is not Document.CARDS or self.roster is None:
            return ""
        from app.export import card_count, card_grid

        cards = card_count(self.roster)
        pages = card_grid(str(self.page.currentData())).pages_for(cards)
        plural = ("s" if cards != 1 else "", "s" if pages != 1 else "")
        return f"{cards:,} card{plural[0]} on {pages:,} page{plural[1]}"

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
            to_printer=self.to_printer.isChecked(),
        )

    def _accept(self) -> None:
        job = self.job()
        if job.to_printer:
            self.accept()
            return
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
    """The window's printing: the dialog, the job on a worker thread with a progress dialog
    and Cancel, then the PDF opened in the viewer or sent to the system's print dialog."""

    message = Signal(str)
    #: the file written and its page count (tests and the status bar listen)
    written = Signal(Path, int)
    #: a job ended without a file: cancelled or failed
    stopped = Signal(str)
    #: the system's print dialog, open (tests answer it)
    print_dialog_shown = Signal(QPrintDialog)
    #: pages sent to a printer
    printed = Signal(int)

    def __init__(self, window: QWidget, registry: Registry, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.registry = registry
        self.settings = settings
        self.active: PrintThread | None = None
        self._job: PrintJob | None = None
        self.progress: QProgressDialog | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="castra-print-")

    def dialog(self, document: Document, roster: Roster | None) -> PrintDialog:
        folder = str(self.settings.value("print/folder", "")) or str(Path.home())
        page = str(self.settings.value("print/pageSize", "a4"))
        return PrintDialog(
            self.window, self.registry, roster, document, folder=folder, page_size=page
        )

    def ask_and_print(self, document: Document, roster: Roster | None) -> bool:
        box = self.dialog(document, roster)
        if box.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.run(box.job(), roster)

    def run(self, job: PrintJob, roster: Roster | None) -> bool:
        """Start ``job`` on a worker thread; False when it did not start (another job is
        running, or the user declined a very large one)."""
        from app.gui import dialogs

        if self.active is not None and self.active.running():
            self.message.emit("A print job is still running; wait for it or cancel it")
            return False
        cards = 0
        if job.document is Document.CARDS and roster is not None:
            from app.export import card_count, card_grid

            cards = card_count(roster)
            pages = card_grid(job.page_size).pages_for(cards)
            if cards > CONFIRM_CARDS and not dialogs.confirm(
                self.window,
                "A large print job",
                f"“{roster.name}” makes {cards:,} cards on {pages:,} pages. Print them all?",
                f"Print {pages:,} pages",
            ):
                return False
        if job.to_printer:
            job = replace(
                job,
                path=Path(self._tmp.name)
                / suggested_name(job.document, self.registry.get(job.ruleset), roster),
                open_after=False,
            )
        registry = self.registry
        worker = PrintWorker(lambda step: write(job, registry, roster, step))
        thread = PrintThread(worker, self)
        # Bound methods of this (GUI-thread) object: Qt queues the calls to the GUI thread.
        self._job = job
        worker.finished_ok.connect(self._written)
        worker.cancelled.connect(self._stopped)
        worker.failed.connect(self._failed)
        worker.progress.connect(self._progressed)
        progress = QProgressDialog(
            f"Building {cards:,} cards…" if cards else f"Writing the {job.document.value.lower()}…",
            "Cancel",
            0,
            max(cards, 0),
            self.window,
        )
        progress.setObjectName("printProgress")
        progress.setWindowTitle("Printing")
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(400)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        # Called here, in the GUI thread: the worker's own thread is busy with the job.
        progress.canceled.connect(lambda: worker.cancel())
        self.progress, self.active = progress, thread
        thread.start()
        return True

    def _finish(self) -> None:
        if self.active is not None:
            self.active.join()
        if self.progress is not None:
            self.progress.reset()
            self.progress.hide()
            self.progress.deleteLater()
            self.progress = None
        self.active = None

    @Slot(int, int)
    def _progressed(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.setValue(min(done, total))

    @Slot(int)
    def _written(self, pages: int) -> None:
        job = self._job
        self._finish()
        if job is None:
            return
        if job.to_printer:
            self._to_printer(job, pages)
            return
        self.settings.setValue("print/folder", str(job.path.parent))
        self.settings.setValue("print/pageSize", job.page_size)
        self.message.emit(f"Wrote {job.document.value.lower()} to {job.path} ({pages} pages)")
        self.written.emit(job.path, pages)
        if job.open_after and not QDesktopServices.openUrl(QUrl.fromLocalFile(str(job.path))):
            from app.gui import dialogs

            dialogs.error(
                self.window,
                "No PDF viewer",
                f"The PDF was written, but no program to show PDFs was found.\n\n"
                f"It is at {job.path}",
            ).setIcon(QMessageBox.Icon.Information)
            self.message.emit(f"No PDF viewer found; the PDF is at {job.path}")

    @Slot()
    def _stopped(self) -> None:
        text = "Cancelled: nothing was written"
        self._finish()
        self.message.emit(text)
        self.stopped.emit(text)

    @Slot(str)
    def _failed(self, text: str) -> None:
        from app.gui import dialogs

        job = self._job
        self._finish()
        if job is None:
            return
        what = "Cannot print" if job.to_printer else "Cannot write the PDF"
        dialogs.error(self.window, what, f"{job.path}: {text}")
        self.stopped.emit(text)

    def _to_printer(self, job: PrintJob, pages: int) -> None:
        """The system's print dialog (not blocking); the pages go out once it is accepted."""
        self.settings.setValue("print/pageSize", job.page_size)
        printer = new_printer(job.page_size, job.path.stem)
        box = QPrintDialog(printer, self.window)
        box.setObjectName("systemPrintDialog")
        box.setMinMax(1, pages)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # Sent once the dialog has closed (it deletes itself), on the next turn of the loop.
        box.accepted.connect(lambda: QTimer.singleShot(0, self, lambda: self._send(job, printer)))
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.show()
        self.print_dialog_shown.emit(box)

    def _send(self, job: PrintJob, printer: QPrinter) -> None:
        from app.gui import dialogs

        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        try:
            sent = print_pdf(job.path, printer)
        except (OSError, ValueError) as exc:
            dialogs.error(self.window, "Cannot print", str(exc))
            return
        finally:
            QApplication.restoreOverrideCursor()
        where = printer.printerName() or "the printer"
        self.message.emit(f"Sent {sent} page{'s' if sent != 1 else ''} to {where}")
        self.printed.emit(sent)

    def shutdown(self) -> None:
        """Stop a running job and wait for its thread (before the window closes)."""
        if self.active is not None:
            self.active.stop()
            self._finish()
        self._tmp.cleanup()
