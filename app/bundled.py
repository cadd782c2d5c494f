"""Where the files Castra ships with are: the rulesets, the Alembic migrations, the fonts,
the icons and the user guide. Every module that reads them takes its folder from here.

- **A checkout** (``make run``, ``make test``, an editable install): the folders at the top of
  the repository, beside ``app/``: ``rulesets/``, ``db/``, ``resources/``.
- **An installed wheel** (``pip``, ``pipx``) and **the PyInstaller bundle**: the build puts
  the same folders inside the package, in ``app/_data/`` (``setup.py``'s ``build_py``; the
  bundle's spec file, ``castra.spec``), and they are found there.

Which one is decided once, by whether ``app/_data`` is a folder beside this file: the package's
own location, as ``importlib.resources.files("app")`` gives for a package on the file system,
without importing ``importlib.resources`` (some 9-14 ms of ``tempfile`` and ``zipfile`` on
every start, for the same answer). Castra's data must be real files (the rulesets are hashed
and globbed, Alembic runs its scripts, reportlab and Qt open fonts and icons by path): wheels
install unzipped, and PyInstaller puts data files on disk. Nothing here depends on the
current folder.
"""

from __future__ import annotations

from pathlib import Path

#: the ``app`` package's folder
PACKAGE_DIR = Path(__file__).resolve().parent
#: the data folders' parent: ``app/_data`` when installed or bundled, else the checkout
DATA_ROOT = PACKAGE_DIR / "_data" if (PACKAGE_DIR / "_data").is_dir() else PACKAGE_DIR.parent
#: the built-in rulesets, one folder each
RULESETS_DIR = DATA_ROOT / "rulesets"
#: the Alembic environment (``env.py``) and ``versions/``
MIGRATIONS_DIR = DATA_ROOT / "db"
#: the historical battles (``app.core.scenario``), one TOML file each
SCENARIOS_DIR = DATA_ROOT / "resources" / "scenarios"
#: the DejaVu fonts embedded in PDFs
FONTS_DIR = DATA_ROOT / "resources" / "fonts"
#: the actions' icons (Lucide)
ICONS_DIR = DATA_ROOT / "resources" / "icons"
#: the user guide's pages (Markdown): the same files the documentation site is built from
GUIDE_DIR = DATA_ROOT / "docs" / "guide"
#: Castra's own icon: the windows' and the desktop menu entry's
APP_ICON = DATA_ROOT / "resources" / "app" / "castra.svg"
#: the sizes it is also drawn at, as PNGs beside it (for menus that take no SVG)
APP_ICON_SIZES = (16, 32, 48, 256)


def app_icon_png(size: int) -> Path:
    """The icon drawn at ``size`` pixels (``scripts/app_icons.py`` makes them)."""
    return APP_ICON.with_name(f"castra-{size}.png")
