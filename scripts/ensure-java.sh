#!/usr/bin/env bash
# The HTML validity test runs the W3C Nu checker (vnu-jar), which needs a Java runtime.
set -euo pipefail
if command -v java >/dev/null 2>&1; then
  exit 0
fi
echo "java not found: installing Debian's default-jre-headless package."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends default-jre-headless >/dev/null
java -version
