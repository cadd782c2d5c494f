"""D3 Ancient Rules mechanics (app/rulesets/d3/mechanics.py) against the source text
(seeds/004_78eaa0b0c4f939d1.txt) and the ruleset's errata.

Worked examples use ScriptedDice to fix the faces; exact odds are checked against hand
counts of the D3 and, for many matchups, against each other and the resolver."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.dice import ScriptedDice, SeededDice
from app.rules.geometry import unit_distance
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderView,
    NotImplementedRule,
    Odds,
    Resolution,
    Scalar,
    Side,
    Situation,
    TurnView,
    mechanics_for,
)
from app.rules.ruleset import Ruleset
from app.rulesets import load_ruleset
from app.rulesets.d3.mechanics import D3Mechanics
from app.rulesets.d3.rules import (
    eliminations,
    halve,
    in_contact,
    in_front_arc,
    nearest,
    past_resolve,
)
from app.rulesets.d3.schema import Tables, Troop, deck_for, tables
from tests.rules.mechanics_harness import (
    assert_frequencies_match,
    assert_odds_sum_to_one,
    combatant,
)

F = Fraction
ZERO = F(0)


@pytest.fixture(scope="module")
def mech(rs: Ruleset) -> D3Mechanics:
    assert type(mechanics_for(rs)) is D3Mechanics and D3Mechanics.engine == "d3"
    return D3Mechanics(rs)


# --------------------------------------------------------------------------- helpers

GENERAL = LeaderView("cmdr", "Scipio", "general")


def unit(
    mech: D3Mechanics,
    troop: str,
    side: Side = 0,
    uid: str | None = None,
    *,
    at: tuple[float, float] | None = None,
    facing: float | None = None,
    leader: LeaderView | None = None,
    **status: object,
) -> Combatant:
    """A unit; ``at`` places a 12 x 3 inch unit (side 1 faces -y unless told)."""
    fields: dict[str, Any] = dict(status)
    c = combatant(mech, troop, 3, side=side, uid=uid, leader=leader, **fields)
    if at is None:
        return c
    face = facing if facing is not None else (0.0 if side == 0 else 180.0)
    return replace(c, x=at[0], y=at[1], width=12.0, depth=3.0, facing=face)


def record(army: str, quality: str = "average", supply: bool = False) -> dict[str, Scalar]:
    names = {"roman": "Rome", "carthaginian": "Carthage"}
    return {
        "army": army,
        "side_name": names[army],
        "commander_quality": quality,
        "supply_problems": supply,
    }


def make_view(
    units: tuple[Combatant, ...],
    sides: tuple[dict[str, Scalar], dict[str, Scalar]] | None = None,
    *,
    phase: int = 0,
    initiative: Side | None = 0,
) -> TurnView:
    return TurnView(
        turn=1,
        phase=phase,
        initiative=initiative,
        units=units,
        sides=sides or (record("roman"), record("carthaginian")),
        armies=("roman", "carthaginian"),
        side_names=("Rome", "Carthage"),
    )


def apply(view: TurnView, res: Resolution, sit: Situation | None = None) -> TurnView:
    """What the core does with a Resolution (enough for these tests)."""
    units = {u.unit_id: u for u in view.units}
    if sit is not None and sit.actor is not None:
        a = units[sit.actor.unit_id]
        units[a.unit_id] = replace(a, status=a.status.apply(res.outcome.attacker))
    if sit is not None and sit.target is not None:
        d = units[sit.target.unit_id]
        units[d.unit_id] = replace(d, status=d.status.apply(res.outcome.defender))
    for change in res.others:
        u = units[change.unit_id]
        units[u.unit_id] = replace(u, status=u.status.apply(change.effects))
    sides = (
        {**view.sides[0], **(res.sides[0] or {})},
        {**view.sides[1], **(res.sides[1] or {})},
    )
    initiative = res.initiative if res.initiative is not None else view.initiative
    return replace(view, units=tuple(units.values()), sides=sides, initiative=initiative)


def started(
    mech: D3Mechanics,
    units: tuple[Combatant, ...],
    first: Side = 0,
    *,
    rome: dict[str, Scalar] | None = None,
    carthage: dict[str, Scalar] | None = None,
) -> TurnView:
    """A battle after start_battle, with ``first`` to move."""
    sides = ({**record("roman"), **(rome or {})}, {**record("carthaginian"), **(carthage or {})})
    view = make_view(units, sides, initiative=first)
    return apply(view, mech.start_battle(view, ScriptedDice([])))


def with_card(view: TurnView, side: Side, card: str, phase: int, **more: Scalar) -> TurnView:
    sides = [dict(view.sides[0]), dict(view.sides[1])]
    sides[side].update(card=card, card_used=False, initiative_unit="", initiative_done=False)
    sides[side].update(more)
    return replace(view, sides=(sides[0], sides[1]), phase=phase, initiative=side)


def dist(odds: Odds) -> dict[int, Fraction]:
    """Defender hits -> probability."""
    out: dict[int, Fraction] = {}
    for o, p in odds.items():
        out[o.defender.hits] = out.get(o.defender.hits, ZERO) + p
    return out


def mark(marker: str) -> Effects:
    return Effects(markers_add=frozenset({marker}))


def counts(view: TurnView, side: Side) -> Counter[str]:
    return Counter(c for c in str(view.sides[side]["deck"]).split(",") if c)


PHASE = {"chance_card": 0, "movement": 1, "shooting": 2, "melee": 3, "elimination": 4}


# --------------------------------------------------------------------------- data added


def test_new_data_and_errata(rs: Ruleset, t: Tables) -> None:
    """Numbers the mechanics needed were added to the data with their decisions."""
    assert t.sequence.first_turn_dice == "d6"
    assert t.shooting.front_arc_degrees == 45
    assert t.army_resolve.loses_battle is True
    for eid in (
        "first-turn",
        "player-turns",
        "victory",
        "front-arc-and-range",
        "elimination-order",
        "one-shot-one-combat",
        "card-timing",
    ):
        e = rs.erratum(eid)
        assert e.applies_to and e.override and e.decision
    assert rs.errata_for("tables.army_resolve.loses_battle")
    assert rs.errata_for("tables.sequence.first_turn_dice")


def test_status_and_actions(mech: D3Mechanics) -> None:
    s = mech.initial_status("heavy_infantry", 3, None)
    assert (s.strength, s.start_strength, s.hits) == (1, 1, 0)
    assert mech.strength_unit == "units"
    keys = {a.key: a for a in mech.actions()}
    assert set(keys) == {"melee", "shoot", "rally", "initiative", "face", "berserk"}
    assert keys["melee"].odds and keys["shoot"].odds and keys["berserk"].odds
    melee = keys["melee"]
    assert melee.option("attack_from").choices == ("front", "left_flank", "right_flank", "rear")
    assert "marsh" not in melee.option("defender_terrain").choices
    assert melee.defaults() == {
        "attack_from": "front",
        "defender_terrain": "open",
        "commander": False,
    }
    with pytest.raises(NotImplementedRule):
        mech.resolve("charge", Situation(), ScriptedDice([]))


# --------------------------------------------------------------------------- the deck


@pytest.mark.parametrize(
    ("army", "quality", "supply", "want"),
    [
        # Roman, good commander: No Event 5-1=4, Initiative 2-1+1=2, Rally 3+1=4
        ("roman", "good", False, {"no_event": 4, "confusion": 3, "ammunition_shortage": 2,
                                  "initiative": 2, "rally": 4}),
        # Roman, average: Initiative 2-1=1, Rally 3+1=4
        ("roman", "average", False, {"no_event": 5, "confusion": 3, "ammunition_shortage": 2,
                                     "initiative": 1, "rally": 4}),
        # Roman, poor: Initiative 2-1-1=0, No Event 5+1=6
        ("roman", "poor", False, {"no_event": 6, "confusion": 3, "ammunition_shortage": 2,
                                  "rally": 4}),
        # Carthage, average: Rally 3-1=2, Initiative 2+1=3
        ("carthaginian", "average", False, {"no_event": 5, "confusion": 3,
                                            "ammunition_shortage": 2, "initiative": 3,
                                            "rally": 2}),
        # Carthage, good, supply problems: No Event 5-1-1=3, Initiative 4, Ammunition 3
        ("carthaginian", "good", True, {"no_event": 3, "confusion": 3,
                                        "ammunition_shortage": 3, "initiative": 4,
                                        "rally": 2}),
    ],
)  # fmt: skip
def test_deck_swaps_worked_examples(
    mech: D3Mechanics, army: str, quality: str, supply: bool, want: dict[str, int]
) -> None:
    """Chance Cards: Rome swaps an Initiative for a Rally, Carthage a Rally for an
    Initiative; a good commander a No Event for an Initiative, a poor one the reverse;
    supply problems a No Event for an Ammunition Shortage. Always 15 cards."""
    side: Side = 0 if army == "roman" else 1
    recs = [record("roman"), record("carthaginian")]
    recs[side] = record(army, quality, supply)
    view = make_view((), (recs[0], recs[1]))
    res = mech.start_battle(view, ScriptedDice([]))
    after = apply(view, res)
    assert counts(after, side) == Counter(want)
    assert sum(want.values()) == 15
    assert after.sides[side]["turn"] == 0 and after.sides[side]["card"] == ""
    assert res.initiative == 0  # the set-up named side 0 to move first: no roll
    assert any("chance cards" in line for line in res.explanation)


def test_first_turn_roll_off(mech: D3Mechanics) -> None:
    """Errata first-turn: each side rolls a D6, higher first, ties again."""
    view = make_view((), initiative=None)
    dice = ScriptedDice([("d6", (3,)), ("d6", (3,)), ("d6", (2,)), ("d6", (5,))])
    res = mech.start_battle(view, dice)
    assert dice.exhausted and res.initiative == 1
    assert any("roll again" in line for line in res.explanation)


def test_commander_unit_recorded(mech: D3Mechanics) -> None:
    hi = unit(mech, "heavy_infantry", 0, "hastati", leader=GENERAL)
    view = started(mech, (hi, unit(mech, "light_infantry", 0, "velites")))
    assert view.sides[0]["commander_unit"] == "hastati"
    assert view.sides[0]["units_start"] == 2 and view.sides[1]["units_start"] == 0


def test_draw_one_card_a_turn(mech: D3Mechanics) -> None:
    """One card per turn from the side's own deck, by a die over the cards left; the
    card lasts the turn and is gone from the deck."""
    view = started(mech, (), rome={"commander_quality": "good"})
    dice = ScriptedDice([("d15", (15,))])
    res = mech.begin_phase(view, dice)
    view = apply(view, res)
    assert dice.exhausted
    r = view.sides[0]
    assert (r["card"], r["card_name"], r["card_active"], r["turn"]) == ("rally", "Rally", True, 1)
    assert counts(view, 0)["rally"] == 3 and sum(counts(view, 0).values()) == 14
    assert r["cards_drawn"] == "rally"
    assert view.sides[1]["turn"] == 0  # the other side draws in its own turn
    assert "Rally" in res.explanation[0]


def test_whole_deck_is_drawn_once(mech: D3Mechanics) -> None:
    """Fifteen draws empty the deck and give exactly its cards; the last needs no die."""
    view = started(mech, ())
    want = counts(view, 0)
    dice = SeededDice(7)
    drawn: Counter[str] = Counter()
    for _ in range(15):
        view = apply(view, mech.begin_phase(view, dice))
        drawn[str(view.sides[0]["card"])] += 1
    assert drawn == want and view.sides[0]["deck"] == ""
    assert len(dice.rolls) == 14 and view.sides[0]["turn"] == 15
    res = mech.begin_phase(view, dice)
    assert "no chance cards left" in res.explanation[0]


def test_draw_is_uniform(mech: D3Mechanics) -> None:
    """Each face of the die picks one card: the first card's odds are its share."""
    view = started(mech, ())
    seen: Counter[str] = Counter()
    for face in range(1, 16):
        res = mech.begin_phase(view, ScriptedDice([("d15", (face,))]))
        assert res.sides[0] is not None
        seen[str(res.sides[0]["card"])] += 1
    assert seen == counts(view, 0)


