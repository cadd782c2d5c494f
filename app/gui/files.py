"""Every file dialog of the window, made so that it never opens the store's files.

Qt's own file dialog asks its icon provider for each file's type and icon, and the default
provider reads a file's first bytes to sniff its type when the name does not decide it: shown
the folder that holds the store, it opens and closes ``castra.sqlite3-wal`` and ``-shm``, and
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
included (:mod:`app.store.guard` says what follows). So:

* the dialog is Qt's own on systems with POSIX locks (a platform's native dialog may run in
  our process and sniff as it likes), with :class:`NamesOnly`, an icon provider that reads
  names and never content;
* it never starts in a folder that holds an open store (the user's documents folder instead);
* the file chosen is checked against the store's files (``refuse_store_file``) by the code
  that reads or writes it.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileInfo, QMimeDatabase, QStandardPaths
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget

from app.storefiles import store_folders


class NamesOnly(QFileIconProvider):
    """Icons and type names from a file's name alone (Qt's default sniffs content)."""

    def __init__(self) -> None:
        super().__init__()
        self._mime = QMimeDatabase()

    def icon(self, what: QAbstractFileIconProvider.IconType | QFileInfo) -> QIcon:
        if isinstance(what, QFileInfo):
            kind = (
                QAbstractFileIconProvider.IconType.Folder
                if what.isDir()
                else QAbstractFileIconProvider.IconType.File
            )
            return super().icon(kind)
        return super().icon(what)

    def type(self, info: QFileInfo) -> str:
        if info.isDir():
            return "Folder"
        mime = self._mime.mimeTypeForFile(info.fileName(), QMimeDatabase.MatchMode.MatchExtension)
        return mime.comment() or "File"


_PROVIDER: list[NamesOnly] = []


def _names_only() -> NamesOnly:
    """One provider for every dialog: a dialog does not own its provider, and Qt asks it from
    its file-information thread, so it must outlive them all."""
    if not _PROVIDER:
        _PROVIDER.append(NamesOnly())
    return _PROVIDER[0]


def start_folder(folder: str | Path | None) -> tuple[str, str]:
    """Where the dialog opens and the name it suggests: ``folder`` (a folder, or a file's
    suggested path), unless it is empty or a folder that holds an open store; then the user's
    documents folder, with the suggested name."""
    text = str(folder or "")
    path = Path(text).expanduser() if text else None
    name = ""
    if path is not None and not path.is_dir():
        name = path.name
        path = path.parent if str(path.parent) not in ("", ".") else None
    if path is not None and path.is_dir():
        try:
            resolved: Path | None = path.resolve()
        except (OSError, RuntimeError):
            resolved = None
        if resolved is not None and resolved not in store_folders():
            return str(path), name
    home = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return (home if home and Path(home).is_dir() else str(Path.home())), name


def _dialog(
    parent: QWidget | None, title: str, folder: str | Path | None, filter: str
) -> QFileDialog:
    where, name = start_folder(folder)
    dialog = QFileDialog(parent, title, where, filter)
    if os.name == "posix":
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setIconProvider(_names_only())
    if name:
        dialog.selectFile(name)
    return dialog


def open_file_name(
    parent: QWidget | None, title: str, folder: str | Path | None, filter: str
) -> Path | None:
    """The file the user chose to open, or None."""
    return _chosen(_dialog(parent, title, folder, filter), save=False)


def save_file_name(
    parent: QWidget | None, title: str, suggested: str | Path | None, filter: str
) -> Path | None:
    """The file the user chose to write, or None (Qt's dialog asks before overwriting)."""
    return _chosen(_dialog(parent, title, suggested, filter), save=True)


def _chosen(dialog: QFileDialog, *, save: bool) -> Path | None:
    File, Accept = QFileDialog.FileMode, QFileDialog.AcceptMode
    dialog.setFileMode(File.AnyFile if save else File.ExistingFile)
    dialog.setAcceptMode(Accept.AcceptSave if save else Accept.AcceptOpen)
    if not dialog.exec():
        return None
    chosen = dialog.selectedFiles()
    return Path(chosen[0]) if chosen else None
