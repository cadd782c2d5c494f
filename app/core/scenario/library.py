"""The library of historical battles: the built-in files (``resources/scenarios``) and a
club's own (the user data folder's ``scenarios/``), each read and validated like a ruleset
folder (:mod:`app.rules.loader`): a bad file is refused with every problem named by file
and key path, and the others still load.

Checks beyond the typed shape (:mod:`app.core.scenario.schema`): the ids a file uses name
something in it (forces, posts, leaders, commands, sides), both sides or neither give a
deployment zone, the field's pieces are shapes a table can hold, each ruleset's army
represents every force of its side, and, for every ruleset loaded, its army lists have the
entries, sizes and grades the armies take and the scale is one the ruleset has.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.scenario.schema import BattleSide, ScenarioFile, SideArmy
from app.rules.cache import read_doc, write_doc
from app.rules.construct import CacheMismatch, construct, dump
from app.rules.errors import Problem, key_path
from app.rules.inputs import (
    InputError,
    data_problems,
    decode_utf8,
    loads_toml,
    read_regular_file,
)
from app.rules.ruleset import Ruleset
from app.rules.table import LINEAR_KINDS, TerrainError, TerrainPiece

#: largest scenario file read (bytes)
MAX_FILE = 1_000_000
#: most files read from a folder
MAX_FILES = 500


class ScenarioError(ValueError):
    """A scenario file that did not load; ``problems`` names each thing wrong."""

    def __init__(self, file: str, problems: Iterable[Problem]) -> None:
        self.file = file
        self.problems = tuple(problems)
        lines = "; ".join(str(p) for p in self.problems[:5])
        more = len(self.problems) - 5
        super().__init__(lines + (f"; and {more} more" if more > 0 else ""))


@dataclass(frozen=True)
class Scenario:
    """One historical battle as loaded: its data, the file it came from and whether Castra
    ships it."""

    data: ScenarioFile
    path: Path
    builtin: bool = True

    @property
    def id(self) -> str:
        return self.data.battle.id

    @property
    def name(self) -> str:
        return self.data.battle.name

    @property
    def side_ids(self) -> tuple[str, str]:
        a, b = self.data.sides
        return a, b

    def side(self, side_id: str) -> BattleSide:
        return self.data.sides[side_id]

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The rulesets the battle is set for."""
        return tuple(self.data.rulesets)

    def army(self, ruleset: str, side_id: str) -> SideArmy:
        try:
            return self.data.sides[side_id].armies[ruleset]
        except KeyError:
            raise KeyError(f"{self.name} is not set for the ruleset {ruleset!r}") from None


def _bytes(path: Path) -> bytes:
    try:
        return read_regular_file(path, MAX_FILE, what="scenario file")
    except InputError as exc:
        raise ScenarioError(path.name, [Problem(path.name, "", str(exc))]) from None


def _parse(path: Path, raw: bytes) -> dict[str, Any]:
    try:
        data = loads_toml(decode_utf8(raw))
    except InputError as exc:
        raise ScenarioError(path.name, [Problem(path.name, "", str(exc))]) from None
    found = data_problems(data)
    if found:
        raise ScenarioError(path.name, [Problem(path.name, w, m) for w, m in found])
    return data


def _validate(path: Path, data: Mapping[str, Any]) -> ScenarioFile:
    from pydantic import ValidationError

    from app.rules.validate import validate_json

    try:
        return validate_json(ScenarioFile, data)
    except ValidationError as exc:
        raise ScenarioError(
            path.name,
            [
                Problem(path.name, key_path(e["loc"]), e["msg"].removeprefix("Value error, "))
                for e in exc.errors()
            ],
        ) from None


