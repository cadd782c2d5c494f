"""A dataclass field made when first read: the same value as one given at once, in every
way a value is used, made once, and only when read."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, asdict, dataclass, replace

import pytest

from app.core.later import Later, LaterField, pending


@dataclass(frozen=True)
class Box:
    name: str
    inside: LaterField[tuple[int, ...] | None] = LaterField(None)  # noqa: RUF009
    size: int = 0


class Counter:
    def __init__(self) -> None:
        self.made = 0

    def __call__(self) -> tuple[int, ...]:
        self.made += 1
        return (1, 2, 3)


def test_made_once_and_only_when_read() -> None:
    make = Counter()
    box = Box("a", Later(make))
    assert make.made == 0
    assert box.inside == (1, 2, 3)
    assert box.inside == (1, 2, 3)
    assert make.made == 1


def test_the_same_value_as_one_given_at_once() -> None:
    later, now = Box("a", Later(Counter()), 2), Box("a", (1, 2, 3), 2)
    assert later == now and hash(later) == hash(now)
    assert repr(Box("a", Later(Counter()))) == repr(Box("a", (1, 2, 3)))
    assert asdict(Box("a", Later(Counter()))) == {"name": "a", "inside": (1, 2, 3), "size": 0}
    assert replace(Box("a", Later(Counter())), size=5) == Box("a", (1, 2, 3), 5)
    assert Box("a", Later(Counter())) != Box("a", (1, 2))


def test_its_default_and_a_plain_value() -> None:
    assert Box("a").inside is None
    assert Box("a", None) == Box("a")
    assert Box("a", (4,)).inside == (4,)


def test_still_frozen() -> None:
    box = Box("a", Later(Counter()))
    with pytest.raises(FrozenInstanceError):
        box.inside = (9,)  # type: ignore[misc]
    assert box.inside == (1, 2, 3)


def test_an_error_in_the_making_is_raised_where_it_is_read_and_again() -> None:
    def broken() -> tuple[int, ...]:
        raise ValueError("no such thing")

    box = Box("a", Later(broken))
    for _ in range(2):
        with pytest.raises(ValueError, match="no such thing"):
            _ = box.inside


def test_what_is_pending_until_read_and_a_later_that_knows_more() -> None:
    """:func:`pending` is the field's :class:`Later` until the field is read; a subclass of
    :class:`Later` (carrying what is known of the value already) is made as one is."""

    class Sized(Later[tuple[int, ...]]):
        __slots__ = ("size",)

        def __init__(self, make: Counter, size: int) -> None:
            super().__init__(make)
            self.size = size

    box = Box("a", Sized(Counter(), 3))
    held = pending(box, "inside")
    assert isinstance(held, Sized) and held.size == 3
    assert box.inside == (1, 2, 3) and pending(box, "inside") is None
    assert pending(Box("a", (4,)), "inside") is None
