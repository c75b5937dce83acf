# The two commands of the README:
#   make lab    sets everything up and opens the tutorials in JupyterLab
#   make test   sets everything up and runs every test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BUNDLE := gridwidgets/static/widget.js
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1

.PHONY: setup setup-lab lab classroom docs test test-fast lint build dist chromium bench notebooks golden clean

# everything the tests, docs and benchmarks need (the dev extra)
setup: $(VENV)/.installed $(BUNDLE)
# what the tutorials import, and JupyterLab (the lab extra): a first `make lab` in a few minutes
setup-lab: $(VENV)/.lab $(BUNDLE)

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(BUNDLE): node_modules/.installed gridwidgets/core/palette.json $(shell find js -type f -not -path "js/src/generated/*" 2>/dev/null)
	npm run build

build: node_modules/.installed
	npm run build

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# the bundle is built above: the build hook would run `npm install` again (and rewrite package-lock.json)
$(VENV)/.installed: pyproject.toml $(BUNDLE) | $(BIN)/python
	SKIP_JUPYTER_BUILDER=1 $(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

# the dev extra holds the lab extra: after `make test`, `make lab` installs nothing
$(VENV)/.lab: pyproject.toml $(BUNDLE) | $(BIN)/python
	if [ ! $(VENV)/.installed -nt pyproject.toml ]; then \
	  SKIP_JUPYTER_BUILDER=1 $(BIN)/python -m pip install --quiet -e ".[lab]"; fi
	touch $@

# the sdist and the wheel as released, from a clean copy of the committed tree (git archive): the sdist
# carries js/ and no bundle, and the wheel is built from the sdist (its build hook runs npm there)
# (uncommitted changes to tracked files are included: `git stash create` records them without touching
#  the checkout). `make dist DIST=folder` writes elsewhere. Needs Node.js and npm, as the sdist does.
DIST ?= dist
dist: setup
	rm -rf "$(DIST)" && mkdir -p "$(DIST)/.tree"
	ref=$$(git stash create); git archive --format=tar "$${ref:-HEAD}" | tar -x -C "$(DIST)/.tree"
	$(BIN)/python -m build --outdir "$(DIST)" "$(DIST)/.tree"
	rm -rf "$(DIST)/.tree"
	$(BIN)/python -m twine check --strict "$(DIST)"/*.tar.gz "$(DIST)"/*.whl

# Debian's Chromium for the browser tests (never a browser download), and
# rsvg-convert, the plain SVG rasteriser the picture tests compare with
chromium:
	@test -x $(CHROMIUM) -a -x /usr/bin/rsvg-convert || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium librsvg2-bin; \
	  else echo "Browser tests need Debian's chromium and librsvg2-bin: sudo apt-get install chromium librsvg2-bin"; exit 1; fi; }

lab: setup-lab
	$(BIN)/jupyter lab --ip=$(HOST) --ServerApp.root_dir=notebooks --LabApp.default_url=/lab/tree/00-welcome.ipynb \
	  --LabApp.news_url=None --ServerApp.log_level=WARN $(if $(filter 0,$(shell id -u)),--allow-root) 2>&1 \
	  | sed -u '/Fail to get yarn configuration/,/^Node\.js v/d'
# (the filter, line by line, hides one known start-up error of JupyterLab's
#  bundled yarn, which does not matter here: nothing is built at start-up)

# the classroom app: a standalone page (Voila) to pick a game and play, no code shown
classroom: setup
	$(BIN)/python -m gridwidgets classroom

# the documentation site into site/, strict: a warning fails the build
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: setup
	$(BIN)/ruff check gridwidgets tests benchmarks tools docs/hooks conftest.py
	$(BIN)/lint-imports
	npm run typecheck

test-fast: setup
	$(BIN)/python -m pytest tests -m "not browser" -q

test: setup chromium lint
	$(BIN)/python -m pytest tests notebooks --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -q -p no:cacheprovider
	$(BIN)/python -m pytest --markdown-docs --markdown-docs-syntax=superfences README.md docs -q -p no:cacheprovider

# rewrite the golden playthroughs (tests/golden/*.txt) after a deliberate change; read the diff
golden: setup
	$(BIN)/python -m gridwidgets.testing golden tests/golden

# re-run the tutorials in place (their stored outputs are what nbval checks)
notebooks: setup
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	  --ExecutePreprocessor.store_widget_state=False --ExecutePreprocessor.record_timing=False \
	  --NotebookExporter.preprocessors='["nbconvert.preprocessors.CoalesceStreamsPreprocessor"]' \
	  notebooks/*.ipynb

bench: setup chromium
	$(BIN)/python benchmarks/click_latency.py
	$(BIN)/python benchmarks/click_latency.py --game gridmaster4
	$(BIN)/python benchmarks/gridmaster_speed.py

clean:
	rm -rf $(VENV) node_modules gridwidgets/static
