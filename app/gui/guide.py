"""Help > User guide (F1): the guide's Markdown pages, the very files of ``docs/guide/`` the
documentation site is built from, shown by Qt's own Markdown reader (``QTextBrowser``). Links
between pages and to the screenshots work as on the site; Back, Forward and Contents move
about. Each window opens it at its own page (the battle window at "A battle").

One guide window a Castra window, opened without blocking, so it can stay beside the table."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication, QResizeEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.bundled import GUIDE_DIR

#: the page each window opens at
INDEX = "index.md"


def page_path(name: str) -> Path:
    """A page of the guide by its file name (``battle.md``)."""
    return GUIDE_DIR / name


class GuideWindow(QDialog):
    def __init__(self, parent: QWidget | None, page: str = INDEX) -> None:
        super().__init__(parent)
        self.setObjectName("guideDialog")
        self.setWindowTitle("Castra user guide")
        self.browser = QTextBrowser()
        self.browser.setObjectName("guideText")
        self.browser.setOpenLinks(True)
        self.browser.setOpenExternalLinks(True)
        self.browser.setSearchPaths([str(GUIDE_DIR)])
        row = QHBoxLayout()
        self.back = QPushButton("Back")
        self.forward = QPushButton("Forward")
        self.contents = QPushButton("Contents")
        for button in (self.back, self.forward, self.contents):
            row.addWidget(button)
        row.addStretch(1)
        self.back.clicked.connect(self.browser.backward)
        self.forward.clicked.connect(self.browser.forward)
        self.contents.clicked.connect(lambda: self.open_page(INDEX))
        self.browser.backwardAvailable.connect(self.back.setEnabled)
        self.browser.forwardAvailable.connect(self.forward.setEnabled)
        self.browser.sourceChanged.connect(lambda _url: self._fit_images())
        self.back.setEnabled(False)
        self.forward.setEnabled(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.resize(760, 640)
        self.open_page(page)

    def open_page(self, name: str) -> None:
        """Show page ``name`` (a file of the guide)."""
        self.browser.setSource(
            QUrl.fromLocalFile(str(page_path(name))), QTextDocument.ResourceType.MarkdownResource
        )

    def _fit_images(self) -> None:
        """Screenshots no wider than the page: Qt's Markdown shows a picture at its own size
        (a 1440-pixel screenshot made the page scroll sideways)."""
        doc = self.browser.document()
        room = max(200, self.browser.viewport().width() - 24)
        cursor = QTextCursor(doc)
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                fmt = fragment.charFormat()
                if fmt.isImageFormat():
                    image = fmt.toImageFormat()
                    found = doc.resource(QTextDocument.ResourceType.ImageResource, image.name())
                    width = getattr(found, "width", lambda: 0)()
                    if width:
                        shown = min(width, room)
                        image.setWidth(shown)
                        image.setHeight(found.height() * shown / width)
                        cursor.setPosition(fragment.position())
                        cursor.setPosition(
                            fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor
                        )
                        cursor.setCharFormat(image)
                it += 1
            block = block.next()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_images()

    @property
    def page(self) -> Path:
        """The file of the page shown."""
        return Path(self.browser.source().toLocalFile())


def show_guide(parent: QWidget, page: str = INDEX) -> GuideWindow:
    """The guide at ``page``: the window's own, raised, when one is open already."""
    window = parent.findChild(GuideWindow)
    if window is None:
        window = GuideWindow(parent, page)
    else:
        window.open_page(page)
    window.show()
    if QGuiApplication.platformName() != "offscreen":  # it cannot raise a window
        window.raise_()
        window.activateWindow()
    return window
