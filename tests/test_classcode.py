"""The dataclasses' methods compiled by one start are reused by the next (``app.classcode``):
a class made with the kept code is the class ``dataclasses`` makes without it, and a file
that is not one this Python wrote is ignored and replaced."""

from __future__ import annotations

import dataclasses
import marshal
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.util import MAGIC_NUMBER
from pathlib import Path

import pytest

from app import classcode


def make() -> type:
    @dataclass(frozen=True)
    class Point:
        """A point."""

        x: int
        y: int = 2
        tags: tuple[str, ...] = field(default_factory=tuple)

    return Point


def made_with(folder: Path, factory: Callable[[], type]) -> tuple[type, dict[str, int]]:
    classcode.start(folder)
    try:
        cls = factory()
    finally:
        counts = dict(classcode.counts)
        classcode.finish()
    return cls, counts


def test_a_second_start_reuses_the_code_and_makes_the_same_class(tmp_path: Path) -> None:
    first, counts = made_with(tmp_path, make)
    assert counts == {"compiled": 6, "reused": 0}  # __init__, __repr__, __eq__, ... of Point
    path = classcode.cache_file(tmp_path)
    assert path is not None and path.is_file()
    again, counts = made_with(tmp_path, make)
    assert counts == {"compiled": 0, "reused": 6}
    plain = make()  # dataclasses on its own
    assert "exec" not in vars(dataclasses)
    for cls in (first, again):
        p = cls(1, tags=("a",))
        assert repr(p) == repr(plain(1, tags=("a",)))
        assert repr(p) == "make.<locals>.Point(x=1, y=2, tags=('a',))"
        assert p == cls(1, 2, ("a",)) and p != cls(1, 3)
        assert hash(p) == hash(cls(1, 2, ("a",)))
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.x = 3
        with pytest.raises(TypeError):
            cls()
        # the text of __init__'s annotations as dataclasses writes them, not __future__'s
        init, plain_init = vars(cls)["__init__"], vars(plain)["__init__"]
        assert init.__annotations__ == plain_init.__annotations__
        assert init.__annotations__["return"] is None
        assert init.__qualname__ == plain_init.__qualname__
        assert cls.__eq__.__code__.co_code == plain.__eq__.__code__.co_code


def test_the_file_keeps_only_what_a_start_used(tmp_path: Path) -> None:
    made_with(tmp_path, make)

    def other() -> type:
        @dataclass
        class Other:
            z: str

        return Other

    _, counts = made_with(tmp_path, other)
    assert counts == {"compiled": 3, "reused": 0}  # __init__, __repr__, __eq__
    path = classcode.cache_file(tmp_path)
    assert path is not None
    assert len(classcode._read(path)) == 3
    before = path.stat().st_mtime_ns
    os.utime(path, ns=(before - 10**9, before - 10**9))
    _, counts = made_with(tmp_path, other)
    assert counts == {"compiled": 0, "reused": 3}
    assert path.stat().st_mtime_ns == before - 10**9  # nothing new: not written again


def _ours(payload: bytes) -> bytes:
    """``payload`` as Castra writes a file (its mark and digest first)."""
    return classcode._MARK + classcode._digest(payload) + payload


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not marshal at all",
        marshal.dumps(((b"\x00\x00\r\n", 0), {})),  # another Python's bytecode
        _ours(marshal.dumps(((b"\x00\x00\r\n", 0), {}))),  # the same, as Castra writes
        marshal.dumps(((MAGIC_NUMBER, 0), {"def f(): pass": "not code"})),
        marshal.dumps([1, 2, 3]),
    ],
)
def test_a_file_that_is_not_ours_is_ignored_and_replaced(tmp_path: Path, content: bytes) -> None:
    path = classcode.cache_file(tmp_path)
    assert path is not None
    path.write_bytes(content)
    cls, counts = made_with(tmp_path, make)
    assert counts == {"compiled": 6, "reused": 0}
    assert repr(cls(1)) == "make.<locals>.Point(x=1, y=2, tags=())"
    _, counts = made_with(tmp_path, make)
    assert counts == {"compiled": 0, "reused": 6}


def test_a_file_damaged_since_it_was_written_is_never_read(tmp_path: Path) -> None:
    """A byte changed on the disk: the file's digest no longer matches, so none of its code
    is read or run (marshalled code damaged in its bytecode could crash the start)."""
    made_with(tmp_path, make)
    path = classcode.cache_file(tmp_path)
    assert path is not None
    data = bytearray(path.read_bytes())
    data[-20] ^= 0x01
    path.write_bytes(bytes(data))
    assert classcode._read(path) == {}
    cls, counts = made_with(tmp_path, make)
    assert counts == {"compiled": 6, "reused": 0}
    assert repr(cls(1)) == "make.<locals>.Point(x=1, y=2, tags=())"
    assert len(classcode._read(path)) == 6  # replaced by a whole one


def test_a_fifo_in_its_place_does_not_hang_the_start(tmp_path: Path) -> None:
    path = classcode.cache_file(tmp_path)
    assert path is not None
    os.mkfifo(path)
    _, counts = made_with(tmp_path, make)
    assert counts == {"compiled": 6, "reused": 0}
    assert path.is_file()  # replaced by the code this start compiled


def test_a_folder_that_cannot_be_written_costs_only_the_reuse(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be", encoding="utf-8")
    cls, counts = made_with(blocked / "cache", make)
    assert counts == {"compiled": 6, "reused": 0}
    assert repr(cls(1)) == "make.<locals>.Point(x=1, y=2, tags=())"
    assert "exec" not in vars(dataclasses)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
