"""Print or export PDFs from the window: unit cards, the roster sheet, a quick-reference sheet
and the documents the engines declare (:mod:`app.rules.documents`). A small dialog
(:mod:`app.gui.print_dialog`) chooses the document, the page size and the file;
``app.export`` writes it; the PDF then opens in the system's viewer (the preview).

Widgets only gather choices: the documents come from ``app.export``, a declared document's
options from its declaration, and the roster from the open session. The window makes its
:class:`Printer` at start, but the dialog, the print thread and Qt's print support load when
something is first printed (a good 8 ms of the start otherwise).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from app.core.roster import CONFIRM_CARDS, Roster
from app.gui.printables import Document, Printable, PrintJob, suggested_name, title
from app.rules.documents import DocumentSpec
from app.rules.registry import Registry

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtPrintSupport import QPrinter
    from PySide6.QtWidgets import QProgressDialog

    from app.gui.print_dialog import PrintDialog
    from app.gui.print_job import PrintThread


def write(
    job: PrintJob,
    registry: Registry,
    roster: Roster | None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the PDF of ``job``; returns its page count. Raises ``ValueError`` or ``OSError``
    with a message for the user. ``progress`` hears of the unit cards drawn (and may raise
    to stop)."""
    from app.export import write_refsheet, write_roster_sheet, write_unit_cards
    from app.export.documents import maker

    rs = registry.get(job.ruleset)
    if job.document is Document.REFSHEET:
        return write_refsheet(rs, job.path, page_size=job.page_size).pages
    if isinstance(job.document, DocumentSpec):
        if job.side is None:
            raise ValueError(f"choose the side whose {job.document.name} to print")
        make = maker(rs.engine, job.document.id)
        return make(rs, job.path, side=job.side, options=job.options, page_size=job.page_size).pages
    if roster is None:
        raise ValueError("open a roster first")
    if job.document is Document.CARDS:
        return write_unit_cards(
            rs, roster, job.path, page_size=job.page_size, progress=progress
        ).pages
    return write_roster_sheet(rs, roster, job.path, page_size=job.page_size).pages


class Printer(QObject):
    """The window's printing: the dialog, the job on a worker thread with a progress dialog
    and Cancel, then the PDF opened in the viewer or sent to the system's print dialog."""

    message = Signal(str)
    #: the file written and its page count (tests and the status bar listen)
    written = Signal(Path, int)
    #: a job ended without a file: cancelled or failed
    stopped = Signal(str)
    #: the system's print dialog (a QPrintDialog), open (tests answer it)
    print_dialog_shown = Signal(object)
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

    def dialog(self, document: Printable, roster: Roster | None) -> PrintDialog:
        from app.gui.print_dialog import PrintDialog

        folder = str(self.settings.value("print/folder", "")) or str(Path.home())
        page = str(self.settings.value("print/pageSize", "a4"))
        return PrintDialog(
            self.window, self.registry, roster, document, folder=folder, page_size=page
        )

    def ask_and_print(self, document: Printable, roster: Roster | None) -> bool:
        box = self.dialog(document, roster)
        if box.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.run(box.job(), roster)

    def run(self, job: PrintJob, roster: Roster | None) -> bool:
        """Start ``job`` on a worker thread; False when it did not start (another job is
        running, or the user declined a very large one)."""
        from PySide6.QtWidgets import QProgressDialog

        from app.gui import dialogs
        from app.gui.print_job import PrintThread, PrintWorker

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
            f"Building {cards:,} cards…"
            if cards
            else f"Writing the {title(job.document).lower()}…",
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
        self.message.emit(f"Wrote {title(job.document).lower()} to {job.path} ({pages} pages)")
        self.written.emit(job.path, pages)
        if job.open_after and not _open_pdf(job.path):
            from PySide6.QtWidgets import QMessageBox

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
        from PySide6.QtGui import QCursor
        from PySide6.QtPrintSupport import QPrintDialog

        from app.gui.print_job import new_printer

        self.settings.setValue("print/pageSize", job.page_size)
        # asking the system for its printers can take seconds (CUPS looking for network
        # printers): say so, and wait with the busy cursor, rather than seem to do nothing
        self.message.emit("Asking the system for its printers…")
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        try:
            printer = new_printer(job.page_size, job.path.stem)
            box = QPrintDialog(printer, self.window)
        finally:
            QApplication.restoreOverrideCursor()
        box.setObjectName("systemPrintDialog")
        box.setMinMax(1, pages)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # Sent once the dialog has closed (it deletes itself), on the next turn of the loop.
        box.accepted.connect(lambda: QTimer.singleShot(0, self, lambda: self._send(job, printer)))
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.show()
        self.print_dialog_shown.emit(box)

    def _send(self, job: PrintJob, printer: QPrinter) -> None:
        from PySide6.QtGui import QCursor

        from app.gui import dialogs
        from app.gui.print_job import print_pdf

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


def _open_pdf(path: Path) -> bool:
    """Show the PDF in the system's viewer; False when there is none."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
