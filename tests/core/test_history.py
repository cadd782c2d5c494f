from dataclasses import dataclass

import pytest

from app.core.history import History


@dataclass(frozen=True)
class Add:
    n: int

    @property
    def label(self) -> str:
        return f"Add {self.n}"

    def apply(self, value: int) -> int:
        return value + self.n


def test_undo_redo_restore_exact_values() -> None:
    h = History(0)
    h.apply(Add(2))
    h.apply(Add(3))
    assert h.value == 5
    assert h.status().undo_label == "Add 3"
    assert h.undo() == 2
    assert h.status().redo_label == "Add 3"
    assert h.redo() == 5
    assert h.undo() == 2 and h.undo() == 0
    with pytest.raises(IndexError):
        h.undo()


def test_new_command_after_undo_drops_redo_branch() -> None:
    h = History(0)
    h.apply(Add(1))
    h.undo()
    h.apply(Add(10))
    assert h.value == 10
    assert not h.status().can_redo
    with pytest.raises(IndexError):
        h.redo()


def test_no_op_is_not_recorded_and_dirty_tracks_saves() -> None:
    h = History(1)
    h.apply(Add(0))
    assert not h.status().can_undo
    h.apply(Add(1))
    assert h.dirty
    h.mark_saved()
    assert not h.dirty
    h.undo()
    assert h.dirty


def test_listeners_hear_every_change() -> None:
    h = History(0)
    seen: list[int] = []
    h.listeners.append(seen.append)
    h.apply(Add(1))
    h.undo()
    h.redo()
    assert seen == [1, 0, 1]


def test_limit_drops_oldest() -> None:
    h = History(0, limit=3)
    for _ in range(5):
        h.apply(Add(1))
    assert h.value == 5
    for _ in range(3):
        h.undo()
    assert h.value == 2
    assert not h.status().can_undo
