"""Printing from the window: each document from the File menu and the editor's Print button,
written through app.export and opened in the system's viewer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.gui.actions import ActionKey
from app.gui.main_window import MainWindow
from app.gui.printing import Document, PrintDialog
from app.rules.registry import Registry
from tests.gui.helpers import open_new


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    urls: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: urls.append(url.toLocalFile()))
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


def text_of(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_print_unit_cards_of_the_open_roster(
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    session = open_new(window, registry, "quincunx", "roman", name="Legio", standard=True)
    target = tmp_path / "cards.pdf"
    seen = run_dialog(monkeypatch, target)
    window.action_registry[ActionKey.PRINT_CARDS].trigger()
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
            ActionKey.PRINT_CHANCE_CARDS,
        )
    ]
    menu = window.findChild(type(window.editor.print_button.menu()), "printMenu")
    assert menu is not None and len(menu.actions()) == 4


def test_print_roster_sheet_on_letter(
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    open_new(window, registry, "leg-vi-carthago", "roman", name="Legio II")
    target = tmp_path / "sheet.pdf"
    run_dialog(monkeypatch, target, lambda d: d.page.setCurrentIndex(d.page.findData("letter")))
    window.action_registry[ActionKey.PRINT_ROSTER].trigger()
    page = PdfReader(target).pages[0]
    assert round(float(page.mediabox.width)) == 612  # Letter, 8.5 in
    assert "Legio II" in text_of(target)


def test_reference_sheet_needs_no_roster(
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
    window.action_registry[ActionKey.PRINT_REFSHEET].trigger()
    assert "Grown Slightly Bald" in text_of(target)


def test_chance_cards_take_the_rosters_side_and_commander(
    window: MainWindow,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[str],
) -> None:
    open_new(window, registry, "d3-ancients", "carthaginian")
    target = tmp_path / "deck.pdf"
    seen = run_dialog(monkeypatch, target, lambda d: d.supply.setChecked(True))
    window.action_registry[ActionKey.PRINT_CHANCE_CARDS].trigger()
    dialog = seen[0]
    assert dialog.side.currentData() == "carthaginian"
    assert dialog.job().supply_problems
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
