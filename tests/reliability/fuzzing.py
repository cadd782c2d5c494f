"""What the fuzzer knows about each kind of file Castra reads: a valid document to start
from, how to write a (mutated) document as the file's text, how to read that text, and the
one error type a refusal may raise. A campaign file format adds a :class:`FuzzTarget` to
:data:`TARGETS` and is fuzzed by ``test_fuzz.py`` with no other change.

Mutations replace any value in the document's tree with a hostile one (integers of
thousands of digits, NaN and infinity, deep nesting, control characters, a wrong type),
delete a key, add an unknown key, or cut or garble the file's text.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from app.core.rosterfile import RosterFileError, loads
from app.rules.errors import RulesetError
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import load_registry, load_ruleset
from tests.reliability.hostile import BIG, VALID_ROSTER


@dataclass(frozen=True)
class FuzzTarget:
    name: str
    #: a valid document (JSON-like tree)
    document: Callable[[], Any]
    #: the file's text for a (mutated) document
    write: Callable[[Any], str]
    #: read the text; returns what was read, or raises ``refusal``
    read: Callable[[str], object]
    refusal: type[Exception]


# --------------------------------------------------------------------------- hostile values

CONTROL = st.sampled_from(["\x1b[2J", "\x07", "\x00", "\x7f", "\x9b", "\x1b]0;t\x07"])
HOSTILE_VALUES = st.one_of(
    st.integers(),
    st.sampled_from([10**100, -(10**100), 2**63, -(2**63) - 1, 10**9, -1, 0]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308]),
    st.text(max_size=30),
    st.builds(lambda a, c, b: a + c + b, st.text(max_size=5), CONTROL, st.text(max_size=5)),
    st.sampled_from(["9" * 200, BIG[:3000], "", " ", "d99999999", "1000000000d6"]),
    st.booleans(),
    st.none(),
    st.integers(min_value=1, max_value=400).map(lambda n: _nested(n)),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(tree, dict):
        for key, value in tree.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            out += _paths(value, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one to three hostile changes."""
    tree = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(tree)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if not path:
            if action == "replace":
                tree = draw(HOSTILE_VALUES)
            continue
        parent = tree
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        if action == "delete" and isinstance(parent, dict):
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(HOSTILE_VALUES)
        else:
            parent[last] = draw(HOSTILE_VALUES)
    return tree


@st.composite
def texts(draw: st.DrawFn, target: FuzzTarget) -> str:
    """The text of a mutated document, sometimes cut short or garbled as well."""
    try:
        text = target.write(draw(mutated(target.document())))
    except (ValueError, TypeError):  # not writable in this format (None in TOML, say)
        text = target.write(target.document())
    how = draw(st.sampled_from(["as is", "as is", "as is", "cut", "garble"]))
    if how == "cut" and text:
        text = text[: draw(st.integers(min_value=0, max_value=len(text) - 1))]
    elif how == "garble" and text:
        at = draw(st.integers(min_value=0, max_value=len(text) - 1))
        text = text[:at] + draw(st.text(max_size=8)) + text[at + 1 :]
    return text


# --------------------------------------------------------------------------- roster files

_registry: Registry | None = None


def _reg() -> Registry:
    global _registry
    if _registry is None:
        _registry = load_registry(BUILTIN_DIR, [])
    return _registry


ROSTER = FuzzTarget(
    name="roster file",
    document=lambda: VALID_ROSTER,
    write=lambda doc: json.dumps(doc, ensure_ascii=False),
    read=lambda text: loads(text.encode("utf-8", "surrogatepass"), _reg(), source="fuzz.json"),
    refusal=RosterFileError,
)


# --------------------------------------------------------------------------- ruleset files


def toml_text(tree: Any) -> str:
    """A TOML document of ``tree`` (a table) with every value inline. TOML has no null, so
    None cannot be written (ValueError)."""
    if not isinstance(tree, dict):
        raise ValueError("a TOML document is a table")
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in tree.items())


def _toml_key(key: str) -> str:
    return json.dumps(str(key), ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if value is None:
        raise ValueError("TOML has no null")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\\/", "/")
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"no TOML for {type(value).__name__}")


