"""Rewrite the README's catalogue of ruleset tables and troop types from the data.

.venv/bin/python scripts/readme_tables.py          # rewrite README.md
.venv/bin/python scripts/readme_tables.py --check  # exit 1 if the README is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.rules.catalogue import replace_section
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine

README = Path(__file__).resolve().parents[1] / "README.md"


def main() -> int:
    text = README.read_text(encoding="utf-8")
    fresh = replace_section(text, Registry.load(find_engine, BUILTIN_DIR, []))
    if "--check" in sys.argv:
        if fresh != text:
            print("README.md catalogue is stale: run scripts/readme_tables.py", file=sys.stderr)
            return 1
        return 0
    README.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
