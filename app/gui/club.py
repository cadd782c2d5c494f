"""File > Connect to club server: the window on a club's shared store (issue 15).

The URL is asked once and remembered (no password: libpq finds it in ``~/.pgpass`` or the
environment); File > Use local store switches back. A server that cannot be reached or
refuses is one line in a message box and the status bar, and the store in use stays as it
was. When the server comes back after an outage, the window says so and saves the open
roster's edits made meanwhile (with the stale-copy check). While on a server, the window
asks it every :data:`POLL_MS` for a cheap change mark
(:func:`app.store.read.change_mark`) and, when another member changed something, reloads
the library, the open roster if it has no unsaved edit of ours, each open battle another
member moved on (unless a drag is under way on its map: the next look reloads it) and the
campaign view's campaign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QLineEdit

from app.gui import dialogs

if TYPE_CHECKING:
    from PySide6.QtCore import QSocketNotifier

    from app.gui.window_base import WindowBase
    from app.usecases.access import Store
    from app.usecases.club import ChangeListener
    from app.usecases.roster import RosterSummary

#: How often a window on a club server looks for other members' changes.
POLL_MS = 2000
URL_KEY = "club/url"


class ClubLink(QObject):
    """The window's connection to a club server: the two File actions and the watcher."""

    def __init__(self, window: WindowBase) -> None:
        super().__init__(window)
        self.window = window
        self.connect_action = QAction("Connect to &club server…", window)
        self.connect_action.setObjectName("connectClub")
        self.connect_action.setStatusTip("Use a club's shared store on a PostgreSQL server")
        self.connect_action.triggered.connect(self.ask)
        self.local_action = QAction("Use &local store", window)
        self.local_action.setObjectName("useLocalStore")
        self.local_action.setStatusTip("Go back to this computer's own store")
        self.local_action.triggered.connect(self.use_local)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        self._mark: tuple[int, ...] | None = None
        #: a battle window was passed over (a drag under way): look again at the next poll
        self._pending = False
        #: what the last poll said when the server could not be reached (None: it answered)
        self.down: str | None = None
        #: the server's own word of each change (a club server), and its socket's watcher
        self.listener: ChangeListener | None = None
        self.notifier: QSocketNotifier | None = None

    @property
    def store(self) -> Store | None:
        store: Store | None = self.window.builder.store
        return store

    def remembered(self) -> str:
        return str(self.window.prefs.q.value(URL_KEY, "") or "")

    def ask(self) -> None:
        url, ok = QInputDialog.getText(
            self.window,
            "Connect to club server",
            "The club store's address (postgresql://YOU@HOST:PORT/DATABASE). The password, "
            "if the server asks one, is read from ~/.pgpass or PGPASSWORD, never kept here:",
            QLineEdit.EchoMode.Normal,
            self.remembered() or "postgresql://",
        )
        if ok and url.strip():
            self.connect_to(url.strip())

    def connect_to(self, url: str) -> bool:
        """Switch the window to the club server at ``url``; False (one line said, the store
        in use unchanged) when it cannot be used."""
        from app.usecases.access import StoreError, is_server_url, open_store

        if not is_server_url(url):
            return self._failed(f"{url!r} is not a club server's address (postgresql://…)")
        from app.usecases.club import has_password

        if has_password(url):
            return self._failed(
                "the address holds a password, which Castra would have to keep: put it in "
                "~/.pgpass (or PGPASSWORD) and give the address without it"
            )
        try:
            store = open_store(url)
        except StoreError as exc:
            return self._failed(str(exc))
        if not self._switch(store):
            store.close()
            return False
        self.window.prefs.q.setValue(URL_KEY, url)
        who = f" as {store.member}" if store.member else ""
        self.window.statusBar().showMessage(f"Connected to the club server {store.where}{who}")
        return True

    def use_local(self) -> bool:
        from app.usecases.access import StoreError, default_path, open_store

        try:
            store = open_store(default_path())
        except StoreError as exc:
            return self._failed(str(exc))
        if not self._switch(store):
            store.close()
            return False
        self.window.statusBar().showMessage(f"Using the local store {store.where}")
        return True

    def _failed(self, text: str) -> bool:
        self.window.statusBar().showMessage(text)
        dialogs.error(self.window, "Cannot use that store", text)
        return False

    def _switch(self, store: Store) -> bool:
        """Close the open roster (saved already) and show ``store`` instead."""
        builder = self.window.builder
        if not builder.close_roster(forget=False):
            return False
        old = builder.store
        from app.gui.campaign.menu import forget_view

        forget_view(self.window, unless=store)  # its campaigns are the old store's
        self.window.attach(self.window.registry, store, None)
        if old is not None and old is not store:
            old.close()
        return True

    def _back(self, store: Store) -> None:
        """The server answers again after an outage: say so, and save the open roster's
        edits that wait unsaved (the usual check: a roster changed meanwhile by another
        member is shown as stored, and the edit is said not saved)."""
        builder = self.window.builder
        session = builder.session
        text = f"The club server {store.where} is back"
        if session is not None and session.dirty and session.read_only is None:
            if session.save():
                text += f"; saved the edits to “{session.roster.name}” made meanwhile"
            else:
                text += f"; the edits made meanwhile were not saved ({session.save_error})"
        self.window.statusBar().showMessage(text, 15000)

    def _limit_library(self, store: Store | None) -> None:
        """A player's window: another member's roster cannot be renamed, deleted or
        restored (the server would refuse): the library disables those, saying why."""
        from app.usecases.access import StoreError
        from app.usecases.club import member_role

        role = None
        if store is not None and store.on_server:
            try:
                role = member_role(store)
            except StoreError:
                role = None
        library = self.window.builder.library
        me = store.member if store is not None else None
        if role == "player":

            def lock_of(s: RosterSummary) -> str | None:
                if s.owner == me:
                    return None
                whose = f"{s.owner}'s roster" if s.owner else "a roster nobody owns"
                return f"{whose}: read-only (you are {me}, a player)"

            library.lock_of = lock_of
        else:
            library.lock_of = lambda s: None
        library._update_buttons()

    def update(self) -> None:
        """The actions and the watcher, for the store in use."""
        store = self.store
        on_server = store is not None and store.on_server
        self.local_action.setEnabled(on_server)
        self._limit_library(store)
        self._mark = None
        self.stop_listening()
        if store is not None and store.on_server:
            self.window.store_label.setText(f"Club: {store.where} ({store.member})")
            if not self.listen(store):
                self.timer.start()
            self.poll()
        else:
            self.timer.stop()

    # ------------------------------------------------------------------ live refresh

    def listen(self, store: Store) -> bool:
        """Hear other members' changes from the server as they commit (PostgreSQL's
        LISTEN/NOTIFY) rather than asking every :data:`POLL_MS`; False (the poll stays) when
        the server cannot be listened to."""
        from PySide6.QtCore import QSocketNotifier

        from app.usecases.access import StoreError
        from app.usecases.club import listen_for_changes

        try:
            self.listener = listen_for_changes(store)
        except StoreError:
            return False
        self.notifier = QSocketNotifier(self.listener.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._told)
        self.timer.stop()
        return True

    def stop_listening(self) -> None:
        if self.notifier is not None:
            self.notifier.setEnabled(False)
            self.notifier.deleteLater()
            self.notifier = None
        if self.listener is not None:
            self.listener.close()
            self.listener = None

    def _told(self) -> None:
        """The server said something: what changed (reloaded at once), or that it went."""
        from app.usecases.access import StoreError

        store = self.store
        if self.listener is None or store is None:
            return
        try:
            tables = self.listener.drain()
        except StoreError as exc:  # the server went away: say so, ask until it is back
            self.stop_listening()
            self.down = str(exc)
            self.window.statusBar().showMessage(str(exc), POLL_MS * 2)
            self.timer.start()
            return
        if "club_member" in tables:
            self._limit_library(store)
        view = getattr(self.window, "campaign_view", None)
        if (
            view is not None
            and view.store is store
            and {"campaign_side", "club_member"} & set(tables)
        ):
            view._refresh()
        if tables:
            self.poll()

    def poll(self) -> bool:
        """Look for other members' changes; reload what the window shows if there are any.
        True when something was reloaded."""
        from app.usecases.access import StoreError
        from app.usecases.club import change_mark
        from app.usecases.roster import roster_version

        store = self.store
        if store is None or not store.on_server:
            return False
        try:
            mark = change_mark(store)
        except StoreError as exc:  # the server went away: say so, keep trying
            self.down = str(exc)
            self.window.statusBar().showMessage(str(exc), POLL_MS * 2)
            return False
        if self.down is not None:
            self.down = None
            self._back(store)
            if self.listener is None and self.listen(store):
                self.timer.stop()
        if mark == self._mark and not self._pending:
            return False
        first = self._mark is None
        self._mark = mark
        if first:
            return False
        self._pending = False
        builder = self.window.builder
        builder.library.refresh()
        self.window.battles.refresh()
        self._pending = bool(self.window.battles.reload_changed())
        if self._pending and self.listener is not None:  # no poll to look again: ask soon
            QTimer.singleShot(POLL_MS, self.poll)
        view = getattr(self.window, "campaign_view", None)
        if view is not None and view.store is store:
            view.reload_if_changed()
        session = builder.session
        if session is not None and session.roster_id is not None and not session.dirty:
            try:
                stored = roster_version(store, roster_id=session.roster_id)
            except StoreError:
                return True
            if stored != session.version:
                builder.reload_open_roster()
        return True
