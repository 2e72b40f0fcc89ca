# gtsim: the README's two commands.
#   make demo   build and run the main job
#   make check  build (with ASan + UBSan) and run every test
# Both install the Debian packages they need when run as root, and name
# them otherwise.

# Packages the build and the tests need (Debian 12 names).
BUILD_PKGS = gcc make meson ninja-build pkg-config libdrm-dev libpng-dev
TEST_PKGS  = libigc-tools intel-gpu-tools libdrm-intel1 mesa-utils \
             libgl1-mesa-dri libegl1 libgles2 libegl-mesa0 libgbm1 python3 \
             libegl-dev libgles-dev piglit

# NINJAFLAGS=-j2 limits build jobs on a shared machine.
BUILD_DIR ?= build
SAN_DIR   ?= build-san
MESON_SETUP = meson setup --buildtype=debugoptimized

.PHONY: all demo check deps test-deps build build-san bench clean

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

bench: build
	@./scripts/bench $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(SAN_DIR)
