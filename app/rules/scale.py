"""The figure scale of a roster: how many men one figure represents (Quincunx, figure scale:
1:10 or 1:100; MWAN #90 uses the same). Written as ``"1:10"`` in roster files, the store and
on the command line; read once into a :class:`Scale`."""

from __future__ import annotations

from enum import StrEnum


class Scale(StrEnum):
    """A figure scale. A ``str`` subclass, so it is written as its text (``"1:100"``)
    wherever a string goes (JSON, the store, the window), and equal to that text."""

    ONE_TO_TEN = "1:10"
    ONE_TO_HUNDRED = "1:100"

    @property
    def men_per_figure(self) -> int:
        """Men one figure represents: 10 at 1:10, 100 at 1:100."""
        return int(self.value.partition(":")[2])

    @classmethod
    def parse(cls, text: str) -> Scale:
        """The scale ``text`` names; ``ValueError`` naming the scales otherwise."""
        try:
            return cls(text)
        except ValueError:
            known = ", ".join(s.value for s in cls)
            raise ValueError(f"scale {text!r} is not one of {known}") from None

    def __repr__(self) -> str:
        return repr(self.value)
