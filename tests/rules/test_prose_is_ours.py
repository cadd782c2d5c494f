"""Rules prose in the data (descriptions, summaries, special rules, notes, errata decisions)
is our own wording: no run of eight words of it appears in a source text. The sources are
represented by hashes of their eight-word runs (scripts/seed_shingles.py), not by the texts."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from app.rules.registry import BUILTIN_DIR

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from seed_shingles import OUT, RUN, shingle, words

#: Keys whose text is the source's own: titles, citations, and quoted (garbled) cells.
QUOTED = {"source", "source_says", "source_file", "name", "publication", "title", "short_name"}


def prose(node: object, key: str = "") -> list[str]:
    if isinstance(node, str):
        return [] if key in QUOTED else [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in prose(v, k)]
    if isinstance(node, list):
        return [s for v in node for s in prose(v, key)]
    return []


SOURCE = set(OUT.read_text(encoding="ascii").split())


def test_the_fingerprints_cover_the_sources() -> None:
    assert len(SOURCE) > 10_000  # five texts, some 17,000 words
    # a sentence we know is in the Quincunx source
    w = words("Each two points of difference (discarding the remainders) create a casualty")
    assert shingle(w[:RUN]) in SOURCE


@pytest.mark.parametrize("folder", sorted(p.name for p in BUILTIN_DIR.iterdir() if p.is_dir()))
def test_prose_is_not_copied(folder: str) -> None:
    copied = []
    for path in sorted((BUILTIN_DIR / folder).glob("*.toml")):
        for text in prose(tomllib.loads(path.read_text(encoding="utf-8"))):
            w = words(text)
            for i in range(len(w) - RUN + 1):
                if shingle(w[i : i + RUN]) in SOURCE:
                    copied.append((path.name, " ".join(w[i : i + RUN])))
    assert not copied, copied
