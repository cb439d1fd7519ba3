#!/bin/sh
# Runs lupdate over the window's sources into a copy of the committed zh_CN .ts and
# fails when any string is unfinished: a new or changed string without its Chinese.
# usage: check_translations.sh LUPDATE TS_FILE SOURCE...
set -eu
lupdate=$1
ts=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$ts" "$tmp/stackpilot_zh_CN.ts"
"$lupdate" -no-obsolete "$@" -ts "$tmp/stackpilot_zh_CN.ts" >"$tmp/lupdate.out" 2>&1 || {
  cat "$tmp/lupdate.out"
  exit 1
}
grep -E "Found|obsolete|new" "$tmp/lupdate.out" || true
total=$(grep -c "<source>" "$tmp/stackpilot_zh_CN.ts" || true)
unfinished=$(grep -c 'type="unfinished"' "$tmp/stackpilot_zh_CN.ts" || true)
if [ "$unfinished" -ne 0 ]; then
  echo "zh_CN: $unfinished of $total strings unfinished:"
  grep -B3 'type="unfinished"' "$tmp/stackpilot_zh_CN.ts" | grep "<source>" | sed 's/^ */  /'
  exit 1
fi
echo "zh_CN: all $total strings translated, 0 unfinished, 0 missing"
