"""The documents an engine declares beyond the common ones (:mod:`app.rules.documents`): the
function that makes each (``MAKERS`` of the engine's printed parts,
``app.export.rulesets.<package>``, keyed by the document's id), and what they share: the
side a document is made for, named by army id or side name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from app.export.common import Target, Written
from app.export.rulesets import module_for
from app.rules.documents import OptionValue
from app.rules.engine import Engine
from app.rules.ruleset import Ruleset


class Maker(Protocol):
    """Writes a declared document of one side (an army id) with its options' values."""

    def __call__(
        self,
        rs: Ruleset,
        target: Target,
        *,
        side: str,
        options: Mapping[str, OptionValue],
        page_size: str = "a4",
        invariant: bool = False,
    ) -> Written: ...


def maker(engine: Engine, document_id: str) -> Maker:
    """The function that makes ``engine``'s document ``document_id`` (``LookupError`` when
    its printed parts have none: a declaration without its maker)."""
    makers: Mapping[str, Maker] = getattr(module_for(engine), "MAKERS", None) or {}
    if document_id not in makers:
        raise LookupError(f"engine {engine.name!r} declares {document_id!r} but cannot print it")
    return makers[document_id]


def resolve_side(rs: Ruleset, side: str) -> str:
    """The army-list id ``side`` names: an army id (``roman``) or a side name (``Rome``),
    either case; ``ValueError`` naming the choices for an unknown or ambiguous side."""
    key = side.strip().casefold()
    if key in rs.armies:
        return key
    for army_id in rs.armies:
        if army_id.casefold() == key:
            return army_id
    by_side = [a for a, army in rs.armies.items() if army.side.casefold() == key]
    if len(by_side) == 1:
        return by_side[0]
    choices = ", ".join(f"{a} ({army.side})" for a, army in sorted(rs.armies.items()))
    if by_side:
        raise ValueError(f"side {side!r} has several armies in {rs.id}: {choices}; name one")
    raise ValueError(f"{rs.meta.short_name} has no army or side {side!r} (choose from {choices})")
