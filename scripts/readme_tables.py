"""Rewrite the catalogue of ruleset tables and troop types from the data, in the docs page
that carries it (docs/reference/rulesets-as-data.md; the README carried it once, hence the
script's name).

.venv/bin/python scripts/readme_tables.py          # rewrite the page
.venv/bin/python scripts/readme_tables.py --check  # exit 1 if the page is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.rules.catalogue import replace_section
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "rulesets-as-data.md"


def main() -> int:
    text = PAGE.read_text(encoding="utf-8")
    fresh = replace_section(text, Registry.load(find_engine, BUILTIN_DIR, []))
    if "--check" in sys.argv:
        if fresh != text:
            print(
                "docs/reference/rulesets-as-data.md catalogue is stale: "
                "run scripts/readme_tables.py",
                file=sys.stderr,
            )
            return 1
        return 0
    PAGE.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