def ruleset_target(file: str) -> FuzzTarget:
    """One file of a copy of the Quincunx folder, the others left as they are."""
    folder = Path(tempfile.mkdtemp(prefix="castra-fuzz-")) / "quincunx"
    shutil.copytree(BUILTIN_DIR / "quincunx", folder)
    document = tomllib.loads((folder / file).read_text(encoding="utf-8"))

    def read(text: str) -> object:
        (folder / file).write_bytes(text.encode("utf-8", "surrogatepass"))
        return load_ruleset(folder, builtin=False)

    return FuzzTarget(
        name=f"ruleset {file}",
        document=lambda: document,
        write=toml_text,
        read=read,
        refusal=RulesetError,
    )


# --------------------------------------------------------------------------- campaign files


def campaign_document() -> Any:
    """A small Quincunx campaign file: two sides, a battle recorded and applied (a unit's
    losses, a leader killed, a unit lost), a second battle added."""
    from dataclasses import replace

    from app.core.battle.result import hand_result
    from app.core.campaign.campaignfile import to_dict
    from app.core.campaign.fight import battle_rosters
    from app.core.campaign.model import Campaign, CampaignSide, Participant
    from app.core.campaign.session import CampaignSession
    from app.core.campaign.steps import AddBattle, ApplyResult, RecordResult
    from app.core.roster import Leader, new_roster, unit_from_entry

    rs = _reg().get("quincunx")
    rome = new_roster(rs, "roman", name="Rome")
    rome = replace(
        rome,
        units=(
            unit_from_entry(rs, "roman", "hastati", id="h", count=2, leader="paullus"),
            unit_from_entry(rs, "roman", "velites", id="v"),
        ),
        leaders=(Leader("paullus", "Paullus", rank="general", fields={"bonus": 1}),),
    )
    carthage = new_roster(rs, "carthaginian", name="Carthage")
    carthage = replace(
        carthage,
        units=(unit_from_entry(rs, "carthaginian", "elephants", id="e"),),
        leaders=(Leader("hannibal", "Hannibal", rank="general", fields={"bonus": 2}),),
    )
    sides = (CampaignSide("r", "Rome", rome), CampaignSide("c", "Carthage", carthage))
    session = CampaignSession(rs, Campaign("Fuzz", rs.id, sides, recovery="half"))
    both = (Participant("r"), Participant("c"))
    session.do(AddBattle("Trebia", both, date="218 BC", place="Trebia"))
    result = hand_result(
        battle_rosters(session.campaign, "b1"),
        winner=1,
        ends={("h", 0): 7},
        lost={("v", 0): "routed off"},
        fates={"paullus": ("killed", 0)},
        notes=["fog"],
    )
    session.do(RecordResult("b1", result))
    session.do(ApplyResult("b1"))
    session.do(AddBattle("Cannae", both, date="216 BC"))
    return to_dict(session)


def _campaign_read(text: str) -> object:
    from app.core.campaign.campaignfile import loads as campaign_loads

    return campaign_loads(text.encode("utf-8", "surrogatepass"), _reg(), source="fuzz.json")


def _campaign_refusal() -> type[Exception]:
    from app.core.campaign.campaignfile import CampaignFileError

    return CampaignFileError


_CAMPAIGN_DOC: Any = None


def _campaign_doc() -> Any:
    global _CAMPAIGN_DOC
    if _CAMPAIGN_DOC is None:
        _CAMPAIGN_DOC = campaign_document()
    return _CAMPAIGN_DOC


CAMPAIGN = FuzzTarget(
    name="campaign file",
    document=_campaign_doc,
    write=lambda doc: json.dumps(doc, ensure_ascii=False),
    read=_campaign_read,
    refusal=_campaign_refusal(),
)


def targets() -> list[FuzzTarget]:
    """Every file kind fuzzed."""
    files = ("ruleset.toml", "troops.toml", "tables.toml", "armies.toml", "errata.toml")
    return [ROSTER, CAMPAIGN, *(ruleset_target(f) for f in files)]
