"""Start the Castra window: the application, the rulesets, the store, the main window.

Start-up is kept light so the window is usable within a second: the window is shown first, and
the rulesets and the store (whose sqlmodel and SQLAlchemy are slow to import) load just after;
no PDF code loads. A store that cannot be opened is reported in a dialog naming the file, and
the window still opens without it; rulesets that failed to load are named in the status bar.

Hidden switches (for timing and screenshots):

- ``CASTRA_QUIT_AFTER_SHOW=1``: quit once the window is shown and the roster open, printing
  the seconds from the process start to each.
- ``CASTRA_QUIT_AFTER_MS=N``: quit N milliseconds after start, wherever start-up has got
  to; ``CASTRA_QUIT_WHILE_LOADING=1``: quit as soon as the worker thread that loads the
  other rulesets has started (both for the start-and-quit test of a clean shutdown).
- ``CASTRA_SHOW="open:NAME;select:UNIT;edit:COLUMN;dialog:new;dialog:print;menu:print;
  import:PATH;problems;..."``:
  after start, open roster NAME (an id or a name), open the New roster dialog, import a file,
  show the ruleset problems, select a unit by name, delete a roster (asking first), select a
  roster in the library, edit a cell of the selected unit (``edit:grade``).
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app import bundled, classcode
from app.gui import dialogs
from app.gui.main_window import MainWindow
from app.gui.printables import Document, declared
from app.paths import cache_dir, data_dir, load_registry, user_rulesets_dir
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine

if TYPE_CHECKING:
    from app.usecases.access import EarlyCheck, Store
    from app.usecases.roster import RosterSummary

_T0 = time.perf_counter()

ORGANISATION = "Castra"
APPLICATION = "Castra"
#: the name of the desktop's menu entry (``castra.desktop``) and of the icon it shows
DESKTOP_ID = "castra"


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


def open_store_or_error(early: EarlyCheck | None = None) -> tuple[Store | None, str | None]:
    """The store, or None and a message naming the file; ``early``: its quick check, started
    while the window was being built."""
    from app.usecases.access import StoreError, default_location, open_store

    try:
        return open_store(early=early), None
    except StoreError as exc:
        return None, str(exc)
    except Exception as exc:  # an unexpected failure must not stop the window opening
        return None, f"cannot open the store {default_location()}: {exc}"


def run(after_start: Callable[[MainWindow], None] | None = None) -> int:
    """Show the window at once, then load the rulesets and open the store (SQLAlchemy and
    sqlmodel take a third of a second to import) and open the roster. ``after_start`` is
    called once the start is over (``castra self-test`` drives the window from there)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # we use none; saves a scan
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    # the menu entry ``castra --install-desktop`` writes (castra.desktop), and its icon
    app.setDesktopFileName(DESKTOP_ID)
    app.setWindowIcon(QIcon(str(bundled.APP_ICON)))
    early = _start_check()  # the store's quick check runs while the window is built
    window = MainWindow(Registry(find_engine), None, _settings(), loading=True)
    window.show()
    QTimer.singleShot(0, lambda: _finish_start(app, window, early, after_start))
    quit_after = os.environ.get("CASTRA_QUIT_AFTER_MS", "")
    if quit_after.isdigit():
        QTimer.singleShot(int(quit_after), app.quit)
    return int(app.exec())


def _first_ruleset(summaries: list[RosterSummary], window: MainWindow) -> str | None:
    """The built-in ruleset of the roster that will reopen, so it can load before the
    others; None (load them all now) on first start or for a house-rules roster."""
    last = window.prefs.last_roster()
    if last is None:
        return None
    ruleset = next((s.ruleset for s in summaries if s.id == last and not s.deleted), None)
    if ruleset is None or not (BUILTIN_DIR / ruleset / "ruleset.toml").is_file():
        return None
    return ruleset


def _list(store: Store | None) -> tuple[list[RosterSummary], str | None]:
    """The roster list (read once at start, for the library and the roster to reopen), or
    an empty list and why it could not be read."""
    if store is None:
        return [], None
    from app.usecases.roster import list_rosters

    try:
        return list_rosters(store, include_deleted=True), None
    except Exception as exc:  # a damaged store: the window still opens and says so
        return [], str(exc)


