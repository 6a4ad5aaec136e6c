# horologe: `make run` serves over stdio, `make test` runs the whole test suite.
# Both bootstrap uv into .tools/ and build .venv/ from uv.lock (nothing else needs to be installed).

PYTHON ?= python3
UV := .tools/bin/uv
VENV := .venv
ARGS ?=

.PHONY: run test check lint format typecheck clean bench-http

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check "uv>=0.5,<1"

$(VENV)/.runtime: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --no-dev --extra fast
	touch $@

$(VENV)/.dev: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --extra fast
	touch $@ $(VENV)/.runtime

run: $(VENV)/.runtime  ## serve MCP over stdio (pass flags with ARGS="--default-timezone Europe/Vienna")
	@$(VENV)/bin/horologe serve $(ARGS)

test: $(VENV)/.dev  ## the whole test suite
	$(UV) run --frozen pytest

check: $(VENV)/.dev  ## lint, format and type checks
	$(UV) run --frozen ruff check src tests
	$(UV) run --frozen ruff format --check src tests
	$(UV) run --frozen mypy

format: $(VENV)/.dev
	$(UV) run --frozen ruff check --fix src tests
	$(UV) run --frozen ruff format src tests

clean:
	rm -rf .tools $(VENV) .pytest_cache .mypy_cache .ruff_cache

bench-http: $(VENV)/.dev  ## HTTP benchmark against the SDK time server and a bare baseline (needs ../shared)
	$(VENV)/bin/python bench/http_load.py
