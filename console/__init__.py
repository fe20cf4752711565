"""The local table: a terminal front end on the same referee and store as the Discord bot.

``main()`` runs it (``make run`` without a Discord token, or ``python -m console``).
"""

from .app import main

__all__ = ["main"]
