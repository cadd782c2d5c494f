"""The battle window: the table map with its docks (issue 10)."""
