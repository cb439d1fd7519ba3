#!/usr/bin/env bash
# Renders the PNG sizes of the application icon from stackpilot.svg (the source).
# Run after changing the SVG; needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
for s in 16 24 32 48 64 128 256; do
  rsvg-convert -w "$s" -h "$s" stackpilot.svg -o "stackpilot-$s.png"
done
convert stackpilot-16.png stackpilot-32.png stackpilot-48.png stackpilot-256.png stackpilot.ico  # Windows icon (ImageMagick)
