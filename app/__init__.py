"""Castra: army builder, battle runner and campaign manager for Second Punic War wargames."""

__version__ = "0.1.0"
