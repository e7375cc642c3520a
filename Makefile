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

# The site: Voilà with the home page at "/" (akvo_widgets.site), settings in book/voila.json.
book: $(STAMP)
	@echo "Serving the Akvolition book on http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	cd book && $(CURDIR)/$(BIN)/python -m akvo_widgets.site . --no-browser \
		--Voila.ip=$(HOST) --port=$(PORT) --Voila.port_retries=0

# Authors: the same notebooks in JupyterLab (as root, JupyterLab needs --allow-root).
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=book --ip=$(HOST) --no-browser --allow-root

lint: $(STAMP)
	$(BIN)/ruff check akvo widgets tests benchmarks
	$(BIN)/ruff format --check akvo widgets tests benchmarks
	$(BIN)/mypy akvo widgets

format: $(STAMP)
	$(BIN)/ruff check --fix akvo widgets tests benchmarks
	$(BIN)/ruff format akvo widgets tests benchmarks

# Every test: tests/ (unit, widgets, notebooks' files, Chromium browser tests) and book/
# (each notebook executed by nbval); see [tool.pytest.ini_options] in pyproject.toml.
test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_odds.py
	$(BIN)/python benchmarks/bench_shots.py
	taskset -c 0 $(BIN)/python benchmarks/bench_match.py
	$(BIN)/python benchmarks/bench_site.py
	$(BIN)/python benchmarks/bench_bots.py
	$(BIN)/python benchmarks/bench_lab.py
	$(BIN)/python benchmarks/bench_ladder.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-artifacts
