# kiln: `make` builds, `make test` runs every test, `make demo` runs the
# bundled sample end to end. Dependencies are installed when missing.

BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: all deps configure build test demo bench clean

all: build

deps:
	@build_tools/install_deps.sh

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j$(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

demo: build
	$(BUILD)/bin/kiln-compile samples/mlp.mlir --executable-debug-level=3 -o $(BUILD)/mlp.kiln
	$(BUILD)/bin/kiln-run $(BUILD)/mlp.kiln --function=main --input="4x8xf32=0.5"

bench: build
	$(BUILD)/bin/kiln-bench-kernels
	python3 bench/capture/capture_benchmark.py --bin-dir=$(BUILD)/bin

clean:
	rm -rf $(BUILD)
