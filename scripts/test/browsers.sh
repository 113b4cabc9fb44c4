# Sourced by the test command's scripts: the browsers the browser tests run (the same paths and
# variables tests/e2e/support/engines.ts and scripts/support/chromium.ts read), the oldest version of
# each the whole suite has been seen to pass with, and how to tell which version is installed.

# Chromium's headless shell (Debian's chromium-headless-shell): the same Chromium build without the full
# browser's windows and compositing, as Playwright's own headless runs use; the full browser is the
# benchmarks' (scripts/support/chromium.ts).
CHROMIUM="${CHROMIUM_HEADLESS_SHELL_PATH:-/usr/bin/chromium-headless-shell}"
FIREFOX="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
WEBKIT_DRIVER="${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}"
MINIBROWSER="${MINIBROWSER_PATH:-}"
if [ -z "$MINIBROWSER" ]; then
  for candidate in /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser /usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser; do
    if [ -x "$candidate" ]; then MINIBROWSER="$candidate" && break; fi
  done
  MINIBROWSER="${MINIBROWSER:-/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser}"
fi

# Upstream versions, compared with dpkg's rules (so 140.12.0esr is newer than 140, 150~b1 older
# than 150). Debian 12 ships all three in its main suite; newer ones come with its security updates.
MIN_CHROMIUM=150
MIN_FIREFOX=140
MIN_WEBKIT=2.50

# The Debian package that installed `file`, or nothing (a browser from a tarball, a symlink of one's own).
owning_package() {
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local file="$1" owner
  for candidate in "$file" "$(readlink -f "$file" 2>/dev/null)"; do
    owner="$(dpkg-query -S "$candidate" 2>/dev/null | grep -v '^diversion' | head -n 1 | cut -d: -f1 || true)"
    if [ -n "$owner" ]; then echo "$owner" && return 0; fi
  done
}

# The installed version of a Debian package, as dpkg gives it (epoch, upstream, Debian revision).
package_version() {
  dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true
}

# The upstream part of a Debian version: no epoch, no Debian revision.
upstream_of() {
  local version="${1#*:}"
  echo "${version%-*}"
}

# The version a program prints for --version (the first dotted number and its suffix), or nothing.
self_reported_version() {
  "$1" --version 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+)+[A-Za-z0-9.~+]*' | head -n 1 || true
}

# "package version" when `file` came from a Debian package, else "- version" from its own --version,
# else "- ": what older_than and the stop lines read.
installed_version() {
  local file="$1" package
  package="$(owning_package "$file")"
  if [ -n "$package" ]; then
    echo "$package $(package_version "$package")"
  else
    echo "- $(self_reported_version "$file")"
  fi
}

# Whether `version` (a Debian or upstream version) is older than `minimum` (an upstream version).
older_than() {
  [ -n "$1" ] && dpkg --compare-versions "$(upstream_of "$1")" lt "$2"
}

# Node packages' versions, read from their package.json (some export no ./package.json).
node_package_version() {
  sed -n 's/^  "version": "\(.*\)",$/\1/p' "node_modules/$1/package.json" 2>/dev/null | head -n 1
}

# One line per browser, driver and proxy the browser tests run, with its exact version and where it came from.
describe_program() {
  local label="$1" file="$2" how="$3" package version
  read -r package version <<<"$(installed_version "$file")"
  if [ "$package" != "-" ]; then
    echo "$label $(upstream_of "$version") (Debian package $package $version, $file)$how"
  else
    echo "$label ${version:-of unknown version} (not from a Debian package, $file)$how"
  fi
}

describe_browsers() {
  describe_program 'Chromium headless shell' "$CHROMIUM" ", driven by Playwright $(node_package_version @playwright/test)"
  describe_program 'Firefox ESR' "$FIREFOX" ", driven by puppeteer-core $(node_package_version puppeteer-core) over WebDriver BiDi"
  describe_program 'WebKitGTK MiniBrowser' "$MINIBROWSER" ''
  describe_program WebKitWebDriver "$WEBKIT_DRIVER" ", driven by WebdriverIO $(node_package_version webdriverio)"
  describe_program nginx "$(command -v nginx || echo /usr/sbin/nginx)" ''
  describe_program Caddy "$(command -v caddy || echo /usr/bin/caddy)" ''
}
