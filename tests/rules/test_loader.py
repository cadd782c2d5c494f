"""Each kind of malformed ruleset file: the error names the file, the key path and the
problem, and the other rulesets still load."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from app.rules.errors import RulesetError
from app.rules.loader import MAX_FILE_BYTES
from app.rules.mechanics import Combatant, Situation, mechanics_for
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import engines, find_engine, load_ruleset


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "rulesets" / "quincunx"
    shutil.copytree(BUILTIN_DIR / "quincunx", dest)
    return dest


def edit(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems(folder: Path) -> list[tuple[str, str, str]]:
    with pytest.raises(RulesetError) as info:
        load_ruleset(folder)
    return [(p.file, p.path, p.message) for p in info.value.problems]


def test_every_builtin_ruleset_loads() -> None:
    reg = Registry.load(find_engine, BUILTIN_DIR, [])
    assert sorted(reg.rulesets) == [
        "d3-ancients",
        "grown-slightly-bald",
        "leg-vi-carthago",
        "mwan90",
        "quincunx",
    ]
    assert not reg.failures


def test_missing_file(copy: Path) -> None:
    (copy / "errata.toml").unlink()
    assert problems(copy) == [("errata.toml", "", "file is missing")]


def test_not_toml(copy: Path) -> None:
    (copy / "troops.toml").write_text("[troops.x\nname = 1\n", encoding="utf-8")
    (file, path, msg), *_ = problems(copy)
    assert (file, path) == ("troops.toml", "") and msg.startswith("not valid TOML")


def test_not_utf8(copy: Path) -> None:
    (copy / "armies.toml").write_bytes(b"\xff\xfe[armies]\n")
    file, _, msg = problems(copy)[0]
    assert file == "armies.toml" and ("UTF-8" in msg or "TOML" in msg)


def test_wrong_type(copy: Path) -> None:
    edit(copy, "armies.toml", "default_size = 12", 'default_size = "twelve"')
    file, path, msg = problems(copy)[0]
    assert file == "armies.toml"
    assert path.startswith("armies.roman.entries.") and path.endswith(".default_size")
    assert "integer" in msg


def test_unknown_key_is_an_error(copy: Path) -> None:
    edit(copy, "ruleset.toml", "[ruleset]\n", '[ruleset]\ncolour = "red"\n')
    assert ("ruleset.toml", "ruleset.colour", "Extra inputs are not permitted") in problems(copy)


def test_missing_key(copy: Path) -> None:
    path = copy / "ruleset.toml"
    lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("author =")]
    path.write_text("\n".join(lines) + "\n")
    # author is optional; short_name is required
    assert load_ruleset(copy).meta.author is None
    edit(copy, "ruleset.toml", "short_name =", "shortname =")
    found = problems(copy)
    assert ("ruleset.toml", "ruleset.short_name", "Field required") in found


def test_inconsistent_values(copy: Path) -> None:
    edit(copy, "armies.toml", "default_size = 15", "default_size = 14")
    file, _, msg = problems(copy)[0]
    assert file == "armies.toml" and "default_size 14 is not one of sizes" in msg


def test_unit_width_only_for_rulesets_measured_in_unit_widths(copy: Path) -> None:
    """A unit width means nothing to a ruleset measured in inches (Quincunx): refused."""
    edit(copy, "ruleset.toml", "[ruleset]\n", "[ruleset]\nunit_width_mm = 80.0\n")
    file, path, msg = problems(copy)[0]
    assert (file, path) == ("ruleset.toml", "ruleset")
    assert "unit_width_mm is only for unit_of_measure = 'unit_width'" in msg


def test_table_size_in_numbers(copy: Path) -> None:
    """``table`` gives a source's table in numbers; a unit it does not know is refused."""
    edit(
        copy,
        "ruleset.toml",
        "[ruleset]\n",
        '[ruleset]\ntable = { width = 6, height = 4, unit = "ft" }\n',
    )
    table = load_ruleset(copy).meta.table
    assert table is not None and (table.width, table.height, table.unit) == (6, 4, "ft")
    edit(copy, "ruleset.toml", 'unit = "ft"', 'unit = "yd"')
    assert problems(copy)[0][:2] == ("ruleset.toml", "ruleset.table.unit")


def test_unknown_troop_reference(copy: Path) -> None:
    edit(copy, "armies.toml", 'troop = "roman_hastati"', 'troop = "roman_hoplites"')
    assert any(
        f == "armies.toml" and p.endswith(".troop") and "roman_hoplites" in m
        for f, p, m in problems(copy)
    )


def test_unknown_engine(copy: Path) -> None:
    """An engine is a name the registry knows; an unknown one is a load problem that names
    the file, the key path and the known engines."""
    edit(copy, "ruleset.toml", 'engine = "quincunx"', 'engine = "chess"')
    file, path, msg = problems(copy)[0]
    assert (file, path) == ("ruleset.toml", "ruleset.engine")
    known = ", ".join(e.name for e in engines())
    assert msg == f"unknown engine 'chess' (known: {known})"
    with pytest.raises(LookupError, match=f"known: {known}"):
        find_engine("chess")


