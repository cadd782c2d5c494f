"""PDF documents (reportlab) built from core objects: sheets, cards, rosters, decks."""
