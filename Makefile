# horologe: `make run` serves over stdio, `make test` runs the whole test suite, `make test-fast` its in-process part.
# Both bootstrap uv into .tools/ and build .venv/ from uv.lock (nothing else needs to be installed).
# Bytecode is compiled at install, so a server starts from .pyc even where PYTHONDONTWRITEBYTECODE is set.

PYTHON ?= python3
UV := .tools/bin/uv
VENV := .venv
ARGS ?=
# The version lives in one place, src/horologe/__init__.py; the package (hatch), the bundle, server.json and the
# image context read it from there.
VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"$$/\1/p' src/horologe/__init__.py)

.PHONY: run install test test-fast check lint format typecheck clean packages executable bundle image-context dist \
	release-check bench i18n-extract i18n-update i18n-compile

# uv itself, from PyPI into .tools/: `pip install --target` needs no virtual environment (creating one with pip in it
# was the slowest step of a fresh set-up); a Python whose own pip is missing (or refuses) gets one from ensurepip.
$(UV):
	@echo "horologe: installing uv into .tools/ (once)" >&2
	PIP_ROOT_USER_ACTION=ignore $(PYTHON) -m pip install --quiet --disable-pip-version-check --target .tools \
		"uv>=0.5,<1" 2>/dev/null || { rm -rf .tools && $(PYTHON) -m venv .tools && \
		.tools/bin/pip install --quiet --disable-pip-version-check "uv>=0.5,<1"; }

$(VENV)/.runtime: $(UV) pyproject.toml uv.lock
	@echo "horologe: installing the locked dependencies into .venv/ (once)" >&2
	$(UV) sync --frozen --no-dev --extra fast --extra http --compile-bytecode
	touch $@

$(VENV)/.dev: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --extra fast --extra http --compile-bytecode
	touch $@ $(VENV)/.runtime

# stdout belongs to the protocol, from the first run on: the set-up (a sub-make, silent when there is nothing to do)
# writes to stderr, and the server replaces the shell. `make -C DIR run` is the exception no Makefile can mend: make
# writes "make: Entering directory" on stdout before it reads this file. So run says so on stderr, with the two
# forms whose stdout is clean: make --no-print-directory -C DIR run, or the command `make install` puts on PATH.
PRINTS_DIRECTORY := $(if $(filter 0,$(MAKELEVEL)),$(findstring w,$(firstword -$(MAKEFLAGS))))
DIRECTORY_LINE_HINT := horologe: make -C wrote "make: Entering directory" on stdout, ahead of the protocol, and a client may refuse that line: use make --no-print-directory -C DIR run, or the command `make install` puts on PATH
run:  ## serve MCP over stdio (pass flags with ARGS="--default-timezone Europe/Vienna")
	@$(if $(PRINTS_DIRECTORY),echo '$(DIRECTORY_LINE_HINT)' >&2)
	@$(MAKE) --no-print-directory -s $(VENV)/.runtime >&2
	@exec $(VENV)/bin/horologe serve $(ARGS)

# Until horologe is on PyPI, the way to the `horologe` command a client runs: the wheel built from this clone, installed
# as a uv tool (its own environment, the lock file's versions as constraints) into uv's tool bin directory.
install: dist/.packages  ## install the `horologe` command from this clone (and print the line that adds it to a client)
	mkdir -p build
	$(UV) export --quiet --frozen --no-dev --no-emit-project --no-hashes -o build/install-constraints.txt
	$(UV) tool install --quiet --force --python $(PYTHON) --constraints build/install-constraints.txt $(WHEEL)
	@bin="$$($(UV) tool dir --bin)"; \
	echo "horologe: installed $$bin/horologe"; \
	case ":$$PATH:" in *":$$bin:"*) ;; *) echo "horologe: $$bin is not on your PATH: add it, or give clients the full path";; esac; \
	echo "horologe: add it to Claude Code with: claude mcp add horologe -- $$bin/horologe"; \
	echo "horologe: in a client's JSON: \"command\": \"$$bin/horologe\", \"args\": []"

# Tests run in parallel (pytest-xdist), a module's tests in one worker (`--dist loadfile`: a module's servers and
# builds are made once). Process tests wait more than they compute, so `make test` runs two workers per core.
# `make test-fast` builds nothing and starts no process, so its tests are shared out one by one, an idle worker taking
# the rest of a busy one's (`--dist worksteal`): 75-80 s against loadfile's 84-89 s on 2 cores, where the module
# waiting on connection deadlines kept one worker to itself.
# Where PYTHONDONTWRITEBYTECODE is set, pytest rewrote every test module's asserts in every worker of every run (half
# of each worker's 19 s of collection); with it cleared for the run, the rewritten modules are kept in __pycache__.
test: $(VENV)/.dev  ## the whole suite with branch coverage, gated (installs nginx, redis, Node tools; builds dist/)
	scripts/install-test-deps
	rm -f .coverage .coverage.*
	PYTHONDONTWRITEBYTECODE= $(UV) run --frozen pytest -n $(TEST_WORKERS) --dist loadfile --cov --cov-report=term \
		--cov-fail-under=95 --durations=25

test-fast: $(VENV)/.dev  ## the inner loop: every test that runs in this process (no builds, processes or network)
	PYTHONDONTWRITEBYTECODE= $(UV) run --frozen pytest -m "not e2e" -n auto --dist worksteal

TEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 2) )))

