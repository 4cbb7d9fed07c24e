#!/bin/sh
# scripts/sweep_chart.sh - renders a kernel's length sweep as a PNG:
# throughput (MB/s) against message length, one line per implementation,
# the default (dispatched) path as the thick line, and the peers (OpenSSL,
# libsodium, when crisp-bench was built with them), from
# `crisp bench --kernel KERNEL --sweep --peers --tsv`.
# Usage: scripts/sweep_chart.sh KERNEL [CRISP-BINARY] [OUTPUT.png] [MS-PER-ROW]
#   e.g. scripts/sweep_chart.sh poly1305 build/tools/crisp docs/poly1305_sweep.png
# Needs gnuplot (Debian: gnuplot-nox).
set -eu
[ $# -ge 1 ] || { echo "usage: sweep_chart.sh KERNEL [CRISP-BINARY] [OUTPUT.png] [MS-PER-ROW]" >&2; exit 2; }
kernel=$1
crisp=${2:-crisp}
output=${3:-${kernel}_sweep.png}
row_ms=${4:-40}
command -v gnuplot > /dev/null || { echo "sweep_chart.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
data=$(mktemp)
trap 'rm -f "$data"' EXIT
"$crisp" bench --kernel "$kernel" --sweep --peers --tsv --time "$row_ms" > "$data"
columns=$(head -n 1 "$data" | awk -F '\t' '{ print NF }')
default_column=$(head -n 1 "$data" | awk -F '\t' '{ for (i = 1; i <= NF; i++) if ($i == "default") print i }')
# The x range is the sweep's own first and last length.
shortest=$(awk -F '\t' 'NR == 2 { print $1 }' "$data")
longest=$(awk -F '\t' 'END { print $1 }' "$data")
cpu=$("$crisp" info | sed -n 's/^cpu: //p' | tr -d "\"'")
gnuplot <<GNUPLOT
set terminal pngcairo size 1100,650 font ",11" noenhanced
set output "$output"
set title "crisp $kernel throughput by message length (one-shot)\n$cpu"
set xlabel "message length (bytes)"
set ylabel "MB/s (log scale)"
set logscale y 10
set logscale x 2
set format x "%.0f"
set xrange [$shortest:$longest]
set key top left
set grid
set datafile separator "\t"
plot for [column=2:$columns] "$data" using 1:column with linespoints pointsize 0.6 \
  linewidth (column == $default_column ? 3 : 1.5) title columnheader(column)
GNUPLOT
echo "$output"
