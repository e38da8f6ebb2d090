# Table of the portable log (core/src/base/portable_math.cpp): 128 intervals of z in [0.6875, 1.375).
from decimal import Decimal, getcontext
import struct
getcontext().prec = 60
def d2b(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
def hexd(x): return float(x).hex()
def split(v):  # Decimal -> (hi, lo) doubles
    hi = float(v)
    lo = float(v - Decimal(hi))
    return hi, lo
rows = []
for i in range(128):
    if i < 80: c = Decimal('0.6875') + (Decimal(i) + Decimal('0.5')) / 256
    else: c = 1 + (Decimal(i - 80) + Decimal('0.5')) / 128
    invc = float(1 / c)
    if i in (79, 80): invc = 1.0
    logc = -Decimal(invc).ln()   # exact value of the stored invc
    hi, lo = split(logc) if invc != 1.0 else (0.0, 0.0)
    rows.append((invc, hi, lo))
ln2 = Decimal(2).ln()
# ln2hi: 42 significant bits so that k * ln2hi is exact for |k| < 2^11
import math
m, e = math.frexp(float(ln2))
hi = math.ldexp(math.floor(m * 2**42) , e - 42)
ln2hi = hi; ln2lo = float(ln2 - Decimal(ln2hi))
print("// ln2 = kLn2Hi + kLn2Lo, kLn2Hi with 42 significant bits")
print("constexpr double kLn2Hi = %s;  // %r" % (hexd(ln2hi), ln2hi))
print("constexpr double kLn2Lo = %s;  // %r" % (hexd(ln2lo), ln2lo))
print("constexpr LogEntry kLogTable[128] = {")
for invc, hi, lo in rows:
    print("    {%s, %s, %s}," % (hexd(invc), hexd(hi), hexd(lo)))
print("};")
