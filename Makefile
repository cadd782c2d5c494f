# The two commands of the README: `make run` and `make test`. Each creates the virtual
# environment and installs the packages on first use (and again when pyproject.toml changes).
# The interpreter the environment is made from (another: make PYTHON=...): the system's own
# CPython where it is 3.11 or later and can make one, else python3. Distributions build their
# CPython with profile-guided and link-time optimisation; one compiled from source or by
# pyenv is built without them unless asked, and ran Castra's Python a seventh to a third
# slower on these machines (CONTRIBUTING.md, "The interpreter").
PYTHON ?= $(shell for py in /usr/bin/python3 python3; do \
	$$py -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& { echo $$py; exit 0; }; done; echo python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.castra-installed
DIST_STAMP := $(VENV)/.castra-dist-installed

.PHONY: run test docs lint check bench opponent dist clean

run: $(STAMP)
	$(VENV)/bin/castra

test: $(STAMP)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check app tests rulesets scripts db
	$(VENV)/bin/ruff format --check app tests scripts db
	$(VENV)/bin/mypy
	$(VENV)/bin/mkdocs build --strict --quiet --site-dir build/site
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q $(PYTEST_ARGS)

# The documentation site (mkdocs.yml: docs/, the user guide among its pages) in build/site/.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict --site-dir build/site

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) scripts/bench.py

# Castra the opponent against a uniformly random baseline: 50 seeded battles per ruleset on
# the ready armies (issue 30; the README's table). Long: not part of `make test`.
opponent: $(STAMP)
	$(PY) scripts/opponent_winrate.py --battles 50 $(OPPONENT_ARGS)

# The stand-alone bundle (castra.spec): dist/castra/, then its smoke test (scripts/smoke_bundle.py).
dist: $(DIST_STAMP)
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath dist \
		--workpath build/pyinstaller castra.spec
	$(PY) scripts/smoke_bundle.py dist/castra

$(DIST_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,dist]'
	touch $(DIST_STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build dist
