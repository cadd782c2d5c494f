"""The ruleset cache: a folder loads from its validated dump while its files are unchanged,
equal to a full load; a changed file, or a cache that is damaged, tampered with or not a
regular file, sends the loader back to the TOML, which it validates in full."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import app.rules.loader as loader
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine, load_registry


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def _only_file(cache: Path) -> Path:
    [path] = list(cache.iterdir())
    return path


def test_a_cached_load_equals_a_full_load_and_validates_nothing(
    cache: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_registry(BUILTIN_DIR, [], cache_dir=cache)
    assert len(list(cache.iterdir())) == 5
    assert all(json.loads(p.read_text(encoding="utf-8"))["validated"] for p in cache.iterdir())

    def no(*args: object, **kwargs: object) -> None:
        raise AssertionError("validated or parsed again")

    monkeypatch.setattr(loader, "_validate", no)
    monkeypatch.setattr(loader, "_read_toml", no)
    again = load_registry(BUILTIN_DIR, [], cache_dir=cache)
    assert not again.failures
    for ruleset in registry:
        assert again.get(ruleset.id) == ruleset


def test_a_changed_file_is_a_miss(cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "quincunx"
    shutil.copytree(BUILTIN_DIR / "quincunx", folder)
    first = loader.load_ruleset(folder, find_engine, cache_dir=cache)
    errata = folder / "errata.toml"
    errata.write_text(errata.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    second = loader.load_ruleset(folder, find_engine, cache_dir=cache)
    assert len(list(cache.iterdir())) == 2 and second.raw == first.raw
    path = folder / "troops.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("frontage_mm = 60", "frontage_mm = nan", 1)
    )
    with pytest.raises(loader.RulesetError, match="nan is not a finite number"):
        loader.load_ruleset(folder, find_engine, cache_dir=cache)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d["validated"]["armies"]["armies"]["roman"]["entries"]["hastati"].update(
            default_size="12"
        ),
        lambda d: d["validated"]["head"]["ruleset"].update(engine="warhammer"),
        lambda d: d["validated"]["head"].update(colour="red"),
        lambda d: d["validated"].update(tables=[]),
        lambda d: d.update(version=99),
        lambda d: d["files"]["errata.toml"].update(note="\u001b[2J"),
    ],
)
def test_a_tampered_cache_is_not_used(cache: Path, registry: Registry, tamper: object) -> None:
    load_registry(BUILTIN_DIR, [], only={"quincunx"}, cache_dir=cache)
    path = _only_file(cache)
    doc = json.loads(path.read_text(encoding="utf-8"))
    tamper(doc)  # type: ignore[operator]
    path.write_text(json.dumps(doc), encoding="utf-8")
    again = load_registry(BUILTIN_DIR, [], only={"quincunx"}, cache_dir=cache)
    assert again.get("quincunx") == registry.get("quincunx")


@pytest.mark.parametrize("kind", ["garbage", "nan", "fifo", "folder"])
def test_a_damaged_cache_is_ignored(cache: Path, registry: Registry, kind: str) -> None:
    load_registry(BUILTIN_DIR, [], only={"quincunx"}, cache_dir=cache)
    path = _only_file(cache)
    path.unlink()
    if kind == "garbage":
        path.write_bytes(b"\x00\xff not json")
    elif kind == "nan":
        path.write_text('{"format": "castra-ruleset-cache", "version": 1, "x": NaN}')
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    again = load_registry(BUILTIN_DIR, [], only={"quincunx"}, cache_dir=cache)
    assert again.get("quincunx") == registry.get("quincunx")
