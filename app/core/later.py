"""A frozen dataclass's field whose value can be given as a :class:`Later`: made the first
time the field is read, then kept, so that a value read back from the store and not looked
at is never built.

It is the field's value in every way that counts: equality, hashing, ``repr``,
:func:`dataclasses.replace` and :func:`dataclasses.asdict` all read it, and so make it. Only
the moment it is made moves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Later(Generic[T]):
    """A field's value still to be made, by ``make``, when the field is first read (a
    subclass may carry what is known of the value already: :func:`pending` finds it)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make


class LaterField(Generic[T]):
    """A dataclass field (declared as ``name: LaterField[T] = LaterField(default)``) that
    takes a value of type ``T`` or a :class:`Later` making one. A frozen dataclass keeps
    it in the instance's ``__dict__`` under a private key, as its ``__init__`` gives it."""

    def __init__(self, default: T) -> None:
        self._default = default
        self._key = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._key = _key(name)

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> T: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> T:
        if obj is None:
            return self._default  # the dataclass's default for the field
        held: Any = obj.__dict__[self._key]
        if isinstance(held, Later):
            held = held.make()
            obj.__dict__[self._key] = held
        return held  # type: ignore[no-any-return]

    def __set__(self, obj: object, value: T | Later[T]) -> None:
        obj.__dict__[self._key] = value


def _key(name: str) -> str:
    """Where a :class:`LaterField` named ``name`` keeps its value in an instance."""
    return f"_later_{name}"


def pending(obj: object, name: str) -> Later[Any] | None:
    """The :class:`Later` that ``obj``'s field ``name`` (a :class:`LaterField`) holds while
    its value is still to be made; None once it is made, or when it was given at once."""
    held = obj.__dict__.get(_key(name))
    return held if isinstance(held, Later) else None
