#!/usr/bin/env python3
"""Markdown tables of a real-images study and a regime ladder (the CLI's --out JSON), as pasted into
docs/RESULTS.md "Real images":

    python3 scripts/real-study-tables.py study.json ladder.json

Only formatting: every number is the core's (the study's rows and the ladder's rows and summary).
"""
import json
import sys


def pm(s, digits=3):
    return f"{s['mean']:.{digits}f} ± {s['std']:.{digits}f}" if s and s.get('n') else "–"


def ci(d, digits=3, scale=1.0):
    if not d or not d.get('n'):
        return "–"
    m, lo, hi = d['mean'] * scale, d['lo'] * scale, d['hi'] * scale
    star = "**" if lo > 0 or hi < 0 else ""
    return f"{star}{m:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]{star}"


def step(x):
    return f"{x:.3g}"


def study(path):
    d = json.load(open(path))
    s = d['settings']
    print(f"<!-- {path}: {d['runCount']} runs, {d['seconds']:.0f} s wall, {d.get('cpuSeconds', 0):.0f} s CPU -->")
    for task in dict.fromkeys(r['task'] for r in d['table']):
        for setting in dict.fromkeys(r['setting'] for r in d['table'] if r['task'] == task):
            rows = [r for r in d['table'] if r['task'] == task and r['setting'] == setting]
            print(f"\n**{task}, {setting}**\n")
            print("| method | step (grid, ext.) | test acc. @best val | vs GD [95% CI] | test acc. end | vs GD end |"
                  " sparsity | vs GD | gamma-opt. share | max softmax | reached 99.5% |")
            print("|---|---|---|---|---|---|---|---|---|---|---|")
            for r in rows:
                ext = []
                if r['extendedDown']:
                    ext.append(f"-{r['extendedDown']}")
                if r['extendedUp']:
                    ext.append(f"+{r['extendedUp']}")
                grid = f"{step(r['grid'][0])}..{step(r['grid'][-1])}"
                mark = " edge" if r['atEdge'] else ""
                print(f"| {r['method']} | {step(r['lr'])} ({grid}{', ext ' + ' '.join(ext) if ext else ''}{mark}) "
                      f"| {pm(r['testAccuracyBest'])} | {ci(r.get('vsGdBest'))} | {pm(r['testAccuracyFinal'])} "
                      f"| {ci(r.get('vsGdFinal'))} | {pm(r['sparsity'], 2)} | {ci(r.get('vsGdSparsity'), 2)} "
                      f"| {pm(r['gammaOptimal'], 2)} | {pm(r['maxSoftmax'], 2)} | {r['reachedStop']}/{r['testAccuracyBest']['n']} |")
    return s


def ladder(path):
    d = json.load(open(path))
    print(f"\n<!-- {path}: {d['seconds']:.0f} s wall -->\n")
    print("| head | method | n | steps | SVM feasible (Fro / l_p) | corr mean (min) | min / mean selected softmax |"
          " train acc. | gamma-opt. | verdicts glob/loc/neither | limit reached | failing conditions |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    names = {'failInfeasible': 'infeasible', 'failUndecided': 'undecided', 'failNoPositiveToken': 'no positive token',
             'failHeadFaster': 'head faster', 'failSelectionMoving': 'selection moving',
             'failNotSeparated': 'not separated', 'failSlow': 'slow'}
    for r in d['table']:
        fails = ", ".join(f"{v} {r[k]}" for k, v in names.items() if r.get(k))
        lp = r['feasibleLp'] if r['method'] != 'nmd:2' else '–'
        print(f"| {r['head']} | {r['method']} | {r['n']} | {r['steps']} | {r['feasible']}/{r['seeds']} / {lp} "
              f"| {r['corrMean']:.4f} ({r['corrMin']:.4f}) | {r['minSoftmax']:.3f} / {r['meanSoftmax']:.3f} "
              f"| {r['trainAccuracy']:.3f} | {r['gammaOptimal']:.2f} | {r['globallyOptimal']}/{r['locallyOptimal']}/{r['neither']} "
              f"| {r['limitReached']}/{r['seeds']} | {fails or '–'} |")
    print("\nLargest n with corr >= corrTarget:", ", ".join(
        f"{x['head']} {x['method']}: {x['largestN']}" for x in d['summary']))


if __name__ == '__main__':
    study(sys.argv[1])
    if len(sys.argv) > 2:
        ladder(sys.argv[2])
