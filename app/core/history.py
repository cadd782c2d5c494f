"""Undo and redo for any immutable value (rosters here; the same shape as python-chess's
``Board.push``/``pop`` and Anki's ``undo``/``redo``/``undo_status``).

Each edit is a command object with a label and an ``apply`` that returns the new value; the
history keeps the values before and after, so undo restores exactly the earlier value and redo
exactly the later one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")


class Command(Protocol[T]):
    @property
    def label(self) -> str: ...

    def apply(self, value: T) -> T: ...


@dataclass(frozen=True)
class UndoStatus:
    can_undo: bool
    can_redo: bool
    undo_label: str | None
    redo_label: str | None


class History(Generic[T]):
    """A linear history: applying a command after an undo drops the redo branch."""

    def __init__(self, initial: T, *, limit: int = 500) -> None:
        self._values: list[T] = [initial]
        self._labels: list[str] = []
        self._index = 0
        self._saved = 0
        self._limit = limit
        self.listeners: list[Callable[[T], None]] = []

    @property
    def value(self) -> T:
        return self._values[self._index]

    def apply(self, command: Command[T]) -> T:
        """Apply ``command`` to the current value; a command that changes nothing is not
        recorded."""
        new = command.apply(self.value)
        if new == self.value:
            return new
        del self._values[self._index + 1 :]
        del self._labels[self._index :]
        self._values.append(new)
        self._labels.append(command.label)
        self._index += 1
        if len(self._labels) > self._limit:
            drop = len(self._labels) - self._limit
            del self._values[:drop]
            del self._labels[:drop]
            self._index -= drop
            self._saved -= drop
        self._notify()
        return new

    def undo(self) -> T:
        if self._index == 0:
            raise IndexError("nothing to undo")
        self._index -= 1
        self._notify()
        return self.value

    def redo(self) -> T:
        if self._index >= len(self._labels):
            raise IndexError("nothing to redo")
        self._index += 1
        self._notify()
        return self.value

    def status(self) -> UndoStatus:
        can_undo = self._index > 0
        can_redo = self._index < len(self._labels)
        return UndoStatus(
            can_undo,
            can_redo,
            self._labels[self._index - 1] if can_undo else None,
            self._labels[self._index] if can_redo else None,
        )

    def mark_saved(self) -> None:
        self._saved = self._index

    @property
    def dirty(self) -> bool:
        return self._saved != self._index

    def reset(self, value: T) -> None:
        """Forget the history and start again from ``value`` (after opening a roster)."""
        self._values = [value]
        self._labels = []
        self._index = 0
        self._saved = 0
        self._notify()

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener(self.value)
