#!/usr/bin/env python3
"""Read criterion's results for `cargo bench --bench scan` and print MB/s
(10^6 bytes per second, from the mean time per iteration) and the ratios
the speed and robustness goals ask for.

Usage: python3 corpora/gen/report.py [TARGET_DIR]   (default: target)

Realistic corpora (groups prose, rfc, mail, dense, nouri): MB/s of each
contender and urifind/linkify, urifind/regex, urifind/memchr (goals: >= 5,
> 1, >= 0.33). Group `adversarial`: MB/s of each input and its ratio to
plain prose (goal: >= 0.33).
"""
import json
import os
import sys


def load(root):
    res = {}
    base = os.path.join(root, "criterion")
    for dirpath, _dirs, files in os.walk(base):
        if "benchmark.json" not in files or not dirpath.endswith("new"):
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            b = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            e = json.load(f)
        tp = (b.get("throughput") or {}).get("Bytes")
        if not tp:
            continue
        ns = e["mean"]["point_estimate"]
        res[(b["group_id"], b["function_id"])] = tp / ns * 1e3
    return res


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target"
    res = load(root)
    if not res:
        sys.exit(f"no criterion results under {root}/criterion")
    cols = ["memchr", "urifind", "urifind-stream", "linkify", "regex"]
    groups = [g for g in ["prose", "rfc", "mail", "dense", "nouri", "draft", "text"]
              if any((g, c) in res for c in cols)]
    if groups:
        print("MB/s (10^6 bytes/s), mean of criterion samples\n")
        print(f"{'corpus':8} " + " ".join(f"{c:>14}" for c in cols)
              + "  u/linkify  u/regex  u/memchr  stream/slice")
        for g in groups:
            v = {c: res.get((g, c)) for c in cols}
            cells = " ".join(
                f"{v[c]:14.0f}" if v[c] else f"{'-':>14}" for c in cols)
            u = v["urifind"]

            def ratio(x):
                return f"{u / x:9.2f}" if u and x else f"{'-':>9}"
            st = (f"{v['urifind-stream'] / u:13.2f}"
                  if u and v["urifind-stream"] else f"{'-':>13}")
            print(f"{g:8} {cells} {ratio(v['linkify'])} "
                  f"{ratio(v['regex'])[1:]} {ratio(v['memchr'])[0:]} {st}")
    adv = {f: mbs for (g, f), mbs in res.items() if g == "adversarial"}
    if adv:
        prose = adv.get("prose")
        print("\nadversarial inputs, urifind only (MB/s, ratio to prose)\n")
        for k in sorted(adv, key=lambda k: (k != "prose", k)):
            r = f"{adv[k] / prose:6.2f}" if prose else "     -"
            flag = "" if not prose or adv[k] >= prose / 3 else "  BELOW 1/3"
            print(f"{k:18} {adv[k]:10.0f} {r}{flag}")


if __name__ == "__main__":
    main()
