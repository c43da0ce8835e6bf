# Bootstraps everything on a fresh machine: `make setup`, `make test`, `make demo`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup test demo clean chromium

setup: $(VENV)/.installed chromium

# The service's page tests drive Debian's Chromium (Playwright never downloads a browser here).
chromium:
	command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@

test: setup
	$(BIN)/pytest

demo: setup
	$(BIN)/boardreader score examples/carrom_match.jsonl --format sheet

clean:
	rm -rf $(VENV) build *.egg-info
