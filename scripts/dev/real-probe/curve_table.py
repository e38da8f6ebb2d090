# The curves' table: per curve the exact training accuracy at 200 / 600 / 1000 / 2000 epochs (where
# run), at the end, the epoch reaching 99.5 % (epoch accuracy), end loss, validation, max softmax.
import sys
names = {"d64-7v9": ("64", "7v9", "joint"), "d256-7v9": ("256", "7v9", "joint"),
         "d18-7v9": ("18", "7v9", "joint"),
         "d64-6v0": ("64", "6v0", "joint"), "d256-6v0": ("256", "6v0", "joint"),
         "d64-6v0-long": ("64", "6v0", "joint"),
         "d64-6v0-n200": ("64", "6v0", "joint, n = 200 (2 steps an epoch)"),
         "d64-6v0-W0": ("64", "6v0", "head only (W = 0: mean pooling)")}
print("| d | pair | model | epochs run | train acc. @200 | @600 | @1000 | @2000 | end: train acc. / loss | epoch reaching 99.5 % | val. acc. end | max softmax end | CPU s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for n in sys.argv[1:]:
    try:
        rows = [l.split("\t") for l in open(f"runs/curve-{n}.tsv").read().splitlines()[1:] if not l.startswith("#")]
    except FileNotFoundError:
        continue
    if not rows: continue
    at = {int(r[0]): r for r in rows}
    def acc(e): return f"{float(at[e][3]):.3f}" if e in at else "–"
    last = rows[-1]
    reached = next((r[0] for r in rows if float(r[1]) >= 0.995), "not by the end")
    d, pair, model = names[n]
    print(f"| {d} | {pair} | {model} | {last[0]} | {acc(200)} | {acc(600)} | {acc(1000)} | {acc(2000)} | {float(last[3]):.3f} / {float(last[4]):.3f} | {reached} | {float(last[5]):.3f} | {float(last[6]):.2f} | {float(last[7]):.0f} |")
