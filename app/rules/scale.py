"""The figure scale of a roster: how many men one figure represents (Quincunx, figure scale:
1:10 or 1:100; MWAN #90 uses the same). Written as ``"1:10"`` in roster files, the store and
on the command line; read once into a :class:`Scale`.

Which scales a ruleset offers is its data's (``ruleset.toml``: ``scales`` and
``default_scale``), so a house-rules copy may offer ``"1:20"`` or ``"1:50"``: any ``1:N``
with N a whole number from 1 to :data:`MAX_MEN`. The two the built-in rulesets use are named
here for the code and the tests that mean them."""

from __future__ import annotations

import re
from enum import StrEnum

#: the most men one figure may stand for
MAX_MEN = 100_000

_FORM = re.compile(r"1:([1-9][0-9]{0,5})")


class Scale(StrEnum):
    """A figure scale. A ``str`` subclass, so it is written as its text (``"1:100"``)
    wherever a string goes (JSON, the store, the window), and equal to that text. Scales
    other than the two named are made on first use, once each (so ``is`` holds)."""

    ONE_TO_TEN = "1:10"
    ONE_TO_HUNDRED = "1:100"

    @classmethod
    def _missing_(cls, value: object) -> Scale | None:
        """Any other ``1:N`` (N from 1 to :data:`MAX_MEN`), as a scale of its own."""
        if not isinstance(value, str):
            return None
        m = _FORM.fullmatch(value)
        if m is None or int(m.group(1)) > MAX_MEN:
            return None
        member = str.__new__(cls, value)
        member._name_ = f"ONE_TO_{m.group(1)}"
        member._value_ = value
        # kept, so a scale read twice is the same object
        return cls._value2member_map_.setdefault(value, member)  # type: ignore[return-value]

    @property
    def men_per_figure(self) -> int:
        """Men one figure represents: 10 at 1:10, 100 at 1:100."""
        return int(self.value.partition(":")[2])

    @classmethod
    def parse(cls, text: str) -> Scale:
        """The scale ``text`` names; ``ValueError`` saying what a scale looks like otherwise."""
        try:
            return cls(text)
        except ValueError:
            shown = text[:20] + ("..." if len(text) > 20 else "")
            raise ValueError(
                f"scale {shown!r} is not a figure scale (1:N, one figure for N men, "
                f"N from 1 to {MAX_MEN:,}; e.g. 1:10)"
            ) from None

    def __repr__(self) -> str:
        return repr(self.value)
