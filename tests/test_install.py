"""Castra installed as a club member installs it: the wheel is built, installed into a fresh
virtual environment, and run from a folder outside the checkout. The installed copy lists the
five rulesets, makes rosters, fights a few steps of a battle, prints a card sheet, starts the
window offscreen and passes ``castra self-test``, all from the files inside the wheel
(``app/_data``), never from the checkout.

Nothing is downloaded: the wheel is built with the setuptools of the project's environment
(``--no-build-isolation``, ``--no-index``), and the fresh environment is made without pip; its
site-packages holds a ``.pth`` line naming the project environment's site-packages, so the
dependencies (PySide6, SQLAlchemy, reportlab, ...) are found there, as
``--system-site-packages`` would find a system's, while Castra itself is installed only from
the wheel (``--no-deps --ignore-installed``). A ``.pth`` line adds a folder to the path but
runs none of the ``.pth`` files in it, so the project's editable install (which points at the
checkout) stays out of the fresh environment: the test checks where ``app`` comes from.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from pypdf import PdfReader

import app
from app import bundled

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
#: what a build needs from the checkout (the data folders as setup.py names them)
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
FOLDERS = ("app", "rulesets", "db", "resources", "docs")
PIP = (sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check")


def _run(
    args: Sequence[str | Path], cwd: Path, env: dict[str, str] | None = None, timeout: int = 300
) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, f"{args}: {out.returncode}\n{out.stdout}\n{out.stderr}"
    return out


def _data_folders(path: Path) -> tuple[str, ...]:
    """The ``DATA_FOLDERS = (...)`` a build file names (read, not run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [
            "DATA_FOLDERS"
        ]:
            return tuple(ast.literal_eval(node.value))
    raise AssertionError(f"{path} names no DATA_FOLDERS")


def test_the_wheel_and_the_bundle_carry_the_folders_app_bundled_reads() -> None:
    folders = _data_folders(ROOT / "setup.py")
    assert _data_folders(ROOT / "castra.spec") == folders
    for path in (
        bundled.RULESETS_DIR,
        bundled.MIGRATIONS_DIR,
        bundled.FONTS_DIR,
        bundled.ICONS_DIR,
        bundled.APP_ICON,
        bundled.GUIDE_DIR,
    ):
        assert path.relative_to(bundled.DATA_ROOT).parts[0] in folders, path
        assert path.exists(), path


def build_wheel(tmp: Path) -> Path:
    """The wheel, built from a copy of the checkout's sources (so the build's own folders,
    ``build/`` and ``*.egg-info``, are never written into the checkout)."""
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        shutil.copy2(ROOT / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "_data")
    for name in FOLDERS:
        shutil.copytree(ROOT / name, src / name, ignore=skip)
    wheels = tmp / "wheels"
    _run(
        [*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels, src],
        cwd=tmp,
    )
    (wheel,) = wheels.glob("castra-*.whl")
    return wheel


def fresh_venv(tmp: Path, wheel: Path) -> Path:
    """A new virtual environment with Castra installed from ``wheel`` alone; its ``bin``."""
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / "bin" / "python"
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp)
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    Path(site.stdout.strip(), "castra-test-deps.pth").write_text(
        "".join(f"{p}\n" for p in sorted(ours)), encoding="utf-8"
    )
    _run(
        [
            *PIP,
            "--python",
            python,
            "install",
            "--no-deps",
            "--no-index",
            "--ignore-installed",
            wheel,
        ],
        cwd=tmp,
    )
    return venv / "bin"


def test_the_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    assert wheel.name == f"castra-{app.__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    for folder in ("rulesets/quincunx", "db/versions", "resources/fonts", "resources/icons"):
        assert any(n.startswith(f"app/_data/{folder}/") for n in names), folder
    assert "app/_data/resources/app/castra.svg" in names
    assert "app/_data/docs/guide/index.md" in names  # the guide F1 shows
    assert not any("__pycache__" in n for n in names)

    bin_dir = fresh_venv(tmp_path, wheel)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CASTRA_", "PYTHON", "VIRTUAL_ENV"))
    }
    env |= {
        "CASTRA_HOME": str(tmp_path / "home"),
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(tmp_path / "user"),
        "XDG_DATA_HOME": str(tmp_path / "user" / "data"),
    }
    castra = bin_dir / "castra"

    def run(*args: str) -> str:
        return _run([castra, *args], cwd=elsewhere, env=env).stdout

    where = _run(
        [
            bin_dir / "python",
            "-c",
            "import app, app.bundled as b; print(app.__file__, b.DATA_ROOT)",
        ],
        cwd=elsewhere,
        env=env,
    ).stdout.split()
    venv = bin_dir.parent
    assert Path(where[0]).is_relative_to(venv) and Path(where[1]).is_relative_to(venv), where
    assert Path(where[1]).name == "_data"

    assert run("--version") == f"castra {app.__version__}\n"
    listed = json.loads(run("rulesets", "--json"))
    assert sorted(r["id"] for r in listed["rulesets"]) == [
        "d3-ancients",
        "grown-slightly-bald",
        "leg-vi-carthago",
        "mwan90",
        "quincunx",
    ]
    assert listed["failures"] == []

    for army, name in (("roman", "Legio I"), ("carthaginian", "Hannibal")):
        made = run(
            "roster", "new", "--ruleset", "quincunx", "--army", army, "--name", name, "--standard"
        )
        assert made.startswith("created roster ") and made.endswith(f": {name}\n"), made
    assert run("battle", "new", "Legio I", "Hannibal", "--seed", "3").startswith(
        "battle 1: Legio I vs Hannibal"
    )
    assert "Triarii 1 (A1) moves: forward 3" in run(
        "battle", "move", "1", "A1", "--path", "forward 3"
    )
    run("battle", "next", "1")
    log = run("battle", "log", "1")
    assert "[2] turn 1: Triarii 1 (A1) moves" in log and "[3] turn 1" in log

    cards = tmp_path / "cards.pdf"
    printed = run("print", "cards", "Legio I", "-o", str(cards))
    pages = len(PdfReader(cards).pages)
    assert pages >= 1 and f"({pages} pages)" in printed

    shown = _run([castra], cwd=elsewhere, env=env | {"CASTRA_QUIT_AFTER_SHOW": "1"}).stdout
    assert "window shown" in shown and "roster open" in shown

    selftest = run("self-test", "--pdf", str(tmp_path / "self-test.pdf"))
    assert selftest.splitlines()[-1] == "self-test: passed", selftest
    assert len(PdfReader(tmp_path / "self-test.pdf").pages) >= 1

    assert sorted(p.name for p in elsewhere.iterdir()) == []  # nothing written where it ran
    assert not (tmp_path / "user").exists()  # nor in the user's folders: CASTRA_HOME held all
