"""``python -m tests.console.nim_console ...``: the local table with the test-only Nim registered.

Lets the pipe tests drive a real ``python -m console`` process on a game whose rules are tiny and
stable, without adding Nim to the bot's registry.
"""

import sys

from console import main
from engine.games import REGISTRY

REGISTRY["nim"] = "tests.toy_game"

raise SystemExit(main(sys.argv[1:]))
