# gtsim: the README's two commands.
#   make demo   build and run the main job
#   make check  build (with ASan + UBSan) and run every test
#   make fuzz   run every fuzz target for FUZZ_SECONDS each (docs/fuzzing.md)
# Both install the Debian packages they need when run as root, and name
# them otherwise.

# Packages the build and the tests need (Debian 12 names).
BUILD_PKGS = gcc make meson ninja-build pkg-config libdrm-dev libpng-dev
TEST_PKGS  = libigc-tools intel-gpu-tools libdrm-intel1 mesa-utils \
             libgl1-mesa-dri libegl1 libgles2 libegl-mesa0 libgbm1 python3 \
             libegl-dev libgles-dev piglit clang libopengl-dev llvm-15-dev \
             mesa-vulkan-drivers libvulkan-dev glslang-tools intel-opencl-icd \
             ocl-icd-opencl-dev clinfo

# NINJAFLAGS=-j2 limits build jobs on a shared machine.
BUILD_DIR ?= build
SAN_DIR   ?= build-san
# The fuzz targets: a clang build with libFuzzer (docs/fuzzing.md).
FUZZ_DIR  ?= build-fuzz
FUZZ_CC   ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = ioctl execbuf eu eu_jit asm decode draw walker shim
MESON_SETUP = meson setup --buildtype=debugoptimized

.PHONY: all demo check check-unsanitized deps test-deps build build-san bench clean fuzz fuzz-build fuzz-check

all: build

deps:
	@./scripts/ensure-packages $(BUILD_PKGS)

test-deps:
	@./scripts/ensure-packages --optional $(TEST_PKGS)

$(BUILD_DIR)/build.ninja:
	$(MESON_SETUP) $(BUILD_DIR)

$(SAN_DIR)/build.ninja:
	$(MESON_SETUP) -Db_sanitize=address,undefined -Db_lundef=false $(SAN_DIR)

build: deps $(BUILD_DIR)/build.ninja
	ninja -C $(BUILD_DIR) $(NINJAFLAGS)

build-san: deps $(SAN_DIR)/build.ninja
	ninja -C $(SAN_DIR) $(NINJAFLAGS)

demo: build
	@./scripts/demo $(BUILD_DIR)

# test-deps first: meson must find the optional packages (EGL/GLES headers,
# iga64, IGT...) when it configures, or their tests are left out.
check: test-deps
	$(MAKE) build-san
	meson test -C $(SAN_DIR) --print-errorlogs --num-processes 2 $(TESTARGS)
	$(MAKE) fuzz-check
	$(MAKE) check-unsanitized

# Intel's OpenCL runtime cannot run under AddressSanitizer (RTLD_DEEPBIND,
# tests/e2e/opencl): its test runs from the plain build, so that CI runs it
# instead of counting a skip.
check-unsanitized: build
	meson test -C $(BUILD_DIR) --print-errorlogs opencl-compute-skl opencl-clinfo-skl

# Does $(FUZZ_CC) link a libFuzzer target? (Debian: the clang package.)
HAVE_LIBFUZZER = $(FUZZ_CC) -fsanitize=fuzzer fuzz/libfuzzer_probe.c -o /dev/null >/dev/null 2>&1

$(FUZZ_DIR)/build.ninja:
	CC=$(FUZZ_CC) $(MESON_SETUP) -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false $(FUZZ_DIR)

# Only the targets (and the layers they link), not the whole tree.
fuzz-build: deps $(FUZZ_DIR)/build.ninja
	ninja -C $(FUZZ_DIR) $(NINJAFLAGS) $(addprefix fuzz/fuzz_,$(FUZZ_TARGETS))

# Each target for FUZZ_SECONDS, one after the other, keeping what they
# find in $(FUZZ_DIR)/fuzz/work and $(FUZZ_DIR)/fuzz/artifacts.
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		echo "== fuzz_$$t: $(FUZZ_SECONDS) s"; \
		nice fuzz/run-target.sh $(FUZZ_DIR)/fuzz/fuzz_$$t $$t fuzz/corpus/$$t \
			$(FUZZ_DIR)/fuzz $(FUZZ_SECONDS) || exit 1; \
	done

# make check's part: each target briefly from its corpus (suite 'fuzz' of
# the clang build); without clang's libFuzzer every one is a SKIP.
fuzz-check:
	@if $(HAVE_LIBFUZZER); then \
		$(MAKE) fuzz-build && \
		meson test -C $(FUZZ_DIR) --no-rebuild --suite fuzz --print-errorlogs \
			--num-processes 2; \
	else \
		for t in $(FUZZ_TARGETS); do \
			echo "SKIP fuzz-$$t: $(FUZZ_CC) cannot link -fsanitize=fuzzer (Debian package clang)"; \
		done; \
		echo "Ok: 0  Skipped: $(words $(FUZZ_TARGETS))"; \
	fi

bench: build
	@./scripts/bench $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(SAN_DIR) $(FUZZ_DIR)