# --------------------------------------------------------------------------- card effects


def test_confusion(mech: D3Mechanics) -> None:
    """Confusion: no unit moves this turn unless the commander is with it."""
    plain = unit(mech, "heavy_infantry", 0, "a")
    led = unit(mech, "heavy_infantry", 0, "b", leader=GENERAL)
    view = with_card(started(mech, (plain, led)), 0, "confusion", PHASE["movement"])
    assert mech.confused(plain, view) and not mech.confused(led, view)
    assert not mech.can_move(plain, view) and mech.can_move(led, view)
    assert mech.move_allowance(plain, view) == 0 and mech.move_allowance(led, view) == 6
    calm = with_card(view, 0, "no_event", PHASE["movement"])
    assert mech.can_move(plain, calm)
    assert not mech.can_move(plain, replace(calm, phase=PHASE["shooting"]))
    assert not mech.can_move(plain, replace(calm, initiative=1))


def test_confusion_holds_units_where_the_turn_dock_counts_them(mech: D3Mechanics) -> None:
    """Under Confusion the Turn dock's count (``may_move``) holds the units without the
    commander, naming D3, Movement (it said "all 8 units may move"); a move of theirs is
    refused once, naming the card, and a pivot on the spot is still allowed."""
    from app.rules.paths import Path, parse_path

    plain = unit(mech, "heavy_infantry", 0, "a", at=(20, 10), facing=0)
    led = unit(mech, "heavy_infantry", 0, "b", at=(50, 10), facing=0, leader=GENERAL)
    view = with_card(started(mech, (plain, led)), 0, "confusion", PHASE["movement"])
    held = mech.may_move(view, "a", "move")
    assert held is not None and held.rule == "D3, Movement" and "Confusion" in held.text
    assert mech.may_move(view, "b", "move") is None
    move = mech.check_move(view, "a", Path(parse_path("forward 2")))
    assert [b.rule for b in move.breaches if "Confusion" in b.text] == ["D3, Movement"]
    assert mech.check_move(view, "a", Path(parse_path("turn 90"))).ok
    calm = with_card(view, 0, "no_event", PHASE["movement"])
    assert mech.may_move(calm, "a", "move") is None
    # while deployment is open (turn 1's first phase) the dock counts units to place, as
    # before: D3's movement rules do not hold them there
    opening = replace(view, turn=1, round=1, phase=0)
    assert mech.may_deploy(opening, "a") is None and mech.may_move(opening, "a", "move") is None


