#!/usr/bin/env bash
# Installs the Debian 12 packages ServeBench builds and tests with. Idempotent: does nothing when
# everything is already there. Uses sudo when not root.
#   --list   prints the packages (one a line) and installs nothing; scripts/check-deps.sh
#            checks the build against this list.
set -euo pipefail
PKGS=(cmake ninja-build g++ ccache pkg-config
      qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite libsqlite3-dev qt6-charts-dev libqt6opengl6-dev
      qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qtkeychain-qt6-dev libgl-dev
      xvfb xauth fonts-wqy-microhei python3 python3-fastapi python3-uvicorn
      python3-yaml desktop-file-utils appstream dpkg-dev librsvg2-bin poppler-utils openssl
      dbus-daemon gnome-keyring libsecret-tools file)
# file: cpack -G DEB (tests/packaging) runs dpkg-shlibdeps through it. dbus-daemon,
# gnome-keyring and libsecret-tools: the real Secret Service the keychain test stores a key in.
# Node.js and npm run the tokenizer reference implementations the tests compare against. A
# machine may already have them from NodeSource (whose nodejs bundles npm and conflicts with
# Debian's npm package): only when the commands are missing are Debian's packages installed.
if [ "${1:-}" = "--list" ]; then
    # Both, whatever this machine has: NodeSource's package is named nodejs too.
    printf '%s\n' "${PKGS[@]}" nodejs npm
    exit 0
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    PKGS+=(nodejs npm)
fi
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "Installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
