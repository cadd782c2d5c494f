"""Printed documents an engine adds to the common ones (unit cards, roster sheet, quick
reference): what each is called and the options it takes, declared by the engine's package
(``documents`` of its :class:`~app.rules.engine.Engine`), so the print dialog, the Print
menu and ``castra print`` build their controls and arguments from the declaration and name
no engine's document themselves. The function that makes the PDF is in the engine's printed
parts (``MAKERS`` of ``app.export.rulesets.<package>``), loaded only when one is printed.

A declared document is made for one side of a ruleset (an army id or a side's name).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rules.engine import Engine

#: an option's value: a choice's word, or on/off for a flag
OptionValue = str | bool


@dataclass(frozen=True)
class DocumentOption:
    """One option of a document: a choice among words (``choices``, ``default``) or, without
    choices, a flag that is off unless asked for.

    ``name`` is the keyword the maker reads and the command line's ``--name`` (``_`` as
    ``-``); ``label`` the print dialog's words (a choice's row label, a flag's check-box
    text); ``help`` the command line's; ``leader_field`` a field of the roster's general
    whose value, when set, is the dialog's first choice."""

    name: str
    label: str
    help: str | None = None
    choices: tuple[str, ...] = ()
    default: str | None = None
    leader_field: str | None = None

    @property
    def flag(self) -> bool:
        return not self.choices

    @property
    def initial(self) -> OptionValue:
        """The value when nothing is chosen: the default choice, or a flag off."""
        if self.flag:
            return False
        return self.default if self.default is not None else self.choices[0]


@dataclass(frozen=True)
class DocumentSpec:
    """A document of one side: ``id`` (the command ``castra print ID`` and the file name's
    end), ``name`` (in messages: "the Rome chance cards", "has no chance cards"), ``title``
    (the print dialog's list), ``action`` and ``tip`` (the Print menu's item and its tip),
    ``help``, ``side_help`` and ``ruleset_help`` (the command line's), and its options."""

    id: str
    name: str
    title: str
    action: str
    tip: str
    help: str
    side_help: str
    ruleset_help: str
    options: tuple[DocumentOption, ...] = ()

    def defaults(self) -> dict[str, OptionValue]:
        return {o.name: o.initial for o in self.options}


def declared_documents(engines: Iterable[Engine]) -> list[DocumentSpec]:
    """The documents ``engines`` declare, each once (by id), in the order first met."""
    found: dict[str, DocumentSpec] = {}
    for engine in engines:
        for spec in engine.documents:
            found.setdefault(spec.id, spec)
    return list(found.values())


def declared_by(engine: Engine, document_id: str) -> DocumentSpec | None:
    """The document ``document_id`` that ``engine`` declares; None if it declares none."""
    return next((d for d in engine.documents if d.id == document_id), None)