def test_ammunition_shortage(mech: D3Mechanics) -> None:
    """Ammunition Shortage: the side's units cannot shoot this turn."""
    li = unit(mech, "light_infantry", 0, "velites")
    foe = unit(mech, "warband", 1, "gauls")
    view = with_card(started(mech, (li, foe)), 0, "ammunition_shortage", PHASE["shooting"])
    with pytest.raises(ValueError, match="Ammunition Shortage"):
        mech.resolve("shoot", Situation(li, foe, view=view), ScriptedDice([]))
    with pytest.raises(ValueError, match="Ammunition Shortage"):
        mech.odds("shoot", Situation(li, foe, view=view))
    fine = with_card(view, 0, "no_event", PHASE["shooting"])
    res = mech.resolve("shoot", Situation(li, foe, view=fine), ScriptedDice([("d3-1", (3,))]))
    assert res.outcome.defender.hits == 2 and res.outcome.attacker.markers_add == {"shot"}


def test_initiative_card_extra_action(mech: D3Mechanics) -> None:
    """Initiative: one unit may shoot (or move, or fight if engaged) as the card is drawn,
    and still act normally later; only one unit, once."""
    li = unit(mech, "light_infantry", 0, "velites")
    li2 = unit(mech, "light_infantry", 0, "velites2")
    foe = unit(mech, "warband", 1, "gauls")
    view = with_card(started(mech, (li, li2, foe)), 0, "initiative", PHASE["chance_card"])
    sit = Situation(li, foe, view=view)
    res = mech.resolve("shoot", sit, ScriptedDice([("d3-1", (2,))]))
    assert res.outcome.attacker.markers_add == frozenset()  # may still shoot later
    assert res.sides[0] == {
        "initiative_unit": "velites",
        "initiative_done": True,
        "card_used": True,
    }
    assert "Initiative" in res.explanation[0]
    after = apply(view, res, sit)
    with pytest.raises(ValueError, match="Shooting step"):
        mech.resolve("shoot", Situation(li, foe, view=after), ScriptedDice([]))
    with pytest.raises(ValueError, match="Shooting step"):
        mech.resolve("shoot", Situation(li2, foe, view=after), ScriptedDice([]))
    later = replace(after, phase=PHASE["shooting"])
    res = mech.resolve("shoot", Situation(li, foe, view=later), ScriptedDice([("d3-1", (1,))]))
    assert res.outcome.attacker.markers_add == {"shot"}
    # without the card, nobody shoots in the card step
    plain = with_card(view, 0, "no_event", PHASE["chance_card"])
    with pytest.raises(ValueError, match="Shooting step"):
        mech.resolve("shoot", Situation(li, foe, view=plain), ScriptedDice([]))


def test_initiative_action_names_the_mover(mech: D3Mechanics) -> None:
    hc = unit(mech, "heavy_cavalry", 0, "equites")
    hi = unit(mech, "heavy_infantry", 0, "hastati")
    view = with_card(started(mech, (hc, hi)), 0, "initiative", PHASE["chance_card"])
    assert not mech.can_move(hc, view)
    res = mech.resolve("initiative", Situation(hc, view=view), ScriptedDice([]))
    view = apply(view, res)
    assert view.sides[0]["initiative_unit"] == "equites"
    assert mech.can_move(hc, view) and not mech.can_move(hi, view)
    with pytest.raises(ValueError, match="already been played"):
        mech.resolve("initiative", Situation(hi, view=view), ScriptedDice([]))
    with pytest.raises(ValueError, match="as the card is drawn"):
        mech.resolve(
            "initiative",
            Situation(hi, view=with_card(view, 0, "initiative", PHASE["movement"])),
            ScriptedDice([]),
        )


def test_initiative_melee_only_if_engaged(mech: D3Mechanics) -> None:
    hi = unit(mech, "heavy_infantry", 0, "hastati", at=(0, 0))
    foe = unit(mech, "warband", 1, "gauls", at=(0, 3))
    far = unit(mech, "warband", 1, "gauls2", at=(40, 40))
    view = with_card(started(mech, (hi, foe, far)), 0, "initiative", PHASE["chance_card"])
    res = mech.resolve("melee", Situation(hi, foe, view=view), ScriptedDice([("d3+1", (1,))]))
    assert res.outcome.defender.hits == 1 and res.sides[0] is not None
    with pytest.raises(ValueError, match="not in contact"):
        mech.resolve("melee", Situation(hi, far, view=view), ScriptedDice([]))


def test_rally_card(mech: D3Mechanics) -> None:
    """Rally: halve the hits of one unit, rounding down (7 hits become 3); once."""
    hi = unit(mech, "heavy_infantry", 0, "hastati", hits=7)
    view = with_card(started(mech, (hi,)), 0, "rally", PHASE["melee"])
    sit = Situation(hi, view=view)
    res = mech.resolve("rally", sit, ScriptedDice([]))
    assert res.outcome.attacker.hits == -4 and res.sides[0] == {"card_used": True}
    after = apply(view, res, sit)
    assert after.unit("hastati").status.hits == 3
    with pytest.raises(ValueError, match="already been played"):
        mech.resolve("rally", Situation(after.unit("hastati"), view=after), ScriptedDice([]))
    with pytest.raises(ValueError, match="no working Rally"):
        mech.resolve(
            "rally", Situation(hi, view=with_card(view, 0, "no_event", 3)), ScriptedDice([])
        )
    with pytest.raises(ValueError, match="own turn"):
        mech.resolve("rally", Situation(hi, view=replace(view, initiative=1)), ScriptedDice([]))
    with pytest.raises(ValueError, match="in a battle"):
        mech.resolve("rally", Situation(hi), ScriptedDice([]))


def test_commander_lost_disables_rally_and_initiative(mech: D3Mechanics) -> None:
    """Commanders: once the commander's unit is eliminated, Rally, Initiative (and
    All-out Attack) cards have no effect for the rest of the game."""
    hi = unit(mech, "heavy_infantry", 0, "hastati", leader=GENERAL, hits=9)
    li = unit(mech, "light_infantry", 0, "velites", hits=6)
    view = replace(started(mech, (hi, li)), phase=PHASE["elimination"])
    res = mech.begin_phase(view, ScriptedDice([]))
    assert [e.leader_id for e in res.leader_events] == ["cmdr"]
    assert res.leader_events[0].status == "killed"
    view = apply(view, res)
    assert view.sides[0]["commander_lost"] is True
    assert view.unit("hastati").status.eliminated
    # a later Rally draw does nothing
    view = replace(view, phase=0, sides=(dict(view.sides[0], deck="rally,no_event"), view.sides[1]))
    res = mech.begin_phase(view, ScriptedDice([("d2", (1,))]))
    view = apply(view, res)
    assert view.sides[0]["card"] == "rally" and view.sides[0]["card_active"] is False
    assert "no effect" in res.explanation[0]
    assert mech.card_effect(0, view) == "none"
    with pytest.raises(ValueError, match="no working Rally"):
        mech.resolve("rally", Situation(view.unit("velites"), view=view), ScriptedDice([]))
    # Confusion still bites
    assert mech.card_effect(0, with_card(view, 0, "confusion", 1)) == "no_move_unless_commanded"


# --------------------------------------------------------------------------- movement


