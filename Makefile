# horologe: `make run` serves over stdio, `make test` runs the whole test suite.
# Both bootstrap uv into .tools/ and build .venv/ from uv.lock (nothing else needs to be installed).
# Bytecode is compiled at install, so a server starts from .pyc even where PYTHONDONTWRITEBYTECODE is set.

PYTHON ?= python3
UV := .tools/bin/uv
VENV := .venv
ARGS ?=

.PHONY: run test check lint format typecheck clean executable executable-check package-check bench bench-http bench-stdio i18n-extract \
	i18n-update i18n-compile

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check "uv>=0.5,<1"

$(VENV)/.runtime: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --no-dev --extra fast --extra http --compile-bytecode
	touch $@

$(VENV)/.dev: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --extra fast --extra http --compile-bytecode
	touch $@ $(VENV)/.runtime

run: $(VENV)/.runtime  ## serve MCP over stdio (pass flags with ARGS="--default-timezone Europe/Vienna")
	@$(VENV)/bin/horologe serve $(ARGS)

test: $(VENV)/.dev executable-check package-check  ## the whole suite with branch coverage, gated (installs nginx, redis, Node tools)
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
	rm -rf .tools $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.* build dist

# One file to copy and run: a PEX (github.com/pex-tool/pex) of the locked dependencies, the http extra included.
# It needs a Python 3.11+ on the target; its first run unpacks into ~/.cache/pex (PEX_ROOT), every later run
# starts straight from there (--sh-boot: no second interpreter start, --compile: bytecode made at build).
PEX := $(UV) tool run --from "pex>=2.105,<3" pex
EXECUTABLE_EXAMPLE := {"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_current_time","arguments":{}},"id":1}

executable: dist/horologe  ## build dist/horologe, a single-file executable (PEX)

dist/horologe: $(UV) pyproject.toml uv.lock README.md LICENSE $(shell find src/horologe -type f -not -name '*.pyc')
	rm -rf build/executable && mkdir -p build/executable dist
	$(UV) build --wheel --out-dir build/executable
	$(UV) export --frozen --no-dev --extra http --no-emit-project --no-hashes -o build/executable/requirements.txt
	$(PEX) -r build/executable/requirements.txt build/executable/horologe-*.whl -c horologe \
		--venv prepend --sh-boot --compile --python $(PYTHON) -o $@
	@ls -l $@

package-check: $(UV)  ## build wheel and sdist into dist/; uvx --from the wheel serves stdio, and HTTP with [http]
	scripts/check-package

executable-check: dist/horologe  ## run the seed's stdio example with dist/horologe from outside the repository
	@out=$$(cd "$$(mktemp -d)" && echo '$(EXECUTABLE_EXAMPLE)' | $(CURDIR)/dist/horologe) && \
	case "$$out" in *'"id":1,"result":'*'"timezone"'*) echo "dist/horologe answered: $$(echo "$$out" | cut -c1-100)…";; \
	*) echo "dist/horologe gave no tools/call result: $$out" >&2; exit 1;; esac

bench-http: $(VENV)/.dev  ## HTTP benchmark against the SDK time server and a bare baseline (needs ../shared)
	$(VENV)/bin/python bench/http_load.py

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

bench-stdio: $(VENV)/.dev  ## stdio benchmark against mcp-server-time (installed into .bench/) and the bare baseline
	$(VENV)/bin/python bench/stdio_load.py

bench: bench-stdio bench-http  ## every benchmark, Markdown tables on stdout (needs ../shared)
