"""Start the Castra window: the application, the rulesets, the store, the main window.

Start-up is kept light so the window is usable within a second: the window is shown first, and
the rulesets and the store (whose sqlmodel and SQLAlchemy are slow to import) load just after;
no PDF code loads. A store that cannot be opened is reported in a dialog naming the file, and
the window still opens without it; rulesets that failed to load are named in the status bar.

Hidden switches (for timing and screenshots):

- ``CASTRA_QUIT_AFTER_SHOW=1``: quit once the window is shown and the roster open, printing
  the seconds from the process start to each.
- ``CASTRA_SHOW="open:NAME;select:UNIT;edit:COLUMN;dialog:new;dialog:print;menu:print;
  import:PATH;problems;..."``:
  after start, open roster NAME (an id or a name), open the New roster dialog, import a file,
  show the ruleset problems, select a unit by name, delete a roster (asking first), select a
  roster in the library, edit a cell of the selected unit (``edit:grade``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, QTimer, Signal
from PySide6.QtWidgets import QApplication

from app.gui import dialogs
from app.gui.main_window import MainWindow
from app.gui.printing import Document
from app.paths import data_dir, load_registry, user_rulesets_dir
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine

if TYPE_CHECKING:
    from app.store import Store

_T0 = time.perf_counter()

ORGANISATION = "Castra"
APPLICATION = "Castra"


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; elsewhere since this module
    loaded)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _T0


def _settings() -> QSettings:
    """The window's settings: Qt's per-user place, or beside the data when ``CASTRA_HOME``
    names the data folder (portable use, tests, benchmarks)."""
    if os.environ.get("CASTRA_HOME"):
        return QSettings(str(data_dir() / "settings.ini"), QSettings.Format.IniFormat)
    return QSettings()


def open_store_or_error() -> tuple[Store | None, str | None]:
    """The store, or None and a message naming the file."""
    from app.store import StoreError, default_path, open_store

    try:
        return open_store(), None
    except StoreError as exc:
        return None, str(exc)
    except Exception as exc:  # an unexpected failure must not stop the window opening
        return None, f"cannot open the store {default_path()}: {exc}"


def run() -> int:
    """Show the window at once, then load the rulesets and open the store (SQLAlchemy and
    sqlmodel take a third of a second to import) and open the roster."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    window = MainWindow(Registry(find_engine), None, _settings(), loading=True)
    window.show()
    QTimer.singleShot(0, lambda: _finish_start(app, window))
    return int(app.exec())


def _first_ruleset(store: Store | None, window: MainWindow) -> str | None:
    """The built-in ruleset of the roster that will reopen, so it can load before the
    others; None (load them all now) on first start or for a house-rules roster."""
    last = window.prefs.last_roster()
    if store is None or last is None:
        return None
    from app.store import list_rosters

    ruleset = next((s.ruleset for s in list_rosters(store) if s.id == last), None)
    if ruleset is None or not (BUILTIN_DIR / ruleset / "ruleset.toml").is_file():
        return None
    return ruleset


def _finish_start(app: QApplication, window: MainWindow) -> None:
    """Open the store, load the ruleset of the roster that reopens and open it; then load the
    other rulesets (a few tenths of a second of TOML and pydantic) once the roster is in
    view. On first start every ruleset loads at once, for the sample rosters."""
    app.processEvents()  # let the window paint first
    shown = process_age()
    store, store_error = open_store_or_error()
    first = _first_ruleset(store, window)
    registry = load_registry(only=None if first is None else {first})
    seeded = _seed(store, registry) if first is None else []
    window.attach(registry, store, store_error)
    window.builder.start(seeded)
    if store_error:
        print(f"castra: {store_error}", file=sys.stderr)
        dialogs.error(
            window,
            "Cannot open the store",
            f"{store_error}\n\nCastra is running without a store: rosters can be made, "
            "imported and exported, but not kept in the library.",
        )
    if first is None:
        _report_failures(window, registry)
    else:
        # after the roster has painted: the other rulesets load on a worker thread
        QTimer.singleShot(100, lambda: _load_the_rest(window, registry, store))
    if os.environ.get("CASTRA_QUIT_AFTER_SHOW"):
        app.processEvents()
        print(
            f"castra: window shown {shown:.3f} s, roster open {process_age():.3f} s "
            "after the process started"
        )
        app.quit()
    show = os.environ.get("CASTRA_SHOW")
    if show:
        QTimer.singleShot(200, lambda: _show(window, store, show))


