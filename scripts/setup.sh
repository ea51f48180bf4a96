#!/usr/bin/env bash
# Install what the web build and the browser tests need; skips whatever is already installed at
# the right version, so it is cheap to run every time. Reaches only crates.io, npm and Debian apt.
#   - rustup target wasm32-unknown-unknown
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock   (cargo install --locked)
#   - chromium (Debian package) for the browser tests                    (skip with SETUP_NO_BROWSER=1)
#   - nginx-light (Debian package), to test the shipped nginx snippet     (likewise)
#   - npm devDependencies from package-lock.json: binaryen (wasm-opt), esbuild (minifier), playwright-core, fast-check, typescript
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
say() { echo "setup: $*" >&2; }

# 1. Rust target
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target: present"
else
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen-cli, same version as the wasm-bindgen crate in Cargo.lock
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$WB_VERSION" ]; then
  say "wasm-bindgen-cli $WB_VERSION: present"
else
  say "installing wasm-bindgen-cli $WB_VERSION"
  cargo install --locked wasm-bindgen-cli --version "$WB_VERSION" \
    || cargo install --force wasm-bindgen-cli --version "$WB_VERSION"
fi

# 3. Debian packages the browser tests need: Chromium, and nginx to test the shipped nginx snippet
#    for real (tests/browser/headers.test.mjs).
apt_install() { # PACKAGE BINARY
  if [ "${SETUP_NO_BROWSER:-}" = 1 ]; then
    say "$1: skipped (SETUP_NO_BROWSER=1)"
  elif [ -x "$2" ]; then
    say "$1: present"
  else
    say "installing $1 (apt)"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "$1"
  fi
}
apt_install chromium /usr/bin/chromium
apt_install nginx-light /usr/sbin/nginx

# 4. npm devDependencies (binaryen's wasm-opt, esbuild to minify dist/'s scripts and stylesheets, playwright-core, fast-check for the fuzz tests, typescript for the npm package's types), exactly as locked
want() { node -p "require('./package-lock.json').packages['node_modules/$1'].version"; }
have() { node -p "try { require('./node_modules/$1/package.json').version } catch { '' }"; }
if [ "$(have binaryen)" = "$(want binaryen)" ] && [ "$(have playwright-core)" = "$(want playwright-core)" ] && [ "$(have fast-check)" = "$(want fast-check)" ] && [ "$(have typescript)" = "$(want typescript)" ] && [ "$(have esbuild)" = "$(want esbuild)" ]; then
  say "npm devDependencies: present"
else
  say "installing npm devDependencies"
  npm ci --no-audit --no-fund
fi
say "done"
