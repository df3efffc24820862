#!/bin/sh
# Peak memory and speed of the urifind command streaming large generated
# inputs through stdin (the goal: under 64 MiB for 1 GB of any adversarial
# input). Each input is generated to a temporary file first, so that the
# generator's speed does not limit the measurement, then piped from it by
# cat (a pipe, as in `... | urifind`; MODE=file redirects the file to stdin
# instead, which lets the command see a regular file):
#
#   [MODE=pipe|file] corpora/gen/peakmem.sh [SIZE] [KIND...]   (SIZE: 1G)
#
# Prints: kind, bytes, max RSS (KiB), wall seconds, MB/s (10^6 bytes/s),
# exit status. Needs /usr/bin/time (Debian package `time`) and release
# builds of the command and of the gencorpus example.
set -eu
size=${1:-1G}
[ $# -gt 0 ] && shift
kinds=${*:-$(target/release/examples/gencorpus list | cut -f1)}
tmp=${TMPDIR:-/tmp}/urifind-peakmem.$$
trap 'rm -f "$tmp" "$tmp.time"' EXIT
printf '%-18s %12s %10s %8s %8s %s\n' kind bytes maxrss_kib secs MB/s status
for k in $kinds; do
    target/release/examples/gencorpus "$k" "$size" 1 > "$tmp"
    bytes=$(wc -c < "$tmp")
    set +e
    if [ "${MODE:-pipe}" = file ]; then
        /usr/bin/time -v target/release/urifind < "$tmp" > /dev/null \
            2> "$tmp.time"
        st=$?
    else
        cat "$tmp" | /usr/bin/time -v target/release/urifind > /dev/null \
            2> "$tmp.time"
        st=$?
    fi
    set -e
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp.time")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp.time")
    secs=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    mbs=$(awk -v b="$bytes" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", b / s / 1e6; else print "-" }')
    printf '%-18s %12s %10s %8s %8s %s\n' "$k" "$bytes" "$rss" "$secs" "$mbs" "$st"
done
