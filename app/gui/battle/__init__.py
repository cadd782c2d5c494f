"""The battle window's parts: the map (:mod:`app.gui.battle.map`) and its docks."""
