"""What a user can do with Castra's store, one function an operation, shared by the window
(:mod:`app.gui`) and the command line (:mod:`app.cli`), neither of which imports
:mod:`app.store` (an import contract in ``pyproject.toml``).

Each operation that changes something is one transaction and returns what it changed, in
the spirit of Anki's collection operations (``OpChanges``): the caller shows the change, it
does not redo the work. Locking, stale-write refusal and the store guard
(:mod:`app.store.guard`) are the store's; going through one operation means a fix to them is
made once.

The modules are loaded on first use, as the store's are: :mod:`app.usecases.battle` and
:mod:`app.usecases.campaign` bring the battle and campaign cores, which the library and the
roster editor never need.
"""
