#!/bin/sh
# Whole-process cost of mail mode on the hostile messages of gen.rs
# (`gencorpus list`, kinds `mail-*`), each at two sizes so that growth
# shows: every message is generated to a temporary file and fed through
# standard input to
#
#   urifind --mail -c          mail mode (time and peak RSS)
#   urifind --mail=never -c    raw mode on the same bytes
#   mailbench floor FILE       the parse-only floor (mail-parser and
#                              the HTML tokenizer, no scanning; in one process)
#
#   corpora/gen/hostile.sh [SIZE [KIND...]]      (SIZE: 48M; the second
#                                                 size is half of it)
#
# Prints per kind and size: bytes, mail seconds, peak RSS (KiB) and its
# ratio to the message, raw seconds, floor seconds, mail/raw. Seconds
# are CPU time (user + system; wall time with WALL=1): on a shared
# machine the wall time of a short run is mostly waiting for a core.
# Best of RUNS runs (default 3) for the times; the goal is mail <= 3x
# raw and peak RSS <= 3x the message + 32 MiB. Needs /usr/bin/time (Debian
# package `time`) and release builds of urifind and of the gencorpus and
# mailbench examples.
set -eu
size=${1:-48M}
[ $# -gt 0 ] && shift
kinds=${*:-$(target/release/examples/gencorpus list | cut -f1 | grep '^mail-')}
runs=${RUNS:-3}
exe=${URIFIND:-target/release/urifind}
tmp=${TMPDIR:-/tmp}/urifind-hostile.$$
trap 'rm -f "$tmp" "$tmp.time"' EXIT
secs() {
    if [ "${WALL:-0}" = 1 ]; then
        sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp.time" |
            awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'
    else
        awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$tmp.time"
    fi
}
# best CMD...: the best wall time of $runs runs and the largest peak RSS
best() {
    b=""
    rss=0
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -v "$@" < "$tmp" > /dev/null 2> "$tmp.time" || true
        s=$(secs)
        r=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp.time")
        [ "$r" -gt "$rss" ] && rss=$r
        if [ -z "$b" ] || awk -v a="$s" -v b="$b" 'BEGIN { exit !(a < b) }'; then
            b=$s
        fi
        i=$((i + 1))
    done
    echo "$b $rss"
}
half=$(awk -v s="$size" 'BEGIN {
    n = s + 0; u = substr(s, length(s)); if (u ~ /[0-9]/) u = "";
    printf "%d%s", n / 2, u }')
printf '%-18s %10s %8s %10s %6s %8s %8s %8s\n' kind bytes mail_s rss_kib \
    rss/msg raw_s floor_s mail/raw
for k in $kinds; do
    for sz in "$half" "$size"; do
        target/release/examples/gencorpus "$k" "$sz" 1 > "$tmp"
        bytes=$(wc -c < "$tmp")
        set -- $(best "$exe" --mail -c)
        mail=$1
        mrss=$2
        raw=$(best "$exe" --mail=never -c | cut -d' ' -f1)
        floor=$(best target/release/examples/mailbench floor "$tmp" | cut -d' ' -f1)
        printf '%-18s %10s %8s %10s %6s %8s %8s %8s\n' "$k" "$bytes" "$mail" \
            "$mrss" "$(awk -v r="$mrss" -v b="$bytes" 'BEGIN { printf "%.2f", r * 1024 / b }')" \
            "$raw" "$floor" \
            "$(awk -v m="$mail" -v r="$raw" 'BEGIN { if (r > 0) printf "%.1f", m / r; else print "-" }')"
    done
done
