# Fills the section's tables from the runs and splices it into RESULTS.
import subprocess, re
py = '/usr/bin/python3'
s = open('runs/results-section.md').read()
a = s.index('| d | task | method |')
b = s.index('(runs: every run of the grid')
table = subprocess.run([py, 'runs/probe_table.py', '64', '128', '256'], capture_output=True, text=True).stdout
s = s[:a] + table + '\n' + s[b:]
curves = subprocess.run([py, 'runs/curve_table.py', 'd18-7v9', 'd64-7v9', 'd256-7v9', 'd64-6v0', 'd64-6v0-long',
                         'd256-6v0', 'd64-6v0-n200', 'd64-6v0-W0'], capture_output=True, text=True).stdout.strip()
text = open('runs/curve-text.md').read().strip()
if 'CURVE_TABLE' in s:
    s = s.replace('CURVE_TABLE', curves).replace('CURVE_TEXT', text)
open('runs/results-section.md', 'w').write(s)