def _start_check() -> EarlyCheck | None:
    """The store's quick check on a thread, if opening it is due to make one (any failure to
    start it is left to opening the store, which says what is wrong)."""
    from app.usecases.access import start_check

    try:
        return start_check()
    except Exception:
        return None


def _finish_start(
    app: QApplication,
    window: MainWindow,
    early: EarlyCheck | None = None,
    after_start: Callable[[MainWindow], None] | None = None,
) -> None:
    """Open the store, load the ruleset of the roster that reopens and open it; then load the
    other rulesets (from their caches, or a few tenths of a second of TOML and pydantic
    when their files changed) once the roster is in view. On first start every ruleset
    loads at once, for the sample rosters. Whatever fails is reported in the window, which
    never stays in its loading state."""
    app.processEvents()  # let the window paint first
    shown = process_age()
    try:
        _open_everything(window, early)
    except Exception as exc:  # last resort: the window must leave its loading state
        print(f"castra: could not start normally: {exc}", file=sys.stderr)
        window.attach(window.registry, None, f"Castra could not start normally: {exc}")
        dialogs.error(window, "Castra could not start normally", str(exc))
    finally:
        classcode.finish()  # the start's dataclasses are made: exec is Python's again
        _collect_from_now()
    if os.environ.get("CASTRA_QUIT_AFTER_SHOW"):
        app.processEvents()
        print(
            f"castra: window shown {shown:.3f} s, roster open {process_age():.3f} s "
            "after the process started"
        )
        app.quit()
    show = os.environ.get("CASTRA_SHOW")
    if show:
        QTimer.singleShot(200, lambda: _show(window, window.builder.store, show))
    if after_start is not None:
        QTimer.singleShot(0, lambda: after_start(window))


