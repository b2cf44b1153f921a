#!/usr/bin/env bash
# Renders the hicolor PNG sizes from the hand-written SVG. The PNGs are committed so a build needs
# no SVG renderer; run this after editing the SVG (needs rsvg-convert from librsvg2-bin, or
# ImageMagick's convert).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
svg="$here/icons/io.servebench.ServeBench.svg"
for size in 48 128 256; do
    out="$here/icons/hicolor/${size}x${size}/apps/io.servebench.ServeBench.png"
    mkdir -p "$(dirname "$out")"
    if command -v rsvg-convert >/dev/null; then
        rsvg-convert -w "$size" -h "$size" -o "$out" "$svg"
    else
        convert -background none -density 384 "$svg" -resize "${size}x${size}" "$out"
    fi
    echo "$out"
done