@pytest.mark.parametrize(
    ("troop", "move"),
    [
        ("heavy_infantry", 6),
        ("veteran_heavy_infantry", 6),
        ("light_infantry", 9),
        ("warband", 9),
        ("elephants", 9),
        ("light_cavalry", 12),
        ("veteran_light_cavalry", 12),
        ("heavy_cavalry", 12),
        ("catapults", 0),
    ],
)
def test_move_allowance(mech: D3Mechanics, troop: str, move: float) -> None:
    """Movement: HI 6", LI, warbands and elephants 9", cavalry 12", catapults pivot only;
    a move wholly on a road adds 3"."""
    u = unit(mech, troop)
    assert mech.move_allowance(u) == move
    road = mech.move_allowance(u, on_road=True)
    assert road == (move + 3 if move else 0)


def test_only_cavalry_leave_combat(mech: D3Mechanics) -> None:
    hi = unit(mech, "heavy_infantry", 0, "hastati", at=(0, 0))
    hc = unit(mech, "heavy_cavalry", 0, "equites", at=(30, 0))
    foe = unit(mech, "warband", 1, "gauls", at=(0, 3))
    foe2 = unit(mech, "warband", 1, "gauls2", at=(30, 3))
    view = with_card(started(mech, (hi, hc, foe, foe2)), 0, "no_event", PHASE["movement"])
    assert not mech.can_move(hi, view) and mech.can_move(hc, view)


def test_charge_restrictions(mech: D3Mechanics) -> None:
    """Charges: light troops charge only enemies already in combat; cavalry never charge
    elephants; a broken army may not advance."""
    lc = unit(mech, "light_infantry", 0, "velites", at=(0, 0))
    hc = unit(mech, "heavy_cavalry", 0, "equites", at=(30, 0))
    hi = unit(mech, "heavy_infantry", 0, "hastati", at=(60, 0))
    el = unit(mech, "elephants", 1, "jumbos", at=(0, 20))
    wb = unit(mech, "warband", 1, "gauls", at=(60, 3))
    view = with_card(started(mech, (lc, hc, hi, el, wb)), 0, "no_event", PHASE["movement"])
    may = mech.may_charge
    assert "elephants" in may(hc, el, view)
    assert "already in combat" in may(lc, el, view)
    assert may(hc, wb, view) is None  # the Gauls are fighting the hastati
    assert "may not move" in may(hi, wb, view)  # the hastati are in combat
    broken = replace(view, sides=(dict(view.sides[0], resolve_broken=True), view.sides[1]))
    assert "resolve" in may(hc, wb, broken)


# --------------------------------------------------------------------------- shooting


def test_shooting_light_infantry_at_heavy_infantry(mech: D3Mechanics) -> None:
    """Shooting: D3-1 hits, halved rounding up against heavy infantry: 0, 1, 1."""
    odds = mech.odds(
        "shoot", Situation(unit(mech, "light_infantry"), unit(mech, "heavy_infantry", 1))
    )
    assert dist(odds) == {0: F(1, 3), 1: F(2, 3)}


@pytest.mark.parametrize(
    ("shooter", "target", "terrain", "want"),
    [
        # warbands never halve shooting hits, even in woods
        ("light_infantry", "warband", "woods", {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}),
        # cover halves: light infantry in a town
        ("light_cavalry", "light_infantry", "towns", {0: F(1, 3), 1: F(2, 3)}),
        # no cover on a hill
        ("light_cavalry", "light_infantry", "hills", {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}),
        # catapults ignore armour...
        ("catapults", "elephants", "open", {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}),
        ("catapults", "veteran_heavy_infantry", "open", {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}),
        # ... but not cover
        ("catapults", "heavy_infantry", "woods", {0: F(1, 3), 1: F(2, 3)}),
        # armour and cover halve once, not twice
        ("light_infantry", "heavy_infantry", "towns", {0: F(1, 3), 1: F(2, 3)}),
        ("veteran_light_cavalry", "elephants", "open", {0: F(1, 3), 1: F(2, 3)}),
    ],
)
def test_shooting_halving(
    mech: D3Mechanics, shooter: str, target: str, terrain: str, want: dict[int, Fraction]
) -> None:
    sit = Situation(unit(mech, shooter), unit(mech, target, 1), options={"target_terrain": terrain})
    assert dist(mech.odds("shoot", sit)) == want


def test_who_may_shoot(mech: D3Mechanics) -> None:
    """Only light infantry, light cavalry and catapults shoot; not after moving; not at
    units in combat; once a turn; not at friends."""
    foe = unit(mech, "heavy_infantry", 1)
    for troop in ("heavy_infantry", "heavy_cavalry", "warband", "elephants"):
        with pytest.raises(ValueError, match="cannot shoot"):
            mech.odds("shoot", Situation(unit(mech, troop), foe))
    li = unit(mech, "light_infantry")
    with pytest.raises(ValueError, match="moved"):
        mech.odds("shoot", Situation(replace(li, status=li.status.apply(mark("moved"))), foe))
    with pytest.raises(ValueError, match="engaged"):
        mech.odds("shoot", Situation(li, replace(foe, status=foe.status.apply(mark("engaged")))))
    with pytest.raises(ValueError, match="already shot"):
        mech.odds("shoot", Situation(replace(li, status=li.status.apply(mark("shot"))), foe))
    with pytest.raises(ValueError, match="own side"):
        mech.odds("shoot", Situation(li, unit(mech, "warband", 0)))


def test_shooting_range_arc_and_contact(mech: D3Mechanics) -> None:
    """Light troops reach 12", catapults 24", measured between the closest points; the
    target must be in the front arc and not touching an enemy."""
    li = unit(mech, "light_infantry", 0, "velites", at=(0, 0))
    cat = unit(mech, "catapults", 0, "cat", at=(14, 0))
    near = unit(mech, "warband", 1, "near", at=(0, 15))  # 12" gap
    far = unit(mech, "warband", 1, "far", at=(0, 15.5))  # 12.5" gap
    side = unit(mech, "warband", 1, "side", at=(-22, 3))
    behind = unit(mech, "warband", 1, "behind", at=(0, -10))
    view = with_card(started(mech, (li, cat, near, far, side, behind)), 0, "no_event", 2)
    assert unit_distance(li, near) == pytest.approx(12)

    def shoot(a: Combatant, d: Combatant) -> Odds:
        return mech.odds("shoot", Situation(a, d, view=view))

    assert_odds_sum_to_one(shoot(li, near))
    with pytest.raises(ValueError, match="range"):
        shoot(li, far)
    assert_odds_sum_to_one(shoot(cat, far))  # 24" for catapults
    with pytest.raises(ValueError, match="front arc"):
        shoot(li, side)
    with pytest.raises(ValueError, match="front arc"):
        shoot(li, behind)
    hi = unit(mech, "heavy_infantry", 0, "hastati", at=(0, 18.5))  # touching `far`
    busy = replace(view, units=(*view.units, hi))
    with pytest.raises(ValueError, match="engaged"):
        mech.odds("shoot", Situation(cat, far, view=busy))
    with pytest.raises(ValueError, match="own side's turn"):
        mech.odds("shoot", Situation(li, near, view=replace(view, initiative=1)))
    with pytest.raises(ValueError, match="Shooting step"):
        mech.odds("shoot", Situation(li, near, view=replace(view, phase=PHASE["melee"])))


# --------------------------------------------------------------------------- combat


