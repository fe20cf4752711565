# Two commands on a fresh machine: `make run` and `make test`. Both build .venv first.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench simulate clean

$(STAMP): requirements.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed (set PYTHON=/path/to/python3.11)"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $(STAMP)

# Compiling our sources once spares every start from compiling them again (where the environment
# sets PYTHONDONTWRITEBYTECODE, imports never write bytecode themselves); quick when up to date.
SOURCES := bot.py config.py cogs db engine console

run: $(STAMP)
	@$(PY) -m compileall -q $(SOURCES) >/dev/null
	$(PY) bot.py

test: $(STAMP)
	$(PY) -m pytest -q

# Style (ruff), the import contracts of pyproject.toml (import-linter) and the types of engine/ (mypy).
lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports --no-logo
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .import_linter_cache
