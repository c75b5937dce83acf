"""Boards shipped with the package (GridBloc presets, RULES GB-1)."""
