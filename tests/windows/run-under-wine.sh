#!/usr/bin/env bash
# Runs the MinGW-built programs under Wine; called by .ci/test-windows, inside an
# Xvfb display when there is no X server (Wine's DXGI needs its display driver).
# Usage: run-under-wine.sh WINE OUT_DIR
# OUT_DIR holds wine_detect.exe and, when the probe was built,
# stackpilot-probe.exe and amdhip64_6.dll (the fake HIP runtime).
set -uo pipefail
WINE=$1
out=$2
export WINEPREFIX=$out/wineprefix WINEDEBUG=-all WINEARCH=win64
# No Mono/Gecko installer dialogs on a fresh prefix.
export WINEDLLOVERRIDES="mscoree,mshtml="
unset STACKPILOT_HIP_LIB

t0=$(date +%s)
# The first start creates the prefix (about 15-20 s); the same wineserver then
# serves the runs below, so they all see this display.
"$WINE" wineboot --init >/dev/null 2>&1
t1=$(date +%s)
echo "test-windows: wine prefix ready in $((t1 - t0)) s"

rc=0
fail() {
  echo "FAIL $*"
  rc=1
}

# With no display at all Wine's DXGI cannot start; that alone is not a failure.
detect_args=()
[ -n "${DISPLAY:-}" ] || detect_args=(--no-dxgi-ok)
"$WINE" "$out/wine_detect.exe" "${detect_args[@]}" | tr -d '\r'
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || fail "wine_detect.exe exited $status"

if [ -f "$out/stackpilot-probe.exe" ]; then
  # No HIP runtime in the prefix: a status, not a crash.
  missing=$("$WINE" "$out/stackpilot-probe.exe" hip | tr -d '\r')
  status=$?
  echo "probe hip (no runtime): $missing"
  [ "$status" -eq 0 ] || fail "stackpilot-probe hip exited $status"
  [[ $missing == *'"status":"missing"'* ]] || fail "probe without HIP runtime: expected status missing"

  # The fake runtime through STACKPILOT_HIP_LIB, as a Windows path (Wine maps / to Z:).
  dll="Z:$(echo "$out/amdhip64_6.dll" | tr / '\\')"
  found=$(STACKPILOT_HIP_LIB=$dll "$WINE" "$out/stackpilot-probe.exe" hip | tr -d '\r')
  status=$?
  echo "probe hip (fake amdhip64_6.dll): $found"
  [ "$status" -eq 0 ] || fail "stackpilot-probe hip with fake runtime exited $status"
  for want in '"status":"ok"' '"gfx":"gfx1031"' '"gfx_target":"gfx1031:sramecc-:xnack-"' \
              '"compute_units":40' '"vram_mb":12288' '"pci_bus":"0000:03:00.0"' \
              '"props_layout":"R0600"' '"driver_version":"6.1"' '"name":"AMD Radeon RX 6750 XT"'; do
    [[ $found == *"$want"* ]] || fail "probe with fake runtime: missing $want"
  done
fi
t2=$(date +%s)
echo "test-windows: wine runs took $((t2 - t1)) s"

# Stop the server while its display still exists; the next run starts clean.
"${WINESERVER:-wineserver}" -k >/dev/null 2>&1
exit "$rc"
