# horologe: `make run` serves over stdio, `make test` runs the whole test suite.
# Both bootstrap uv into .tools/ and build .venv/ from uv.lock (nothing else needs to be installed).
# Bytecode is compiled at install, so a server starts from .pyc even where PYTHONDONTWRITEBYTECODE is set.

PYTHON ?= python3
UV := .tools/bin/uv
VENV := .venv
ARGS ?=

.PHONY: run test check lint format typecheck clean bench i18n-extract i18n-update i18n-compile

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check "uv>=0.5,<1"

$(VENV)/.runtime: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --no-dev --extra fast --compile-bytecode
	touch $@

$(VENV)/.dev: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --extra fast --compile-bytecode
	touch $@ $(VENV)/.runtime

run: $(VENV)/.runtime  ## serve MCP over stdio (pass flags with ARGS="--default-timezone Europe/Vienna")
	@$(VENV)/bin/horologe serve $(ARGS)

test: $(VENV)/.dev  ## the whole test suite with branch coverage, gated (installs nginx, redis-server, Node tools)
	scripts/install-test-deps
	rm -f .coverage .coverage.*
	$(UV) run --frozen pytest --cov --cov-report=term --cov-fail-under=95

check: $(VENV)/.dev  ## lint, format, type checks (source and tests) and the layer contracts
	$(UV) run --frozen ruff check src tests bench
	$(UV) run --frozen ruff format --check src tests bench
	$(UV) run --frozen mypy
	$(UV) run --frozen lint-imports

format: $(VENV)/.dev
	$(UV) run --frozen ruff check --fix src tests
	$(UV) run --frozen ruff format src tests

clean:
	rm -rf .tools $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.*

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
