# Puts runs/results-section.md in place of RESULTS' "study at the authors' stopping rule" section
# (up to the next "## " heading; the stray tail of the hierarchy paragraph there goes too).
import re
p='docs/RESULTS.md'
s=open(p).read()
a=s.index("### The study at the authors' stopping rule")
b=s.index("## Regularization path", a)
sec=open('runs/results-section.md').read().rstrip()+"\n\n"
s=s[:a]+sec+s[b:]
open(p,'w').write(s)