def _dupes(ids: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for i in ids:
        if i in seen and i not in out:
            out.append(i)
        seen.add(i)
    return out


def _check_side(name: str, side_id: str, side: BattleSide, sc: ScenarioFile) -> Iterator[str]:
    """(key path: message) lines for references a side's data makes."""
    where = f"sides.{side_id}"
    for what, ids in (
        ("forces", [f.id for f in side.forces]),
        ("leaders", [ld.id for ld in side.leaders]),
        ("posts", [p.id for p in side.posts]),
    ):
        for dupe in _dupes(ids):
            yield f"{where}.{what}|the id {dupe!r} is used twice"
    if sum(p.reserve for p in side.posts) > 1:
        yield f"{where}.posts|at most one post is the reserve"
    forces = {f.id for f in side.forces}
    posts = {p.id for p in side.posts}
    leaders = {ld.id for ld in side.leaders}
    for ruleset, army in side.armies.items():
        at = f"{where}.armies.{ruleset}"
        if ruleset not in sc.rulesets:
            yield f"{at}|no [rulesets.{ruleset}] says how the battle is set in that ruleset"
        fielded = {ld.id for ld in army.leaders}
        for dupe in _dupes(ld.id for ld in army.leaders):
            yield f"{at}.leaders|the leader {dupe!r} is named twice"
        for i, ld in enumerate(army.leaders):
            if ld.id not in leaders:
                yield f"{at}.leaders[{i}].id|no leader {ld.id!r} in {where}.leaders"
        commands = {c.id for c in army.commands}
        for dupe in _dupes(c.id for c in army.commands):
            yield f"{at}.commands|the id {dupe!r} is used twice"
        for i, c in enumerate(army.commands):
            if c.leader is not None and c.leader not in fielded:
                yield f"{at}.commands[{i}].leader|no leader {c.leader!r} in this army"
        for i, u in enumerate(army.units):
            if u.force not in forces:
                yield f"{at}.units[{i}].force|no force {u.force!r} in {where}.forces"
            if u.post not in posts:
                yield f"{at}.units[{i}].post|no post {u.post!r} in {where}.posts"
            if u.command is not None and u.command not in commands:
                yield f"{at}.units[{i}].command|no command {u.command!r} in this army"
            if u.leader is not None and u.leader not in fielded:
                yield f"{at}.units[{i}].leader|no leader {u.leader!r} in this army"
        covered = {u.force for u in army.units}
        for f in side.forces:
            if f.id not in covered:
                yield f"{at}.units|no unit stands for the force {f.id!r} ({f.name})"


def _check(path: Path, sc: ScenarioFile) -> list[Problem]:
    """Every reference the file makes, checked without the rulesets."""
    name = path.name
    out: list[Problem] = []

    def add(line: str) -> None:
        where, _, message = line.partition("|")
        out.append(Problem(name, where, message))

    sides = list(sc.sides)
    if sc.battle.winner not in (*sides, "draw"):
        add(f"battle.winner|{sc.battle.winner!r} is neither a side ({', '.join(sides)}) nor draw")
    zoned = [s for s, side in sc.sides.items() if side.zone is not None]
    if len(zoned) == 1:
        add(f"sides.{zoned[0]}.zone|both sides give a deployment zone, or neither")
    if zoned and not sc.battle.zones_note:
        add("battle.zones_note|say why the battle's zones replace the rulesets' own")
    for i, piece in enumerate(sc.field.pieces):
        try:
            TerrainPiece(
                "T1", piece.kind, piece.points, "", 0.01 if piece.kind in LINEAR_KINDS else None
            )
        except TerrainError as exc:
            add(f"field.pieces[{i}]|{exc}")
        if piece.width_mm is not None and piece.kind not in LINEAR_KINDS:
            add(f"field.pieces[{i}].width_mm|a {piece.kind} is an area; it has no width")
    for side_id, side in sc.sides.items():
        if side.zone is not None:
            try:
                TerrainPiece("Z", "broken", side.zone)
            except TerrainError as exc:
                add(f"sides.{side_id}.zone|{exc}")
        earlier: set[str] = set()
        for post in side.posts:
            for ahead in post.behind:
                if ahead not in earlier:
                    add(
                        f"sides.{side_id}.posts|post {post.id!r} stands behind {ahead!r}, "
                        "which must be a post listed before it"
                    )
            earlier.add(post.id)
            facing = post.facing
            if facing is not None and facing % 90:
                add(f"sides.{side_id}.posts|post {post.id!r}: a facing is 0, 90, 180 or 270")
        for line in _check_side(name, side_id, side, sc):
            add(line)
    for ruleset in sc.rulesets:
        for side_id, side in sc.sides.items():
            if ruleset not in side.armies:
                add(f"sides.{side_id}.armies|no army for the ruleset {ruleset!r}")
    return out


def check_against(path: Path, sc: ScenarioFile, rs: Ruleset) -> list[Problem]:
    """What the battle's armies for ``rs`` take that its army lists do not have."""
    if rs.id not in sc.rulesets:
        return []
    name = path.name
    out: list[Problem] = []
    setting = sc.rulesets[rs.id]
    if rs.counts_figures and setting.scale not in rs.meta.scales:
        out.append(
            Problem(
                name,
                f"rulesets.{rs.id}.scale",
                f"{rs.meta.short_name} counts figures: give a scale ({', '.join(rs.meta.scales)})",
            )
        )
    if not rs.counts_figures and setting.scale is not None:
        out.append(
            Problem(
                name,
                f"rulesets.{rs.id}.scale",
                f"{rs.meta.short_name} counts bases and has no figure scale",
            )
        )
    for side_id, side in sc.sides.items():
        army = side.armies.get(rs.id)
        if army is None:
            continue
        at = f"sides.{side_id}.armies.{rs.id}"
        listed = rs.armies.get(army.army)
        if listed is None:
            out.append(
                Problem(
                    name,
                    f"{at}.army",
                    f"{rs.meta.short_name} has no army list {army.army!r} "
                    f"(lists: {', '.join(rs.armies)})",
                )
            )
            continue
        for i, u in enumerate(army.units):
            entry = listed.entries.get(u.entry)
            if entry is None:
                out.append(
                    Problem(name, f"{at}.units[{i}].entry", f"{listed.name} has no {u.entry!r}")
                )
                continue
            size = u.size or entry.default_size
            if size not in entry.sizes:
                out.append(
                    Problem(
                        name,
                        f"{at}.units[{i}].size",
                        f"a {entry.name} is {', '.join(map(str, entry.sizes))}, not {size}",
                    )
                )
            if u.grade is not None and u.grade not in entry.grades:
                out.append(
                    Problem(
                        name,
                        f"{at}.units[{i}].grade",
                        f"a {entry.name} is graded {', '.join(entry.grades) or 'not at all'}",
                    )
                )
    return out


def read_scenario(
    path: Path, rulesets: Iterable[Ruleset] = (), cache_dir: Path | None = None
) -> Scenario:
    """One scenario file, validated, its references checked, and its armies checked against
    each of ``rulesets`` it is set for (:class:`ScenarioError` listing every problem). With
    ``cache_dir`` the validated file is taken from (and kept in) :func:`cached_file` while
    its bytes are unchanged; its references and armies are checked all the same."""
    raw = _bytes(path)
    key = hashlib.sha256(raw).hexdigest() if cache_dir is not None else None
    sc = cached_file(cache_dir, key) if cache_dir is not None and key is not None else None
    if sc is None:
        sc = _validate(path, _parse(path, raw))
        if cache_dir is not None and key is not None:
            keep_file(cache_dir, key, sc)
    problems = _check(path, sc)
    for rs in rulesets:
        problems += check_against(path, sc, rs)
    if problems:
        raise ScenarioError(path.name, problems)
    return Scenario(sc, path)


# --------------------------------------------------------------------------- the cache
# A scenario file validated once is kept as the JSON dump of its validated record, named by
# the SHA-256 of the file's bytes (an edited file is a new name, a miss), as ruleset folders
# are (:mod:`app.rules.cache`): a later read rebuilds the record with the typed checks of
# :mod:`app.rules.construct` instead of parsing the TOML (tomllib is pure Python: about
# 6 ms a file) and validating it with pydantic (the first validation of a process builds
# the scenario's pydantic models, about 40 ms of CPU). Plain JSON: nothing in it is executed.

CACHE_FORMAT = "castra-scenario-cache"
#: bump when :class:`ScenarioFile` changes shape: older files are then misses
CACHE_VERSION = 1
MAX_CACHE_BYTES = 4 * MAX_FILE


def cached_file(cache_dir: Path, key: str) -> ScenarioFile | None:
    """The validated scenario file whose bytes have the SHA-256 ``key``, rebuilt from
    ``cache_dir``; None when it is not there or is not what :func:`keep_file` writes (it is
    then validated again and written anew)."""
    doc = read_doc(cache_dir / f"{key}.json", CACHE_FORMAT, CACHE_VERSION, MAX_CACHE_BYTES)
    if doc is None:
        return None
    try:
        built: ScenarioFile = construct(ScenarioFile, doc["validated"])
    except (CacheMismatch, KeyError, TypeError, ValueError):
        return None
    return built


def keep_file(cache_dir: Path, key: str, sc: ScenarioFile) -> None:
    """Keep the validated file ``sc`` as ``key`` (atomically), when its dump rebuilds it
    exactly; a failure to write is not an error (the next read validates the file again)."""
    validated = dump(sc)
    try:
        if construct(ScenarioFile, json.loads(json.dumps(validated))) != sc:
            return
    except (CacheMismatch, TypeError, ValueError):
        return
    doc = {"format": CACHE_FORMAT, "version": CACHE_VERSION, "validated": validated}
    write_doc(cache_dir / f"{key}.json", doc)


@dataclass
class ScenarioLibrary:
    """The battles that loaded (by id, in the order of their year, the war's order) and
    the files that did not (file -> error)."""

    scenarios: dict[str, Scenario] = field(default_factory=dict)
    failures: dict[str, ScenarioError] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Scenario]:
        return iter(self.scenarios.values())

    def __len__(self) -> int:
        return len(self.scenarios)

    def find(self, name: str) -> Scenario:
        """The battle ``name`` names: its id, its name, or its name without a leading
        "The" or "Lake", in any case (``trebia``, ``The Trebia``, ``Trasimene``); KeyError
        listing the battles there are."""
        want = " ".join(name.split()).casefold()
        for sc in self:
            names = {sc.id.casefold(), sc.name.casefold()}
            for lead in ("the ", "lake ", "battle of "):
                names |= {n.removeprefix(lead) for n in names}
            if want in names or want.removeprefix("the ") in names:
                return sc
        known = ", ".join(sc.id for sc in self) or "none"
        raise KeyError(f"no historical battle {name[:60]!r} (battles: {known})")

    def failure_lines(self) -> list[str]:
        return [f"{err.problems[0]}" for _, err in sorted(self.failures.items())]


