# Two entry points, both self-installing on a fresh machine (Python 3.11, Java 17, Maven):
#   make demo   - install, provision + start Neo4j, ingest the bundled real-data sample, answer questions
#   make test   - install, provision Neo4j, run the whole test suite against a real server
# While working: make unit runs the pure tests (no Neo4j, no models, no raw corpora, no wheel
# build) in a few minutes; make lint runs ruff, mypy, the layer contract and mkdocs --strict.
# Heavy benchmarks are separate: make reproduce (writes docs/results.md), make bench (writes
# docs/benchmarks.md; BENCH_SCALES=10000,100000 BENCH_FLAGS=--random-vectors to change scale).
# make reliability runs the reliability checks and writes docs/reliability.md (a few minutes).
# The benchmarks are their own package (benchmarks/, car-graph-benchmarks); install puts both in
# the venv. The real-corpus benchmarks read $CAR_GRAPH_CORPORA, else ../shared/data/raw.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install neo4j demo test unit lint reproduce reliability bench verdicts clean

install: $(STAMP)

# uv resolves like pip (the same versions) and installs from its cache in seconds, not minutes

$(STAMP): pyproject.toml benchmarks/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip uv
	$(BIN)/uv pip install --python $(BIN)/python --quiet -e '.[dev]' -e ./benchmarks
	touch $(STAMP)

neo4j: install
	$(BIN)/car-graph neo4j install

demo: neo4j
	$(BIN)/car-graph neo4j start
	$(BIN)/car-graph demo

# Two workers (pytest-xdist), each with its own Neo4j: one process leaves a core idle while it
# waits on its server. A work unit is a test module (tests/conftest.py). TEST_WORKERS=0 runs one
# process, as it must against a NEO4J_URI (one server the workers would wipe under each other).
TEST_WORKERS ?= $(if $(NEO4J_URI),0,2)
test: neo4j
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# Style (ruff), types (mypy), the layer contract (import-linter, pyproject's
# [tool.importlinter]) and the documentation site (mkdocs.yml, --strict: a broken link or
# docstring reference fails; written to build/site). Types and the layer contract read the
# installed package, where ingest/, queries/ and graph_schema/ really are car_graph.ingest,
# .queries and .graph_schema: it is staged under build/lint first (stale build/lib output
# removed, so nothing deleted from the tree leaks in).
LINT_SITE := build/lint/site
lint: install
	$(BIN)/ruff check .
	rm -rf build/lib build/bdist.* $(LINT_SITE)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation --target $(LINT_SITE) .
	rm -rf build/lib build/bdist.*
	cd $(LINT_SITE) && PYTHONPATH=. $(CURDIR)/$(BIN)/lint-imports $(CURDIR)/pyproject.toml
	cd $(LINT_SITE) && PYTHONPATH=. $(CURDIR)/$(BIN)/mypy --config-file $(CURDIR)/pyproject.toml -p car_graph
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# the markers are pyproject's [tool.pytest.ini_options]; tests/conftest.py adds neo4j and
# corpora to every test using a server or the raw corpora
unit: install
	$(BIN)/python -m pytest -q -m "not neo4j and not models and not slow and not corpora"

reproduce: neo4j
	$(BIN)/car-graph neo4j start
	$(BIN)/car-graph reproduce --out docs/results.md

# every dev verdict set and probe, and the foreign questions that must come back not_found, in one
# table (car_graph_benchmarks.verdicts; it wipes the server it runs on: a private instance here)
VERDICTS_FLAGS ?=
verdicts: neo4j
	$(BIN)/car-graph neo4j start --instance verdicts --bolt-port 7798 --http-port 7498
	$(BIN)/python -m car_graph_benchmarks.verdicts --instance verdicts $(VERDICTS_FLAGS)

reliability: neo4j
	$(BIN)/python -m car_graph_benchmarks.reliability --out docs/reliability.md

BENCH_SCALES ?= 10000
BENCH_FLAGS ?=
# the amendment-heavy comparison: BENCH_PARTIAL_DOCS documents in components of
# BENCH_PARTIAL_SIZE joined by partial edges, beside the same corpus without them
BENCH_PARTIAL_DOCS ?= 10000
BENCH_PARTIAL_SIZE ?= 10000
# what recorded history costs (issue 61): BENCH_HISTORY_DOCS documents, then
# BENCH_HISTORY_ROUNDS rounds correcting 10 % of them, beside the same graph with no history
BENCH_HISTORY_DOCS ?= 100000
BENCH_HISTORY_ROUNDS ?= 10
bench: neo4j
	$(BIN)/python -m car_graph_benchmarks.bench --scales $(BENCH_SCALES) $(BENCH_FLAGS)
	$(BIN)/python -m car_graph_benchmarks.bench --scales $(BENCH_PARTIAL_DOCS) \
	  --partial-components $(BENCH_PARTIAL_SIZE) $(BENCH_FLAGS)
	$(BIN)/python -m car_graph_benchmarks.bench --scales $(BENCH_HISTORY_DOCS) \
	  --history-rounds $(BENCH_HISTORY_ROUNDS)

clean:
	rm -rf $(VENV) build dist *.egg-info benchmarks/build benchmarks/*.egg-info
