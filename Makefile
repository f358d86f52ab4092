# Magpie: `make test` and `make demo` are all a fresh Debian machine with the
# Swift toolchain needs; both install missing Debian packages first.

SWIFT ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
# The release CLI carries the Swift runtime, Foundation and Dispatch inside
# it (the C libraries stay shared): it runs where no Swift toolchain is
# installed, and starts in about 8 ms instead of 15, which a short-lived
# command such as `magpie loader-bench` or `magpie fetch` pays on every run.
RELEASE_FLAGS ?= --static-swift-stdlib
# Build dependencies: codec libraries (headers + pkg-config files) and tools
# the tests and benchmarks call.
BUILD_PACKAGES := pkg-config libjpeg62-turbo-dev libpng-dev libgif-dev libwebp-dev libssl-dev libdeflate-dev \
	libcurl4-openssl-dev liblcms2-dev libavif-dev libheif-dev libde265-dev libjxl-dev libhiredis-dev librsvg2-dev \
	libpoppler-glib-dev libtiff-dev libavformat-dev libavcodec-dev libswscale-dev libmicrohttpd-dev
# The C libraries' own tools, the independent references the colour and
# AVIF/HEIC/JPEG XL/TIFF tests compare with (transicc, avifdec, heif-convert,
# djxl, webpmux, tiff2rgba, rsvg-convert, pdftocairo, pdftoppm, ffmpeg), Pillow
# (python3-pil: reads the BMPs Magpie writes), and the free ICC profiles the
# colour fixtures use.
REFERENCE_PACKAGES := liblcms2-utils icc-profiles-free libavif-bin libheif-examples libjxl-tools webp python3-pil \
	librsvg2-bin poppler-utils libtiff-tools ffmpeg
# nginx, curl and openssl: the local origin (Scripts/origin) the tests and
# the demo start, its readiness check and its TLS certificate; njs for the
# Digest-protected location the challenge tests script (Debian has no
# nginx Digest module).
ORIGIN_PACKAGES := nginx libnginx-mod-http-js curl openssl
# The GTK 4 binding (MagpieGTK/, a package of its own) and its UI tests:
# GTK's headers, and a private X server with its auth tool for the tests.
GTK_PACKAGES := libgtk-4-dev xvfb xauth
# The shared Redis tier's tests, demo and benchmark: a private redis-server
# on a free loopback port, and redis-cli/redis-benchmark.
REDIS_PACKAGES := redis-server redis-tools
# `magpie serve`'s page test and demo (headless Chromium) and its benchmark
# (wrk drives it and thumbor).
SERVE_PACKAGES := chromium
SERVE_BENCH_PACKAGES := chromium wrk
TEST_PACKAGES := $(BUILD_PACKAGES) $(ORIGIN_PACKAGES) $(GTK_PACKAGES) $(REFERENCE_PACKAGES) $(REDIS_PACKAGES) \
	$(SERVE_PACKAGES) libjpeg-turbo-progs time python3
BENCH_PACKAGES := $(TEST_PACKAGES) $(SERVE_BENCH_PACKAGES) python3-venv

.PHONY: all build build-minimal release test test-gtk test-docs-app hostile soak sanitize sanitize-thread sanitize-address fuzz \
	robustness-report robustness-record demo demo-fleet demo-serve gallery bench deps test-deps demo-deps \
	demo-fleet-deps demo-serve-deps gallery-deps bench-deps \
	format clean docs docs-serve

all: build

deps:
	@Scripts/install-deps.sh $(BUILD_PACKAGES)

test-deps:
	@Scripts/install-deps.sh $(TEST_PACKAGES)

demo-deps:
	@Scripts/install-deps.sh $(BUILD_PACKAGES) $(ORIGIN_PACKAGES)

demo-fleet-deps:
	@Scripts/install-deps.sh $(BUILD_PACKAGES) $(ORIGIN_PACKAGES) $(REDIS_PACKAGES)

