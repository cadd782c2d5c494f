"""Reading back the PDFs the export package writes: page texts (whitespace normalised),
fonts and their embedding."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from pypdf import PdfReader


def reader(data: bytes | Path) -> PdfReader:
    if isinstance(data, Path):
        data = data.read_bytes()
    return PdfReader(io.BytesIO(data))


def page_texts(data: bytes | Path) -> list[str]:
    """The text of each page with runs of whitespace folded to one space."""
    return [" ".join((page.extract_text() or "").split()) for page in reader(data).pages]


def all_text(data: bytes | Path) -> str:
    return " ".join(page_texts(data))


def fonts(data: bytes | Path) -> dict[str, bool]:
    """Base font name -> whether its font file is embedded (FontFile, FontFile2 or 3)."""
    out: dict[str, bool] = {}
    for page in reader(data).pages:
        resources: Any = page.get("/Resources") or {}
        font_dict: Any = resources.get("/Font") or {}
        for ref in font_dict.values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = descriptor.get_object() if descriptor is not None else {}
            embedded = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            out[str(font.get("/BaseFont"))] = embedded
    return out


def font_file_kinds(data: bytes | Path) -> set[str]:
    kinds: set[str] = set()
    for page in reader(data).pages:
        resources: Any = page.get("/Resources") or {}
        for ref in (resources.get("/Font") or {}).values():
            desc = ref.get_object().get("/FontDescriptor")
            if desc is not None:
                kinds |= {k for k in desc.get_object() if str(k).startswith("/FontFile")}
    return kinds
