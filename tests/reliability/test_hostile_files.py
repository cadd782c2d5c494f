"""The hostile corpus (``hostile.py``): every roster file and every ruleset file in it is
refused with a message naming what is wrong, within seconds, with nothing else changed; a
broken house-rules folder is confined to that folder."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from app.cli import main
from app.core.rosterfile import RosterFileError, read_file
from app.rules.errors import RulesetError
from app.rules.fingerprint import folder_fingerprint
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import load_registry, load_ruleset
from tests.reliability.hostile import (
    ROSTER_CASES,
    RULESET_CASES,
    SPECIAL_KINDS,
    make_special,
)

pytestmark = pytest.mark.usefixtures("bounded")


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


def _one_refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    start = time.perf_counter()
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 1, (code, out, err[:300])
    assert err.startswith("castra: ") and "Traceback" not in err
    assert "\x1b" not in err and "\x07" not in err and "\x00" not in err  # escaped
    assert time.perf_counter() - start < 10
    return err


@pytest.mark.parametrize("case", sorted(ROSTER_CASES))
def test_hostile_roster_file_is_refused(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], store_file: Path
) -> None:
    path = tmp_path / "roster.json"
    path.write_bytes(ROSTER_CASES[case])
    err = _one_refusal(capsys, "validate", str(path))
    assert str(path) in err
    _one_refusal(capsys, "roster", "import", str(path))
    assert not store_file.exists() or main(["roster", "list", "--json"]) == 0
    assert "Hannibal" not in capsys.readouterr().out  # nothing was imported


@pytest.mark.parametrize("kind", SPECIAL_KINDS)
def test_special_file_as_roster_is_refused_without_reading(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], registry: Registry
) -> None:
    path = make_special(kind, tmp_path / "roster.json")
    with pytest.raises(RosterFileError, match="not a regular file"):
        read_file(path, registry)
    assert "not a regular file" in _one_refusal(capsys, "validate", str(path))


def test_roster_file_errors_name_the_key_path(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(ROSTER_CASES["ESC in the name"])
    with pytest.raises(RosterFileError) as info:
        read_file(path, registry)
    assert info.value.problems[0][0] == "name"
    assert "U+001B" in info.value.problems[0][1]
    path.write_bytes(ROSTER_CASES["count NaN"])
    with pytest.raises(RosterFileError, match="NaN is not a number"):
        read_file(path, registry)
    path.write_bytes(ROSTER_CASES["count of 5,000 digits"])
    with pytest.raises(RosterFileError, match="5,000 digits"):
        read_file(path, registry)


@pytest.fixture
def house(tmp_path: Path) -> Path:
    """A copy of the Quincunx folder as a house-rules variant with its own id."""
    dest = tmp_path / "user" / "house"
    shutil.copytree(BUILTIN_DIR / "quincunx", dest)
    head = dest / "ruleset.toml"
    head.write_text(
        head.read_text(encoding="utf-8").replace('id = "quincunx"', 'id = "house"', 1),
        encoding="utf-8",
    )
    return dest


def test_the_house_copy_loads_untouched(house: Path) -> None:
    assert load_ruleset(house, builtin=False).id == "house"


@pytest.mark.parametrize("case", sorted(RULESET_CASES))
def test_hostile_ruleset_file_is_confined_to_its_folder(case: str, house: Path) -> None:
    file, change = RULESET_CASES[case]
    path = house / file
    text = change(path.read_text(encoding="utf-8"))
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(RulesetError) as info:
        load_ruleset(house, builtin=False)
    problems = info.value.problems
    assert problems and all(p.message and len(str(p)) < 600 for p in problems)
    assert any(p.file == file for p in problems), [str(p) for p in problems]
    reg = load_registry(None, [house.parent])
    assert "house" not in reg and len(reg.failures) == 1
    folder_fingerprint(house)  # reads capped, never raises


@pytest.mark.parametrize("kind", SPECIAL_KINDS)
def test_special_file_in_a_ruleset_folder(kind: str, house: Path) -> None:
    (house / "armies.toml").unlink()
    make_special(kind, house / "armies.toml")
    with pytest.raises(RulesetError) as info:
        load_ruleset(house, builtin=False)
    assert [(p.file, p.message) for p in info.value.problems][:1] == [
        ("armies.toml", info.value.problems[0].message)
    ]
    assert "not a regular file" in info.value.problems[0].message
    folder_fingerprint(house)


def test_an_unexpected_exception_stays_with_its_folder(
    house: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.rules.registry as registry_module

    real = registry_module.load_ruleset

    def explode(folder: Path, *args: object, **kwargs: object) -> object:
        if folder.name == "house":
            raise KeyError("an engine bug provoked by odd data")
        return real(folder, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(registry_module, "load_ruleset", explode)
    reg = load_registry(BUILTIN_DIR, [house.parent])
    assert len(reg) == 5 and list(reg.failures) == [f"house ({house.parent})"]
    assert "KeyError" in reg.failure_lines()[0]


def test_cli_names_the_broken_house_folder_and_runs(
    house: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.cli.common

    monkeypatch.setattr(app.cli.common, "_registry", None)  # loaded afresh, with the house
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home2"))
    target = tmp_path / "home2" / "rulesets"
    target.mkdir(parents=True)
    shutil.move(house, target / "house")
    file, change = RULESET_CASES["frontage nan"]
    path = target / "house" / file
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["rulesets"]) == 0
    out, err = capsys.readouterr()
    assert "Quincunx" in out and "FAILED house" in out
    assert "troops.toml" in out and "nan is not a finite number" in out
    assert "warning: ruleset house" in err and "Traceback" not in err


def test_schema_bounds_are_the_roster_bounds() -> None:
    """A standard army always makes a roster that can be saved and exported."""
    from app.core import roster
    from app.rules import schema

    assert schema.MAX_UNIT_SIZE == roster.MAX_SIZE
    assert schema.MAX_UNIT_COUNT == roster.MAX_COUNT
    assert schema.MAX_UNITS == roster.MAX_UNITS
    assert schema.MAX_LINE_BASES == roster.MAX_LINE_BASES
    assert (schema.MIN_BONUS, schema.MAX_BONUS) == (roster.MIN_BONUS, roster.MAX_BONUS)
