"""The campaign file (JSON): one file holding a campaign's starting armies, every step
(battles, results, applications, reinforcements, promotions, exchanges) and how far it has
got. Import is all or nothing, with the strictness of roster files
(:mod:`app.core.rosterfile`): only a regular file, at most :data:`MAX_BYTES` of it, no NaN,
no numbers of thousands of digits, no deep nesting, no control characters, strict types,
and the key path of the first problem. The steps are done again from the start on import,
so a file whose steps do not follow from its armies is refused as well."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.core.campaign.model import CampaignError
from app.core.campaign.serialize import (
    CampaignDataError,
    campaign_from_dict,
    campaign_to_dict,
    step_from_dict,
    step_to_dict,
)
from app.core.campaign.session import MAX_STEPS, CampaignSession, Done
from app.rules.inputs import (
    InputError,
    data_problems,
    decode_utf8,
    loads_json,
    read_regular_file,
    refuse_store_target,
)
from app.rules.registry import Registry

FORMAT = "castra-campaign"
VERSION = 1
MAX_BYTES = 20_000_000


class CampaignFileError(ValueError):
    """A campaign file that cannot be imported; one line naming the key path."""

    def __init__(self, source: str, problems: list[tuple[str, str]]) -> None:
        self.source = source
        self.problems = problems
        p, m = problems[0] if problems else ("", "unreadable")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{source}: cannot import campaign: {p + ': ' if p else ''}{m}{more}")


def to_dict(session: CampaignSession) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "start": campaign_to_dict(session.start),
        "steps": [step_to_dict(d.step) for d in session.done],
        "cursor": session.cursor,
    }


def dumps(session: CampaignSession) -> str:
    return json.dumps(to_dict(session), indent=1, ensure_ascii=False) + "\n"


def export_file(session: CampaignSession, path: Path) -> None:
    """Write atomically: a partial file never replaces a good one."""
    refuse_store_target(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(dumps(session), encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise


def read_file(path: Path, registry: Registry) -> CampaignSession:
    source = str(path)
    try:
        raw = read_regular_file(path, MAX_BYTES, what="campaign file")
    except InputError as exc:
        raise CampaignFileError(source, [("", str(exc))]) from None
    return loads(raw, registry, source=source)


def loads(data: bytes | str, registry: Registry, *, source: str = "campaign") -> CampaignSession:
    if len(data) > MAX_BYTES:
        raise CampaignFileError(source, [("", f"more than {MAX_BYTES:,} bytes")])
    try:
        obj = loads_json(decode_utf8(data) if isinstance(data, bytes) else data)
    except InputError as exc:
        raise CampaignFileError(source, [("", str(exc))]) from None
    found = data_problems(obj)
    if found:
        raise CampaignFileError(source, found)
    return from_dict(obj, registry, source=source)


def from_dict(obj: object, registry: Registry, *, source: str = "campaign") -> CampaignSession:
    if not isinstance(obj, Mapping):
        raise CampaignFileError(source, [("", "the file must hold a JSON object")])
    if obj.get("format") != FORMAT:
        raise CampaignFileError(
            source, [("format", f"expected {FORMAT!r}, found {obj.get('format')!r}")]
        )
    version = obj.get("version")
    if type(version) is not int or version < 1:
        raise CampaignFileError(source, [("version", "must be a whole number from 1")])
    if version > VERSION:
        raise CampaignFileError(
            source, [("version", f"format version {version} is newer than this Castra reads")]
        )
    extra = sorted(set(obj) - {"format", "version", "start", "steps", "cursor"})
    if extra:
        raise CampaignFileError(source, [(extra[0], "unknown key")])
    steps_in = obj.get("steps", [])
    if not isinstance(steps_in, list) or len(steps_in) > MAX_STEPS:
        raise CampaignFileError(source, [("steps", f"a list of at most {MAX_STEPS:,} steps")])
    cursor = obj.get("cursor", len(steps_in))
    if type(cursor) is not int or not 0 <= cursor <= len(steps_in):
        raise CampaignFileError(source, [("cursor", f"a whole number from 0 to {len(steps_in)}")])
    try:
        start = campaign_from_dict(obj.get("start"), registry, "start")
        rs = registry.get(start.ruleset)
        session = CampaignSession(rs, start)
        done: list[Done] = []
        for i, s in enumerate(steps_in):
            step = step_from_dict(s, registry, f"steps[{i}]")
            try:
                session.do(step)
            except CampaignError as exc:
                raise CampaignDataError([(f"steps[{i}]", str(exc))]) from None
            done.append(session.done[-1])
    except CampaignDataError as exc:
        raise CampaignFileError(source, exc.problems) from None
    return CampaignSession(rs, start, done=done, cursor=cursor)
