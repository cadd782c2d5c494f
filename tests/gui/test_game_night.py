"""Issue 23, done when: in each of the five rulesets a campaign battle is fought through the
battle window's own controls to a result, with a leader killed by his ruleset's own roll
(where the text has one) and another wounded by the umpire's call; the result comes back to
the campaign, is applied, and the campaign's next battle leaves the dead leader out and fields
the wounded one with his ruleset's penalty.

The rolls are dice entered at the table (Enter dice), so the test chooses the faces: the
leader's own throw gets the faces that kill him in his ruleset (Quincunx: "If the result is
snake-eyes, he is killed"; Leg VI: "If a '1' is rolled, roll again: 1 = killed"; GSB: "takes a
2d6 leader death test if his unit is hit, dying on a double 6"); the combat's dice are chosen
to hurt his unit. D3's commander has no throw of his own: "If a commander's unit is
eliminated" he is lost with it, so his unit is eliminated in a melee. MWAN #90's article has
no leaders: the umpire's call kills one there too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.core.battle import AttachLeader, MoveUnit
from app.core.battle.state import BattleLeader, BattleState, BattleUnit
from app.core.campaign.model import Participant
from app.core.campaign.start import campaign_from_rosters
from app.core.campaign.steps import AddBattle
from app.core.ready import ready_roster
from app.core.roster import Leader
from app.gui.actions import ActionKey
from app.gui.battle.dice_dialog import DiceDialog
from app.gui.battle.window import BattleWindow
from app.gui.main_window import MainWindow
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store.campaigns import create_campaign
from tests.builtin import ruleset_ids

pytestmark = pytest.mark.gui

RULESETS = ruleset_ids()
#: the faces that kill the leader on his own throw, by what the throw is for
KILLING = {
    "risk to": (1, 1),  # Quincunx: snake-eyes
    "die of death": (1,),  # Leg VI: a 1, then (the second roll) a 1
    "death test": (6, 6),  # GSB: a double six
}


def _campaign(registry: Registry, ruleset: str) -> Any:
    rs = registry.get(ruleset)
    armies = list(rs.armies)
    rome, carthage = ready_roster(rs, armies[0]), ready_roster(rs, armies[1])
    if not rome.leaders:  # MWAN #90's ready armies have none: a campaign may still name them
        rome, carthage = (
            replace(
                roster,
                leaders=(Leader(lid, name, rank="general"),),
                units=(replace(roster.units[0], leader=lid), *roster.units[1:]),
            )
            for roster, lid, name in (
                (rome, "marcellus", "M. Claudius Marcellus"),
                (carthage, "hannibal", "Hannibal"),
            )
        )
    session = campaign_from_rosters(rs, "Game night", [("Rome", rome), ("Carthage", carthage)])
    for name in ("First battle", "Second battle"):
        session.do(AddBattle(name, (Participant("s1"), Participant("s2"))))
    return session


def _open_campaign(qtbot: QtBot, window: MainWindow, session: Any) -> Any:
    store = window.builder.store
    assert store is not None
    cid = create_campaign(store, session=session)
    from app.gui.campaign.menu import open_view

    view = open_view(window, cid)
    assert view is not None
    qtbot.waitExposed(view)
    view.confirm = lambda title, lines: True  # the preview is accepted
    view.ask_result = lambda dialog: False  # the fought battle gives the result
    return view


def _fight(qtbot: QtBot, window: MainWindow, view: Any) -> BattleWindow:
    bid = view.fight()
    assert bid is not None
    battle = window.battles.windows[bid]
    qtbot.waitExposed(battle)
    return battle


def _front_of(state: BattleState, mover: BattleUnit, target: BattleUnit) -> MoveUnit:
    """``mover`` placed by hand front to front with ``target`` (the umpire's placement: the
    stored form of a move, unchecked)."""
    gap = (mover.depth + target.depth) / 2
    y = target.y + gap if target.facing == 0 else target.y - gap
    return MoveUnit(unit=mover.id, x=target.x, y=y, facing=(target.facing + 180) % 360)


def _host(state: BattleState, leader: BattleLeader) -> BattleUnit:
    assert leader.attached_to is not None
    return state.unit(leader.attached_to)


def _enter_dice(window: BattleWindow, host: BattleUnit, ruleset: str) -> list[str]:
    """Enter dice for the chosen action, throw by throw: the leader's own throw kills him;
    the combat's dice hurt his unit (its own lowest, the enemy's highest)."""
    dialog = window.enter_dice()
    assert isinstance(dialog, DiceDialog)
    asked: list[str] = []
    while dialog.request is not None and dialog.isVisible():
        r = dialog.request
        asked.append(r.purpose)
        killing = next((f for k, f in KILLING.items() if k in r.purpose), None)
        if killing is not None:
            faces = killing[: r.count] if len(killing) >= r.count else killing * r.count
        elif r.purpose.startswith(host.name):  # the unit throwing is named first
            faces = (r.faces[0],) * r.count
        else:
            faces = (r.faces[-1],) * r.count
        dialog.edit.setText(" ".join(map(str, faces)))
        dialog.take()
    assert dialog.step is not None, asked
    return asked


def _kill_by_roll(window: BattleWindow, leader: BattleLeader, ruleset: str) -> None:
    """The leader's unit fights an enemy placed in contact with it; phases go on until the
    rules let the melee be fought."""
    c = window.controller
    host = _host(c.state, leader)
    if ruleset == "d3-ancients":  # the umpire's correction: the unit has taken 8 hits
        window.unit_panel.show_unit(host.id)
        window.unit_panel.field.setCurrentIndex(window.unit_panel.field.findText("hits"))
        window.unit_panel.value.setValue(8)
        window.unit_panel.set_button.click()
        assert c.state.unit(host.id).status.hits == 8
    enemy = next(u for u in c.state.units if u.side != host.side and not u.status.eliminated)
    c.execute(_front_of(c.state, enemy, host))
    if ruleset == "quincunx":  # in command to attack: its commander rides with it (issue 25)
        theirs = [ld for ld in c.state.leaders if ld.side == enemy.side]
        commander = next(
            (ld for ld in theirs if enemy.command in ld.commands),
            next(ld for ld in theirs if ld.rank == "general"),
        )
        c.execute(AttachLeader(leader=commander.id, unit=enemy.id))
    for _ in range(16):
        acting = window.acting
        view = c.state.view()
        if (
            ruleset == "grown-slightly-bald"
            and c.session.mechanics.side_in_play(view) == enemy.side
            and not view.unit(enemy.id).status.has("activated")
        ):  # only the unit activated fights (GSB, Turn order; issue 25)
            acting.set_pair(enemy.id)
            acting.choose_action("activate")
            acting.roll_button.click()
        acting.choose_action("melee")
        acting.set_pair(enemy.id, host.id)
        command = acting.command()
        assert command is not None
        now = c.session.mechanics.may_act("melee", command.situation(c.state, c.session.mechanics))
        if acting.odds is not None and now is None:  # the rules let it be fought now
            before = len(c.session.steps)
            _enter_dice(window, c.state.unit(host.id), ruleset)
            assert len(c.session.steps) == before + 1
            return
        window.turn_panel.next_button.click()
    raise AssertionError(f"{enemy.name} never got to fight {host.name}")


def _umpire(window: BattleWindow, leader: BattleLeader, fate: str) -> None:
    """The umpire's call in the Leaders dock: the leader picked, the fate, Set fate."""
    panel = window.leaders_panel
    row = next(
        i
        for i in range(panel.table.rowCount())
        if panel.table.item(i, 0).data(256) == leader.id  # Qt.UserRole
    )
    panel.table.setCurrentCell(row, 0)
    panel.fate_combo.setCurrentIndex(panel.fate_combo.findData(fate))
    panel.fate_button.click()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_campaign_battle_fought_in_the_window_carries_its_leaders(
    qtbot: QtBot, window: MainWindow, registry: Registry, ruleset: str
) -> None:
    view = _open_campaign(qtbot, window, _campaign(registry, ruleset))
    battle = _fight(qtbot, window, view)
    c = battle.controller
    state = c.state
    rome = [ld for ld in state.leaders if ld.side == 0]
    assert rome, "the Roman army has a leader"
    doomed = rome[0]
    if doomed.attached_to is None:  # Leg VI: detached behind his command; the player attaches
        host = next(u for u in state.units if u.side == 0 and u.command is not None)
        battle.leaders_dock.raise_()  # the Leaders dock, tabbed behind the Unit dock
        qtbot.waitUntil(lambda: battle.leaders_panel.seen)
        battle.leaders_panel.table.setCurrentCell(
            next(
                i
                for i in range(battle.leaders_panel.table.rowCount())
                if battle.leaders_panel.table.item(i, 0).data(256) == doomed.id
            ),
            0,
        )
        combo = battle.leaders_panel.unit_combo
        combo.setCurrentIndex(combo.findData(host.id))
        battle.leaders_panel.attach_button.click()
        doomed = c.state.leader(doomed.id)
        assert doomed.attached_to == host.id
    if ruleset == "mwan90":  # the article has no leaders: the umpire kills him
        _umpire(battle, doomed, "killed")
    else:
        _kill_by_roll(battle, doomed, ruleset)
        if ruleset == "d3-ancients":  # "Eliminating units" is the turn's last step
            for _ in range(8):
                if c.state.leader(doomed.id).status == "killed":
                    break
                battle.turn_panel.next_button.click()
            assert any(doomed.name in line for line in c.session.steps[-1].lines)
        else:  # the result card says so where the player looks
            card = battle.acting.shown_card
            assert card is not None and any(doomed.name in line for line in card.changes)
    assert c.state.leader(doomed.id).status == "killed", c.session.steps[-1].lines
    # a second leader (the Carthaginian general where Rome had only one) wounded by the umpire
    hurt = next(ld for ld in c.state.leaders if ld.id != doomed.id and ld.active)
    _umpire(battle, hurt, "wounded")
    assert (c.state.leader(hurt.id).status, c.state.leader(hurt.id).wounds) == ("wounded", 1)
    # the players declare the end; the result comes back to the campaign
    dialog = battle.declare_result()
    dialog.winner.setCurrentIndex(1)
    dialog.take()
    first = view.session.campaign.battles[0]
    assert first.result is not None and first.result.source == "fought"
    fates = {lo.name: lo.fate for side in first.result.sides for lo in side.leaders}
    assert fates[doomed.name] == "killed" and fates[hurt.name] == "wounded"
    assert view.apply()
    battle.close()
    # the next battle: the dead leader is not fielded, the wounded one fights wounded
    second = _fight(qtbot, window, view)
    s2 = second.controller.state
    names = {ld.name: ld for ld in s2.leaders}
    assert doomed.name not in names
    again = names[hurt.name]
    assert (again.status, again.wounds) == ("wounded", 1)
    mech = mechanics_for(registry.get(ruleset))
    view_of = s2.leader_view(again)
    if ruleset == "quincunx":  # "Wounding reduces the commander's movement to 2 MF (6")"
        assert mech.leader_move(view_of) == 6.0  # type: ignore[attr-defined]
    if ruleset == "leg-vi-carthago":  # "Wounded. Lose one action."
        fit = replace(view_of, wounds=0)
        record = s2.sides[again.side].record
        budget = mech.leader_budget  # type: ignore[attr-defined]
        assert budget(view_of, record) == budget(fit, record) - 1
    second.close()
    window.action_registry[ActionKey.QUIT].trigger()
