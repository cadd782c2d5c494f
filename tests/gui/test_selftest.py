"""``castra self-test``: in a process of its own, as the bundle's smoke test runs it, it
starts the window in a temporary data folder (never the user's), opens the sample roster and
a battle, prints unit cards to a real PDF and exits 0; a step that fails is named in one
line and the exit code is 1; a bad ``--pdf`` is refused before anything starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app import bundled
from app.gui import app as gui_app
from app.gui import selftest
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.rulesets import find_engine

pytestmark = pytest.mark.gui


def test_self_test_passes_and_leaves_the_users_data_alone(tmp_path: Path) -> None:
    home = tmp_path / "users-home"
    home.mkdir()
    (home / "keep.txt").write_text("the user's", encoding="utf-8")
    pdf = tmp_path / "cards.pdf"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CASTRA_HOME": str(home),
        "CASTRA_DB": str(tmp_path / "users.sqlite3"),
        "CASTRA_QUIT_AFTER_SHOW": "1",  # a switch that would stop the test early: ignored
    }
    out = subprocess.run(
        [sys.executable, "-m", "app", "self-test", "--pdf", str(pdf)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "self-test: passed"
    assert "self-test: the window has Castra's icon" in lines
    assert any("5 rulesets loaded; the sample roster" in ln for ln in lines), lines
    assert any(ln.startswith("self-test: battle ") and "terrain pieces" in ln for ln in lines)
    printed = next(ln for ln in lines if ln.startswith("self-test: printed "))
    pages = int(printed.split(" on ")[1].split()[0])
    assert printed.endswith(f"to {pdf}")
    assert len(PdfReader(pdf).pages) == pages >= 1
    assert sorted(p.name for p in home.iterdir()) == ["keep.txt"]
    assert not (tmp_path / "users.sqlite3").exists()
    folder = Path(lines[0].split("data folder ")[1].split(" (")[0])
    assert not folder.exists()  # the temporary data folder is gone


def test_a_failing_step_is_named_and_gives_exit_1(
    qapp: QApplication, qtbot: QtBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    window = MainWindow(Registry(find_engine), None, gui_app._settings())
    qtbot.addWidget(window)
    previous = qapp.windowIcon()
    try:
        qapp.setWindowIcon(QIcon())
        assert selftest.drive(window, tmp_path / "x.pdf") == 1
        assert capsys.readouterr().out == (
            "self-test: FAILED: the window has no icon "
            "(resources/app/castra.svg or Qt's SVG support)\n"
        )
        qapp.setWindowIcon(QIcon(str(bundled.APP_ICON)))
        assert selftest.drive(window, tmp_path / "x.pdf") == 1
        out = capsys.readouterr().out.splitlines()
        assert out[0] == "self-test: the window has Castra's icon"
        assert out[1].startswith("self-test: FAILED: no sample roster opened at first start")
        assert len(out) == 2
    finally:
        qapp.setWindowIcon(previous)
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("{tmp}/missing/cards.pdf", "castra: {tmp}/missing is not a folder\n"),
        ("{tmp}", "castra: {tmp} is not a regular file\n"),
        ("{tmp}/a\x07.pdf", "castra: --pdf holds a control character"),
    ],
)
def test_a_bad_pdf_path_is_refused_before_the_window_starts(
    arg: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.cli import main

    started: list[object] = []
    monkeypatch.setattr(selftest, "run", lambda pdf=None: started.append(pdf) or 0)
    assert main(["self-test", "--pdf", arg.format(tmp=tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(message.format(tmp=tmp_path)) and err.count("\n") == 1
    assert started == []
