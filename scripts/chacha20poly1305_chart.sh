#!/bin/sh
# scripts/chacha20poly1305_chart.sh - renders the ChaCha20-Poly1305 seal
# length sweep as a PNG: throughput (MB/s) against message length, one line
# per ChaCha20 implementation, the default (dispatched) path and the peers
# (OpenSSL EVP, libsodium), from `crisp bench --sweep --tsv`; the default
# path is the thick line.
# Usage: scripts/chacha20poly1305_chart.sh [CRISP-BINARY] [OUTPUT.png] [MS-PER-ROW]
# Needs gnuplot (Debian: gnuplot-nox).
set -eu
crisp=${1:-crisp}
output=${2:-chacha20poly1305_seal_sweep.png}
row_ms=${3:-40}
command -v gnuplot > /dev/null || { echo "chacha20poly1305_chart.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
data=$(mktemp)
trap 'rm -f "$data"' EXIT
"$crisp" bench --kernel chacha20poly1305_seal --sweep --tsv --time "$row_ms" > "$data"
columns=$(head -n 1 "$data" | awk -F '\t' '{ print NF }')
default_column=$(head -n 1 "$data" | awk -F '\t' '{ for (i = 1; i <= NF; i++) if ($i == "default") print i }')
cpu=$("$crisp" info | sed -n 's/^cpu: //p' | tr -d "\"'")
gnuplot <<GNUPLOT
set terminal pngcairo size 1100,650 font ",11" noenhanced
set output "$output"
set title "crisp ChaCha20-Poly1305 seal (one-shot, no AD) throughput by message length\n$cpu"
set xlabel "message length (bytes)"
set ylabel "MB/s (log scale)"
set logscale y 10
set logscale x 2
set format x "%.0f"
set xrange [16:65536]
set key top left
set grid
set datafile separator "\t"
plot for [column=2:$columns] "$data" using 1:column with linespoints pointsize 0.6 \
  linewidth (column == $default_column ? 3 : 1.5) title columnheader(column)
GNUPLOT
echo "$output"
