"""Vege tables for two (registry name ``vegetables`` with 2 players): Board Game Arena's 2-player
game, docs/rules/vegetables-2p.md. The same rooms as its parent package (model, setup, rules,
reasons, views, notation, render, ai); the parent's Game object hands it every 2-player state.
"""
