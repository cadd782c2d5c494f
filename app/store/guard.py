"""Keeping SQLite's locks on the store file, whatever else the process does.

SQLite locks a database with POSIX advisory locks, and POSIX drops every lock a process holds
on a file when the process closes *any* descriptor of that file (SQLite's "How To Corrupt An
SQLite Database File", section 2.2). A file dialog that sniffs the store's type, an indexer, a
library that hashes it: any of them, inside Castra's process, silently takes the window's locks
away. Another process that then opens and closes the store believes it is the last user,
checkpoints and deletes the ``-wal`` and ``-shm`` files, and from then on the window writes
into deleted files: every later step is lost when the window closes.

Two defences, per store file this process has open (:class:`FileGuard`, shared by the
:class:`~app.store.engine.Store` objects of one file):

* **A pin** (Linux): open file description locks (``F_OFD_SETLK``) on the bytes SQLite locks to
  say "someone has this open": a read lock on the database's shared range, which makes another
  process's close-time attempt at an exclusive lock fail (so it neither checkpoints-and-deletes
  the ``-wal`` nor deletes the ``-shm``), and one on the ``-shm`` file's "dead man switch" byte,
  which keeps another process from truncating the shared memory. OFD locks belong to the open
  file description, not to the process: closing another descriptor of the file does not drop
  them. The pin's descriptors are never closed while SQLite has the file open.
* **A check** before and after each transaction: the database, ``-wal`` and ``-shm`` at their
  paths are still the files this process opened (device and inode). If not (deleted, moved or
  replaced by another program), the connections are reset before any write: a write can never
  go to a deleted file unnoticed; one caught after its commit is reported as not saved.

Nothing here reads or writes the files' content; every descriptor is opened read-only.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: its file locks are not dropped by closing another handle
    fcntl = None  # type: ignore[assignment]

#: SQLite's lock bytes (os_unix.c): the shared range of the database file, and the "dead man
#: switch" byte of the ``-shm`` file, read-locked by every process that has the store open.
PENDING_BYTE = 0x40000000
SHARED_FIRST = PENDING_BYTE + 2
SHARED_SIZE = 510
SHM_DMS = 128

#: ``struct flock`` as the kernel takes it (l_type, l_whence, l_start, l_len, l_pid).
_FLOCK = "hhqqi4x"

Identity = tuple[int, int]


def _ofd_lock(fd: int, start: int, length: int, *, on: bool) -> bool:
    """Take (or drop) an OFD read lock on ``length`` bytes at ``start``; False where the system
    has no OFD locks or refuses."""
    op = getattr(fcntl, "F_OFD_SETLK", None) if fcntl is not None else None
    if op is None:
        return False
    import struct

    kind = fcntl.F_RDLCK if on else fcntl.F_UNLCK
    try:
        fcntl.fcntl(fd, op, struct.pack(_FLOCK, kind, os.SEEK_SET, start, length, 0))
    except OSError:
        return False
    return True


def _identity(path: Path) -> Identity | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class FileGuard:
    """The pin and the check for one store file, shared by every open
    :class:`~app.store.engine.Store` of it in this process (counted by :meth:`acquire`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.wal = path.with_name(path.name + "-wal")
        self.shm = path.with_name(path.name + "-shm")
        self.users = 0
        #: the files as this process opened them (device, inode), by path
        self._seen: dict[Path, Identity] = {}
        #: the pin's descriptors, by path (never closed while SQLite has the file open)
        self._fds: dict[Path, int] = {}
        #: the paths whose pin lock is held
        self._locked: set[Path] = set()
        #: what resets this file's connections (each open Store's engine), called on a loss
        self._resets: dict[int, Callable[[], None]] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ pinning

    def _pin(self, path: Path, start: int, length: int) -> None:
        """Open ``path`` (once) and hold the OFD read lock on its bytes. Another process's
        close holds an exclusive lock there for the moment it checkpoints: the lock is asked
        for again at the next :meth:`observe` if it is refused now."""
        fd = self._fds.get(path)
        if fd is None:
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError:
                return
            self._fds[path] = fd
        if path not in self._locked and _ofd_lock(fd, start, length, on=True):
            self._locked.add(path)

    @property
    def pinned(self) -> bool:
        """Whether the database is pinned: no other process can then delete its ``-wal``."""
        return self.path in self._locked

    def observe(self, *, files: bool, note: bool = False) -> None:
        """Pin the database. With ``files`` (called while one of this process's connections
        has the store open, so the ``-shm`` is valid), pin the ``-shm`` too; with ``note``
        (a lasting connection of the engine's), note the ``-wal`` and ``-shm`` as they are
        now, for :meth:`lost`."""
        with self._lock:
            self._pin(self.path, SHARED_FIRST, SHARED_SIZE)
            if self.path not in self._seen and self.path in self._fds:
                self._seen[self.path] = _fd_identity(self._fds[self.path])
            if files and self.shm.exists():
                self._pin(self.shm, SHM_DMS, 1)
            if not note:
                return
            for path in (self.wal, self.shm):
                if path not in self._seen:
                    seen = _identity(path)
                    if seen is not None:
                        self._seen[path] = seen

    def _unpin(self) -> None:
        """Drop the pin's locks (the descriptors stay open: see :meth:`close_files`)."""
        for path in self._locked:
            fd = self._fds[path]
            if path == self.path:
                _ofd_lock(fd, SHARED_FIRST, SHARED_SIZE, on=False)
            else:
                _ofd_lock(fd, SHM_DMS, 1, on=False)
        self._locked.clear()

    def close_files(self) -> None:
        """Close the pin's descriptors: only once SQLite has no connection to the file left in
        this process (closing a descriptor of the database drops SQLite's POSIX locks)."""
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
        self._seen.clear()

    # ------------------------------------------------------------------ checking

    def lost(self) -> str | None:
        """What is no longer the file this process opened ("castra.sqlite3-wal was deleted"),
        or None when all is as opened. Only ``stat`` of the three paths."""
        for path, seen in list(self._seen.items()):
            now = _identity(path)
            if now == seen:
                continue
            return f"{path.name} was {'deleted' if now is None else 'replaced'} by another program"
        return None

    def reset(self) -> None:
        """Close every connection of this process to the file (each open Store's engine) and
        forget the files seen, so that the next connection opens the files now at the paths
        and takes SQLite's locks anew. The pin on the database stays (its lock keeps another
        process from deleting what the new connection opens; and this process's own closes,
        refused the exclusive lock, neither checkpoint nor delete anything by name); the
        ``-shm`` pin, on a file that is gone, is let go."""
        for reset in list(self._resets.values()):
            reset()
        with self._lock:
            for path in list(self._fds):
                fd = self._fds[path]
                if path != self.path and _identity(path) != _fd_identity(fd):
                    os.close(self._fds.pop(path))  # a deleted or replaced file's
                    self._locked.discard(path)
            self._seen = {p: seen for p, seen in self._seen.items() if p == self.path}

    # ------------------------------------------------------------------ users

    def add_reset(self, key: int, reset: Callable[[], None]) -> None:
        self._resets[key] = reset

    def remove_reset(self, key: int) -> None:
        self._resets.pop(key, None)


def _fd_identity(fd: int) -> Identity:
    st = os.fstat(fd)
    return (st.st_dev, st.st_ino)


#: The guards of the store files this process has open, by resolved path.
_GUARDS: dict[Path, FileGuard] = {}
_GUARDS_LOCK = threading.Lock()


def acquire(path: Path) -> FileGuard:
    """The guard of ``path`` (made on first use), counting one more user."""
    key = path.resolve()
    with _GUARDS_LOCK:
        guard = _GUARDS.get(key)
        if guard is None:
            guard = _GUARDS[key] = FileGuard(key)
        guard.users += 1
        return guard


def release(guard: FileGuard, close: Callable[[], None]) -> None:
    """One user fewer; ``close`` closes that user's connections. When it was the last, the
    pin's locks are dropped *before* (so that SQLite's last close may fold the ``-wal`` back
    and delete it, as usual) and its descriptors closed *after* SQLite's."""
    with _GUARDS_LOCK:
        guard.users -= 1
        last = guard.users <= 0
        if last:
            _GUARDS.pop(guard.path, None)
            guard._unpin()
    close()
    if last:
        guard.close_files()


def users(path: Path) -> int:
    """How many open stores of ``path`` this process has (its own POSIX locks are invisible
    to it, so probes that open the file must know)."""
    guard = _GUARDS.get(path.resolve())
    return guard.users if guard is not None else 0