def _files(folder: Path) -> tuple[list[Path], str | None]:
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".toml")
    except (FileNotFoundError, NotADirectoryError):
        return [], None
    except OSError as exc:
        return [], f"cannot read the folder {folder}: {exc.strerror or exc}"
    if len(paths) > MAX_FILES:
        return paths[:MAX_FILES], f"{folder}: more than {MAX_FILES} files; the rest are ignored"
    return paths, None


def load_library(
    builtin: Path | None, user: Path | None = None, rulesets: Iterable[Ruleset] = ()
) -> ScenarioLibrary:
    """Every scenario file of ``builtin`` then of ``user`` (a club's own), each checked
    against ``rulesets``. A user file may not reuse a built-in battle's id (a club's version
    of the Trebia takes a new id, as house rules do)."""
    rulesets = tuple(rulesets)
    lib = ScenarioLibrary()
    loaded: list[Scenario] = []
    for folder, is_builtin in ((builtin, True), (user, False)):
        if folder is None:
            continue
        paths, problem = _files(folder)
        if problem is not None:
            lib.failures[str(folder)] = ScenarioError(
                folder.name, [Problem(folder.name, "", problem)]
            )
        for path in paths:
            key = path.name if is_builtin else str(path)
            try:
                sc = read_scenario(path, rulesets)
            except ScenarioError as exc:
                lib.failures[key] = exc
                continue
            except Exception as exc:  # whatever a file provokes stays with that file
                lib.failures[key] = ScenarioError(
                    path.name,
                    [Problem(path.name, "", f"could not be read ({type(exc).__name__}: {exc})")],
                )
                continue
            if any(s.id == sc.id for s in loaded):
                lib.failures[key] = ScenarioError(
                    path.name,
                    [
                        Problem(
                            path.name,
                            "battle.id",
                            f"the id {sc.id!r} is already a battle's; give this one a new id",
                        )
                    ],
                )
                continue
            loaded.append(Scenario(sc.data, path, is_builtin))
    for sc in sorted(loaded, key=lambda s: (-s.data.battle.year, s.name)):
        lib.scenarios[sc.id] = sc
    return lib


def find_scenario(
    scenario_id: str,
    builtin: Path | None,
    user: Path | None = None,
    rulesets: Iterable[Ruleset] = (),
    cache_dir: Path | None = None,
) -> Scenario | None:
    """The battle ``scenario_id`` without reading the whole library: the built-in file of
    that name, else the user's file of that name, else the whole user folder (a club's
    file may be named otherwise); None when none holds it or it does not load. A file of
    that name is read through the cache in ``cache_dir`` when given (:func:`read_scenario`)."""
    for folder, is_builtin in ((builtin, True), (user, False)):
        if folder is None:
            continue
        path = folder / f"{scenario_id}.toml"
        try:
            present = path.is_file()
        except OSError:
            present = False
        if present:
            try:
                sc = read_scenario(path, rulesets, cache_dir)
            except Exception:  # a bad file (named by the library): as if it were not there
                continue
            if sc.id == scenario_id:
                return Scenario(sc.data, path, is_builtin)
    if user is not None:
        lib = load_library(None, user, rulesets)
        return lib.scenarios.get(scenario_id)
    return None
