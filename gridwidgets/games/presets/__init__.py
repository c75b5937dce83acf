"""Boards shipped with the package for the games (presets, e.g. GB-1)."""
