# kiln: `make` builds, `make test` runs every test, `make demo` runs the
# bundled sample end to end. Dependencies are installed when missing.

BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=
# Seconds per fuzz target: `make fuzz` runs long, `make test` a short smoke.
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 20
# Extra flags for bench/models, e.g. BENCH_MODELS_FLAGS="--threads=1 --workloads=mlp".
BENCH_MODELS_FLAGS ?=

.PHONY: all deps onnx python-env configure build test test-asan test-asan-compiler test-tsan fuzz fuzz-smoke fuzz-import demo bench clean

all: build

deps:
	@build_tools/install_deps.sh

# ONNX's C++ library, built once from its pinned source distribution into
# the build folder (the ONNX importer links it).
ONNX_PREFIX ?= $(CURDIR)/$(BUILD)/onnx
onnx: deps
	@JOBS=$(JOBS) build_tools/build_onnx.sh $(ONNX_PREFIX)

# The build's and the tests' Python: Debian's numpy and PyTorch, pinned
# onnx, onnxruntime, nanobind (the Python package) and pytest.
python-env: deps
	@build_tools/setup_python_env.sh $(BUILD)

$(BUILD)/build.ninja: | deps onnx python-env
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DKILN_ONNX_PREFIX=$(ONNX_PREFIX) -DKILN_BUILD_PYTHON=ON $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j$(JOBS)

test: build python-env
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)
	build_tools/test_python_package.sh $(BUILD)
	$(MAKE) fuzz-smoke

# The runtime's tests under AddressSanitizer + UndefinedBehaviorSanitizer and
# under ThreadSanitizer (runtime-only builds: the compiler is not deployed).
test-asan: deps
	cmake -G Ninja -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DKILN_SANITIZER=address -DKILN_BUILD_COMPILER=OFF -DKILN_BUILD_BENCH=OFF
	ninja -C $(BUILD)-asan -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir $(BUILD)-asan --output-on-failure -j$(JOBS)

# The compiler under AddressSanitizer + UndefinedBehaviorSanitizer, with
# the tools lit runs: the lit suite (pass tests, end-to-end programs).
# Debian's LLVM and MLIR libraries themselves are not instrumented: LLVM's
# bump allocator, inlined into kiln's code, poisons memory that the
# libraries then write without unpoisoning it (a false use-after-poison),
# hence allow_user_poisoning=0. Built without debug information, which makes
# the compiler's MLIR-heavy sources much slower to build; reports still name
# each frame's function.
test-asan-compiler: deps onnx
	cmake -G Ninja -S . -B $(BUILD)-asan-compiler -DCMAKE_BUILD_TYPE=Release \
	  -DKILN_SANITIZER=address -DKILN_BUILD_BENCH=OFF \
	  -DKILN_ONNX_PREFIX=$(ONNX_PREFIX)
	ASAN_OPTIONS=allow_user_poisoning=0 ninja -C $(BUILD)-asan-compiler -j$(JOBS) check-lit

test-tsan: deps
	cmake -G Ninja -S . -B $(BUILD)-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DKILN_SANITIZER=thread -DKILN_BUILD_COMPILER=OFF -DKILN_BUILD_BENCH=OFF
	ninja -C $(BUILD)-tsan -j$(JOBS)
	TSAN_OPTIONS=halt_on_error=1 ctest --test-dir $(BUILD)-tsan --output-on-failure -j$(JOBS)

# libFuzzer targets (runtime/fuzz) under ASan + UBSan, built with clang in
# $(BUILD)-fuzz and seeded with modules compiled by $(BUILD)'s kiln-compile.
$(BUILD)-fuzz/build.ninja: | deps
	CC=clang-14 CXX=clang++-14 cmake -G Ninja -S . -B $(BUILD)-fuzz \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKILN_SANITIZER=address \
	  -DKILN_BUILD_COMPILER=OFF -DKILN_BUILD_BENCH=OFF -DKILN_BUILD_FUZZERS=ON

