"""The rules engine: a pure game contract, one package per game, and the referee over them."""
