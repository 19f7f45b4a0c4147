# Builds the engine for OpenBench and other testers, which run
# `make -j EXE=<path>` in the repository root and then `<path> bench`.
#
#   make                     release build for this CPU (.cargo/config.toml:
#                            target-cpu=native), copied to $(EXE) (default: shears)
#   make portable            release build for any x86-64 (baseline: no POPCNT,
#                            BMI2 or AVX2), copied to $(EXE)
#   make FEATURES=spsa       either of the above with cargo features (spsa: the
#                            search tunables as UCI options, see docs/tuning.md § SPSA)
#   make clean               removes the copied binary and the portable build
#
# The README's two commands (cargo run --release, cargo test --release) need
# none of this.

EXE ?= shears
CARGO ?= cargo
FEATURES ?=
# Where cargo builds: the default target directory for the native build (it is
# the one `cargo build --release` uses, so neither rebuilds the other), a
# directory of its own for the portable build (other compiler flags).
TARGET_DIR ?= $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)
PORTABLE_TARGET_DIR ?= $(TARGET_DIR)/portable
# The CPU of the portable build.
PORTABLE_CPU ?= x86-64

ifeq ($(OS),Windows_NT)
    BIN_SUFFIX := .exe
else
    BIN_SUFFIX :=
endif

ifneq ($(strip $(FEATURES)),)
    FEATURE_FLAGS := --features "$(FEATURES)"
else
    FEATURE_FLAGS :=
endif

.PHONY: default native portable clean

default: native

native:
	$(CARGO) build --release --locked --bin shears --target-dir "$(TARGET_DIR)" $(FEATURE_FLAGS)
	cp "$(TARGET_DIR)/release/shears$(BIN_SUFFIX)" "$(EXE)"

# RUSTFLAGS in the environment replaces the rustflags of .cargo/config.toml,
# target-cpu=native included.
portable:
	RUSTFLAGS="-C target-cpu=$(PORTABLE_CPU)" $(CARGO) build --release --locked --bin shears \
	    --target-dir "$(PORTABLE_TARGET_DIR)" $(FEATURE_FLAGS)
	cp "$(PORTABLE_TARGET_DIR)/release/shears$(BIN_SUFFIX)" "$(EXE)"

clean:
	rm -f "$(EXE)"
	rm -rf "$(PORTABLE_TARGET_DIR)"
