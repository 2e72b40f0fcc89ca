#!/usr/bin/env python3
"""Regenerates the seed corpora of fuzz/corpus/ from the project's own
tests and tools (docs/fuzzing.md). Usage: make-corpus.py GTSIM [TEST...]

GTSIM is a built `gtsim` CLI. The seeds:
  asm     the EU test programs (tests/unit/eu/*.asm) and the text of the
          assembler test vectors (tests/unit/eu/vectors/gen8/*.txt), each
          after one byte naming the generation (fuzz_asm.c)
  eu      the same programs assembled by `gtsim asm`, after fuzz_eu.c's
          header (generation, dispatch mask, 256 payload bytes)
  eu_jit  the same, and again on Gen9 in a SIMD16 thread (fuzz_eu.h)
  decode  the batches `gtsim demo` submits, recovered from its `batch`
          trace (the trace prints every dword), after fuzz_decode.c's
          header byte; also those of each TEST binary run with the trace
  execbuf the same batches as fuzz_execbuf.c inputs (see there)
Regression inputs (crashers found and fixed) are kept in the same folders
under names starting with `crash-`; this script leaves them alone."""
import glob
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, 'corpus')
MAX_VECTOR_LINES = 24


def put(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, name), 'wb') as f:
        f.write(data)


def asm_texts():
    for path in sorted(glob.glob(os.path.join(ROOT, 'tests/unit/eu/*.asm'))):
        yield os.path.basename(path)[:-4], open(path).read()
    for path in sorted(glob.glob(os.path.join(ROOT, 'tests/unit/eu/vectors/gen8/*.txt'))):
        text = open(path).read()
        m = re.search(r'%text\n(.*?)(\n%|\Z)', text, re.S)
        if m:   # the first lines: enough of every form, kept small
            lines = m.group(1).splitlines()[:MAX_VECTOR_LINES]
            yield 'vec-' + os.path.basename(path)[:-4], '\n'.join(lines) + '\n'


def batches_from_trace(trace):
    """The dwords of each `[batch] <engine> batch ADDR:` section."""
    out, cur = [], None
    for line in trace.splitlines():
        if line.startswith('[batch]'):
            if cur:
                out.append(cur)
            cur = [] if ' batch ' in line else None
            continue
        m = re.match(r'0x[0-9a-f]+:  0x([0-9a-f]{8}) : Dword \d+$', line)
        if m and cur is not None:
            cur.append(int(m.group(1), 16))
    if cur:
        out.append(cur)
    return out


def traced_batches(cmd):
    with tempfile.NamedTemporaryFile(suffix='.txt') as t:
        env = dict(os.environ, GTSIM_TRACE='batch', GTSIM_TRACE_FILE=t.name)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir())
        return batches_from_trace(open(t.name).read())


def main():
    gtsim = os.path.abspath(sys.argv[1])
    for name, text in asm_texts():
        put('asm', name, b'\0' + text.encode())
        with tempfile.TemporaryDirectory() as d:
            src, binp = os.path.join(d, 'p.asm'), os.path.join(d, 'p.bin')
            open(src, 'w').write(text)
            r = subprocess.run([gtsim, 'asm', '--gen', '8', src, '-o', binp],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                payload = bytes(range(256))
                code = open(binp, 'rb').read()
                put('eu', name, b'\0' + struct.pack('<I', 0xffff) + payload + code)
                # eu_jit: the same, and on Gen9 in a SIMD16 thread
                put('eu_jit', name, b'\0' + struct.pack('<I', 0xffff) + payload + code)
                put('eu_jit', name + '-simd16', b'\3' + struct.pack('<I', 0xffff) +
                    payload + code)
    runs = [('demo-green', [gtsim, 'demo', 'green', '-o', '/dev/null']),
            ('demo-gradient', [gtsim, 'demo', 'gradient', '-o', '/dev/null'])]
    runs += [(os.path.basename(t), [t]) for t in sys.argv[2:]]
    for name, cmd in runs:
        for i, dw in enumerate(traced_batches(cmd)[:4]):
            data = struct.pack('<%dI' % len(dw), *dw)
            put('decode', '%s-%d' % (name, i), b'\0' + data)
            # fuzz_execbuf.c: engine/context byte, flags byte, dwords, the
            # placement (3 objects softpinned low: 4 zero bytes each), batch
            put('execbuf', '%s-%d' % (name, i),
                b'\0\0' + struct.pack('<H', len(dw)) + bytes(12) + data)


if __name__ == '__main__':
    main()
