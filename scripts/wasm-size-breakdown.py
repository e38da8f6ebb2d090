#!/usr/bin/env python3
"""Where the bytes of a wasm module go, by function and by group (source area / Eigen class).

Usage:  bash scripts/wasm-size-breakdown.sh          # links build/wasm's objects with --profiling-funcs
        python3 scripts/wasm-size-breakdown.py X.wasm [--top N] [--grep REGEX]
The module must carry a "name" section (link with --profiling-funcs; same code as the shipped -O2 link).
Sizes are raw code-body bytes (gzip ratio is roughly 1/3); data segments are reported in total.
"""
import re, subprocess, sys
from collections import defaultdict

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i

def parse(path):
    b = open(path, 'rb').read(); i = 8; nimp = 0; bodies = []; names = {}; data = 0
    while i < len(b):
        sid = b[i]; size, i = leb(b, i + 1); end = i + size
        if sid == 2:  # imports: count function imports (they take the first indices)
            n, j = leb(b, i)
            for _ in range(n):
                for _ in range(2): l, j = leb(b, j); j += l
                kind = b[j]; j += 1
                if kind == 0: _, j = leb(b, j); nimp += 1
                elif kind == 1: j += 1; fl, j = leb(b, j); _, j = leb(b, j); j = leb(b, j)[1] if fl & 1 else j
                elif kind == 2: fl, j = leb(b, j); _, j = leb(b, j); j = leb(b, j)[1] if fl & 1 else j
                elif kind == 3: j += 2
                elif kind == 4: j += 1; _, j = leb(b, j)
        elif sid == 10:
            n, j = leb(b, i)
            for _ in range(n): l, j = leb(b, j); bodies.append(l); j += l
        elif sid == 11: data = size
        elif sid == 0:
            l, j = leb(b, i); nm = b[j:j + l].decode(); j += l
            if nm == 'name':
                while j < end:
                    sub = b[j]; sl, j = leb(b, j + 1); se = j + sl
                    if sub == 1:
                        n, k = leb(b, j)
                        for _ in range(n):
                            idx, k = leb(b, k); l, k = leb(b, k); names[idx] = b[k:k + l].decode('utf8', 'replace'); k += l
                    j = se
        i = end
    funcs = [(names.get(nimp + k, f'func{nimp + k}'), s) for k, s in enumerate(bodies)]
    return funcs, data

GROUPS = [  # first match wins; checked on the demangled name
    ('Eigen::JacobiSVD', r'JacobiSVD|real_2x2_jacobi_svd|svd_precondition'),
    ('Eigen::BDCSVD', r'BDCSVD'),
    ('Eigen::SelfAdjointEigenSolver', r'SelfAdjointEigenSolver|tridiagonal|tridiagonalization'),
    ('Eigen::CompleteOrthogonalDecomposition', r'CompleteOrthogonalDecomposition'),
    ('Eigen::ColPivHouseholderQR', r'ColPivHouseholderQR'),
    ('Eigen::HouseholderQR', r'HouseholderQR|householder_qr'),
    ('Eigen::FullPivLU / PartialPivLU', r'PivLU|partial_lu|lu_impl'),
    ('Eigen::LLT/LDLT', r'LLT|LDLT|llt_inplace|ldlt_inplace'),
    ('Eigen::Householder', r'Householder|householder'),
    ('Eigen::GEMM/GEMV/products', r'gemm|gemv|general_matrix_matrix|general_matrix_vector|product|Product|selfadjoint_matrix|triangular'),
    ('Eigen::other', r'Eigen::'),
    ('embind', r'emscripten::|_embind_|embind'),
    ('libc++ std::', r'std::'),
    ('printf', r'printf|fmt_|pop_arg|out\b|pad\b|fmt_fp|__fwritex|frexp|__towrite'),
    ('malloc', r'malloc|free|emmalloc|sbrk|memalign'),
]

def demangle(names):
    out = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True).stdout.split('\n')
    return out[:len(names)]

def objects(objs):
    """function name -> the one object file that defines it strongly (T/t), from llvm-nm."""
    owner = {}; cur = None
    for o in objs:  # demangled (-C): the name section of an emcc --profiling-funcs link is demangled too
        cur = None
        out = subprocess.run(['llvm-nm', '-C', '--defined-only', o], capture_output=True, text=True).stdout
        for line in out.split('\n'):
            if line.endswith('.o:'): cur = line[:-1]; continue
            f = line.split(None, 2)
            if len(f) == 3 and f[1] in 'Tt': owner.setdefault(f[2], cur or o.split('/')[-1])
    return owner

def head(d):
    """the qualified name of a demangled function, without return type and arguments"""
    depth = 0; start = 0
    for i, c in enumerate(d):
        if c == '<': depth += 1
        elif c == '>': depth -= 1
        elif c == ' ' and depth == 0: start = i + 1
        elif c == '(' and depth == 0 and i > 0: return d[start:i]
    return d

def main():
    a = sys.argv[1:]; path = a[0]; top = 40; pat = None
    objs = a[a.index('--objects') + 1].split(',') if '--objects' in a else []
    owner = objects(objs)
    if '--top' in a: top = int(a[a.index('--top') + 1])
    if '--grep' in a: pat = re.compile(a[a.index('--grep') + 1])
    funcs, data = parse(path)
    dem = demangle([n for n, _ in funcs])
    total = sum(s for _, s in funcs)
    groups = defaultdict(int); core = defaultdict(int)
    for d, (n, s) in zip(dem, funcs):
        if n in owner and not head(d).startswith(('Eigen::', 'std::', 'emscripten::')):
            groups['file ' + owner[n]] += s; continue
        h = head(d)
        for g, rx in GROUPS:
            if re.search(rx, h): groups[g] += s; break
        else:
            groups['other (libc, runtime)'] += s
    print(f'code {total} B in {len(funcs)} functions; data section {data} B')
    for g, s in sorted(groups.items(), key=lambda x: -x[1]):
        print(f'{s:9d} {100 * s / total:5.1f}%  {g}')
    print(f'\ntop {top} functions:')
    rows = sorted(zip(dem, funcs), key=lambda x: -x[1][1])
    if pat: rows = [r for r in rows if pat.search(r[0])]
    for d, (_, s) in rows[:top]:
        print(f'{s:8d}  {d[:200]}')

main()
