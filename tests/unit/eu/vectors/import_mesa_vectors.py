#!/usr/bin/env python3
"""Run by hand, once: converts Mesa's gen8 assembler test vectors
(src/intel/tools/tests/gen8/*.asm and *.expected, as found in
../shared/reference/mesa-asm-tests/gen8/) into this folder's data files.
Each output file holds the instruction text and the expected bytes; the
vectors are facts (what Mesa's assembler produces), kept as data.

usage: import_mesa_vectors.py SRC_DIR OUT_DIR
"""
import os
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for name in sorted(os.listdir(src)):
    if not name.endswith('.asm'):
        continue
    base = name[:-4]
    text = open(os.path.join(src, name)).read()
    if not text.endswith('\n'):
        text += '\n'
    hexes = open(os.path.join(src, base + '.expected')).read().split()
    with open(os.path.join(out, base + '.txt'), 'w') as f:
        f.write('# Mesa gen8 assembler test vector "%s" (src/intel/tools/tests/gen8),\n' % base)
        f.write('# imported by import_mesa_vectors.py: text, then the expected bytes.\n')
        f.write('%text\n')
        f.write(text)
        f.write('%bytes\n')
        for i in range(0, len(hexes), 16):
            f.write(' '.join(hexes[i:i + 16]) + '\n')