def test_heavy_infantry_attacks_heavy_infantry(mech: D3Mechanics) -> None:
    """Combat: heavy infantry score D3+1, halved (round up) against heavy infantry:
    2, 3, 4 -> 1, 2, 2."""
    sit = Situation(unit(mech, "heavy_infantry"), unit(mech, "heavy_infantry", 1))
    assert dist(mech.odds("melee", sit)) == {1: F(1, 3), 2: F(2, 3)}
    for face, hits in ((1, 1), (2, 2), (3, 2)):
        res = mech.resolve("melee", sit, ScriptedDice([("d3+1", (face,))]))
        assert res.outcome.defender.hits == hits
        assert res.outcome.attacker.markers_add == {"fought"}
    assert "halved" in res.explanation[0]


def test_commander_rolls_two_d3(mech: D3Mechanics) -> None:
    """Commanders: roll two D3 and keep the higher, then the troop's +1; halved against
    heavy infantry. Best of two D3: 1 1/9, 2 3/9, 3 5/9 -> hits 1 (1/9), 2 (8/9)."""
    attacker = unit(mech, "heavy_infantry", leader=GENERAL)
    sit = Situation(attacker, unit(mech, "heavy_infantry", 1))
    assert dist(mech.odds("melee", sit)) == {1: F(1, 9), 2: F(8, 9)}
    dice = ScriptedDice([("2d3", (1, 3))])
    res = mech.resolve("melee", sit, dice)
    assert dice.exhausted and res.outcome.defender.hits == 2
    # the option does the same for the odds tool
    opt = Situation(
        unit(mech, "heavy_cavalry"), unit(mech, "light_infantry", 1), options={"commander": True}
    )
    assert dist(mech.odds("melee", opt)) == {1: F(1, 9), 2: F(3, 9), 3: F(5, 9)}


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "want"),
    [
        # elephants: D3, never halved
        ("elephants", "heavy_infantry", {}, {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),
        ("elephants", "elephants", {}, {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),
        # hits on elephants and warbands are halved
        ("heavy_cavalry", "elephants", {}, {1: F(2, 3), 2: F(1, 3)}),
        ("heavy_infantry", "warband", {}, {1: F(1, 3), 2: F(2, 3)}),
        ("light_cavalry", "veteran_heavy_infantry", {}, {0: F(1, 3), 1: F(2, 3)}),
        # unhalved targets
        ("warband", "light_infantry", {}, {2: F(1, 3), 3: F(1, 3), 4: F(1, 3)}),
        ("light_infantry", "light_cavalry", {}, {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}),
        ("heavy_cavalry", "heavy_cavalry", {}, {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),
        # flank and rear: +2 heavy, +1 light
        ("heavy_infantry", "light_infantry", {"attack_from": "left_flank"},
         {4: F(1, 3), 5: F(1, 3), 6: F(1, 3)}),
        ("light_cavalry", "light_infantry", {"attack_from": "rear"},
         {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),
        ("elephants", "heavy_infantry", {"attack_from": "rear"},
         {3: F(1, 3), 4: F(1, 3), 5: F(1, 3)}),
        # +1 light from the rear, then halved against heavy infantry: 1, 2, 3 -> 1, 1, 2
        ("light_infantry", "heavy_infantry", {"attack_from": "rear"}, {1: F(2, 3), 2: F(1, 3)}),
        # defending terrain -1: a hill
        ("heavy_infantry", "light_infantry", {"defender_terrain": "hills"},
         {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),
        # light infantry on a hill against heavy infantry: -1, 0, 1 -> halved 0, 0, 1
        ("light_infantry", "heavy_infantry", {"defender_terrain": "hills"},
         {0: F(2, 3), 1: F(1, 3)}),
        # heavy infantry into broken ground: -1 then halved: 1, 2, 3 -> 1, 1, 2
        ("heavy_infantry", "light_infantry", {"defender_terrain": "broken_ground"},
         {1: F(2, 3), 2: F(1, 3)}),
        # ... and against heavy infantry there, halved twice: 1, 1, 2 -> 1, 1, 1
        ("heavy_infantry", "heavy_infantry", {"defender_terrain": "broken_ground"}, {1: F(1)}),
        # towns count as broken ground for combat
        ("veteran_heavy_infantry", "warband", {"defender_terrain": "towns"},
         {1: F(1)}),
        # warbands do not halve attacking into broken ground
        ("warband", "light_infantry", {"defender_terrain": "broken_ground"},
         {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),
    ],
)  # fmt: skip
def test_combat_hits(
    mech: D3Mechanics,
    attacker: str,
    defender: str,
    options: dict[str, Scalar],
    want: dict[int, Fraction],
) -> None:
    """Combat hits by troop, with the halving, flank/rear, terrain and broken-ground rules
    applied in the data's order (errata combat-modifier-order, combat-halving-rounding)."""
    sit = Situation(unit(mech, attacker), unit(mech, defender, 1), options=options)
    assert dist(mech.odds("melee", sit)) == want


def test_combat_refusals(mech: D3Mechanics) -> None:
    """Catapults cannot attack; only the side whose turn it is scores hits; a unit that
    moved without charging, or turned to face, does not attack; one combat a turn."""
    hi, foe = unit(mech, "heavy_infantry"), unit(mech, "heavy_infantry", 1)
    with pytest.raises(ValueError, match="cannot attack"):
        mech.odds("melee", Situation(unit(mech, "catapults"), foe))
    for marker, text in (
        ("moved", "without charging"),
        ("faced", "turned to face"),
        ("fought", "already fought"),
    ):
        with pytest.raises(ValueError, match=text):
            mech.odds("melee", Situation(replace(hi, status=hi.status.apply(mark(marker))), foe))
    charged = hi.status.apply(mark("moved")).apply(mark("charged"))
    assert_odds_sum_to_one(mech.odds("melee", Situation(replace(hi, status=charged), foe)))
    view = with_card(started(mech, (hi, foe)), 0, "no_event", PHASE["melee"])
    assert_odds_sum_to_one(mech.odds("melee", Situation(hi, foe, view=view)))
    with pytest.raises(ValueError, match="own side's turn"):
        mech.odds("melee", Situation(foe, hi, view=view))
    with pytest.raises(ValueError, match="Melee step"):
        mech.odds("melee", Situation(hi, foe, view=replace(view, phase=PHASE["shooting"])))


def test_charge_and_aspect_from_the_table(mech: D3Mechanics) -> None:
    """A unit that moved into contact charged and fights (errata moved-units-and-charges);
    the side attacked is read from the positions."""
    foe = unit(mech, "heavy_infantry", 1, "foe", at=(0, 10))  # faces -y
    front = unit(mech, "heavy_cavalry", 0, "front", at=(0, 7), markers=frozenset({"moved"}))
    rear = unit(mech, "heavy_cavalry", 0, "rear", at=(0, 13), facing=180)
    right = unit(mech, "light_cavalry", 0, "right", at=(-13.5, 10), facing=90)
    left = unit(mech, "light_cavalry", 0, "left", at=(13.5, 10), facing=270)
    view = with_card(started(mech, (foe, front, rear, right, left)), 0, "no_event", 3)
    derived = {
        u.unit_id: mech.derive_options("melee", Situation(u, foe, view=view))["attack_from"]
        for u in (front, rear, right, left)
    }
    assert derived == {
        "front": "front",
        "rear": "rear",
        "right": "right_flank",
        "left": "left_flank",
    }
    assert_odds_sum_to_one(mech.odds("melee", Situation(front, foe, view=view)))
    rear_sit = Situation(rear, foe, view=view, options={"attack_from": "rear"})
    assert dist(mech.odds("melee", rear_sit)) == {2: F(2, 3), 3: F(1, 3)}  # (D3+2)/2 up


def test_initiative_is_one_action(mech: D3Mechanics) -> None:
    """The Initiative card gives one action: a unit that used it to move does not also
    fight."""
    hi = unit(mech, "heavy_infantry", 0, "hastati", at=(0, 0), markers=frozenset({"moved"}))
    foe = unit(mech, "warband", 1, "gauls", at=(0, 3))
    view = with_card(
        started(mech, (hi, foe)), 0, "initiative", PHASE["chance_card"], initiative_unit="hastati"
    )
    with pytest.raises(ValueError, match="already engaged"):
        mech.odds("melee", Situation(hi, foe, view=view))


def test_result_names_elimination(mech: D3Mechanics) -> None:
    """A unit taking its 9th hit is marked for the elimination step."""
    sit = Situation(unit(mech, "warband"), unit(mech, "light_infantry", 1, hits=6))
    results = {o.defender.hits: o.result for o in mech.odds("melee", sit)}
    assert results[2] == "2 hits"
    assert results[3] == "3 hits (9 in all: eliminated at the end of the turn)"


def test_face_an_attack(mech: D3Mechanics) -> None:
    """A unit attacked in flank or rear may turn to face unless engaged to its front; it
    then may not attack in its next turn."""
    hi = unit(mech, "heavy_infantry", 1, "spaniards", at=(0, 0))
    flanker = unit(mech, "heavy_cavalry", 0, "equites", at=(7.5, 0), facing=270)
    res = mech.resolve("face", Situation(hi, flanker), ScriptedDice([]))
    assert res.outcome.attacker.markers_add == {"faced"}
    assert res.outcome.attacker.move == "turns to face Heavy Cavalry"
    front = unit(mech, "heavy_infantry", 0, "hastati", at=(0, -3))
    view = make_view((hi, flanker, front))
    with pytest.raises(ValueError, match="engaged to their front"):
        mech.resolve("face", Situation(hi, flanker, view=view), ScriptedDice([]))


# --------------------------------------------------------------------------- elimination


def test_eliminated_after_more_than_8_hits(mech: D3Mechanics) -> None:
    """Units are eliminated after taking more than 8 hits, in the last step of the
    turn: 8 hits stay, 9 go, whichever side they belong to."""
    a = unit(mech, "heavy_infantry", 0, "eight", hits=8)
    b = unit(mech, "warband", 1, "nine", hits=9)
    c = unit(mech, "light_infantry", 0, "twelve", hits=12)
    view = replace(started(mech, (a, b, c)), phase=PHASE["elimination"])
    res = mech.begin_phase(view, ScriptedDice([]))
    gone = {ch.unit_id for ch in res.others if ch.effects.eliminated}
    assert gone == {"nine", "twelve"}
    after = apply(view, res)
    assert not after.unit("eight").status.eliminated
    assert after.unit("nine").status.strength == 0
    assert after.sides[0]["units_lost"] == 1 and after.sides[1]["units_lost"] == 1
    assert mech.end_phase(replace(view, phase=PHASE["melee"]), ScriptedDice([])) == Resolution()


@pytest.mark.parametrize(
    ("roll", "struck", "hits"), [(1, "friend", 2), (2, "enemy", 3), (3, None, 0)]
)
def test_berserk_table(mech: D3Mechanics, roll: int, struck: str | None, hits: int) -> None:
    """Berserk elephants: D3 1 -> the nearest friendly unit within 12" takes D3 hits;
    2 -> the nearest enemy unit within 12"; 3 -> nothing. Then the elephants go."""
    el = unit(mech, "elephants", 1, "jumbos", at=(0, 0), hits=10)
    friend = unit(mech, "warband", 1, "friend", at=(0, 10))  # 7" away
    far_friend = unit(mech, "warband", 1, "far_friend", at=(0, 30))
    enemy = unit(mech, "heavy_infantry", 0, "enemy", at=(0, -8))  # 5" away
    view = replace(
        started(mech, (el, friend, far_friend, enemy), first=1), phase=PHASE["elimination"]
    )
    script: list[tuple[str, tuple[int, ...]]] = [("d3", (roll,))]
    if struck:
        script.append(("d3", (hits,)))
    dice = ScriptedDice(script)
    res = mech.begin_phase(view, dice)
    assert dice.exhausted
    after = apply(view, res)
    assert after.unit("jumbos").status.eliminated
    for uid in ("friend", "enemy", "far_friend"):
        assert after.unit(uid).status.hits == (hits if uid == struck else 0)
    # the same roll as an action, with its exact odds
    sit = Situation(el, view=view)
    odds = mech.odds("berserk", sit)
    assert_odds_sum_to_one(odds)
    action = mech.resolve("berserk", sit, ScriptedDice(script))
    assert action.outcome in odds and action.outcome.attacker.eliminated
    assert {o.result: p for o, p in odds.items()} == {
        "berserk into friendly Warband (Gauls): 1 hit": F(1, 9),
        "berserk into friendly Warband (Gauls): 2 hits": F(1, 9),
        "berserk into friendly Warband (Gauls): 3 hits": F(1, 9),
        "berserk into enemy Heavy Infantry: 1 hit": F(1, 9),
        "berserk into enemy Heavy Infantry: 2 hits": F(1, 9),
        "berserk into enemy Heavy Infantry: 3 hits": F(1, 9),
        "no berserk": F(1, 3),
    }


def test_berserk_nobody_within_12(mech: D3Mechanics) -> None:
    el = unit(mech, "elephants", 1, "jumbos", at=(0, 0))
    far = unit(mech, "heavy_infantry", 0, "far", at=(0, -16))  # 13" away
    odds = mech.odds("berserk", Situation(el, others=(far,)))
    assert {o.result: p for o, p in odds.items()} == {
        'berserk: no friendly unit within 12"': F(1, 3),
        'berserk: no enemy unit within 12"': F(1, 3),
        "no berserk": F(1, 3),
    }
    with pytest.raises(ValueError, match="not elephants"):
        mech.odds("berserk", Situation(far))


def test_berserk_chain(mech: D3Mechanics) -> None:
    """Errata elimination-order: a unit berserk hits push past 8 goes in the same step;
    units going at the same time are not targets."""
    el = unit(mech, "elephants", 1, "jumbos", at=(0, 0), hits=9)
    doomed = unit(mech, "warband", 1, "doomed", at=(0, 4), hits=9)  # nearest, but going
    friend = unit(mech, "warband", 1, "friend", at=(0, 10), hits=7)
    view = replace(started(mech, (el, doomed, friend), first=1), phase=PHASE["elimination"])
    res = mech.begin_phase(view, ScriptedDice([("d3", (1,)), ("d3", (2,))]))
    after = apply(view, res)
    assert all(after.unit(u).status.eliminated for u in ("jumbos", "doomed", "friend"))
    assert after.unit("friend").status.hits == 9
    assert after.sides[1]["resolve_broken"] is True


def test_eliminations_pure_order(builtin_folder: Path) -> None:
    """The pure loop tells each removal once, in order, and calls berserk per elephant."""
    rs = load_ruleset(builtin_folder)
    m = mechanics_for(rs)
    el = unit(m, "elephants", 0, "e1", hits=9)
    other = unit(m, "warband", 0, "w", hits=8)
    told: list[str] = []
    gone, added = eliminations(
        tables(rs),
        (el, other),
        {"elephants"},
        lambda e, pool: (pool[0], 1),
        lambda u, h: told.append(f"{u.unit_id}:{h}"),
    )
    assert [u.unit_id for u in gone] == ["e1", "w"] and added == {"w": 1}
    assert told == ["e1:9", "w:9"]


# --------------------------------------------------------------------------- resolve, the end


@pytest.mark.parametrize(
    ("start", "lost", "broken"),
    [(6, 4, False), (6, 5, True), (7, 4, False), (7, 5, True), (8, 5, False), (8, 6, True)],
)
def test_army_resolve_threshold(t: Tables, start: int, lost: int, broken: bool) -> None:
    """Army Resolve: more than 70% of the units lost (errata army-resolve-count)."""
    assert past_resolve(t, lost, start) is broken


def army(mech: D3Mechanics, side: Side, n: int, hits: int = 0) -> tuple[Combatant, ...]:
    return tuple(unit(mech, "heavy_infantry", side, f"s{side}u{i}", hits=hits) for i in range(n))


def test_resolve_breaks_and_loses(mech: D3Mechanics) -> None:
    """The first army to lose its resolve loses the battle (errata victory); it may no
    longer advance."""
    rome = army(mech, 0, 6)
    carthage = tuple(unit(mech, "warband", 1, f"g{i}", hits=9 if i < 5 else 0) for i in range(6))
    view = replace(started(mech, rome + carthage), phase=PHASE["elimination"])
    assert mech.victory(view) is None
    res = mech.begin_phase(view, ScriptedDice([]))
    after = apply(view, res)
    assert after.sides[1]["resolve_broken"] is True and after.sides[0]["resolve_broken"] is False
    assert any("resolve is broken" in line for line in res.explanation)
    assert not mech.may_advance(after.unit("g5"), after)
    v = mech.victory(after)
    assert v is not None and v.winner == 0 and "resolve" in v.reason


def test_victory_rules(mech: D3Mechanics) -> None:
    base = started(mech, army(mech, 0, 6) + army(mech, 1, 6))
    # a side with no units left loses, even when resolve does not end the battle
    wiped = replace(
        base,
        units=tuple(
            replace(u, status=replace(u.status, eliminated=True)) if u.side == 1 else u
            for u in base.units
        ),
    )
    v = mech.victory(wiped)
    assert v is not None and v.winner == 0
    # after 15 turns each: the smaller share of units lost wins
    over = replace(
        base,
        sides=(dict(base.sides[0], game_over=True), dict(base.sides[1], game_over=True)),
        units=tuple(
            replace(u, status=replace(u.status, eliminated=True))
            if u.unit_id in ("s0u0", "s0u1", "s1u0")
            else u
            for u in base.units
        ),
    )
    v = mech.victory(over)
    assert v is not None and v.winner == 1 and "15 turns" in v.reason
    even = replace(over, units=base.units)
    v = mech.victory(even)
    assert v is not None and v.winner is None and "draw" in v.reason


def play_turn(mech: D3Mechanics, view: TurnView, dice: SeededDice) -> TurnView:
    """One player's turn: the five steps' begin and end hooks."""
    for phase in range(5):
        view = replace(view, phase=phase)
        view = apply(view, mech.begin_phase(view, dice))
        view = apply(view, mech.end_phase(view, dice))
    return replace(view, turn=view.turn + 1, phase=0)


def test_fifteen_turns_each(mech: D3Mechanics) -> None:
    """The game lasts 15 turns: each side plays 15 turns (one card each), alternating;
    the battle ends after the second side's 15th (errata player-turns, victory)."""
    hi = unit(mech, "heavy_infantry", 0, "hastati")
    li = unit(mech, "light_infantry", 0, "velites", markers=frozenset({"shot", "moved"}))
    wb = unit(mech, "warband", 1, "gauls", markers=frozenset({"faced"}))
    view = started(mech, (hi, li, wb), first=1)
    dice = SeededDice("fifteen")
    order: list[Side] = []
    for n in range(30):
        assert mech.victory(view) is None
        assert view.initiative is not None
        order.append(view.initiative)
        view = play_turn(mech, view, dice)
        if n == 0:  # the Carthaginian turn cleared Carthaginian turn markers only
            assert view.unit("gauls").status.markers == frozenset()
            assert view.unit("velites").status.markers == {"shot", "moved"}
        if n == 1:
            assert view.unit("velites").status.markers == frozenset()
    assert order == [1, 0] * 15
    assert all(view.sides[s]["turn"] == 15 and view.sides[s]["deck"] == "" for s in (0, 1))
    assert all(view.sides[s]["game_over"] is True for s in (0, 1))
    assert view.sides[0]["card"] == "" and view.sides[1]["card"] == ""
    v = mech.victory(view)
    assert v is not None and v.winner is None  # nobody lost anything: a draw


def test_replay_gives_the_same_resolution(mech: D3Mechanics) -> None:
    """Redo and replay feed the recorded faces back: the same resolution follows."""
    sit = Situation(unit(mech, "heavy_infantry", leader=GENERAL), unit(mech, "warband", 1))
    seeded = SeededDice(99)
    first = mech.resolve("melee", sit, seeded)
    again = mech.resolve(
        "melee", sit, ScriptedDice([(spec, faces) for _, spec, faces in seeded.rolls])
    )
    assert first == again


# --------------------------------------------------------------------------- geometry


def test_geometry(mech: D3Mechanics) -> None:
    a = unit(mech, "heavy_infantry", 0, "a", at=(0, 0))
    b = unit(mech, "heavy_infantry", 1, "b", at=(0, 3))
    c = unit(mech, "heavy_infantry", 1, "c", at=(20, 0), facing=90)
    assert unit_distance(a, b) == 0 and in_contact(a, b)
    # c is 12 deep across x (turned 90 degrees): its near edge at x = 18.5, a's at 6
    assert unit_distance(a, c) == pytest.approx(12.5)
    assert in_front_arc(a, b, 45) and not in_front_arc(a, c, 45)
    assert in_front_arc(a, unit(mech, "warband", 1, "d", at=(12, 10)), 45)
    found = nearest(a, (c, b), 12)
    assert found is not None and found[0] is b
    assert nearest(a, (c,), 12) is None
    assert halve(5, "up") == 3 and halve(5, "down") == 2 and halve(-1, "up") == 0


# --------------------------------------------------------------------------- exact odds


def _troops(rs: Ruleset) -> dict[str, Troop]:
    return {tid: tr for tid, tr in rs.troops.items() if isinstance(tr, Troop)}


ATTACKERS = [
    "heavy_infantry",
    "veteran_heavy_infantry",
    "warband",
    "light_infantry",
    "light_cavalry",
    "veteran_light_cavalry",
    "heavy_cavalry",
    "elephants",
]
ALL = [*ATTACKERS, "catapults"]
SHOOTERS = ["light_infantry", "light_cavalry", "veteran_light_cavalry", "catapults"]
TERRAIN = ["open", "woods", "towns", "river_crossings", "broken_ground", "roads", "hills"]
SIDES = ["front", "left_flank", "right_flank", "rear"]


def test_attacker_lists_match_data(rs: Ruleset) -> None:
    troops = _troops(rs)
    assert sorted(ATTACKERS) == sorted(t for t, tr in troops.items() if tr.combat_hits)
    assert sorted(SHOOTERS) == sorted(t for t, tr in troops.items() if tr.shoots)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    attacker=st.sampled_from(ATTACKERS),
    defender=st.sampled_from(ALL),
    side=st.sampled_from(SIDES),
    terrain=st.sampled_from(TERRAIN),
    commander=st.booleans(),
    hits=st.integers(0, 8),
    seed=st.integers(0, 10_000),
)
def test_melee_odds_properties(
    mech: D3Mechanics,
    attacker: str,
    defender: str,
    side: str,
    terrain: str,
    commander: bool,
    hits: int,
    seed: int,
) -> None:
    """Odds sum to one; hits stay within 0..6; the commander never lowers the expected
    hits; the resolver's outcome is one the odds know."""
    opts: dict[str, Scalar] = {"attack_from": side, "defender_terrain": terrain}
    sit = Situation(unit(mech, attacker), unit(mech, defender, 1, hits=hits), options=opts)
    odds = mech.odds("melee", sit)
    assert_odds_sum_to_one(odds)
    assert all(0 <= o.defender.hits <= 6 for o in odds)
    with_cmdr = replace(sit, options={**opts, "commander": commander})
    led = mech.odds("melee", with_cmdr)
    mean = sum((o.defender.hits * p for o, p in odds.items()), ZERO)
    assert sum((o.defender.hits * p for o, p in led.items()), ZERO) >= mean
    assert mech.resolve("melee", with_cmdr, SeededDice(seed)).outcome in led


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    shooter=st.sampled_from(SHOOTERS),
    target=st.sampled_from(ALL),
    terrain=st.sampled_from(TERRAIN),
    seed=st.integers(0, 10_000),
)
def test_shoot_odds_properties(
    mech: D3Mechanics, shooter: str, target: str, terrain: str, seed: int
) -> None:
    sit = Situation(unit(mech, shooter), unit(mech, target, 1), options={"target_terrain": terrain})
    odds = mech.odds("shoot", sit)
    assert_odds_sum_to_one(odds)
    assert all(0 <= o.defender.hits <= 2 for o in odds)
    assert mech.resolve("shoot", sit, SeededDice(seed)).outcome in odds


def test_melee_frequencies(mech: D3Mechanics) -> None:
    """The resolver's frequencies over many seeded rolls match the exact odds."""
    cases = [
        Situation(unit(mech, "heavy_infantry", leader=GENERAL), unit(mech, "heavy_infantry", 1)),
        Situation(unit(mech, "warband"), unit(mech, "light_infantry", 1, hits=7),
                  options={"attack_from": "rear", "defender_terrain": "hills"}),
        Situation(unit(mech, "elephants"), unit(mech, "veteran_heavy_infantry", 1),
                  options={"commander": True}),
        Situation(unit(mech, "heavy_infantry"), unit(mech, "warband", 1),
                  options={"defender_terrain": "broken_ground", "attack_from": "left_flank"}),
    ]  # fmt: skip
    for i, sit in enumerate(cases):
        assert_frequencies_match(mech, "melee", sit, n=3000, seed=i)


def test_shoot_and_berserk_frequencies(mech: D3Mechanics) -> None:
    shots = [
        Situation(unit(mech, "light_infantry"), unit(mech, "heavy_infantry", 1)),
        Situation(unit(mech, "catapults"), unit(mech, "elephants", 1),
                  options={"target_terrain": "woods"}),
        Situation(unit(mech, "light_cavalry"), unit(mech, "warband", 1, hits=8)),
    ]  # fmt: skip
    for i, sit in enumerate(shots):
        assert_frequencies_match(mech, "shoot", sit, n=3000, seed=10 + i)
    el = unit(mech, "elephants", 1, "jumbos", at=(0, 0))
    others = (
        unit(mech, "warband", 1, "friend", at=(0, 10)),
        unit(mech, "heavy_infantry", 0, "enemy", at=(0, -8)),
    )
    assert_frequencies_match(mech, "berserk", Situation(el, others=others), n=3000, seed=20)


def test_initiative_odds_match_resolver(mech: D3Mechanics) -> None:
    """With a battle view the Initiative action's outcome (no 'fought' marker) is what
    the odds count."""
    hi = unit(mech, "heavy_infantry", 0, "hastati")
    foe = unit(mech, "warband", 1, "gauls")
    view = with_card(started(mech, (hi, foe)), 0, "initiative", PHASE["chance_card"])
    odds = assert_frequencies_match(mech, "melee", Situation(hi, foe, view=view), n=1500)
    assert all(o.attacker.markers_add == frozenset() for o in odds)


def test_odds_timing(mech: D3Mechanics) -> None:
    """PRODUCT.md: under 10 ms per matchup; the worst case here (commander, flank,
    terrain, a view with units to check) well inside a generous 50 ms."""
    hi = unit(mech, "heavy_infantry", 0, "hastati", at=(0, 0), leader=GENERAL)
    foe = unit(mech, "heavy_infantry", 1, "foe", at=(0, 3))
    crowd = tuple(unit(mech, "warband", 1, f"w{i}", at=(20 * i, 40)) for i in range(1, 8))
    view = with_card(started(mech, (hi, foe, *crowd)), 0, "no_event", PHASE["melee"])
    sit = Situation(
        hi, foe, view=view, options={"attack_from": "rear", "defender_terrain": "broken_ground"}
    )
    worst = 0.0
    for _ in range(50):
        start = time.perf_counter()
        mech.odds("melee", sit)
        worst = max(worst, time.perf_counter() - start)
    assert worst < 0.05, worst
    el = unit(mech, "elephants", 1, "jumbos", at=(0, 20))
    start = time.perf_counter()
    mech.odds("berserk", Situation(el, view=replace(view, units=(*view.units, el))))
    assert time.perf_counter() - start < 0.05


def test_deck_helper_agrees(t: Tables, mech: D3Mechanics) -> None:
    """start_battle deals exactly deck_for's cards (the other helper's builder)."""
    view = started(mech, (), rome={"commander_quality": "poor", "supply_problems": True})
    assert counts(view, 0) == Counter(
        deck_for(t, side="Rome", commander_quality="poor", supply_problems=True)
    )


def test_headless_battle_with_the_core() -> None:
    """The real battle core drives these mechanics to a result: 15 turns a side, each
    drawing a card a turn, then a verdict; replay rebuilds the same state."""
    from app.core import battle
    from app.core.edits import AddLeader, AddUnit
    from app.core.roster import Leader, new_roster, unit_from_entry
    from app.rules.registry import BUILTIN_DIR, Registry
    from app.rulesets import find_engine

    rs = Registry.load(find_engine, BUILTIN_DIR, []).get("d3-ancients")
    mech = mechanics_for(rs)

    def roster(army: str) -> object:
        r = new_roster(rs, army, name=army)
        for entry in list(rs.army(army).entries)[:3]:
            r = AddUnit(unit_from_entry(rs, army, entry, count=2)).apply(r)
        r = AddLeader(Leader(id="cmdr", name=f"{army} commander", rank="general")).apply(r)
        # on a line of two: as a roster file may have it (the editor refuses it); the
        # battle stands him with the first of them
        return replace(r, units=(replace(r.units[0], leader="cmdr"), *r.units[1:]))

    state = battle.new_battle(rs, mech, (roster("roman"), roster("carthaginian")))
    session = battle.BattleSession(rs, mech, state, seed=5)
    session.do(battle.StartBattle())
    for _ in range(200):
        if session.state.result is not None:
            break
        session.do(battle.NextPhase())
    result = session.state.result
    assert result is not None and "15 turns" in result.reason
    assert all(session.state.sides[s].record["turn"] == 15 for s in (0, 1))
    assert session.replay() == session.state
