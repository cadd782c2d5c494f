"""The campaign view (a window of its own, opened from the Campaign menu)."""
