#!/usr/bin/env bash
# Installs everything RowKit needs on Debian 12: the Cairo, Pango, libpng, libjpeg-turbo,
# libwebp, ISA-L and OpenSSL development packages and the font packages RowKit renders with; with --tests, also
# what the test suite uses: Debian's Chromium (which opens the review report) and a Python
# virtual environment, .venv, with the PyPI packages of scripts/requirements-tests.txt (the
# JSON Schema validator of scripts/check-schemas.py, and the XML Schema validator of
# scripts/check-junit.py). Safe to run again: it installs only
# what is missing. Run as root, or as a user who may use sudo.
set -euo pipefail

packages=(
  pkg-config
  libcairo2-dev
  libpango1.0-dev
  libpng-dev
  zlib1g-dev         # zlib: small PNGs, and all PNG data in a build without ISA-L
  libturbojpeg0-dev  # JPEG image slots
  libwebp-dev        # WebP image slots
  libisal-dev        # ISA-L: fast PNG compressing and inflating (the package's default ISAL trait)
  libssl-dev         # OpenSSL's SHA-256: digests of fonts, references and the render cache's inputs
  libcurl4-openssl-dev  # HTTP(S) image slots: curl.h for CCurl; libcurl.so.4 is loaded at the first download
  fonts-inter             # Inter: every row's Latin, Greek and Cyrillic text
  fonts-dejavu-core       # DejaVu Sans: Arabic, Hebrew and symbols Inter lacks
  fonts-noto-core         # Noto Sans for every other living script (Indic, Thai, Ethiopic…)
  fonts-noto-cjk          # Noto Sans CJK: Chinese, Japanese and Korean
  fonts-noto-color-emoji  # Noto Color Emoji
)

tests=false
if [ "${1:-}" = "--tests" ]; then
  tests=true
  # curl drives rowkit review's server in its tests (a foreign Host header, raw paths).
  packages+=(chromium curl python3 python3-venv)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: RowKit needs a Swift 6 toolchain on PATH (swift.org/install); none was found" >&2
  exit 1
fi

# The tests' Python tools: PyPI packages, pinned, in a virtual environment of Debian's Python
# (made again when it is missing or broken; its packages installed again when the
# requirements change).
if $tests; then
  cd "$(dirname "$0")/.."
  requirements=scripts/requirements-tests.txt
  if ! .venv/bin/python -c 'import sys' >/dev/null 2>&1; then
    echo "setup: making the Python virtual environment .venv" >&2
    rm -rf .venv
    /usr/bin/python3 -m venv .venv
  fi
  if ! cmp -s "$requirements" .venv/requirements-tests.txt; then
    echo "setup: installing $requirements into .venv" >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" .venv/requirements-tests.txt
  fi
fi
