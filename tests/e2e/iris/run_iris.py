#!/usr/bin/env python3
"""Runs a GL program on Mesa's iris under `gtsim run` and checks the run.

Usage: run_iris.py MODE GTSIM PROGRAM [ARGS...]
       run_iris.py selftest    (the decode parser on hand-written excerpts)

MODE
  clean   the program exits 0 and no batch faulted or hung: the trace of
          category `hang` (GPU faults, hangs, resets, error states) is empty.
  decode  the program runs with INTEL_DEBUG=bat (iris prints its own decode
          of every batch it submits, on stderr) and GTSIM_TRACE=batch
          (gtsim's decode of every command the engines execute, into a
          file); the sequences of (command name, length in dwords) of the
          batches must agree command by command. Commands gtsim executes in
          the kernel's rings are not iris's and are left out.

Exits 77 (skip) when Mesa's iris driver is not installed.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

# "0x<addr>:  0x<dw0>:  NAME" (Mesa pads the name with spaces) and
# "0x<addr>:  0x<dw> : Dword N", as intel_batch_decoder prints them.
HEADER = re.compile(r'^(0x[0-9a-f]+):  0x[0-9a-f]{8}:  (\S+)\s*$')
DWORD = re.compile(r'^(0x[0-9a-f]+):  0x[0-9a-f]{8} : Dword (\d+)\s*$')
ANSI = re.compile(r'\x1b\[[0-9;]*m')
# gtsim's section line: "[batch] rcs0 ring..." / "[batch] rcs0 batch..."
SECTION = re.compile(r'^\[batch\] (\S+) (ring|batch|2nd-level batch)\b')
# iris's line before each batch it decodes: "... render batch [1] flush with"
BATCH_START = re.compile(r'\bbatch \[\d+\] flush with')
ADDR_MASK = (1 << 48) - 1   # canonical and plain forms of one address


def commands(lines, keep_section=lambda s: True):
    """[(name, dwords)] of the decoded commands in lines. A command's length
    is the distance to the next command's header when that follows in the
    same buffer within a few dwords of the last dword printed (Mesa leaves
    out trailing dwords that hold no field, e.g. 3DSTATE_HS's last one);
    otherwise the number of its dwords printed at consecutive addresses
    from its header's (a state structure printed after a command, such as
    a register or a viewport, is at other addresses)."""
    out = []
    section = None
    cur = None          # [name, addr, dwords printed]

    def close(next_addr):
        if not cur:
            return
        n = cur[2]
        if next_addr is not None and next_addr > cur[1]:
            k = (next_addr - cur[1]) // 4
            if n <= k <= n + 16:
                n = k
        out.append((cur[0], n))

    for raw in lines:
        line = ANSI.sub('', raw.rstrip('\n'))
        m = SECTION.match(line)
        if m or BATCH_START.search(line):
            close(None)
            cur = None
            section = m.group(2) if m else 'batch'
            continue
        m = HEADER.match(line)
        if m:
            addr = int(m.group(1), 16) & ADDR_MASK
            close(addr)
            cur = [m.group(2), addr, 0] if keep_section(section) else None
            continue
        m = DWORD.match(line)
        if m and cur:
            addr, n = int(m.group(1), 16) & ADDR_MASK, int(m.group(2))
            if n == cur[2] and addr == cur[1] + 4 * n:
                cur[2] += 1
    close(None)
    return out


def disagreements(iris, gt):
    """One line per position where the two sequences differ."""
    out = []
    for i in range(max(len(iris), len(gt))):
        a = iris[i] if i < len(iris) else None
        b = gt[i] if i < len(gt) else None
        if a != b:
            out.append('command %d: iris %s, gtsim %s' % (i, a, b))
    return out


# selftest: the parser on hand-written excerpts of both formats.
MESA_SAMPLE = """\
    iris_batch.c:1: render batch [1] flush with  64b (0.1%) (cmds),    2 BOs (0.1Mb aperture)
0xfffffffefffee030:  0x69040000:  PIPELINE_SELECT                      \x20
0xfffffffefffee030:  0x69040000 : Dword 0
    Pipeline Selection: 0 (3D)
