"""PDF documents (reportlab) built from core objects: sheets, cards, rosters, and the documents
an engine declares (:mod:`app.export.documents`; their makers are in its printed parts).

One function per document, each taking the ruleset (and roster), a target (a path or an open
binary file) and the page size ("a4" or "letter"); ``invariant=True`` gives byte-identical
PDFs for the same input (reportlab's invariant mode). Each returns :class:`Written` (the
target and its page count). This package imports no Qt: the GUI calls these functions.
"""

from app.export.cardsheet import CARD_SIZE, CardGrid, card_grid
from app.export.common import PAGE_SIZES, Written
from app.export.refsheet_document import render_refsheet, write_refsheet
from app.export.roster_sheet import write_roster_sheet
from app.export.unit_cards import card_count, card_painters, write_unit_cards

__all__ = [
    "CARD_SIZE",
    "PAGE_SIZES",
    "CardGrid",
    "Written",
    "card_count",
    "card_grid",
    "card_painters",
    "render_refsheet",
    "write_refsheet",
    "write_roster_sheet",
    "write_unit_cards",
]
