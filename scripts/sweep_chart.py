#!/usr/bin/env python3
"""Renders a kernel's length sweep as a PNG with gnuplot.

Throughput (MB/s) against message length, one line per implementation, the
default (dispatched) path as the thick line, and the peers (OpenSSL,
libsodium, when crisp-bench was built with them), from
`crisp bench --kernel KERNEL --sweep --peers --tsv`.

Usage: scripts/sweep_chart.py KERNEL [CRISP-BINARY] [OUTPUT.png] [MS-PER-ROW]
  e.g. scripts/sweep_chart.py poly1305 build/tools/crisp docs/poly1305_sweep.png
Needs gnuplot (Debian: gnuplot-nox).
"""

import re
import shutil
import subprocess
import sys
import tempfile

GNUPLOT_SCRIPT = """\
set terminal pngcairo size 1100,650 font ",11" noenhanced
set output "{output}"
set title "crisp {kernel} throughput by message length (one-shot)\\n{cpu}"
set xlabel "message length (bytes)"
set ylabel "MB/s (log scale)"
set logscale y 10
set logscale x 2
set format x "%.0f"
set xrange [{shortest}:{longest}]
set key top left
set grid
set datafile separator "\\t"
plot for [column=2:{columns}] "{data}" using 1:column with linespoints pointsize 0.6 \\
  linewidth (column == {default_column} ? 3 : 1.5) title columnheader(column)
"""


def main():
    if len(sys.argv) < 2:
        print("usage: sweep_chart.py KERNEL [CRISP-BINARY] [OUTPUT.png] [MS-PER-ROW]", file=sys.stderr)
        sys.exit(2)
    arguments = sys.argv[1:5] + [""] * 3
    kernel = arguments[0]
    crisp = arguments[1] or "crisp"
    output = arguments[2] or f"{kernel}_sweep.png"
    row_ms = arguments[3] or "40"
    if not shutil.which("gnuplot"):
        print("sweep_chart.py: gnuplot not found (apt-get install gnuplot-nox)", file=sys.stderr)
        sys.exit(1)
    sweep = subprocess.run([crisp, "bench", "--kernel", kernel, "--sweep", "--peers", "--tsv", "--time", row_ms],
                           stdout=subprocess.PIPE, text=True, check=True).stdout
    rows = [line.split("\t") for line in sweep.splitlines()]
    header = rows[0]
    info = subprocess.run([crisp, "info"], stdout=subprocess.PIPE, text=True).stdout
    cpu = "".join(line[len("cpu: "):] for line in info.splitlines() if line.startswith("cpu: "))
    with tempfile.NamedTemporaryFile("w") as data:
        data.write(sweep)
        data.flush()
        # The x range is the sweep's own first and last length.
        script = GNUPLOT_SCRIPT.format(
            output=output, kernel=kernel, cpu=re.sub("[\"']", "", cpu), shortest=rows[1][0], longest=rows[-1][0],
            columns=len(header), data=data.name,
            default_column=" ".join(str(index + 1) for index, name in enumerate(header) if name == "default"))
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(output)


if __name__ == "__main__":
    main()
