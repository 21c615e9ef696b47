#!/bin/sh
# Regenerates the PWA icons in client/public with ffmpeg: a white play triangle on the brand violet.
# The maskable icon keeps the triangle inside the 80 % safe zone.
set -e
cd "$(dirname "$0")/../public"
mk() {
  S=$1; K=$2; OUT=$3
  IN="lte(abs(Y-H/2),(W*(0.5+0.22*$K)-X)*0.62)*gte(X,W*(0.5-0.16*$K))"
  ffmpeg -loglevel error -y -f lavfi -i "color=c=0x6d28d9:s=${S}x${S},format=rgb24" -frames:v 1 \
    -vf "geq=r='if($IN,255,109)':g='if($IN,255,40)':b='if($IN,255,217)'" "$OUT"
}
mk 192 1 icon-192.png
mk 512 1 icon-512.png
mk 512 0.75 maskable-512.png
mk 180 1 apple-touch-icon.png
mk 48 1 favicon.png
