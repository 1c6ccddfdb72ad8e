# Two commands do all the set-up on a fresh machine that has only python3:
#   make run    builds .venv, plays the embedded default scenario, prints its results and writes its report
#   make test   builds .venv, adds the test extras and runs the whole suite
#   make mutants  the mutation score: the suite against each curated bug (docs/testing.md)
#   make agreement  kernel against reference engine on 10,000 games of each game, as the shipped scenarios run
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# A fresh Numba cache for tests and CI, so a stale compiled kernel can never hide a change.
TEST_CACHE ?= $(CURDIR)/.numba_cache/test-$(shell date +%s%N)

.PHONY: run test bench mutants agreement clean venv

# Running needs only the package; the test extras (pytest, hypothesis, Jupyter) go in only for `make test`.
# The pip that comes with Python 3.11 installs the package as it is (an upgrade of pip first cost 2.6 s of a
# fresh `make run`), and no pip version check goes out to the network.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

# `make run` on a fresh machine: pip installs what compiling a kernel needs first (numba, numpy, scipy, pydantic, as
# pyproject.toml pins them), then the default scenario's kernel compiles (python -m balance.run.warm, from the source
# tree) while pip installs the rest; the run that follows loads the kernel from the cache. scipy goes in first
# because importing numba imports it when it is there, and must not find it half installed. A failure of the
# background compile does not fail make: the run then compiles the kernel itself.
KERNEL_DEPS = $(shell $(PYTHON) -c "import re, tomllib; d = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; print(' '.join(repr(r) for r in d if re.match(r'[A-Za-z0-9._-]+', r).group(0).lower() in ('numba', 'numpy', 'scipy', 'pydantic')))")

$(BIN)/balance: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	if [ -n "$(BALANCE_WARM_KERNEL)" ]; then \
	    $(PIP) $(KERNEL_DEPS) && { $(BIN)/python -m balance.run.warm & warm=$$!; $(PIP) -e .; ok=$$?; wait $$warm; exit $$ok; }; \
	else \
	    $(PIP) -e .; \
	fi
	touch $@

$(VENV)/.test-extras: $(BIN)/balance pyproject.toml
	$(PIP) -e '.[test]'
	touch $@

venv: $(VENV)/.test-extras

run: BALANCE_WARM_KERNEL = 1
run: $(BIN)/balance
	$(BIN)/balance report -o reports/default

test: $(VENV)/.test-extras
	rm -rf .numba_cache/test-*
	NUMBA_CACHE_DIR=$(TEST_CACHE) MPLBACKEND=Agg $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder tests

# Not part of `make test`: applies each mutation in mutants/<game>.toml alone and runs the suite against it
# (tens of minutes; see docs/testing.md). MUTANTS="--game spooky_tower --only id1,id2" narrows it.
mutants: $(VENV)/.test-extras
	$(BIN)/python mutants/run.py $(MUTANTS)

# Not part of `make test`: the kernel against the reference engine on 10,000 games of each game, played as the
# shipped scenarios run them, on both cores (docs/testing.md). AGREEMENT="-n 50 --game spooky_tower" narrows it.
agreement: $(BIN)/balance
	$(BIN)/python benchmarks/agreement.py $(AGREEMENT)

bench: $(BIN)/balance
	$(BIN)/balance bench
	$(BIN)/python benchmarks/bench_spooky.py

clean:
	rm -rf $(VENV) .numba_cache build *.egg-info
