#!/usr/bin/env bash
# Nsight Compute against the memory view: for the tutorial's kernels, global load and store
# requests and sectors of one real launch (ncu's l1tex__t_{requests,sectors}_pipe_lsu_mem_
# global_op_{ld,st}.sum) beside `threadmap memory` for the same launch. No pass/fail on small
# differences (the model is a model); a difference over 10% in sectors per request is printed
# loudly. Exit 77 with a SKIPPED line when ncu is not installed or there is no GPU; 1 when a
# run fails; else 0.
# Usage: scripts/ncu-vs-model.sh THREADMAP OUT_CSV
set -uo pipefail
tm=${1:?usage: scripts/ncu-vs-model.sh THREADMAP OUT_CSV}
csv=${2:?usage: scripts/ncu-vs-model.sh THREADMAP OUT_CSV}
export PATH="$PATH:/usr/local/cuda/bin"
command -v ncu > /dev/null || { echo "SKIPPED: ncu (Nsight Compute) is not installed"; exit 77; }
nvidia-smi > /dev/null 2>&1 || { echo "SKIPPED: no GPU (nvidia-smi found none)"; exit 77; }
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
# kernel and launch options, one case per line
cases="matmul --rows 512 --cols 512 --inner 64 --block 32,32
matmul-xcol --rows 512 --cols 512 --inner 64 --block 32,32
matmul --rows 200 --cols 200 --inner 200 --block 16,16
increment --n 1000000 --block 256
increment-stride --n 1000000 --block 128 --grid 40"
status=0 loud=0
: > "$csv"
printf '%-16s %-48s %-5s %10s %10s %8s %10s %10s %8s\n' kernel launch op ncu_req ncu_sect ncu_s/r \
  model_req model_sect model_s/r
while read -r kernel options; do
  # shellcheck disable=SC2086  # options are words
  if ! ncu --csv --kernel-name regex:plain_kernel --launch-count 1 --metrics "$metrics" \
      "$tm" bench --backend cuda --kernel "$kernel" $options --repeat 1 > "$csv.one" 2> "$csv.err"; then
    echo "ncu failed for $kernel $options:"; cat "$csv.err"; status=1; continue
  fi
  { echo "# $kernel $options"; cat "$csv.one"; } >> "$csv"
  # shellcheck disable=SC2086
  "$tm" memory --kernel "$kernel" $options --csv > "$csv.model" || { status=1; continue; }
  for op in ld st; do
    # ncu's CSV through a CSV parser (quoted fields, thousands separators, the program's own
    # lines mixed in); nothing parsed is a failure, never a zero that compares.
    if ! read -r nreq nsec < <(python3 "$(dirname "$0")/ncu_csv.py" "$csv.one" \
        "l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum" "l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum" |
        python3 -c 'import json, sys; d = list(json.load(sys.stdin).values()); print(int(d[0]), int(d[1]))'); then
      echo "ncu's output for $kernel $options ($op) has no figures:"; cat "$csv.one"; status=1; continue
    fi
    word=$([ "$op" = ld ] && echo load || echo store)
    read -r mreq msec < <(awk -F, -v w="$word" '$2 == w && $3 == "global" { r += $5; s += $6 } END { print r + 0, s + 0 }' \
      "$csv.model")
    if [ "$mreq" -eq 0 ]; then echo "threadmap memory gave no global $word requests for $kernel $options"; status=1; continue; fi
    line=$(awk -v k="$kernel" -v l="$options" -v op="$word" -v nr="$nreq" -v ns="$nsec" -v mr="$mreq" -v ms="$msec" '
      BEGIN {
        nspr = nr ? ns / nr : 0; mspr = mr ? ms / mr : 0
        diff = (nspr && mspr) ? (mspr - nspr) / nspr * 100 : (nspr == mspr ? 0 : 100)
        if (diff < 0) diff = -diff
        printf "%-16s %-48s %-5s %10d %10d %8.2f %10d %10d %8.2f%s\n", k, l, op, nr, ns, nspr, mr, ms, mspr,
               (diff > 10 ? sprintf("   <<< DIFFERENCE OVER 10%% (%.0f%%) >>>", diff) : "")
      }')
    echo "$line"
    case $line in *DIFFERENCE*) loud=1 ;; esac
  done
done <<< "$cases"
rm -f "$csv.one" "$csv.err" "$csv.model"
[ "$loud" -eq 1 ] && echo "!!! the model differs from Nsight Compute by over 10% somewhere above: read why before trusting it"
exit "$status"
