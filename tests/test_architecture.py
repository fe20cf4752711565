"""The architecture's guards (issue 15, docs/ARCHITECTURE.md "Layers"), run with the suite so that CI
enforces them as `make lint` does:

- the import contracts of pyproject.toml ``[tool.importlinter]``, checked by import-linter: a pure
  engine (no front end, store, SQL or Discord), games that know nothing of the referee, a game
  contract that knows no game, cogs that reach the store only through the referee, and no import
  cycle between the top-level packages nor between sibling modules;
- mypy on engine/ (pyproject.toml ``[tool.mypy]``), strict on all of it (the game contract, the
  referee, the games, the entry points), and no module excused (no ``ignore_errors`` override).

Each runs in a process of its own, from the repository, as a developer would run it. mypy keeps its
cache in .mypy_cache: a cold run takes a few seconds, a warm one well under a second.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The flags that --strict turns on and that mypy accepts per module (--warn-redundant-casts is
# global). A per-module `strict = true` would be read as strict mode everywhere.
STRICT_FLAGS = {
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
    "extra_checks",
    "warn_unused_ignores",
}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_import_contracts_hold() -> None:
    lint_imports = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    run = _run("-c", lint_imports, "--no-logo")  # the `lint-imports` command, with this interpreter
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout, run.stdout


def test_the_engine_type_checks() -> None:
    run = _run("-m", "mypy")  # what it checks (engine/) and how strictly: pyproject.toml
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_whole_engine_is_checked_strictly() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["engine"]
    assert "strict" not in config
    strict = [override for override in config["overrides"] if STRICT_FLAGS <= override.keys()]
    assert len(strict) == 1 and all(strict[0][flag] is True for flag in STRICT_FLAGS)
    assert {"engine", "engine.*"} <= set(strict[0]["module"])
    # No other override may loosen a strict module again (a later override of the same module wins).
    for override in config["overrides"]:
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        if override is not strict[0]:
            assert not [module for module in modules if module.startswith("engine")], override


def test_no_module_of_the_engine_is_excused_from_type_checking() -> None:
    """mypy's "passing" means nothing for a module it is told to ignore: an ``ignore_errors`` (or a
    ``follow_imports = "skip"``) must not come back for a module of engine/, silently or not."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert "ignore_errors" not in config
    for override in config["overrides"]:
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        assert "ignore_errors" not in override, f"mypy is told to ignore the errors of {modules}"
        if override.get("follow_imports") in ("skip", "silent"):
            assert not [module for module in modules if module.startswith("engine")], modules
