"""``castra print``: each document written as a PDF, rosters from a file or the store, clear
messages and exit 1 for bad input, exit 2 for usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.core.roster import new_roster
from app.core.rosterfile import export_file
from app.rules.registry import Registry
from tests.export.pdf import fonts, page_texts


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store and user folder of the test's own; the current directory is a fresh one."""
    monkeypatch.setenv("CASTRA_DB", str(tmp_path / "castra.sqlite3"))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_refsheet_default_name_and_page_sizes(
    capsys: pytest.CaptureFixture[str], isolated: Path
) -> None:
    code, out, err = run(capsys, "print", "refsheet", "quincunx")
    assert code == 0, err
    pdf = isolated / "quincunx-refsheet.pdf"
    assert pdf.is_file() and "quincunx-refsheet.pdf" in out
    texts = page_texts(pdf)
    assert 1 <= len(texts) <= 3 and "Duke Seifried" in texts[0]  # 3: a page of errata
    code, out, err = run(
        capsys, "print", "refsheet", "leg-vi-carthago", "--page-size", "letter", "-o", "lv.pdf"
    )
    assert code == 0, err
    lv = page_texts(isolated / "lv.pdf")
    assert 1 <= len(lv) <= 3
    # Castra's own call as a player (issue 30's umpire default) is named, not printed in full:
    # the table's errata keep their page
    whole = " ".join(" ".join(t.split()) for t in lv)
    assert "Castra's own call as a player is in the app" in whole
    assert "when Castra plays a side" not in whole
    assert all(fonts(isolated / "lv.pdf").values())


def test_invariant_flag_gives_identical_files(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.pdf", "b.pdf"):
        code, _, err = run(capsys, "print", "refsheet", "mwan90", "-o", name, "--invariant")
        assert code == 0, err
    assert Path("a.pdf").read_bytes() == Path("b.pdf").read_bytes()
    for name in ("c.pdf", "d.pdf"):
        code, _, err = run(
            capsys, "print", "chance-cards", "--side", "Rome", "-o", name, "--invariant"
        )
        assert code == 0, err
    assert Path("c.pdf").read_bytes() == Path("d.pdf").read_bytes()


def test_cards_and_roster_from_a_file(
    capsys: pytest.CaptureFixture[str], registry: Registry, isolated: Path
) -> None:
    rs = registry.get("quincunx")
    roster = new_roster(rs, "carthaginian", name="Hannibal at Cannae", scale="1:100", standard=True)
    export_file(roster, isolated / "cannae.json")
    code, _, err = run(capsys, "print", "cards", "cannae.json")
    assert code == 0, err
    cards = isolated / "hannibal-at-cannae-cards.pdf"
    texts = page_texts(cards)
    cards_total = sum(u.count for u in roster.units) + len(roster.leaders)
    assert len(texts) == -(-cards_total // 9)
    assert all(t.count("Quincunx · Hannibal at Cannae · Castra") == 9 for t in texts[:-1])
    text = " ".join(texts)
    assert "Celtic Swordsmen" in text and "16 figures · 16 bases · 1,600 men at 1:100" in text
    code, _, err = run(capsys, "print", "roster", "cannae.json", "--page-size", "letter")
    assert code == 0, err
    sheet = " ".join(page_texts(isolated / "hannibal-at-cannae-roster.pdf"))
    assert "50,800 men at 1:100" in sheet and "VALID" in sheet


def test_cards_from_the_store_by_name_and_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "roster",
        "new",
        "--ruleset",
        "grown-slightly-bald",
        "--army",
        "rome",
        "--name",
        "Rome at Zama",
        "--standard",
        "--json",
    )
    assert code == 0, err
    rid = str(json.loads(out)["id"])
    code, out, err = run(capsys, "print", "cards", "Rome at Zama", "--no-leaders", "-o", "z.pdf")
    assert code == 0, err
    text = " ".join(page_texts(Path("z.pdf")))
    assert "Hit points (a full row loses the base)" in text and "LEADER" not in text
    code, out, err = run(capsys, "print", "roster", rid)
    assert code == 0, err
    assert "Rome at Zama" in " ".join(page_texts(Path("rome-at-zama-roster.pdf")))


def test_chance_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys,
        "print",
        "chance-cards",
        "--side",
        "carthaginian",
        "--commander",
        "good",
        "--supply-problems",
    )
    assert code == 0, err
    texts = page_texts(Path("carthaginian-chance-cards.pdf"))
    assert [t.count("CHANCE CARD") for t in texts] == [9, 6]
    text = " ".join(texts)
    # Carthage: Rally -> Initiative; good: No Event -> Initiative; supply: No Event -> Ammo
    assert sum(text.count(f"{i} of 15 Initiative ") for i in range(1, 16)) >= 4
    assert "Carthage · good commander · supply problems" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["print", "refsheet", "warhammer"], "unknown ruleset 'warhammer'"),
        (["print", "cards", "No such army"], "no roster 'No such army'"),
        (["print", "roster", "missing.json"], "no roster file missing.json"),
        (["print", "chance-cards", "--side", "roman", "--ruleset", "quincunx"], "no chance cards"),
        (["print", "chance-cards", "--side", "gauls"], "no army or side 'gauls'"),
        (["print", "chance-cards", "--side", "rome", "--ruleset", "nope"], "unknown ruleset"),
    ],
)
def test_bad_input_exits_1_with_a_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 1
    assert message in err and err.startswith("castra: ")
    assert not list(Path().glob("*.pdf"))