demo-serve-deps:
	@Scripts/install-deps.sh $(BUILD_PACKAGES) $(ORIGIN_PACKAGES) $(REDIS_PACKAGES) $(SERVE_PACKAGES) python3-pil

gallery-deps:
	@Scripts/install-deps.sh $(BUILD_PACKAGES) $(ORIGIN_PACKAGES) $(GTK_PACKAGES)

bench-deps:
	@Scripts/install-deps.sh $(BENCH_PACKAGES)

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

# The core and the CLI without the optional coders (AVIF, HEIC, JPEG XL, TIFF, SVG, PDF, video)
# and the Redis tier, as a machine without their libraries builds them; its own
# scratch folder, as a .build that has built them still offers their modules.
build-minimal: deps
	MAGPIE_WITHOUT=avif,heif,jxl,svg,pdf,tiff,video,redis $(SWIFT) build --scratch-path .build-minimal $(SWIFT_FLAGS) --product magpie

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS) $(RELEASE_FLAGS) --product magpie

# Each test run goes through Scripts/test-watchdog.py: past its limit
# (about ten times what it takes here) it prints the tests still running and
# their threads' backtraces, and stops the run, instead of hanging until CI's
# own limit cuts it off with nothing said. Scripts/test-suites.sh runs the
# HTTP server's suites in a process of their own (it says why).
TEST_LIMIT ?= 900
WATCHDOG = python3 Scripts/test-watchdog.py --limit
test: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) build -c release $(SWIFT_FLAGS) $(RELEASE_FLAGS) --product magpie
	@Scripts/testdata-status.sh
	SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)" Scripts/docs/build.sh
	SWIFT="$(SWIFT)" Scripts/test-suites.sh $(TEST_LIMIT) .build/artifacts/test-hang
	MAGPIE_SOAK_SECONDS=60 $(WATCHDOG) 600 -- $(SWIFT) test --skip-build --filter DiskCacheSoakTests
	python3 Scripts/hostile/run_hostile_corpus.py --count $(HOSTILE_TEST_COUNT)
	$(MAKE) test-gtk
	$(MAKE) test-docs-app

# A fresh hostile corpus (Scripts/hostile: valid, truncated, byte-flipped
# and limit-declaring files of every format, new random seed each run,
# printed) through the release `magpie decode`, one process a file: each
# must decode or fail with a typed error within 5 s and 256 MB. `make test`
# runs a few hundred files (its release build is there already, and a
# process per file is what measures a file's time and memory); `make
# hostile` runs HOSTILE_COUNT, a seed with HOSTILE_SEED=N.
HOSTILE_TEST_COUNT ?= 300
HOSTILE_COUNT ?= 3000
hostile: release
	python3 Scripts/hostile/run_hostile_corpus.py --count $(HOSTILE_COUNT) $(if $(HOSTILE_SEED),--seed $(HOSTILE_SEED)) \
		--json docs/robustness/hostile-corpus.json

# docs/robustness.md, from the records the robustness runs leave (make fuzz,
# make hostile, make sanitize, make robustness-record); see
# Scripts/robustness_report.py.
robustness-report:
	python3 Scripts/robustness_report.py

# Records what each hostile-origin case ends with, for the report.
robustness-record: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	rm -f docs/robustness/hostile-origins.jsonl
	MAGPIE_ROBUSTNESS_RECORD=$(CURDIR)/docs/robustness/hostile-origins.jsonl \
		$(SWIFT) test --skip-build --filter 'DataLoaderTests.Hostile|expiredCertificate|selfSignedCertificate'

# The GTK binding's package: its widget and gallery tests run on their own
# Xvfb and nginx (about a minute on top of its build).
# Release: the gallery UI test scrolls 2,000 cells, each image resized to
# its cell, which an unoptimised build does too slowly to measure.
test-gtk:
	cd MagpieGTK && $(SWIFT) build -c release --build-tests $(SWIFT_FLAGS) && \
		$(WATCHDOG:Scripts/%=../Scripts/%) 600 --report ../.build/artifacts/test-hang-gtk -- \
		$(SWIFT) test -c release --skip-build --skip NewUserAppTests

