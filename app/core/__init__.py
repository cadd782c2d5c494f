"""Plain-Python core: rosters, totals, validation, the roster file, undo history, dice and
battles. Imports no Qt, no database and no PDF library (checked by import-linter)."""
