"""View hooks of the package's games, one module per game (mixins of the engines)."""