def test_unreadable_roster_file(capsys: pytest.CaptureFixture[str], isolated: Path) -> None:
    (isolated / "broken.json").write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "print", "cards", "broken.json")
    assert code == 1 and "cannot import roster" in err and "broken.json" in err
    (isolated / "folder.json").mkdir()
    code, _, err = run(capsys, "print", "roster", "folder.json")
    assert code == 1 and "not a roster file" in err
    (isolated / "wrong.json").write_text(json.dumps({"format": "castra-roster"}), "utf-8")
    code, _, err = run(capsys, "print", "roster", "wrong.json")
    assert code == 1 and "wrong.json" in err


def test_unwritable_output(capsys: pytest.CaptureFixture[str], isolated: Path) -> None:
    code, _, err = run(capsys, "print", "refsheet", "mwan90", "-o", "no/such/dir/x.pdf")
    assert code == 1 and "cannot write" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["print"],
        ["print", "refsheet", "quincunx", "--page-size", "a3"],
        ["print", "chance-cards"],
        ["print", "chance-cards", "--side", "rome", "--commander", "brilliant"],
    ):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 2


def test_a_missing_json_file_is_not_looked_up_in_the_store(
    capsys: pytest.CaptureFixture[str], registry: Registry, isolated: Path
) -> None:
    """ROSTER resolves as for ``castra battle new`` (app.cli.common.resolve_roster): a path
    that exists is a file, else a stored id or name; a missing ``*.json`` is a missing file."""
    rs = registry.get("mwan90")
    export_file(new_roster(rs, "roman", name="Legio"), isolated / "legio.json")
    code, _, err = run(capsys, "roster", "import", "legio.json", "--name", "ghost.json")
    assert code == 0, err
    (isolated / "legio.json").unlink()
    code, _, err = run(capsys, "print", "cards", "ghost.json")
    assert (code, err) == (1, "castra: no roster file ghost.json: no such file\n")
    code, _, err = run(capsys, "print", "cards", "1", "-o", "by-id.pdf")
    assert code == 0, err
    code, _, err = run(capsys, "print", "roster", "no/such/legio")
    assert code == 1 and err.startswith("castra: no roster file no/such/legio (and no roster ")


def test_a_huge_card_job_needs_yes(
    capsys: pytest.CaptureFixture[str], registry: Registry, isolated: Path
) -> None:
    """Issue 13.9: a print job of more cards than a club prints (the limits allow millions)
    is refused in one line, naming the count, unless --yes; nothing is written."""
    from app.core.edits import AddUnit
    from app.core.roster import CONFIRM_CARDS, unit_from_entry

    rs = registry.get("quincunx")
    roster = new_roster(rs, "roman", name="Endless")
    roster = AddUnit(unit_from_entry(rs, "roman", "hastati", count=CONFIRM_CARDS + 1)).apply(roster)
    export_file(roster, isolated / "endless.json")
    code, out, err = run(capsys, "print", "cards", "endless.json", "--no-leaders")
    assert code == 1 and not out
    assert err.strip().splitlines() == [
        f"castra: {CONFIRM_CARDS + 1:,} cards on 101 pages: more than {CONFIRM_CARDS:,}; "
        "add --yes to print them all"
    ]
    assert not list(isolated.glob("*.pdf"))
    code, out, err = run(capsys, "print", "cards", "endless.json", "--no-leaders", "--yes")
    assert code == 0, err
    assert f"{CONFIRM_CARDS + 1:,} cards on 101 pages" in out
    assert len(page_texts(isolated / "endless-cards.pdf")) == 101
