"""The catalogue of tables and troop types (docs/reference/rulesets-as-data.md, once in the
README) matches the data, and the README's links lead somewhere."""

import re
from pathlib import Path

from app.rules.catalogue import END, START, replace_section
from app.rules.registry import Registry

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "rulesets-as-data.md"


def test_readme_catalogue_is_current(registry: Registry) -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert replace_section(text, registry) == text, "run scripts/readme_tables.py"


def test_catalogue_names_every_table_and_troop(registry: Registry) -> None:
    section = PAGE.read_text(encoding="utf-8").split(START)[1].split(END)[0]
    for rs in registry:
        for key in type(rs.tables).model_fields:
            assert f"`[{key}]`" in section
        for troop in rs.troops:
            assert f"`[troops.{troop}]`" in section


def test_the_readmes_links_and_pictures_resolve() -> None:
    """The README is short and points on to docs/: every file it links to or shows exists."""
    root = PAGE.parents[2]
    text = (root / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert len(targets) > 10
    missing = [t for t in targets if "://" not in t and not (root / t).exists()]
    assert not missing, missing


def test_the_readme_stays_short() -> None:
    """Issue 27: the README holds what a newcomer needs; the reference lives in docs/."""
    text = (PAGE.parents[2] / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "## Two commands" in text and "make run" in text and "make test" in text