fuzz: build $(BUILD)-fuzz/build.ninja
	ninja -C $(BUILD)-fuzz -j$(JOBS) kiln_fuzzers
	tools/fuzz/run_fuzzers.sh $(FUZZ_SECONDS) $(BUILD)-fuzz $(BUILD)/bin/kiln-compile

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)

# The ONNX importer's libFuzzer target (compiler/Import/ONNX/fuzz): the
# importer and the dialects it uses, built with clang under ASan + UBSan in
# $(BUILD)-fuzz-import, seeded with the importer's lit models.
$(BUILD)-fuzz-import/build.ninja: | deps onnx
	CC=clang-14 CXX=clang++-14 cmake -G Ninja -S . -B $(BUILD)-fuzz-import \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKILN_SANITIZER=address \
	  -DKILN_BUILD_RUNTIME=OFF -DKILN_BUILD_TESTS=OFF -DKILN_BUILD_BENCH=OFF \
	  -DKILN_BUILD_FUZZERS=ON -DKILN_ONNX_PREFIX=$(ONNX_PREFIX)

fuzz-import: build $(BUILD)-fuzz-import/build.ninja
	ninja -C $(BUILD)-fuzz-import -j$(JOBS) kiln_onnx_import_fuzzer
	tools/fuzz/run_fuzzers.sh $(FUZZ_SECONDS) $(BUILD)-fuzz-import \
	  $(BUILD)/bin/kiln-compile onnx_import

# Compiles the samples with every stage's IR embedded, runs them, and shows
# each dispatch with the code behind it (read from the module itself): an
# MLIR program, and an ONNX model (samples/make_lenet_onnx.py made it)
# whose dispatches name the nodes they hold.
demo: build
	$(BUILD)/bin/kiln-compile samples/mlp.mlir --executable-debug-level=3 -o $(BUILD)/mlp.kiln
	$(BUILD)/bin/kiln-run $(BUILD)/mlp.kiln --function=main --input="4x8xf32=0.5" \
	  --trace=console --trace-print-source
	$(BUILD)/bin/kiln-compile samples/lenet.onnx --executable-debug-level=3 -o $(BUILD)/lenet.kiln
	$(BUILD)/bin/kiln-run $(BUILD)/lenet.kiln --list-functions
	$(BUILD)/bin/kiln-run $(BUILD)/lenet.kiln --input="image=1x1x28x28xf32=0.5"
	$(BUILD)/bin/kiln-dump $(BUILD)/lenet.kiln

# bench/models needs its peers (IREE, ONNX Runtime, PyTorch, numpy) in
# $(BUILD)/bench-venv, made by bench/models/setup_peers.sh; without them it
# is skipped, and the other benchmarks still run.
bench: build python-env
	$(BUILD)/bin/kiln-bench-kernels
	$(BUILD)/bin/kiln-bench-trace
	$(BUILD)/bin/kiln-bench-profile
	python3 bench/capture/capture_benchmark.py --bin-dir=$(BUILD)/bin
	PYTHONPATH=$(BUILD)/python $(BUILD)/venv/bin/python \
	  bench/python/call_overhead.py --bin-dir=$(BUILD)/bin
	PYTHONPATH=$(BUILD)/python $(BUILD)/venv/bin/python \
	  bench/variants/variants_benchmark.py --bin-dir=$(BUILD)/bin
	PYTHONPATH=$(BUILD)/python $(BUILD)/venv/bin/python \
	  bench/onnx/conv_classes_benchmark.py --bin-dir=$(BUILD)/bin
	@if [ -x $(BUILD)/bench-venv/bin/python ]; then \
	  echo "$(BUILD)/bench-venv/bin/python bench/models/models_benchmark.py --bin-dir=$(BUILD)/bin $(BENCH_MODELS_FLAGS)"; \
	  $(BUILD)/bench-venv/bin/python bench/models/models_benchmark.py --bin-dir=$(BUILD)/bin $(BENCH_MODELS_FLAGS); \
	else \
	  echo "bench/models skipped: no peers in $(BUILD)/bench-venv; set them up with: bench/models/setup_peers.sh $(BUILD)"; \
	fi

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-asan-compiler $(BUILD)-tsan $(BUILD)-fuzz