def test_errata_must_name_real_data(copy: Path) -> None:
    text = (copy / "errata.toml").read_text()
    (copy / "errata.toml").write_text(
        text + '\n[[errata]]\nid = "bogus"\ntopic = "t"\n'
        'kind = "gap"\nsource_says = "s"\ndecision = "d"\n'
        'applies_to = ["tables.no_such_table"]\n'
    )
    assert any(f == "errata.toml" and "tables.no_such_table" in m for f, _, m in problems(copy))


def test_oversized_file(copy: Path) -> None:
    (copy / "errata.toml").write_text("# " + "x" * MAX_FILE_BYTES + "\n")
    file, _, msg = problems(copy)[0]
    assert file == "errata.toml" and "at most" in msg


def test_every_problem_is_reported_not_just_the_first(copy: Path) -> None:
    edit(copy, "armies.toml", "default_size = 15", "default_size = 14")
    edit(copy, "ruleset.toml", "[ruleset]\n", '[ruleset]\ncolour = "red"\n')
    files = {f for f, _, _ in problems(copy)}
    assert {"armies.toml", "ruleset.toml"} <= files


def test_a_broken_folder_does_not_stop_the_others(tmp_path: Path) -> None:
    root = tmp_path / "rulesets"
    for name in ("quincunx", "d3-ancients"):
        shutil.copytree(BUILTIN_DIR / name, root / name)
    edit(
        root / "quincunx",
        "tables.toml",
        "[",
        "[[",
    )
    reg = Registry.load(find_engine, root, [])
    assert list(reg.rulesets) == ["d3-ancients"]
    assert list(reg.failures) == ["quincunx"]
    assert reg.failure_lines()[0].startswith("quincunx: tables.toml")
    with pytest.raises(KeyError, match="failed to load"):
        reg.get("quincunx")


def test_user_variant_needs_its_own_id(tmp_path: Path) -> None:
    user = tmp_path / "user"
    shutil.copytree(BUILTIN_DIR / "d3-ancients", user / "d3-ancients")
    reg = Registry.load(find_engine, BUILTIN_DIR, [user])
    assert reg.get("d3-ancients").builtin
    ((_key, err),) = reg.failures.items()
    assert "give the copy a new id" in str(err)
    edit(user / "d3-ancients", "ruleset.toml", 'id = "d3-ancients"', 'id = "d3-house"')
    reg = Registry.load(find_engine, BUILTIN_DIR, [user])
    assert not reg.failures and not reg.get("d3-house").builtin


def test_loading_one_ruleset_first_then_the_rest(tmp_path: Path) -> None:
    user = tmp_path / "user"
    shutil.copytree(BUILTIN_DIR / "d3-ancients", user / "house")
    edit(user / "house", "ruleset.toml", 'id = "d3-ancients"', 'id = "d3-house"')
    reg = Registry.load(find_engine, BUILTIN_DIR, [user], only={"quincunx"})
    assert list(reg.rulesets) == ["quincunx"]
    reg.load_more(BUILTIN_DIR, [user])
    assert sorted(reg.rulesets) == [
        "d3-ancients",
        "d3-house",
        "grown-slightly-bald",
        "leg-vi-carthago",
        "mwan90",
        "quincunx",
    ]
    assert not reg.failures
    quincunx = reg.get("quincunx")
    reg.load_more(BUILTIN_DIR, [user])  # nothing is loaded twice
    assert reg.get("quincunx") is quincunx and not reg.failures


def test_a_user_folder_never_runs_code(tmp_path: Path) -> None:
    """A house-rules folder names its engine and brings numbers only: Python files put in it
    are never imported, neither when it loads nor when its mechanics play; the code is the
    engine's own package in app.rulesets."""
    user = tmp_path / "user"
    folder = user / "house"
    shutil.copytree(BUILTIN_DIR / "quincunx", folder)
    edit(folder, "ruleset.toml", 'id = "quincunx"', 'id = "house-q"')
    ran = tmp_path / "ran"
    for name in ("mechanics.py", "__init__.py", "schema.py", "rules.py"):
        (folder / name).write_text(f"open({str(ran)!r}, 'a').write({name!r})\n")
    reg = Registry.load(find_engine, BUILTIN_DIR, [user])
    assert not reg.failures, reg.failure_lines()
    house = reg.get("house-q")
    assert not house.builtin and house.engine is find_engine("quincunx")
    mech = mechanics_for(house)
    assert type(mech) is find_engine("quincunx").mechanics
    assert type(mech).__module__ == "app.rulesets.quincunx.mechanics"
    hastati = Combatant(
        "a", "Hastati", "roman_hastati", 0, mech.initial_status("roman_hastati", 12, None)
    )
    celts = Combatant(
        "b", "Celts", "celtic_swordsmen", 1, mech.initial_status("celtic_swordsmen", 16, None)
    )
    assert sum(mech.odds("melee", Situation(actor=hastati, target=celts)).values()) == 1
    assert not ran.exists()
    assert not any(
        str(tmp_path) in str(getattr(m, "__file__", "") or "") for m in list(sys.modules.values())
    )
