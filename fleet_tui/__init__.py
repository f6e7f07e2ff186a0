"""fleet-tui: a terminal UI for exploring and debugging reinforcement-learning environments."""

__version__ = "0.1.0"
