"""What the window can print, and a job to print it: the common documents (unit cards, the
roster sheet, the quick-reference sheet) and those the engines declare, with their titles
and the file name suggested for each. Plain data without Qt, shared by the window's printing
(:mod:`app.gui.printing`, loaded at start) and its dialog (:mod:`app.gui.print_dialog`,
loaded when something is first printed)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from app.core.roster import Roster
from app.rules.documents import DocumentSpec, OptionValue, declared_documents
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset


class Document(Enum):
    CARDS = "Unit cards"
    ROSTER = "Roster sheet"
    REFSHEET = "Quick-reference sheet"


#: a document to print: a common one, or one an engine declares
Printable = Document | DocumentSpec


def title(document: Printable) -> str:
    """The document's name in the dialog's list and in messages."""
    return document.value if isinstance(document, Document) else document.title


def declared(registry: Registry) -> list[DocumentSpec]:
    """The documents the engines of the loaded rulesets declare, each once."""
    return declared_documents(rs.engine for rs in registry)


@dataclass(frozen=True)
class PrintJob:
    """What to print: the document, for which ruleset (and roster), where, on what paper;
    for a declared document, the side and its options' values."""

    document: Printable
    ruleset: str
    path: Path
    page_size: str = "a4"
    side: str | None = None
    options: dict[str, OptionValue] = field(default_factory=dict)
    open_after: bool = True
    #: to a printer through the system's print dialog (``path`` is then a temporary file)
    to_printer: bool = False


def _file_name(text: str) -> str:
    return re.sub(r"[^\w\- ]+", "_", text).strip().replace(" ", "-").lower() or "castra"


def suggested_name(document: Printable, ruleset: Ruleset, roster: Roster | None) -> str:
    if document is Document.REFSHEET or roster is None:
        base = f"{ruleset.id}-refsheet"
    elif isinstance(document, DocumentSpec):
        base = f"{roster.side}-{document.id}"
    else:
        base = f"{roster.name}-{'cards' if document is Document.CARDS else 'roster'}"
    return f"{_file_name(base)}.pdf"
