#!/usr/bin/env bash
# Runs the MinGW-built programs under Wine; called by .ci/test-windows, inside an
# Xvfb display when there is no X server (Wine's DXGI needs its display driver).
# Usage: run-under-wine.sh WINE OUT_DIR
# OUT_DIR holds wine_detect.exe and, when the probe was built,
# stackpilot-probe.exe and amdhip64_6.dll (the fake HIP runtime), and
# stackpilot-run.exe, tree_child.exe, test_containment.exe, test_launch_windows.exe,
# test_theme_windows.exe and test_file_identity_windows.exe.
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

# Registry edits, one regedit per step: every Wine process start costs about a
# second.
regfile() {
  printf 'REGEDIT4\n\n%s\n' "$1" >"$out/step.reg"
  "$WINE" regedit /S "Z:$(echo "$out/step.reg" | tr / '\\')" >/dev/null 2>&1
}
key='[HKEY_LOCAL_MACHINE\System\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}\0000]'
drives='[HKEY_LOCAL_MACHINE\Software\Wine\Drives]'
# A drive Wine reports as remote, for the home checks below. mountmgr reads
# drive types when Wine's services start, so restart them; that also rebuilds
# the display keys, so the registry values go in after.
mkdir -p "$out/fake-share/u"
ln -sfn "$out/fake-share" "$WINEPREFIX/dosdevices/n:"
regfile "$drives
\"n:\"=\"network\""
"${WINESERVER:-wineserver}" -k >/dev/null 2>&1
# The registry path: values an old driver writes (MemorySize as 4 bytes of
# REG_BINARY), then the REG_QWORD a current one adds, which must win. They go
# into the driver key of Wine's display device and are removed again after.
regfile "$key
\"HardwareInformation.qwMemorySize\"=-
\"HardwareInformation.MemorySize\"=hex:00,00,00,c0
\"DriverVersion\"=\"31.0.24027.1012\""
"$WINE" "$out/wine_detect.exe" "${detect_args[@]}" --expect-memory-mb 3072 \
  --expect-driver-version 31.0.24027.1012 | tr -d '\r' | grep -E '^(  setupapi|FAIL|wine_detect)'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "registry MemorySize (REG_BINARY) not read back"
regfile "$key
\"HardwareInformation.qwMemorySize\"=hex(b):00,00,00,00,03,00,00,00"
"$WINE" "$out/wine_detect.exe" "${detect_args[@]}" --expect-memory-mb 12288 | tr -d '\r' |
  grep -E '^(  setupapi|FAIL|wine_detect)'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "registry qwMemorySize (REG_QWORD) not read back"

# Homes on the network: a UNC profile path, and a drive Wine reports as remote.
"$WINE" "$out/wine_detect.exe" "${detect_args[@]}" --userprofile '\\fs01\home\u' \
  --expect-home-fs unc --expect-home-network yes | tr -d '\r' | grep -E '^(home|FAIL|wine_detect)'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "UNC home not classified as unc/network"
"$WINE" "$out/wine_detect.exe" "${detect_args[@]}" --userprofile 'N:\u' \
  --expect-home-fs network --expect-home-network yes | tr -d '\r' | grep -E '^(home|FAIL|wine_detect)'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "home on a remote drive not classified as network"
regfile "$key
\"HardwareInformation.qwMemorySize\"=-
\"HardwareInformation.MemorySize\"=-
\"DriverVersion\"=-

$drives
\"n:\"=-"

# The apps' theme as the window reads it: absent, then dark (0), then light (1).
personalize='[HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Themes\Personalize]'
for step in "-:unset" "dword:00000000:dark" "dword:00000001:light" "-:unset"; do
  regfile "$personalize
\"AppsUseLightTheme\"=${step%:*}"
  "$WINE" "$out/test_theme_windows.exe" "${step##*:}" | tr -d '\r'
  [ "${PIPESTATUS[0]}" -eq 0 ] || fail "AppsUseLightTheme=${step%:*} not read as ${step##*:}"
done
rm -f "$WINEPREFIX/dosdevices/n:" "$out/step.reg"

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
# The Windows launch decoders, then stackpilot-run's containment. One test child
# crashes on purpose: no winedbg for it (Wine ignores SEM_NOGPFAULTERRORBOX).
"$WINE" "$out/test_launch_windows.exe" | tr -d '\r'
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || fail "test_launch_windows.exe exited $status"
WINEDLLOVERRIDES="$WINEDLLOVERRIDES;winedbg.exe=d" "$WINE" "$out/test_containment.exe" 2>&1 |
  tr -d '\r' | grep -v '^wine: Unhandled page fault'
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || fail "test_containment.exe exited $status"
"$WINE" "$out/test_file_identity_windows.exe" | tr -d '\r'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "test_file_identity_windows.exe failed"

t2=$(date +%s)
echo "test-windows: wine runs took $((t2 - t1)) s"

# Stop the server while its display still exists; the next run starts clean.
"${WINESERVER:-wineserver}" -k >/dev/null 2>&1
exit "$rc"
