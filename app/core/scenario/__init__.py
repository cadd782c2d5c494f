"""Historical battles (issue 28): the war's great fields with the forces the sources give,
set for every ruleset, read from data (:mod:`app.core.scenario.library`), made into rosters
(:mod:`app.core.scenario.build`) and battles on their field
(:mod:`app.core.scenario.deploy`), and compared with what happened
(:mod:`app.core.scenario.history`)."""