def _seed(store: Store | None, registry: Registry) -> list[int]:
    if store is None:
        return []
    from app.store import seed_samples

    try:
        return seed_samples(store, registry=registry)
    except Exception as exc:
        print(f"castra: could not add the sample rosters: {exc}", file=sys.stderr)
        return []


class _RulesetLoader(QObject):
    """Loads the rulesets not needed for the roster in view on a worker thread, so the
    window stays responsive; the result comes back to the GUI thread as a signal."""

    loaded = Signal(object)

    def start(self, skip: set[str]) -> None:
        def work() -> None:
            rest = Registry(find_engine)
            rest._seen |= {BUILTIN_DIR / name for name in skip}
            rest.load_more(BUILTIN_DIR, [user_rulesets_dir()])
            self.loaded.emit(rest)

        threading.Thread(target=work, name="castra-rulesets", daemon=True).start()


def _load_the_rest(window: MainWindow, registry: Registry, store: Store | None) -> None:
    loader = _RulesetLoader(window)

    def loaded(rest: Registry) -> None:
        registry.absorb(rest)
        _seed(store, registry)  # a ruleset new since the last start brings its sample army
        window.library.refresh()
        _report_failures(window, registry)
        loader.deleteLater()

    loader.loaded.connect(loaded)
    loader.start(set(registry.rulesets))


def _report_failures(window: MainWindow, registry: Registry) -> None:
    window.show_failures()
    if registry.failures:
        n = len(registry.failures)
        window.statusBar().showMessage(
            f"{n} ruleset{'' if n == 1 else 's'} did not load; see Help > Ruleset problems", 15000
        )


def _show(window: MainWindow, store: Store | None, spec: str) -> None:
    """The ``CASTRA_SHOW`` switch: put the window in a given state for a screenshot."""
    from app.store import find_roster

    for step in filter(None, (s.strip() for s in spec.split(";"))):
        what, _, arg = step.partition(":")
        if what == "open" and store is not None:
            window.builder.open_roster(find_roster(store, key=arg))
        elif what == "dialog" and arg == "new":
            window.builder.new_roster()
        elif what == "dialog" and arg == "print":
            session = window.builder.session
            roster = session.roster if session is not None else None
            window.printer.dialog(Document.CHANCE_CARDS, roster).open()
        elif what == "menu" and arg == "print":
            window.editor.print_button.showMenu()
        elif what == "import":
            window.builder.import_path(Path(arg))
        elif what == "delete" and store is not None:  # asks, as Del in the library does
            window.library.select_roster(find_roster(store, key=arg))
            window.library.delete_selected()
        elif what == "library":  # select a roster in the library, e.g. a deleted one
            assert store is not None
            window.library.select_roster(find_roster(store, key=arg, include_deleted=True))
        elif what == "edit":  # edit a cell of the selected unit in place, e.g. edit:SIZE
            from app.gui.roster_model import Col

            tree = window.editor.tree
            tree.setFocus()
            tree.edit(tree.currentIndex().siblingAtColumn(Col[arg.upper()]))
        elif what == "problems":
            window.show_ruleset_problems()
        elif what == "select" and window.builder.session is not None:
            for unit in window.builder.session.roster.units:
                if unit.name == arg:
                    window.editor.select_unit(unit.id)
                    break