# The GTK article's app, written from the article's code blocks alone into
# a clean folder beside a link to this clone, built from nothing (about
# two minutes) and run on Xvfb against nginx (MagpieGTK's NewUserAppTests).
test-docs-app:
	cd MagpieGTK && $(SWIFT) build -c release --build-tests $(SWIFT_FLAGS) && \
		$(WATCHDOG:Scripts/%=../Scripts/%) 1200 --report ../.build/artifacts/test-hang-docs-app -- \
		$(SWIFT) test -c release --skip-build --filter NewUserAppTests

# The four-process disk-cache soak alone (make test runs it too, after the
# suite): SOAK_SECONDS, 60 unless set.
SOAK_SECONDS ?= 60
soak: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	MAGPIE_SOAK_SECONDS=$(SOAK_SECONDS) $(SWIFT) test --skip-build --filter DiskCacheSoakTests

# The whole suite under ThreadSanitizer and then AddressSanitizer, each in
# its own scratch folder (.build-tsan, .build-asan); any report fails it.
# .ci/run runs it after `make test`.
sanitize: sanitize-thread sanitize-address

sanitize-thread sanitize-address: sanitize-%: test-deps
	SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)" Scripts/sanitize.sh $*

# Every libFuzzer harness (MagpieFuzzHarnesses) FUZZ_SECONDS each, one
# after another, built with AddressSanitizer in .build-fuzz; appends a line
# per harness to docs/fuzz/runs.tsv, keeps crashes in
# Tests/MagpieTests/Fixtures/fuzz/NAME and fails when there was one.
FUZZ_SECONDS ?= 30
fuzz: deps
	SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)" FUZZ_SECONDS="$(FUZZ_SECONDS)" Scripts/fuzz.sh

demo: demo-deps release
	Scripts/demo.sh

# Four `magpie prefetch` instances warming one list through a shared Redis
# tier (a private redis-server and nginx on loopback): prints the hits per
# tier and the origin's requests, one per URL (Scripts/demo-fleet.sh).
demo-fleet: demo-fleet-deps release
	Scripts/demo-fleet.sh

# Two `magpie serve` instances behind an nginx load balancer, sharing a
# Redis tier, with an origin serving samples/ (all on 127.0.0.1): headless
# Chromium opens a page of 24 signed thumbnails, checks each decodes at its
# size and screenshots it (.build/artifacts/serve/demo-serve.png; DOCS=1
# also refreshes docs/serve-demo.jpg); prints what each instance did and
# what the origin served (Scripts/demo-serve.sh).
demo-serve: demo-serve-deps release
	Scripts/demo-serve.sh $(if $(DOCS),--docs)

# The GTK gallery against a local nginx serving samples/ (needs a display).
gallery: gallery-deps
	cd MagpieGTK && $(SWIFT) build -c release $(SWIFT_FLAGS) --product MagpieGallery
	MagpieGTK/Scripts/gallery.sh

bench: bench-deps release
	Scripts/bench.sh

# The DocC site: an archive per product under .build/docs/, built from the
# debug build's symbol graphs; a DocC warning or a public symbol in no topic
# group fails it (Scripts/docs/build.sh). `make docs-serve` serves the site
# on 127.0.0.1 only.
DOCS_PORT ?= 8000
docs: deps
	SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)" Scripts/docs/build.sh

docs-serve: docs
	@echo "docs: http://127.0.0.1:$(DOCS_PORT)/Magpie/documentation/magpie/"
	python3 -m http.server --bind 127.0.0.1 --directory .build/docs $(DOCS_PORT)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift MagpieGTK/Sources MagpieGTK/Tests \
		MagpieGTK/Package.swift

clean:
	rm -rf .build .build-tsan .build-asan .build-minimal MagpieGTK/.build
