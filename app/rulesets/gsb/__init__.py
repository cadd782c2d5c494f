"""Grown Slightly Bald (five minute Punic War rules): schema, rules helpers and mechanics."""
