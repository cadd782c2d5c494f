"""The rules-coverage table (docs/reference/rules-coverage.md, once in the README): one row a
rule, and every test it names exists among the tests pytest collects, so the table cannot
rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.builtin import ruleset_ids

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reference" / "rules-coverage.md"
HEADING = "# Rules coverage"
COLUMNS = ["ruleset", "rule", "where implemented", "tests", "status"]
RULESETS = set(ruleset_ids())
TEST_ID = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def rows() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8")
    headings = list(re.finditer(rf"^{HEADING}$", text, flags=re.M))
    assert len(headings) == 1, f"the page needs one {HEADING!r}"
    body = re.split(r"^## ", text[headings[0].end() :], flags=re.M)[0]
    lines = [line for line in body.splitlines() if line.startswith("|")]
    assert len(lines) > 2, "the coverage table is empty"
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))] for line in lines]
    assert cells[0] == COLUMNS
    assert all(set(c) <= set("-:") for c in cells[1])
    return cells[2:]


def test_every_rule_has_a_row_with_a_status() -> None:
    table = rows()
    assert all(len(r) == len(COLUMNS) for r in table)
    assert {r[0] for r in table} == RULESETS | {"all"}
    for ruleset, rule, where, tests, status in table:
        assert rule and where, (ruleset, rule)
        assert re.match(r"(done|partial|not done)\b", status), (rule, status)
        if status.startswith(("partial", "not done")) and status != "not done":
            assert ":" in status or "(" in status, f"say what is missing: {rule}"
        named = TEST_ID.findall(tests)
        if status.startswith("not done"):
            continue
        assert named, f"{rule}: a covered rule names its tests"
        # every cell entry is a test id (nothing free-form that could not be checked)
        assert len(named) == len(tests.split("<br>")), tests


def test_every_named_test_exists() -> None:
    named = {f"{path}::{name}" for r in rows() for path, name in TEST_ID.findall(r[3])}
    files = sorted({t.split("::")[0] for t in named})
    missing_files = [f for f in files if not (ROOT / f).is_file()]
    assert not missing_files, missing_files
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    collected = {line.split("[")[0] for line in done.stdout.splitlines() if "::" in line}
    missing = sorted(named - collected)
    assert not missing, f"the coverage table names tests that do not exist: {missing}"
