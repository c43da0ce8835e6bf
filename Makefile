# Bootstraps everything on a fresh machine: `make setup`, `make test`, `make demo`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup test demo clean chromium samples

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

# The score sheet of an example match, then `analyze` on a bundled clip (simulated carrom, seed 7, 960x540).
DEMO_OUT ?= /tmp/boardreader-demo
demo: setup
	$(BIN)/boardreader score examples/carrom_match.jsonl --format sheet
	$(BIN)/boardreader analyze sample_images/demo/carrom/video.mp4 --game carrom --out $(DEMO_OUT) --annotate --report
	@echo "analyze wrote events.jsonl, log.jsonl, score.json, annotated.mp4 and report.html to $(DEMO_OUT)"

# Regenerates sample_images/simulated/: per game, three stills (easy, medium, hard; kept as quality-93 JPEG)
# and a short clip, each with its truth.
SAMPLES := sample_images/simulated
samples: setup
	rm -rf $(SAMPLES)
	for game in carrom crokinole couronne; do \
	  for seed in 1 2 3; do \
	    difficulty=$$(echo easy medium hard | cut -d' ' -f$$seed); \
	    $(BIN)/boardreader simulate --game $$game --seed $$seed --still --difficulty $$difficulty \
	      --resolution 960x540 --out $(SAMPLES)/$$game/still_$$seed >/dev/null || exit 1; \
	  done; \
	  $(BIN)/python -c 'import cv2, pathlib, sys; [(cv2.imwrite(str(p.with_suffix(".jpg")), cv2.imread(str(p)), [cv2.IMWRITE_JPEG_QUALITY, 93]), p.unlink()) for p in pathlib.Path(sys.argv[1]).glob("still_*/image.png")]' $(SAMPLES)/$$game || exit 1; \
	  $(BIN)/boardreader simulate --game $$game --seed 1 --boards 1 --strokes 3 --difficulty medium \
	    --resolution 640x360 --out $(SAMPLES)/$$game/video >/dev/null || exit 1; \
	done

clean:
	rm -rf $(VENV) build *.egg-info