check: $(VENV)/.dev  ## lint, format, type checks (source and tests) and the layer contracts
	$(UV) run --frozen ruff check src tests bench release scripts
	$(UV) run --frozen ruff format --check src tests bench release scripts
	$(UV) run --frozen mypy
	$(UV) run --frozen lint-imports

format: $(VENV)/.dev
	$(UV) run --frozen ruff check --fix src tests bench release scripts
	$(UV) run --frozen ruff format src tests bench release scripts

clean:
	rm -rf .tools $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.* build dist

# What a release ships, built once into dist/ (tests/release checks each and runs it from outside the repository):
# the wheel and the sdist (`uv build`), and one file to copy and run, a PEX (github.com/pex-tool/pex) of the locked
# dependencies and that wheel, the http extra included. The PEX needs a Python 3.11+ on the target; its first run
# unpacks into ~/.cache/pex (PEX_ROOT), every later run starts straight from there (--sh-boot: no second
# interpreter start, --compile: bytecode made at build).
PEX := $(UV) tool run --from "pex>=2.105,<3" pex
SOURCES := pyproject.toml uv.lock README.md LICENSE $(shell find src/horologe -type f -not -name '*.pyc')

packages: dist/.packages  ## build the wheel and the sdist into dist/

dist/.packages: $(UV) $(SOURCES)
	rm -f dist/horologe-*.whl dist/horologe-*.tar.gz
	$(UV) build --quiet --out-dir dist
	touch $@

executable: dist/horologe  ## build dist/horologe, a single-file executable (PEX) of dist/'s wheel

dist/horologe: dist/.packages
	mkdir -p build
	$(UV) export --quiet --frozen --no-dev --extra http --no-emit-project --no-hashes -o build/requirements.txt
	$(PEX) -r build/requirements.txt $(WHEEL) -c horologe --venv prepend --sh-boot --compile --python $(PYTHON) -o $@

# The rest of a release, made from the package by `python -m release` (release/): the MCP Bundle (server type uv:
# the wheel and the locked stdio dependencies), the MCP Registry's server.json (which lists the bundle's SHA-256),
# and the image's build context (the Dockerfile with VERSION and REVISION filled in, and what it copies).
WHEEL := dist/horologe-$(VERSION)-py3-none-any.whl
BUNDLE := dist/horologe-$(VERSION).mcpb
RELEASE_SOURCES := $(wildcard release/*.py) release/icon.png

bundle: $(BUNDLE)  ## build dist/horologe-<version>.mcpb, the MCP Bundle (Claude Desktop's one-click install)

$(BUNDLE): dist/.packages $(RELEASE_SOURCES) $(VENV)/.dev
	mkdir -p build
	$(UV) export --quiet --frozen --no-dev --no-emit-project --no-hashes -o build/bundle-requirements.txt
	$(VENV)/bin/python -m release bundle --wheel $(WHEEL) --requirements build/bundle-requirements.txt --uv $(UV)

dist/server.json: $(BUNDLE)
	$(VENV)/bin/python -m release server-json

image-context: dist/image/Dockerfile  ## build dist/image/, what `docker build` of a release reads

dist/image/Dockerfile: Dockerfile $(SOURCES) $(RELEASE_SOURCES) $(VENV)/.dev
	$(VENV)/bin/python -m release image-context

dist: dist/horologe $(BUNDLE) dist/server.json dist/image/Dockerfile  ## build everything a release ships into dist/

# tests/release builds `make dist` once (as `make test` does) and checks every artefact: twine, the registry's schema,
# mcpb validate, identity and version in every file that names them, a smoke run of each from a fresh cache. A failed
# check is one line naming the artefact and the check. `make test` runs the same tests among all the others.
# It ends by refusing to publish under a placeholder or foreign owner, or with a README that says "not on PyPI yet".
release-check: $(VENV)/.dev  ## build and check everything a release ships, then whether it may be published
	tests/interop/install.sh >&2
	$(UV) run --frozen pytest tests/release -p no:cacheprovider -q --tb=no -rN -n 2 --dist loadfile
	$(VENV)/bin/python -m release publishable

# Catalogs (SEP-2792): extract our strings, merge them into every language's .po, compile the shipped .mo files.
LOCALES := src/horologe/i18n/locales
I18N_LANGUAGES := en de fr es ja zh_Hans

i18n-extract: $(VENV)/.dev  ## collect translatable strings into $(LOCALES)/horologe.pot
	$(UV) run --frozen pybabel extract -F babel.cfg --no-location --sort-output --project horologe \
		--copyright-holder "horologe contributors" -o $(LOCALES)/horologe.pot src/horologe

i18n-update: $(VENV)/.dev  ## merge the template into each .po (new languages: pybabel init -l <lang>)
	for lang in $(I18N_LANGUAGES); do \
		if [ -f $(LOCALES)/$$lang/LC_MESSAGES/horologe.po ]; then \
			$(UV) run --frozen pybabel update -D horologe -i $(LOCALES)/horologe.pot -d $(LOCALES) -l $$lang --no-fuzzy-matching --ignore-obsolete; \
		else \
			$(UV) run --frozen pybabel init -D horologe -i $(LOCALES)/horologe.pot -d $(LOCALES) -l $$lang; \
		fi; \
	done

i18n-compile: $(VENV)/.dev  ## compile every .po into the .mo shipped in the package
	$(UV) run --frozen pybabel compile -D horologe -d $(LOCALES) --statistics

bench: $(VENV)/.dev  ## horologe vs the official server on the realistic mix, stdio and HTTP, ratios (needs ../shared)
	$(VENV)/bin/python bench/compare.py $(ARGS)
