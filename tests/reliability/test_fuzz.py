"""hypothesis fuzzing of every file kind Castra reads (``fuzzing.py``): whatever the text, it
is read or refused with the format's own error naming what is wrong, in one go, never any
other exception, never a hang. CASTRA_FUZZ_EXAMPLES sets the examples per kind (a longer
trial); ``make test`` runs the default."""

from __future__ import annotations

import os
import signal
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.campaign.campaignfile import dumps as campaign_dumps
from app.core.campaign.campaignfile import loads as campaign_loads
from app.core.campaign.session import CampaignSession
from app.core.roster import Roster, roster_problems, unit_problems
from app.core.rosterfile import dumps, loads
from tests.reliability.fuzzing import FuzzTarget, targets, texts

EXAMPLES = int(os.environ.get("CASTRA_FUZZ_EXAMPLES", "120"))
TARGETS = {t.name: t for t in targets()}
COUNTS: dict[str, dict[str, int]] = {}


class Hung(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise Hung("one input took more than 10 s: something hangs")


def _check(target: FuzzTarget, text: str) -> str:
    start = time.perf_counter()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(10)  # each input is bounded, so a hang fails instead of stalling the run
    try:
        result = target.read(text)
    except target.refusal as exc:
        assert str(exc) and "Traceback" not in str(exc)
        outcome = "refused"
    else:
        outcome = "read"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if outcome == "read" and isinstance(result, CampaignSession):
        # a campaign read writes back to a file that reads as the same campaign
        again = campaign_loads(campaign_dumps(result), ROSTER_REGISTRY(), source="again")
        assert again.start == result.start and again.campaign == result.campaign
    if outcome == "read" and isinstance(result, Roster):
        # a roster read is within every bound, and round-trips
        assert not roster_problems(result)
        assert not any(unit_problems(u) for u in result.units)
        assert loads(dumps(result), ROSTER_REGISTRY(), source="again") == result
    assert time.perf_counter() - start < 10
    counts = COUNTS.setdefault(target.name, {"read": 0, "refused": 0})
    counts[outcome] += 1
    return outcome


def ROSTER_REGISTRY() -> object:
    from tests.reliability.fuzzing import _reg

    return _reg()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz(name: str) -> None:
    target = TARGETS[name]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def run(data: st.DataObject) -> None:
        _check(target, data.draw(texts(target)))

    run()
    counts = COUNTS[name]
    print(
        f"{name}: {sum(counts.values())} inputs, {counts['read']} read, {counts['refused']} refused"
    )
    assert counts["refused"] > 0  # the mutations do reach the checks


def test_the_valid_documents_are_read() -> None:
    for target in TARGETS.values():
        assert _check(target, target.write(target.document())) == "read"
