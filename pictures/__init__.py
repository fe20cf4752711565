"""``python -m pictures``: draw any position of a game for review (see ``__main__``)."""
