"""Running a print job away from the window's thread, and sending a PDF to a printer.

The PDF is built on a worker thread (``QThread``; reportlab does the work) while a progress
dialog counts the cards and offers Cancel; the window stays responsive. A cancelled job
writes nothing. A job for a printer writes the PDF to a temporary file, then the system's
print dialog (``QPrintDialog``) chooses the printer, copies and pages, and each page is drawn
on the printer from the PDF (rendered by PDFium through pypdfium2) at the printer's
resolution, up to 300 dpi.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRectF, Qt, QThread, Signal, Slot
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter
from PySide6.QtPrintSupport import QPrinter

#: the finest resolution a page is sent to a printer at
MAX_DPI = 300


class Cancelled(Exception):
    """The user pressed Cancel: the job stops and writes nothing."""


class PrintWorker(QObject):
    """Writes one job's PDF on its thread: ``progress(done, total)`` as cards are drawn,
    then ``finished_ok(pages)``, ``cancelled()`` or ``failed(message)``."""

    progress = Signal(int, int)
    finished_ok = Signal(int)
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, write: Callable[[Callable[[int, int], None]], int]) -> None:
        super().__init__()
        self._write = write
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Ask the job to stop at the next card (thread-safe)."""
        self._cancel.set()

    def _step(self, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise Cancelled
        self.progress.emit(done, total)

    @Slot()
    def run(self) -> None:
        try:
            if self._cancel.is_set():
                raise Cancelled
            pages = self._write(self._step)
        except Cancelled:
            self.cancelled.emit()
        except (ValueError, KeyError, OSError) as exc:
            text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.failed.emit(text)
        except Exception as exc:  # never let a worker die silently: say what happened
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.finished_ok.emit(pages)


class PrintThread(QObject):
    """A worker on its own ``QThread``; :meth:`stop` cancels it and waits for the thread
    to end (the window calls it before it closes, so no thread outlives the app)."""

    def __init__(self, worker: PrintWorker, parent: QObject) -> None:
        super().__init__(parent)
        self.worker = worker
        self.qthread = QThread(self)
        self.qthread.setObjectName("castra-print")
        worker.moveToThread(self.qthread)
        self.qthread.started.connect(worker.run)
        for signal in (worker.finished_ok, worker.cancelled, worker.failed):
            signal.connect(self.qthread.quit)
        self.qthread.finished.connect(worker.deleteLater)

    def start(self) -> None:
        self.qthread.start()

    def stop(self, timeout_ms: int = 30_000) -> bool:
        """Cancel the job and wait for its thread; True when it has ended."""
        self.worker.cancel()
        self.qthread.quit()
        return bool(self.qthread.wait(timeout_ms))

    def join(self, timeout_ms: int = 30_000) -> bool:
        """Wait for the thread of a job that has ended (its worker is deleted there). The GUI
        thread calls this before it goes on: ``QThread.wait`` lets go of Python's lock, so
        the worker's deletion (which needs it) can finish. Going on at once could deadlock
        the app: PySide6's ~QObject in the worker waits for Python's lock while holding Qt's
        connection lock, which the GUI thread, holding Python's lock, waits for as soon as it
        connects a signal (seen: the system print dialog hung as it opened)."""
        self.qthread.quit()
        return bool(self.qthread.wait(timeout_ms))

    def running(self) -> bool:
        return bool(self.qthread.isRunning())


def new_printer(page_size: str, name: str) -> QPrinter:
    """A printer set for the job's paper, drawing on the whole sheet (the PDF has its own
    margins)."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    size = QPageSize.PageSizeId.Letter if page_size == "letter" else QPageSize.PageSizeId.A4
    printer.setPageSize(QPageSize(size))
    printer.setPageOrientation(QPageLayout.Orientation.Portrait)
    printer.setFullPage(True)
    printer.setDocName(name)
    return printer


def pdf_pages(path: Path) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def print_pdf(path: Path, printer: QPrinter, step: Callable[[int, int], bool] | None = None) -> int:
    """Draw the pages of the PDF at ``path`` on ``printer`` (its chosen page range, or all),
    each fitted to the sheet. ``step(done, total)`` may return False to stop. Returns the
    pages sent."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        count = len(pdf)
        first, last = printer.fromPage(), printer.toPage()
        if first <= 0 or last <= 0:
            first, last = 1, count
        pages = list(range(max(1, first) - 1, min(count, last)))
        dpi = min(printer.resolution(), MAX_DPI)
        painter = QPainter()
        if not painter.begin(printer):
            raise OSError("the printer could not be started")
        sent = 0
        try:
            for n, index in enumerate(pages):
                if n:
                    printer.newPage()
                page = pdf[index]
                bitmap = page.render(scale=dpi / 72, rev_byteorder=True)
                image = QImage(
                    bitmap.buffer,
                    bitmap.width,
                    bitmap.height,
                    bitmap.stride,
                    QImage.Format.Format_RGB888
                    if bitmap.n_channels == 3
                    else QImage.Format.Format_RGBA8888,
                ).copy()  # the bitmap's memory goes with it
                page.close()
                target = QRectF(painter.viewport())
                scaled = image.size().scaled(
                    target.size().toSize(), Qt.AspectRatioMode.KeepAspectRatio
                )
                painter.drawImage(
                    QRectF(target.x(), target.y(), scaled.width(), scaled.height()), image
                )
                sent += 1
                if step is not None and not step(sent, len(pages)):
                    break
        finally:
            painter.end()
        return sent
    finally:
        pdf.close()
