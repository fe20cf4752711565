"""What a start of the bot imports: not the rating library (needed when a rated game ends) nor the
terminal table's UI libraries (needed without DISCORD_TOKEN only). No timing here: only which
modules, checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_importing_the_bot_leaves_the_rating_library_and_the_terminal_ui_alone() -> None:
    code = (
        "import sys, bot, db, engine.referee; "
        "print(sorted({name.split('.')[0] for name in sys.modules} & {'openskill', 'rich', 'prompt_toolkit', 'console'}))"
    )
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
