"""Leader fields an engine reads beyond the common ones (name, rank, status, wounds, notes),
declared once in the engine's package (``LeaderField`` on its :class:`app.rules.engine.Engine`)
so that the roster's check, the Leaders table, ``castra roster leader``'s options, the roster
sheet, the unit cards and the scenarios all work from the declaration: a new field costs one
place.

A field has a ``name`` (its key in the roster, the roster file and the store, and its
command-line option ``--NAME``), a ``label`` (the table's and the sheet's header, the card's
stat), a ``kind`` (a whole number between ``minimum`` and ``maximum``; yes/no; one of
``choices``), the value a leader has when none is set (``default``: ``None`` for a number
means "by the rules", see ``by_rules``) and a one-line ``help``. ``applies`` says whether a
ruleset of the engine reads it: the same engine may give a field in one ruleset's data and
not in another's (a house-rules copy without the great leaders' bonus).

Unset is ``None`` everywhere (the roster keeps only what was set); :meth:`LeaderField.value`
gives what a leader has, set or not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset

#: what a leader field holds
FieldValue = int | bool | str
FieldKind = Literal["number", "yes/no", "choice"]
#: where a unit card shows the field: in the leader's title and as its first stat, as a stat
#: after the actions when set, or not at all (a yes/no that changes another stat)
CardPlace = Literal["title", "stat", "none"]


class FieldValues(Mapping[str, FieldValue]):
    """A leader's own field values, by field name: immutable and hashable, and holding only
    what is set (a ``None`` or a yes/no ``False`` given is left out, so a leader never set
    and one set back to unset are equal)."""

    __slots__ = ("_items",)

    def __init__(self, values: Mapping[str, FieldValue | None] | None = None) -> None:
        items = (values or {}).items()
        self._items: tuple[tuple[str, FieldValue], ...] = tuple(
            sorted((k, v) for k, v in items if v is not None and v is not False)
        )

    def __getitem__(self, key: str) -> FieldValue:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FieldValues):
            return self._items == other._items
        return Mapping.__eq__(self, other)

    def __repr__(self) -> str:
        return f"FieldValues({dict(self._items)!r})"

    def set(self, name: str, value: FieldValue | None) -> FieldValues:
        """These values with ``name`` set to ``value`` (``None``: unset)."""
        return FieldValues({**dict(self._items), name: value})


NO_FIELDS = FieldValues()


def _always(rs: Ruleset) -> bool:
    return True


@dataclass(frozen=True)
class LeaderField:
    """One leader field an engine reads (see the module's text)."""

    name: str
    label: str
    kind: FieldKind
    #: one line: the column's tool tip
    help: str
    #: ``castra roster leader add|set --NAME``'s help
    cli_help: str
    default: FieldValue | None = None
    minimum: int | None = None
    maximum: int | None = None
    #: the words a choice may be (kind ``choice``), or the numbers the table offers
    choices: tuple[FieldValue, ...] = ()
    #: whether a ruleset of the engine reads the field (from its data)
    applies: Callable[[Ruleset], bool] = _always
    #: a number's value by the rules when none is set, from the leader's name (Quincunx:
    #: Hannibal and Scipio +2, every other leader +1); None where the rules give none
    by_rules: Callable[[Ruleset, str], int | None] | None = None
    #: the table's words for no and yes (kind ``yes/no``)
    yes_no: tuple[str, str] = ("no", "yes")
    #: what an edit is called in Undo: ``{leader}`` and ``{value}`` (for yes/no, ``{value}``
    #: is ``undo_words``' no or yes word)
    undo: str = "Set {label} of {leader} to {value}"
    undo_words: tuple[str, str] = ("no", "yes")
    #: where a unit card shows it
    card: CardPlace = "stat"
    #: actions the field adds to a leader's (Leg VI: an exceptional leader has one more)
    extra_actions: Callable[[Ruleset, FieldValue | None], int] | None = None
    #: the roster sheet's column width, as a fraction of the leaders table
    sheet_width: float = 0.09
    #: the words the table's editor offers for no and yes (kind ``yes/no``)
    editor_words: tuple[str, str] = ("no", "yes")
    #: a number the command line gives as an example (``--bonus x``: "such as +1 or +2")
    cli_example: str = ""

    def __post_init__(self) -> None:
        if self.kind == "yes/no" and self.default is not False:
            raise ValueError(f"leader field {self.name!r}: a yes/no field is no unless set")
        if self.kind == "number" and (self.minimum is None or self.maximum is None):
            raise ValueError(f"leader field {self.name!r}: a number needs a minimum and maximum")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"leader field {self.name!r}: a choice needs its choices")

    # ------------------------------------------------------------------ values

    def get(self, fields: Mapping[str, FieldValue]) -> FieldValue | None:
        """The value set in ``fields`` (a leader's), None when unset."""
        return fields.get(self.name)

    def flag(self, fields: Mapping[str, FieldValue]) -> bool:
        """A yes/no field's value (no when unset)."""
        return bool(fields.get(self.name, False))

    def number(self, fields: Mapping[str, FieldValue]) -> int | None:
        """A number field's own value, None when unset."""
        value = fields.get(self.name)
        return None if value is None else int(value)

    def word(self, fields: Mapping[str, FieldValue]) -> str | None:
        """A choice field's own value, None when unset."""
        value = fields.get(self.name)
        return None if value is None else str(value)

    def value(self, rs: Ruleset, name: str, fields: Mapping[str, FieldValue]) -> FieldValue | None:
        """What the leader called ``name`` has: his own value when set, else the rules'
        (``by_rules``) or the ``default``."""
        own = self.get(fields)
        if own is not None:
            return own
        if self.by_rules is not None:
            return self.by_rules(rs, name)
        return self.default

    def problem(self, value: object) -> str | None:
        """Why ``value`` cannot be this field's (one line naming the field), None when it can
        (``None`` is unset and always can)."""
        if value is None:
            return None
        if self.kind == "number":
            assert self.minimum is not None and self.maximum is not None
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.name} {value!r} is not a whole number"
            if self.minimum <= value <= self.maximum:
                return None
            return f"{self.name} {value:,} is out of range ({self.minimum:,} to {self.maximum:,})"
        if self.kind == "yes/no":
            return None if isinstance(value, bool) else f"{self.name} {value!r} is not yes or no"
        if isinstance(value, str) and value in self.choices:
            return None
        return f"{self.name} {value!r} is not one of {', '.join(map(str, self.choices))}"

    # ------------------------------------------------------------------ words

    def shown(self, value: FieldValue | None, *, blank: str = "") -> str:
        """How the table shows a value (a number signed, yes/no in words, a choice as
        itself, unset as the default); ``blank`` for nothing to show."""
        if self.kind == "number":
            return blank if value is None else f"{int(value):+d}"
        if self.kind == "yes/no":
            return self.yes_no[1] if value else blank
        return str(value if value is not None else self.default)

    def undo_text(self, leader: str, value: FieldValue | None) -> str:
        """What an edit setting ``value`` is called in Undo."""
        if self.kind == "yes/no":
            word = self.undo_words[1 if value else 0]
        elif self.kind == "number":
            word = "by the rules" if value is None else f"{int(value):+d}"
        else:
            word = self.shown(value)
        return self.undo.format(label=self.label.lower(), leader=leader, value=word)


def fields_of(declared: Iterable[LeaderField], rs: Ruleset) -> tuple[LeaderField, ...]:
    """The fields of ``declared`` a ruleset reads, in order."""
    return tuple(f for f in declared if f.applies(rs))


def unique_fields(declared: Iterable[LeaderField]) -> list[LeaderField]:
    """``declared`` (every engine's), each name once, first met first."""
    found: dict[str, LeaderField] = {}
    for f in declared:
        found.setdefault(f.name, f)
    return list(found.values())
