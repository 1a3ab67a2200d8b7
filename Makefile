# ctrlcmp's build, test and benchmark entry points.
GO ?= go
export GOTOOLCHAIN := local
export CGO_ENABLED := 0

.PHONY: build test test-heavy vet fmt-check bench demo fuzz realworld e2e metamorphic

build:
	$(GO) build -o bin/ctrlcmp ./cmd/ctrlcmp

# The README's test command: formatting, vet, then every test but the heavy
# ones (-short; see test-heavy). Fixtures load the real controller-runtime,
# client-go and fluxcd/pkg from the module proxy.
test: fmt-check vet
	$(GO) test -short -count=1 -timeout 30m ./...

# The heavy tests, outside `make test` (CI runs both, this one second): the
# loader's equivalence tests (export data against declarations, kept types,
# export data built with cgo, the loader against go/packages), which compile
# every dependency of every fixture, and table's two analyses at once, which
# needs two analyses' memory; and the long matrices in full, of which `make
# test` runs a representative part (the want comments of every fixture,
# TestWantKeys, TestFixtures and TestAnswers; the metamorphic matrix's
# second fixture). Each skips itself, or its subtests beyond that part,
# under -short with "heavy: make test-heavy runs it": the Test function
# whose body holds that message is how this target finds it by name.
HEAVY_MARK := make test-heavy runs it
HEAVY_TESTS = ${shell grep -rl '$(HEAVY_MARK)' --include='*_test.go' internal | xargs awk '/^func /{n=""} /^func Test[A-Za-z0-9_]*\(/{n=$$2; sub(/\(.*/,"",n)} index($$0,"$(HEAVY_MARK)") && n!="" {print n}' | sort -u | paste -sd'|' -}
HEAVY_PKGS = $(shell grep -rl '$(HEAVY_MARK)' --include='*_test.go' internal | xargs -n1 dirname | sort -u | sed 's|^|./|')
test-heavy:
	$(GO) test -count=1 -timeout 60m -run '^($(HEAVY_TESTS))$$' $(HEAVY_PKGS)

vet:
	$(GO) vet ./...
	$(GO) vet -tags e2e ./internal/liverun/

# The metamorphic matrix on every fixture (docs/metamorphic.md): each
# fixture rewritten by each refactoring, every row's answer judged against
# the want comments the rewrite carried along; it fails on a wrong cell
# not in internal/metamorphic/testdata/known.txt and reports the known ones
# that now pass. `make test-heavy` runs two fixtures of it, `make test` one.
# METAMORPHIC_MATRIX=FILE also writes the matrix to FILE;
# METAMORPHIC_UPDATE=1 rewrites the known list from the run.
metamorphic:
	METAMORPHIC=full $(GO) test -count=1 -timeout 120m -run TestMatrix -v ./internal/metamorphic/

# The end-to-end test of `stages --run`, outside `make test`: a real etcd and
# kube-apiserver (built from the Go module proxy on the first run, about 6
# minutes on 2 cores, then cached), and both client-go fixtures patched and
# run against them. CTRLCMP_E2E_LOGS=DIR keeps the controllers' logs.
e2e:
	$(GO) test -tags e2e -count=1 -timeout 45m -v ./internal/liverun/

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Benchmarks: ctrlcmp locate next to `go vet ./...` and `go list -deps
# -export ./...` on the same tree, each a whole process, warm and alternating,
# then ctrlcmp with its result cached; on the Flux-style fixture, and on
# the trees that BENCH_KUSTOMIZE_CONTROLLER, BENCH_LARGE_OPERATOR and
# BENCH_TREE name. BENCH_COLD=1 adds a run of each with an empty GOCACHE
# (minutes: go vet compiles every dependency); BENCH_COUNT sets the runs
# (default 3).
bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -count 1 -timeout 3h ./internal/bench/

# Fuzzing, outside `make test`: each target runs for FUZZTIME in turn (go test
# -fuzz takes one target of one package). A crasher is written under the
# package's testdata/fuzz/, where it stays as a seed of the normal test run.
# FUZZFLAGS adds go test flags, such as -parallel=1 on a shared machine.
FUZZTIME ?= 20s
FUZZFLAGS ?=
FUZZ_TARGETS := \
	FuzzParse:./internal/journal \
	FuzzSplice:./internal/journal \
	FuzzReadLog:./internal/stages \
	FuzzCRD:./internal/locate \
	FuzzWrapCell:./internal/report

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; pkg=$${t#*:}; \
		echo "fuzz $$name in $$pkg for $(FUZZTIME)"; \
		$(GO) test $(FUZZFLAGS) -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

# The main job on the bundled fixtures: their table, markdown.
demo: build
	./bin/ctrlcmp table --theirs-dir testdata/src/flux --ours testdata/src/clientgo-finalizer

# Score ctrlcmp against the answer keys written by hand for public
# controllers (testdata/realworld): every key whose tree is checked out as
# $(REALWORLD_DIR)/OWNER+NAME at the key's sha is scored; the rest are
# skipped, so this needs no network beyond the module proxy for the trees'
# dependencies. A tree below its key's ratchet fails (FORMAT.md). Each tree
# takes minutes to load, so go test's default ten-minute limit is lifted.
REALWORLD_DIR ?= $(CURDIR)/../realworld
realworld:
	REALWORLD_DIR=$(abspath $(REALWORLD_DIR)) $(GO) test -count=1 -timeout 0 -run TestRealworld -v ./internal/realworld/
