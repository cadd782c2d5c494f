"""The scenario cache: a historical battle's file read again with its bytes unchanged is
rebuilt from its validated dump, equal to a full read and without parsing or validating it;
an edited file is a miss, and a cache that is damaged, tampered with or not a regular file
sends the reader back to the TOML, which it validates in full."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import app.core.scenario.library as library
from app import bundled
from app.core.scenario.campaigns import library_finder
from app.core.scenario.library import ScenarioError, read_scenario
from app.rules.registry import Registry

TREBIA = bundled.SCENARIOS_DIR / "trebia.toml"


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def _only_file(cache: Path) -> Path:
    [path] = list(cache.iterdir())
    return path


def test_a_cached_read_equals_a_full_read_and_validates_nothing(
    cache: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = read_scenario(TREBIA, list(registry))
    assert read_scenario(TREBIA, list(registry), cache).data == full.data
    assert json.loads(_only_file(cache).read_text(encoding="utf-8"))["validated"]

    def no(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed or validated again")

    monkeypatch.setattr(library, "_parse", no)
    monkeypatch.setattr(library, "_validate", no)
    again = read_scenario(TREBIA, list(registry), cache)
    assert again.data == full.data and again.path == TREBIA
    # found through a finder with that cache: the same battle
    found = library_finder(cache_dir=cache)("trebia")
    assert found is not None and found.data == full.data and found.builtin


def test_an_edited_file_is_a_miss_and_checked_in_full(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "trebia.toml"
    shutil.copy(TREBIA, path)
    first = read_scenario(path, (), cache)
    path.write_text(
        path.read_text(encoding="utf-8").replace('name = "The Trebia"', 'name = "Trebia II"'),
        encoding="utf-8",
    )
    second = read_scenario(path, (), cache)
    assert len(list(cache.iterdir())) == 2
    assert first.name == "The Trebia" and second.name == "Trebia II"
    path.write_text(path.read_text(encoding="utf-8") + "\nsurprise = 1\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="surprise"):
        read_scenario(path, (), cache)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d["validated"]["battle"].update(year="218 BC"),
        lambda d: d["validated"]["battle"].update(colour="red"),
        lambda d: d["validated"].update(sides=[]),
        lambda d: d.update(version=99),
        lambda d: d.update(format="castra-ruleset-cache"),
        lambda d: d["validated"].pop("battle"),
    ],
)
def test_a_tampered_cache_is_not_used(cache: Path, tamper: object) -> None:
    full = read_scenario(TREBIA)
    read_scenario(TREBIA, (), cache)
    path = _only_file(cache)
    doc = json.loads(path.read_text(encoding="utf-8"))
    tamper(doc)  # type: ignore[operator]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_scenario(TREBIA, (), cache).data == full.data
    # and written anew, right
    assert json.loads(path.read_text(encoding="utf-8"))["validated"]["battle"]["year"] == 218


@pytest.mark.parametrize("kind", ["garbage", "nan", "fifo", "folder"])
def test_a_damaged_cache_is_ignored(cache: Path, kind: str) -> None:
    full = read_scenario(TREBIA)
    read_scenario(TREBIA, (), cache)
    path = _only_file(cache)
    path.unlink()
    if kind == "garbage":
        path.write_bytes(b"\x00\xff not json")
    elif kind == "nan":
        path.write_text('{"format": "castra-scenario-cache", "version": 1, "x": NaN}')
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    assert read_scenario(TREBIA, (), cache).data == full.data


def test_an_unwritable_cache_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert read_scenario(TREBIA, (), blocked / "cache").name == "The Trebia"


def test_the_default_finder_reads_through_the_data_folders_cache(tmp_path: Path) -> None:
    """What a campaign shows of history (its chronicle) reads the battles it names through
    the cache in the user data folder: a new process rebuilds them from it."""
    code = (
        "from app.core.scenario.campaigns import default_finder\n"
        "print(default_finder()('trebia').name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
        env={"CASTRA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "The Trebia"
    kept = _only_file(tmp_path / "cache" / "scenarios")
    assert kept.name == hashlib.sha256(TREBIA.read_bytes()).hexdigest() + ".json"
