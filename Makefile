# Two commands for a fresh machine (Python >= 3.11): `make book` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   := 127.0.0.1
PORT   ?= 8866

ENGINE := build/engine.stamp
# `pip install akvo` is the engine alone (numpy, scipy); the book, the lab and the tests need
# the extras (pyproject.toml), all installed here.
EXTRAS := lab,online,book,test

.PHONY: install compile book lab check test lint format bench shots clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[$(EXTRAS)]'
	@touch $(STAMP)

# The compiled engine (optional, see akvo/compiled.py and setup.py): mypyc compiles the engine
# and the bots beside their sources. build/engine.d (written by a successful build) lists every
# source compiled, so an edit recompiles here; importing akvo also checks the sources' hashes
# and falls back to pure Python if the build is stale. AKVO_PURE=1 skips compiling; a failed
# compilation (no C compiler) leaves the pure-Python engine, with a warning.
-include build/engine.d
$(ENGINE): $(STAMP) setup.py akvo/compiled.py
	@mkdir -p build
	@if [ "$$AKVO_PURE" = 1 ]; then echo "AKVO_PURE=1: the engine is not compiled"; exit 0; fi; \
	echo "Compiling the engine with mypyc (1–3 min; log in build/compile.log)"; \
	if AKVO_COMPILE=1 $(BIN)/python setup.py build_ext --inplace >build/compile.log 2>&1; \
	then echo "Compiled (akvo/compiled.json lists the sources compiled)"; \
	else tail -n 20 build/compile.log; \
	  echo "WARNING: compiling the engine failed; akvo runs in pure Python"; fi; \
	touch $@

install: $(STAMP) $(ENGINE)

# Compile now, even if make thinks the build is up to date (e.g. after installing gcc).
compile: $(STAMP)
	@rm -f $(ENGINE)
	@$(MAKE) --no-print-directory $(ENGINE)

# The site: Voilà with the home page at "/" (akvo_site), settings in book/voila.json.
# A reader on their own machine: one pre-heated kernel per page (about 1 GB), not the
# public server's pools of book/voila.json (76 kernels, about 3 GB; README, « Serve it
# publicly »), and pools that do not grow with the readers. `make book POOLS=` keeps
# book/voila.json's pools.
POOLS ?= --VoilaKernelManager.kernel_pools_config='{"default": {"pool_size": 1}}' \
	--BookPools.memory_mb=0
book: $(STAMP) $(ENGINE)
	@echo "Serving the Akvolition book on http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	cd book && $(CURDIR)/$(BIN)/python -m akvo_site . --no-browser \
		--Voila.ip=$(HOST) --port=$(PORT) --Voila.port_retries=0 $(POOLS)

# Authors: the same notebooks in JupyterLab (as root, JupyterLab needs --allow-root).
lab: $(STAMP) $(ENGINE)
	$(BIN)/jupyter lab --ServerApp.root_dir=book --ip=$(HOST) --no-browser --allow-root

lint: $(STAMP)
	$(BIN)/ruff check akvo akvo_widgets akvo_site tests benchmarks setup.py
	$(BIN)/ruff format --check akvo akvo_widgets akvo_site tests benchmarks setup.py
	$(BIN)/mypy akvo akvo_widgets akvo_site benchmarks

format: $(STAMP)
	$(BIN)/ruff check --fix akvo akvo_widgets akvo_site tests benchmarks setup.py
	$(BIN)/ruff format akvo akvo_widgets akvo_site tests benchmarks setup.py

# Every test: tests/ (unit, widgets, notebooks' files, Chromium browser tests) and book/
# (each notebook executed by nbval), with the compiled engine if it built; see
# [tool.pytest.ini_options] in pyproject.toml. Then the engine's golden playthroughs and
# records once more in pure Python (AKVO_PURE=1), the fallback every machine can run.
# The fast lane for the edit–test loop (about 2 minutes): lint, types, and every test that
# needs no browser and no server (markers `browser` and `server`, tests/conftest.py), the
# notebooks through nbval included, on both cores (pytest-xdist; a file's tests stay on one
# worker, as nbval needs); the few `slow` tests (each over ten seconds) wait for make test.
# AKVO_NO_SERVERS=1 makes an unmarked test that starts a server fail here rather than slow
# the lane down.
check: lint $(ENGINE)
	AKVO_NO_SERVERS=1 $(BIN)/python -m pytest -q -p no:cacheprovider -n 2 --dist loadfile \
	  -m "not browser and not server and not slow"

PURE_TESTS := tests/match/test_match_golden.py tests/match/test_match_serialization.py \
	tests/test_compiled.py
# The two lanes run side by side: the browser tests mostly wait for kernels and Chromium,
# the others (the server tests without a browser included) keep the cores busy meanwhile.
# The browser lane itself runs on two workers (pytest-xdist, a file's tests on one worker,
# each worker with its own book server and Chromium): alone on one worker it took 18 min,
# the cores idle half the time. The second lane's report is printed after the first's; each
# lane lists its 15 slowest tests, to see where the 15 minutes go.
FAST_LOG := test-artifacts/test-fast-lane.log
test: lint $(ENGINE)
	@mkdir -p test-artifacts
	@( $(BIN)/python -m pytest -p no:cacheprovider -m "not browser" --durations=15 \
	  && AKVO_PURE=1 $(BIN)/python -m pytest -q -p no:cacheprovider $(PURE_TESTS) ) \
	  >$(FAST_LOG) 2>&1 & fast=$$!; \
	$(BIN)/python -m pytest -m browser -n 2 --dist loadfile --durations=15; slow=$$?; \
	wait $$fast; fast=$$?; \
	echo "=== the tests without a browser ($(FAST_LOG))"; cat $(FAST_LOG); \
	test $$slow = 0 && test $$fast = 0

# Screenshots of every page at 1280 and 390 px (test-artifacts/shots/): look at them after
# every change to a page. PAGES="des.ipynb equipes.ipynb" for some pages only.
shots: $(STAMP) $(ENGINE)
	$(BIN)/python -m tests.browser.shots $(PAGES)

bench: $(STAMP) $(ENGINE)
	$(BIN)/python benchmarks/bench_odds.py
	$(BIN)/python benchmarks/bench_shots.py
	taskset -c 0 $(BIN)/python benchmarks/bench_match.py
	$(BIN)/python benchmarks/bench_site.py
	$(BIN)/python benchmarks/bench_bots.py
	$(BIN)/python benchmarks/bench_lab.py
	$(BIN)/python benchmarks/bench_ladder.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-artifacts build
	rm -f akvo/compiled.json $(wildcard akvo/*.so akvo/*/*.so)
