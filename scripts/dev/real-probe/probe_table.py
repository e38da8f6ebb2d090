# The probe's table from the drivers' TSVs: per (d, task, method) over every grid run and at the
# step the validation chose.
import sys, collections
print("| d | task | method | runs (steps tried) | reached 99.5 % | best epoch train acc. (step) | chosen step | train acc. | test acc. @best val | test loss @best val |")
print("|---|---|---|---|---|---|---|---|---|---|")
for d in sys.argv[1:]:
    lines = open(f"runs/probe-d{d}.tsv").read().splitlines()
    runs = collections.defaultdict(list); rows = {}
    for l in lines[1:]:
        f = l.split("\t")
        if f[0] == "#row":
            if f[1] == "task": continue
            rows[(f[1], f[2])] = f
        else:
            runs[(f[1], f[2])].append(f)
    for key, rs in runs.items():
        steps = sorted({float(r[3]) for r in rs})
        reached = sum(int(r[6]) for r in rs)
        best = max(rs, key=lambda r: float(r[7]))
        w = rows.get(key)
        chosen = f"{w[3]} | {float(w[6]):.3f} | {float(w[7]):.3f} | {float(w[8]):.3f}" if w else "(not finished) | | |"
        print(f"| {d} | {key[0]} | {key[1]} | {len(rs)} ({steps[0]:g}..{steps[-1]:g}) | {reached}/{len(rs)} | {float(best[7]):.3f} ({float(best[3]):g}) | {chosen} |")
