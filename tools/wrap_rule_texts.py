#!/usr/bin/env python3
"""Wraps every rule example command written as a bare string literal (`example_bad: "..."`,
`example_good: r#"..."#`) in `ex!(..)`, every rule explanation (`explanation: "..."`) in
`expl!(..)` and every rule name (`name: "..."` on the line after a rule's `code: "..."`) in
`kebab!(..)` (src/lib.rs): they leave the text out of the page's wasm. Idempotent: run it after
adding rules (src/rules/mod.rs tests::rule_texts_are_left_out_of_the_wasm names any left bare).
Run from the repository root."""
import re
import subprocess

files=subprocess.run(['grep','-rlE','(example_(bad|good)|explanation|name): ','src','--include=*.rs'],capture_output=True,text=True).stdout.split()
total=0
def lit_end(t,i):
    # t[i] starts a literal; return end index (exclusive)
    if t[i]=='"':
        j=i+1
        while t[j]!='"':
            j+= 2 if t[j]=='\\' else 1
        return j+1
    m=re.match(r'r(#*)"',t[i:])
    if m:
        close='"'+m.group(1)
        j=t.index(close,i+len(m.group(0)))
        return j+len(close)
    return None
for f in files:
    t=open(f).read(); out=[]; pos=0; n=0
    for m in re.finditer(r'\b(example_bad|example_good|explanation): |\bcode: "[A-Z]+\d+",\n\s*(name): ',t):
        i=m.end()
        if i<pos: continue
        e=lit_end(t,i)
        if e is None: continue
        out.append(t[pos:i]); lit=t[i:e]
        macro='kebab' if m.group(2) else 'expl' if m.group(1)=='explanation' else 'ex'
        out.append(f"{macro}!({lit})"); pos=e; n+=1
    out.append(t[pos:]); total+=n
    if n: open(f,'w').write(''.join(out))
print(f"wrapped {total}")
