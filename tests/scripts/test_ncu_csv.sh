#!/usr/bin/env bash
# The ncu CSV reader (scripts/ncu_csv.py) on a sample laid out as the GPU machine's ncu wrote
# its output (shared/notes/gpu-machine.md: every field quoted, thousands separators, the
# program's own lines and ==PROF== lines mixed in): the figures summed right, and a stream
# with no metric rows, or without a metric asked for, is a failure, never a zero.
# Usage: test_ncu_csv.sh SOURCE_DIR
set -euo pipefail
src=$1
reader="$src/scripts/ncu_csv.py"
sample="$src/tests/scripts/ncu-sample.csv"
fail() { echo "FAIL: $*" >&2; exit 1; }
got=$(python3 "$reader" "$sample" l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)
want='{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 31250.0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 125000.0, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 125000.0}'
[ "$got" = "$want" ] || fail "read $got"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^"' "$sample" > "$tmp/no-rows.csv"  # only the program's own lines
if python3 "$reader" "$tmp/no-rows.csv" 2> "$tmp/err"; then fail "a stream with no metric rows passed"; fi
grep -q "no metric rows" "$tmp/err" || fail "no-rows said: $(cat "$tmp/err")"
if python3 "$reader" "$sample" l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum 2> "$tmp/err"; then
  fail "a missing metric passed"
fi
grep -q "missing l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum" "$tmp/err" || fail "missing said: $(cat "$tmp/err")"
echo "ncu CSV reader: ok"
