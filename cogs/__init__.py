"""Discord adapters: slash commands, persistent buttons and selects, DMs and boards (see docs/ARCHITECTURE.md)."""
