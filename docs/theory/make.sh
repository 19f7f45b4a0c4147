#!/bin/sh
# Regenerates every picture and table of docs/theory.md (run from the
# repository root after `cargo build --release`). On one core the bench
# compare takes about 3-4 minutes, the QGD compare about ten seconds and
# the pictures a second.
set -eu
S=${SHEARS:-target/release/shears}
D=docs/theory
QGD="rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4"

$S tree --depth 2 --algorithm minimax --max-width 4 -o $D/minimax-start-d2.svg
$S tree --depth 2 --algorithm alphabeta --ordering mvv-lva --max-width 4 -o $D/alphabeta-start-d2.svg
$S tree --depth 2 --algorithm alphabeta --ordering mvv-lva --max-width 4 --format dot -o $D/alphabeta-start-d2.dot
$S tree --fen "$QGD" --depth 3 --algorithm alphabeta --ordering none --max-width 3 -o $D/alphabeta-none-qgd-d3.svg
$S tree --fen "$QGD" --depth 3 --algorithm alphabeta --ordering full --max-width 3 -o $D/alphabeta-full-qgd-d3.svg
$S tree --fen "$QGD" --depth 3 --algorithm alphabeta --ordering full --leaf qsearch --max-width 3 -o $D/alphabeta-qsearch-qgd-d3.svg
$S tree --fen "$QGD" --depth 4 --algorithm alphabeta --ordering full --max-width 2 -o $D/alphabeta-qgd-d4.svg
$S tree --fen "$QGD" --depth 3 --algorithm negascout --ordering full --max-width 3 -o $D/negascout-qgd-d3.svg
$S tree --fen "$QGD" --depth 2 --algorithm sss --ordering full --max-width 4 -o $D/sss-qgd-d2.svg
$S tree --fen "$QGD" --depth 3 --algorithm mtdf --ordering full --max-width 3 -o $D/mtdf-qgd-d3.svg

$S compare --fen "$QGD" --depth 5 --plot $D/compare-qgd.svg > $D/compare-qgd.txt
$S compare --bench --depth 6 --max-nodes 40000000 --plot $D/compare-bench.svg > $D/compare-bench.txt
