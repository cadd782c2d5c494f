"""The embedded fonts: DejaVu Sans, shipped in ``resources/fonts`` with its licence.

Registered once per process with reportlab's ``TTFont``, so every PDF embeds a subset of the
TrueType file (``FontFile2``) and its text stays selectable and searchable. The base-14 PDF
fonts are never used: they are not embedded and lack glyphs such as the dash and the
multiplication sign the sheets print.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from app import bundled

if TYPE_CHECKING:
    from app.core.roster import Roster

FONTS_DIR = bundled.FONTS_DIR

#: Family names used in styles; ``<b>``/``<i>`` in paragraphs map through addMapping.
SANS = "DejaVuSans"
SANS_BOLD = "DejaVuSans-Bold"
SANS_ITALIC = "DejaVuSans-Oblique"
SANS_BOLD_ITALIC = "DejaVuSans-BoldOblique"
COND = "DejaVuSansCondensed"
COND_BOLD = "DejaVuSansCondensed-Bold"
COND_ITALIC = "DejaVuSansCondensed-Oblique"

_FILES: dict[str, str] = {
    SANS: "DejaVuSans.ttf",
    SANS_BOLD: "DejaVuSans-Bold.ttf",
    SANS_ITALIC: "DejaVuSans-Oblique.ttf",
    SANS_BOLD_ITALIC: "DejaVuSans-BoldOblique.ttf",
    COND: "DejaVuSansCondensed.ttf",
    COND_BOLD: "DejaVuSansCondensed-Bold.ttf",
    COND_ITALIC: "DejaVuSansCondensed-Oblique.ttf",
}

#: every bundled font: what a document registers unless it names the few it prints with
ALL_FONTS: tuple[str, ...] = tuple(_FILES)

_lock = threading.Lock()
_registered: set[str] = set()


class FontError(RuntimeError):
    """A bundled font file is missing or unreadable (a broken installation)."""


def register_fonts(names: Iterable[str] = ALL_FONTS) -> None:
    """Register the bundled fonts ``names`` (all by default) with reportlab, each once a
    process (idempotent, thread-safe). Reading a font file costs about 10 ms of CPU, so a
    document that prints with a few of them (the chronicle) names those few; a font a
    document uses but did not register makes reportlab refuse the document, never print it
    in another font."""
    wanted = [n for n in names if n not in _registered]
    if not wanted:
        return
    with _lock:
        for name in wanted:
            if name in _registered:
                continue
            path = FONTS_DIR / _FILES[name]
            try:
                pdfmetrics.registerFont(TTFont(name, str(path)))
            except (OSError, ValueError) as exc:
                raise FontError(f"cannot load bundled font {path}: {exc}") from None
            _registered.add(name)
        # after every registration: reportlab maps a TrueType font's own name as a family of
        # one (bold and italic the same font), which would undo these
        for family, normal, bold, italic, bold_italic in (
            (SANS, SANS, SANS_BOLD, SANS_ITALIC, SANS_BOLD_ITALIC),
            (COND, COND, COND_BOLD, COND_ITALIC, COND_BOLD),
        ):
            addMapping(family, 0, 0, normal)
            addMapping(family, 1, 0, bold)
            addMapping(family, 0, 1, italic)
            addMapping(family, 1, 1, bold_italic)


def unprintable(texts: Iterable[str]) -> list[str]:
    """The characters of ``texts`` that the bundled DejaVu Sans has no glyph for (Chinese,
    Japanese or Korean script, emoji, ...): they would print blank. Castra warns rather than
    bundle a fallback font for every script; spaces and line breaks are not counted."""
    register_fonts((SANS,))
    font = pdfmetrics.getFont(SANS)
    if not isinstance(font, TTFont):  # registered above as a TrueType font
        raise TypeError(f"{SANS} is not a TrueType font")
    glyphs = font.face.charToGlyph
    missing = {ch for text in texts for ch in text if not ch.isspace() and ord(ch) not in glyphs}
    return sorted(missing)


def roster_texts(roster: Roster) -> list[str]:
    """Every text of a roster that its printed cards and sheet show."""
    out = [roster.name, roster.side, roster.notes]
    out += [t for u in roster.units for t in (u.name, u.notes)]
    out += [t for ld in roster.leaders for t in (ld.name, ld.notes)]
    out += [c.name for c in roster.commands]
    return out


def unprintable_warning(roster: Roster) -> str | None:
    """A one-line warning naming the characters of ``roster`` that would print blank, or
    None when everything prints."""
    chars = unprintable(roster_texts(roster))
    if not chars:
        return None
    shown = " ".join(chars[:12]) + (" …" if len(chars) > 12 else "")
    n = len(chars)
    return (
        f"{n} character{'s' if n != 1 else ''} in this roster cannot be printed with the "
        f"bundled font and will print blank: {shown}"
    )
