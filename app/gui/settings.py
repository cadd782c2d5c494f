"""What the window remembers between runs (QSettings): geometry, dock layout, recent rosters,
the roster last open and the folder last used for roster files."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

RECENT_MAX = 8


class WindowSettings:
    def __init__(self, settings: QSettings) -> None:
        self.q = settings

    # ------------------------------------------------------------------ layout

    def geometry(self) -> QByteArray | None:
        value = self.q.value("window/geometry")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def state(self) -> QByteArray | None:
        value = self.q.value("window/state")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def splitter(self) -> QByteArray | None:
        value = self.q.value("window/editorSplitter")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def save_layout(self, geometry: QByteArray, state: QByteArray, splitter: QByteArray) -> None:
        self.q.setValue("window/geometry", geometry)
        self.q.setValue("window/state", state)
        self.q.setValue("window/editorSplitter", splitter)
        self.q.sync()

    # ------------------------------------------------------------------ rosters

    def recent(self) -> list[int]:
        raw = self.q.value("rosters/recent", [])
        if isinstance(raw, str):
            raw = [raw]
        out = []
        for item in raw if isinstance(raw, list) else []:
            try:
                out.append(int(item))
            except (TypeError, ValueError):
                continue
        return out

    def add_recent(self, roster_id: int) -> None:
        ids = [roster_id] + [i for i in self.recent() if i != roster_id]
        self.q.setValue("rosters/recent", [str(i) for i in ids[:RECENT_MAX]])

    def remove_recent(self, roster_id: int) -> None:
        self.q.setValue("rosters/recent", [str(i) for i in self.recent() if i != roster_id])

    def last_roster(self) -> int | None:
        value = self.q.value("rosters/last")
        try:
            return int(str(value)) if value not in (None, "") else None
        except (TypeError, ValueError):
            return None

    def set_last_roster(self, roster_id: int | None) -> None:
        self.q.setValue("rosters/last", "" if roster_id is None else str(roster_id))
        self.q.sync()  # a crash or kill must not lose which roster to reopen

    def folder(self) -> str:
        return str(self.q.value("files/folder", ""))

    def set_folder(self, folder: str) -> None:
        self.q.setValue("files/folder", folder)