0xfffffffefffee034:  0x11000001:  MI_LOAD_REGISTER_IMM
0xfffffffefffee034:  0x11000001 : Dword 0
0xfffffffefffee038:  0x00007034 : Dword 1
0xfffffffefffee03c:  0x60000060 : Dword 2
register L3CNTLREG (0x7034): 0x60000060
0x00007034:  0x60000060 : Dword 0
0xfffffffefffee040:  0x781b0007:  3DSTATE_HS
0xfffffffefffee040:  0x781b0007 : Dword 0
0xfffffffefffee044:  0x00000000 : Dword 1
0xfffffffefffee05c:  0x00000000 : Dword 7
0xfffffffefffee064:  0x05000000:  MI_BATCH_BUFFER_END
0xfffffffefffee064:  0x05000000 : Dword 0
"""
GTSIM_SAMPLE = """\
[batch] rcs0 ring:
0xffff8014:  0x18800101:  MI_BATCH_BUFFER_START
0xffff8014:  0x18800101 : Dword 0
0xffff8018:  0xfffee030 : Dword 1
0xffff801c:  0x0000fffe : Dword 2
[batch] rcs0 batch 0xfffefffee030:
0xfffefffee030:  0x69040000:  PIPELINE_SELECT
0xfffefffee030:  0x69040000 : Dword 0
0xfffefffee034:  0x11000001:  MI_LOAD_REGISTER_IMM
0xfffefffee034:  0x11000001 : Dword 0
0xfffefffee038:  0x00007034 : Dword 1
0xfffefffee03c:  0x60000060 : Dword 2
0xfffefffee040:  0x781b0007:  3DSTATE_HS
""" + ''.join('0xfffefffee%03x:  0x00000000 : Dword %d\n' % (0x40 + 4 * i, i) for i in range(9)) + """\
0xfffefffee064:  0x05000000:  MI_BATCH_BUFFER_END
0xfffefffee064:  0x05000000 : Dword 0
[batch] rcs0 ring:
0xffff8020:  0x10800001:  MI_STORE_DATA_INDEX
"""


def selftest():
    want = [('PIPELINE_SELECT', 1), ('MI_LOAD_REGISTER_IMM', 3), ('3DSTATE_HS', 9),
            ('MI_BATCH_BUFFER_END', 1)]
    iris = commands(MESA_SAMPLE.splitlines())
    gt = commands(GTSIM_SAMPLE.splitlines(), keep_section=lambda s: s != 'ring')
    ok = iris == want and gt == want and not disagreements(iris, gt)
    renamed = [(n.replace('HS', 'XX'), k) for n, k in gt]
    shorter = gt[:2] + [('3DSTATE_HS', 8)] + gt[3:]
    ok = ok and len(disagreements(iris, renamed)) == 1
    ok = ok and len(disagreements(iris, shorter)) == 1
    ok = ok and len(disagreements(iris, gt[:-1])) == 1
    print('iris sample: %s\ngtsim sample: %s' % (iris, gt))
    print('parser self-test ' + ('passed' if ok else 'FAILED'))
    return 0 if ok else 1


def iris_installed():
    return any(glob.glob(p) for p in ('/usr/lib/*/dri/iris_dri.so',
                                      '/usr/lib/dri/iris_dri.so',
                                      '/usr/lib64/dri/iris_dri.so'))


def run(gtsim, prog, args, env_extra):
    env = dict(os.environ)
    # Foreign programs' own leaks are not gtsim's (ASan builds).
    asan = env.get('ASAN_OPTIONS', '')
    env['ASAN_OPTIONS'] = (asan + ':' if asan else '') + 'detect_leaks=0'
    # Compile every shader (no reads or writes of ~/.cache/mesa_shader_cache).
    env['MESA_SHADER_CACHE_DISABLE'] = 'true'
    # INTEL_DEBUG flags of the caller (e.g. norbc) stay beside the mode's
    debug = ','.join(f for f in (env.get('INTEL_DEBUG'), env_extra.get('INTEL_DEBUG')) if f)
    env.update(env_extra)
    if debug:
        env['INTEL_DEBUG'] = debug
    p = subprocess.run([gtsim, 'run', '--', prog] + args, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=100)
    return p.returncode, p.stdout.decode(errors='replace'), \
        p.stderr.decode(errors='replace')


def check_clean(gtsim, prog, args, trace):
    rc, out, err = run(gtsim, prog, args, {'GTSIM_TRACE': 'hang,stub',
                                            'GTSIM_TRACE_FILE': trace})
    sys.stdout.write(out)
    sys.stdout.write(err)
    with open(trace, errors='replace') as f:
        log = f.read()
    stubs = sorted(set(re.findall(r'\[stub\] ioctl (\S+) not implemented', log)))
    hangs = [l for l in log.splitlines() if l.startswith('[hang]')]
    if stubs:
        print('ioctls the kernel model does not implement: ' + ' '.join(stubs))
    for line in hangs[:10]:
        print(line)
    ok = True
    if hangs:
        print('FAIL: a batch faulted or hung (%d [hang] lines)' % len(hangs))
        ok = False
    if rc != 0:
        print('FAIL: exit status %d' % rc)
        ok = False
    if ok:
        print('every batch executed without a GPU fault or hang')
    return 0 if ok else 1


def check_decode(gtsim, prog, args, trace):
    rc, out, err = run(gtsim, prog, args, {'INTEL_DEBUG': 'bat',
                                            'GTSIM_TRACE': 'batch',
                                            'GTSIM_TRACE_FILE': trace})
    if rc != 0:
        sys.stdout.write(out)
        sys.stdout.write(err[-4000:])
        print('FAIL: the program exited with status %d' % rc)
        return 1
    iris = commands(err.splitlines())
    with open(trace, errors='replace') as f:
        gt = commands(f, keep_section=lambda s: s != 'ring')
    print('iris decoded %d commands, gtsim executed %d batch commands'
          % (len(iris), len(gt)))
    bad = disagreements(iris, gt)
    for line in bad[:10]:
        print(line)
    if not any(name == '3DPRIMITIVE' for name, _ in iris):
        print('FAIL: no 3DPRIMITIVE in iris\'s INTEL_DEBUG=bat output')
        return 1
    if bad:
        print('FAIL: %d commands disagree' % len(bad))
        return 1
    print('all %d commands agree (name and length)' % len(iris))
    return 0


def main():
    if sys.argv[1:] == ['selftest']:
        return selftest()
    if len(sys.argv) < 4 or sys.argv[1] not in ('clean', 'decode'):
        print(__doc__)
        return 2
    mode, gtsim, prog, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if not iris_installed():
        print('SKIP: Mesa\'s iris driver (iris_dri.so, libgl1-mesa-dri) is not installed')
        return 77
    fd, trace = tempfile.mkstemp(prefix='gtsim-iris-')
    os.close(fd)
    try:
        if mode == 'clean':
            return check_clean(gtsim, prog, args, trace)
        return check_decode(gtsim, prog, args, trace)
    finally:
        os.unlink(trace)


if __name__ == '__main__':
    sys.exit(main())
