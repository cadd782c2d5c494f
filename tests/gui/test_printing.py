"""Printing from the window: each document from the File menu and the editor's Print button,
written through app.export and opened in the system's viewer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QSettings
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from app.gui.actions import ActionKey
from app.gui.main_window import MainWindow
from app.gui.print_dialog import PrintDialog
from app.gui.printables import Document
from app.rules.registry import Registry
from tests.gui.helpers import open_new


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    urls: list[str] = []

    def open_url(url: Any) -> bool:
        urls.append(url.toLocalFile())
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    return urls


def run_dialog(
    monkeypatch: pytest.MonkeyPatch, target: Path, change: Any = None
) -> list[PrintDialog]:
    """Answer the print dialog: set the file (and anything else), then accept it."""
    seen: list[PrintDialog] = []

    def exec_(self: PrintDialog) -> int:
        seen.append(self)
        if change is not None:
            change(self)
        self.path.setText(str(target))
        self._accept()
        return int(self.result())

    monkeypatch.setattr(PrintDialog, "exec", exec_)
    return seen


def print_and_wait(qtbot: QtBot, window: MainWindow, key: ActionKey | str) -> None:
    """Trigger a print action (a declared document's by its id) and wait for the worker
    thread to write the file."""
    a = window.action_registry
    with qtbot.waitSignal(window.printer.written, timeout=20_000):
        (a.documents[key] if isinstance(key, str) else a[key]).trigger()


def text_of(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_print_unit_cards_of_the_open_roster(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    session = open_new(window, registry, "quincunx", "roman", name="Legio", standard=True)
    target = tmp_path / "cards.pdf"
    seen = run_dialog(monkeypatch, target)
    print_and_wait(qtbot, window, ActionKey.PRINT_CARDS)
    assert seen[0].chosen_document() is Document.CARDS
    reader = PdfReader(target)
    cards = sum(u.count for u in session.roster.units) + len(session.roster.leaders)
    assert len(reader.pages) == -(-cards // 9)
    assert "Hastati" in text_of(target)
    assert opened == [str(target)]


def test_editor_print_button_offers_every_document(window: MainWindow, registry: Registry) -> None:
    open_new(window, registry, "d3-ancients", "roman")
    texts = [a.text() for a in window.editor.print_button.menu().actions()]
    assert texts == [
        window.action_registry[k].text()
        for k in (
            ActionKey.PRINT_CARDS,
            ActionKey.PRINT_ROSTER,
            ActionKey.PRINT_REFSHEET,
        )
    ] + [window.action_registry.documents["chance-cards"].text()]
    menu = window.findChild(type(window.editor.print_button.menu()), "printMenu")
    assert menu is not None and len(menu.actions()) == 4


def test_print_roster_sheet_on_letter(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    open_new(window, registry, "leg-vi-carthago", "roman", name="Legio II")
    target = tmp_path / "sheet.pdf"
    run_dialog(monkeypatch, target, lambda d: d.page.setCurrentIndex(d.page.findData("letter")))
    print_and_wait(qtbot, window, ActionKey.PRINT_ROSTER)
    page = PdfReader(target).pages[0]
    assert round(float(page.mediabox.width)) == 612  # Letter, 8.5 in
    assert "Legio II" in text_of(target)


def test_reference_sheet_needs_no_roster(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    assert not window.action_registry[ActionKey.PRINT_CARDS].isEnabled()
    target = tmp_path / "ref.pdf"
    run_dialog(
        monkeypatch,
        target,
        lambda d: d.ruleset.setCurrentIndex(d.ruleset.findData("grown-slightly-bald")),
    )
    print_and_wait(qtbot, window, ActionKey.PRINT_REFSHEET)
    assert "Grown Slightly Bald" in text_of(target)


def test_chance_cards_take_the_rosters_side_and_commander(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    open_new(window, registry, "d3-ancients", "carthaginian")
    target = tmp_path / "deck.pdf"
    seen = run_dialog(
        monkeypatch, target, lambda d: d.option_widget("supply_problems").setChecked(True)
    )
    print_and_wait(qtbot, window, "chance-cards")
    dialog = seen[0]
    assert dialog.side.currentData() == "carthaginian"
    assert dialog.job().options["supply_problems"]
    text = text_of(target)
    assert "Ammunition" in text and "Initiative" in text
    assert len(PdfReader(target).pages) == 2  # 15 cards, nine a page


def test_cards_without_a_roster_are_refused_in_the_dialog(
    window: MainWindow, registry: Registry, qtbot: QtBot
) -> None:
    dialog = window.printer.dialog(Document.CARDS, None)
    qtbot.addWidget(dialog)
    assert "Open a roster" in dialog.problem.text()
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_a_folder_that_does_not_exist_is_a_clear_problem(
    window: MainWindow, registry: Registry, tmp_path: Path, qtbot: QtBot
) -> None:
    open_new(window, registry, "quincunx", "roman", standard=True)
    session = window.builder.session
    assert session is not None
    dialog = window.printer.dialog(Document.ROSTER, session.roster)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(tmp_path / "nowhere" / "x.pdf"))
    dialog._accept()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert "does not exist" in dialog.problem.text()
    assert not (tmp_path / "nowhere").exists()


def big_roster_session(window: MainWindow, registry: Registry, count: int = 1000) -> Any:
    from app.core.edits import AddUnit
    from app.core.roster import unit_from_entry

    session = open_new(window, registry, "quincunx", "roman", name="Big")
    unit = unit_from_entry(registry.get("quincunx"), "roman", "hastati", count=count)
    assert session.apply(AddUnit(unit))
    return session


def test_to_the_system_print_dialog(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Print / PDF > Unit cards > To a printer: the system's print dialog opens (not
    blocking); accepted, every page goes to the printer (here Qt's PDF printer)."""
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter

    session = open_new(window, registry, "quincunx", "roman", name="Legio", standard=True)
    run_dialog(monkeypatch, tmp_path / "unused.pdf", lambda d: d.to_printer.setChecked(True))
    with qtbot.waitSignal(window.printer.print_dialog_shown, timeout=20_000) as shown:
        window.action_registry[ActionKey.PRINT_CARDS].trigger()
    box = shown.args[0]
    assert isinstance(box, QPrintDialog) and box.isVisible()
    out = tmp_path / "printed.pdf"
    printer = box.printer()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(out))
    with qtbot.waitSignal(window.printer.printed, timeout=30_000) as sent:
        # QDialog's accept, not the print dialog's: that one would take its printer from
        # the dialog's widgets, and this machine has no printer
        QDialog.accept(box)
    cards = sum(u.count for u in session.roster.units) + len(session.roster.leaders)
    assert sent.args == [-(-cards // 9)]
    assert len(PdfReader(out).pages) == -(-cards // 9)
    assert not (tmp_path / "unused.pdf").exists()  # the PDF went to a temporary file


def test_a_large_job_asks_first_shows_progress_and_can_be_cancelled(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    from app.gui import dialogs

    big_roster_session(window, registry)
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "confirm", lambda _p, _t, text, _ok: asked.append(text) or False)
    target = tmp_path / "big.pdf"
    run_dialog(monkeypatch, target)
    window.action_registry[ActionKey.PRINT_CARDS].trigger()
    assert asked and "1,000 cards on 112 pages" in asked[0]
    assert window.printer.active is None and not target.exists()  # declined: nothing runs
    monkeypatch.setattr(dialogs, "confirm", lambda *_a: True)
    with qtbot.waitSignal(window.printer.stopped, timeout=30_000) as stopped:
        window.action_registry[ActionKey.PRINT_CARDS].trigger()
        progress = window.printer.progress
        assert progress is not None and progress.maximum() == 1000
        button = progress.findChild(QPushButton)
        assert button is not None and button.text() == "Cancel"
        button.click()
    assert "Cancelled" in stopped.args[0]
    assert not target.exists() and opened == []
    assert window.printer.active is None


def test_no_pdf_viewer_is_said(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda _url: False)
    open_new(window, registry, "quincunx", "roman", name="Legio")
    target = tmp_path / "roster.pdf"
    run_dialog(monkeypatch, target)
    messages: list[str] = []
    window.printer.message.connect(messages.append)
    print_and_wait(qtbot, window, ActionKey.PRINT_ROSTER)
    assert target.exists()
    assert any("No PDF viewer found" in m for m in messages)
    box = window.findChild(QMessageBox, "errorBox")
    assert box is not None and str(target) in box.text()


def test_closing_the_window_stops_a_running_job(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.gui import dialogs

    big_roster_session(window, registry, count=1000)
    monkeypatch.setattr(dialogs, "confirm", lambda *_a: True)
    run_dialog(monkeypatch, tmp_path / "big.pdf")
    window.action_registry[ActionKey.PRINT_CARDS].trigger()
    thread = window.printer.active
    assert thread is not None and thread.running()
    window.close()
    assert not thread.running() and window.printer.active is None


def test_the_print_dialog_warns_of_names_that_print_blank(
    window: MainWindow, registry: Registry, qtbot: QtBot
) -> None:
    session = open_new(window, registry, "quincunx", "roman", name="汉尼拔")
    dialog = window.printer.dialog(Document.CARDS, session.roster)
    qtbot.addWidget(dialog)
    assert dialog.font_warning.isVisibleTo(dialog)
    assert "汉" in dialog.font_warning.text() and "print blank" in dialog.font_warning.text()
    assert dialog.size_note.text() == "0 cards on 1 page"
    # a reference sheet shows no roster names: no warning
    dialog.document.setCurrentIndex(dialog.document.findData(Document.REFSHEET))
    assert not dialog.font_warning.isVisibleTo(dialog)


def test_a_declared_document_is_offered_once_its_ruleset_has_loaded(
    qtbot: QtBot, settings: QSettings
) -> None:
    """The window starts with the reopened roster's ruleset and loads the others after: the
    Print menu offers a document an engine declares (D3's chance cards) once a ruleset of
    that engine is there, after the common three, once."""
    from app.rulesets import find_engine

    early = Registry.load(find_engine, only=["quincunx"])
    window = MainWindow(early, None, settings)
    qtbot.addWidget(window)
    a = window.action_registry
    assert "chance-cards" not in a.documents and len(window.print_menu.actions()) == 3
    early.absorb(Registry.load(find_engine, only=["d3-ancients"]))
    window.add_declared_documents()
    window.add_declared_documents()
    chance = a.documents["chance-cards"]
    assert window.print_menu.actions() == [
        a[ActionKey.PRINT_CARDS],
        a[ActionKey.PRINT_ROSTER],
        a[ActionKey.PRINT_REFSHEET],
        chance,
    ]
    assert chance.text() == "C&hance cards…" and chance.isVisible()
