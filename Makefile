# Two commands for a fresh machine (Python >= 3.11): `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   := 127.0.0.1
PORT   ?= 8866

.PHONY: install book lab test lint format bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

install: $(STAMP)

book: $(STAMP)
	@echo "Serving the Akvolition book on http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	$(BIN)/voila book --no-browser --Voila.ip=$(HOST) --port=$(PORT) --Voila.port_retries=0

lab: $(STAMP)
	$(BIN)/jupyter lab book --ip=$(HOST) --no-browser --allow-root

lint: $(STAMP)
	$(BIN)/ruff check akvo widgets tests benchmarks
	$(BIN)/ruff format --check akvo widgets tests benchmarks
	$(BIN)/mypy akvo widgets

format: $(STAMP)
	$(BIN)/ruff check --fix akvo widgets tests benchmarks
	$(BIN)/ruff format akvo widgets tests benchmarks

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_odds.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-artifacts