def _collect_from_now() -> None:
    """Turn the cyclic garbage collector back on once the roster is open (``castra`` turns it
    off for the start, :func:`app.cli.main`). What start-up made (modules, classes, rulesets,
    the window) lives as long as the process: it is frozen first, so that no later pass of the
    collector walks it again. The few cycles start-up left unreachable (some hundreds of
    objects) are frozen with it and kept: a bounded cost, against 15-30 ms of collections.
    When the start fails, this runs once its error dialog is closed."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _open_everything(window: MainWindow, early: EarlyCheck | None = None) -> None:
    store, store_error = open_store_or_error(early)
    summaries, list_error = _list(store)
    store_error = store_error or list_error
    first = _first_ruleset(summaries, window)
    registry = load_registry(only=None if first is None else {first})
    seeded = _seed(store, registry) if first is None else []
    if seeded:
        summaries, _ = _list(store)
    window.attach(registry, store, store_error, summaries)
    window.builder.start(seeded, [s for s in summaries if not s.deleted])
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


def _seed(store: Store | None, registry: Registry) -> list[int]:
    """Give the sample rosters of armies not given yet. Which were given is read without
    the ORM, so a start with nothing new to give imports no SQLAlchemy at all. A club server
    gets none: its rosters are its members'; nor does a read-only store (it opens for
    reading only)."""
    if store is None or store.on_server or store.read_only:
        return []
    from app.usecases.roster import seeded_samples

    try:
        done = seeded_samples(store)
        wanted = {
            f"{rs.id}/{army_id}"
            for rs in registry
            for army_id, army in rs.armies.items()
            if army.standard is not None
        }
        if wanted <= done:
            return []
        from app.usecases.roster import seed_samples

        return seed_samples(store, registry=registry)
    except Exception as exc:
        print(f"castra: could not add the sample rosters: {exc}", file=sys.stderr)
        return []


class _RulesetLoader(QObject):
    """Loads the rulesets not needed for the roster in view on a worker thread, so the
    window stays responsive; the result (or what went wrong) comes back to the GUI thread as
    a signal. Then it imports what the first write needs (:func:`app.store.prepare.
    prepare_writes`), so the user's first edit does not wait for SQLAlchemy.

    The thread is not a daemon: :meth:`stop` (connected to ``aboutToQuit``) asks it to stop
    between folders and joins it before Qt shuts down. A daemon thread still inside pydantic
    (validating a changed ruleset) while the interpreter finalised aborted the process now
    and then on quit ("FATAL: exception not rethrown", exit 134)."""

    loaded = Signal(object)
    failed = Signal(str)
    #: what the first write needs is imported
    prepared = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, skip: set[str]) -> None:
        def work() -> None:
            from app.usecases.roster import prepare_writes

            try:
                rest = Registry(find_engine, cache_dir=cache_dir())
                rest._seen |= {BUILTIN_DIR / name for name in skip}
                rest.load_more(BUILTIN_DIR, [user_rulesets_dir()], stop=self._stop.is_set)
            except BaseException as exc:  # reported in the window, never a traceback
                if not self._stop.is_set():
                    self.failed.emit(f"the rulesets could not all be loaded: {exc}")
                return
            if not self._stop.is_set():
                self.loaded.emit(rest)
            if not self._stop.is_set():
                try:
                    prepare_writes()  # so the user's first write does not wait for it
                except Exception as exc:  # the first write will say what is wrong
                    print(f"castra: could not prepare writing: {exc}", file=sys.stderr)
            if not self._stop.is_set():
                self.prepared.emit()

        self._thread = threading.Thread(target=work, name="castra-rulesets")
        self._thread.start()

    def stop(self) -> None:
        """Stop the worker and wait for it (it stops between two ruleset folders)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _load_the_rest(window: MainWindow, registry: Registry, store: Store | None) -> None:
    from app.usecases.roster import warm_writes

    loader = _RulesetLoader(window)
    app = QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(loader.stop)

    def loaded(rest: Registry) -> None:
        try:
            registry.absorb(rest)
            window.add_declared_documents()  # a ruleset just loaded may print more
            _seed(store, registry)  # a ruleset new since the last start brings its sample army
            window.library.update_names()
            _report_failures(window, registry)
        except Exception as exc:  # a damaged store, say: tell the user, keep the window
            failed(f"after loading the rulesets: {exc}")

    def failed(message: str) -> None:
        print(f"castra: {message}", file=sys.stderr)
        window.statusBar().showMessage(message, 30000)

    def prepared() -> None:
        session = window.builder.session
        if store is not None:
            try:
                warm_writes(store, None if session is None else session.roster_id)
            except Exception as exc:  # the first write will say what is wrong
                print(f"castra: could not prepare writing: {exc}", file=sys.stderr)
        # what the rulesets and SQLAlchemy made lives as long as the process: no later pass
        # of the collector walks it again (a full pass over it took ~50 ms of an edit)
        gc.freeze()
        loader.deleteLater()

    loader.loaded.connect(loaded)
    loader.failed.connect(failed)
    loader.prepared.connect(prepared)
    loader.start(set(registry.rulesets))
    if os.environ.get("CASTRA_QUIT_WHILE_LOADING") and app is not None:
        app.quit()


def _report_failures(window: MainWindow, registry: Registry) -> None:
    window.show_failures()
    if registry.failures:
        n = len(registry.failures)
        window.statusBar().showMessage(
            f"{n} ruleset{'' if n == 1 else 's'} did not load; see Help > Ruleset problems", 15000
        )


def _show(window: MainWindow, store: Store | None, spec: str) -> None:
    """The ``CASTRA_SHOW`` switch: put the window in a given state for a screenshot."""
    from app.usecases.roster import find_roster

    for step in filter(None, (s.strip() for s in spec.split(";"))):
        what, _, arg = step.partition(":")
        if what == "open" and store is not None:
            window.builder.open_roster(find_roster(store, key=arg))
        elif what == "dialog" and arg == "new":
            window.builder.new_roster()
        elif what == "dialog" and arg == "print":
            session = window.builder.session
            roster = session.roster if session is not None else None
            # the first document an engine declares, else the unit cards
            docs = declared(window.registry)
            window.printer.dialog(docs[0] if docs else Document.CARDS, roster).open()
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
