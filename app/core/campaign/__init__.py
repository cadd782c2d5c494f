"""Campaigns: linked battles whose results carry leaders' wounds, deaths and captures and the
armies' losses from one battle to the next (no Qt, no database, no PDF)."""
