"""Write tests/data/seed_shingles.txt: a hash of every run of eight words in the source texts
(../shared/seeds), so the test that our prose is our own runs on any checkout without
carrying the texts themselves.

    .venv/bin/python scripts/seed_shingles.py [SEEDS_DIR]
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "seed_shingles.txt"
RUN = 8


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def shingle(run: list[str]) -> str:
    return hashlib.sha1(" ".join(run).encode()).hexdigest()[:12]


def shingles(text: str) -> set[str]:
    w = words(text)
    return {shingle(w[i : i + RUN]) for i in range(len(w) - RUN + 1)}


def main() -> int:
    seeds = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "seeds"
    found: set[str] = set()
    for path in sorted(seeds.glob("*.txt")):
        found |= shingles(path.read_text(encoding="utf-8", errors="replace"))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(sorted(found)) + "\n", encoding="ascii")
    print(f"wrote {len(found)} shingles to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
