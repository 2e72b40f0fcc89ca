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
          batches must agree command by command (submission by submission:
          iris's render and compute batches have contexts of their own,
          whose requests the kernel may run in either order, e.g. after a
          timeslice), and so must the value of
          every field both decoders print for a command (Mesa's decoder is
          the oracle of gtsim's layouts and of its field printing). Commands
          gtsim executes in the kernel's rings are not iris's and are left
          out.

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
# a field of the command: "    Name: value" (4 spaces; Mesa and gtsim alike)
FIELD = re.compile(r'^    (\S.*?): (.*?)\s*$')
ADDR_MASK = (1 << 48) - 1   # canonical and plain forms of one address


def commands(lines, keep_section=lambda s: True, fields=None, units=None):
    """[(name, dwords)] of the decoded commands in lines. With units (a
    list), the index of the first command of each submission is appended
    to it: iris's "batch [n] flush with" line, gtsim's ring section (the
    batches a ring runs, chained or second-level, are one submission).
    With fields (a
    list), one dict per command is appended to it: field name (the n-th
    repeat of a name gets "#n") -> printed value, for the fields printed
    among the command's own dwords (not those of a register or structure
    printed after it, at other addresses). A command's length
    is the distance to the next command's header when that follows in the
    same buffer within a few dwords of the last dword printed (Mesa leaves
    out trailing dwords that hold no field, e.g. 3DSTATE_HS's last one);
    otherwise the number of its dwords printed at consecutive addresses
    from its header's (a state structure printed after a command, such as
    a register or a viewport, is at other addresses)."""
    out = []
    section = None
    cur = None          # [name, addr, dwords printed]
    inside = False      # the last dword line was the command's own
    own = {}            # its fields

    def close(next_addr):
        if not cur:
            return
        n = cur[2]
        if next_addr is not None and next_addr > cur[1]:
            k = (next_addr - cur[1]) // 4
            if n <= k <= n + 16:
                n = k
        out.append((cur[0], n))
        if fields is not None:
            fields.append(dict(own))

    for raw in lines:
        line = ANSI.sub('', raw.rstrip('\n'))
        m = SECTION.match(line)
        if m or BATCH_START.search(line):
            close(None)
            cur = None
            if units is not None and (not m or m.group(2) == 'ring'):
                units.append(len(out))
            # a GGTT batch is the kernel's (context register images)
            section = ('kernel' if '(GGTT)' in line else m.group(2)) if m else 'batch'
            continue
        m = HEADER.match(line)
        if m:
            addr = int(m.group(1), 16) & ADDR_MASK
            close(addr)
            cur = [m.group(2), addr, 0] if keep_section(section) else None
            own = {}
            inside = False
            continue
        m = DWORD.match(line)
        if m and cur:
            addr, n = int(m.group(1), 16) & ADDR_MASK, int(m.group(2))
            inside = n == cur[2] and addr == cur[1] + 4 * n
            if inside:
                cur[2] += 1
            continue
        m = FIELD.match(line)
        if m and cur and inside:
            key, k = m.group(1), 1
            while key in own:
                k += 1
                key = '%s#%d' % (m.group(1), k)
            own[key] = m.group(2)
        elif cur and not line.startswith('    '):
            inside = False      # "register ...", another buffer's lines
    close(None)
    return out


# Fields where Mesa's decoder is known to be wrong, and gtsim follows the
# PRM: Mesa's genxml starts MI_LOAD_REGISTER_IMM's register/value pairs at
# DWord 2 (it prints each value as "Register Offset[i]"); the PRM's pairs
# start at DWord 1 (docs/cmd.md).
MESA_WRONG = [('MI_LOAD_REGISTER_IMM', re.compile(r'(Register Offset|Data DWord)\[\d+\]'))]


def mesa_wrong(cmd, field):
    return any(cmd == c and r.match(field) for c, r in MESA_WRONG)


def same_value(a, b):
    """Printed values agree; hex numbers (addresses) in canonical or plain
    form alike."""
    if a == b:
        return True
    try:
        if a.startswith('0x') and b.startswith('0x'):
            return int(a, 16) & ADDR_MASK == int(b, 16) & ADDR_MASK
    except ValueError:
        pass
    return False


def submission_order(iris, gt, iris_units, gt_units, gt_fields):
    """gt (and gt_fields) rearranged so that its submissions come in the
    order of iris's. i915 keeps the order of one context's requests but
    not of two contexts' (iris's render and compute batches each have a
    context: a request waiting on a fence is passed by the other's, as the
    kernel model's scheduler does), so each iris submission is matched to
    the first unmatched gtsim submission with the same commands. gt
    unchanged when one has no match (the comparison then shows where)."""
    def split(cmds, units):
        bounds = sorted(set([u for u in units if u < len(cmds)] + [0])) + [len(cmds)]
        return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
    free = split(gt, gt_units)
    order = []
    for a, b in split(iris, iris_units):
        want = iris[a:b]
        hit = next((u for u in free if gt[u[0]:u[1]] == want), None)
        if hit is None:
            return gt, gt_fields
        free.remove(hit)
        order.append(hit)
    order += free
    return ([c for a, b in order for c in gt[a:b]],
            [f for a, b in order for f in gt_fields[a:b]])


def field_disagreements(iris, gt, iris_fields, gt_fields):
    """(number of fields compared, one line per field whose values differ)
    over the commands at the same position with the same name."""
    compared, out = 0, []
    for i in range(min(len(iris), len(gt), len(iris_fields), len(gt_fields))):
        if iris[i][0] != gt[i][0]:
            continue
        a, b = iris_fields[i], gt_fields[i]
        for key in a:
            if key not in b or mesa_wrong(iris[i][0], key):
                continue
            compared += 1
            if not same_value(a[key], b[key]):
                out.append('command %d %s: %s: iris %s, gtsim %s'
                           % (i, iris[i][0], key, a[key], b[key]))
    return compared, out


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
    SLM Enable: 0
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
    Pipeline Selection: 0 (3D)
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
    gt = commands(GTSIM_SAMPLE.splitlines(), keep_section=lambda s: s not in ('ring', 'kernel'))
    ok = iris == want and gt == want and not disagreements(iris, gt)
    renamed = [(n.replace('HS', 'XX'), k) for n, k in gt]
    shorter = gt[:2] + [('3DSTATE_HS', 8)] + gt[3:]
    ok = ok and len(disagreements(iris, renamed)) == 1
    ok = ok and len(disagreements(iris, shorter)) == 1
    ok = ok and len(disagreements(iris, gt[:-1])) == 1
    # field values: the same here; one changed value is one disagreement
    fi, fg = [], []
    commands(MESA_SAMPLE.splitlines(), fields=fi)
    commands(GTSIM_SAMPLE.splitlines(), keep_section=lambda s: s not in ('ring', 'kernel'), fields=fg)
    n, bad = field_disagreements(iris, gt, fi, fg)
    ok = ok and n == 1 and not bad and fi[0] == {'Pipeline Selection': '0 (3D)'}
    ok = ok and 'L3CNTLREG' not in str(fi) and fi[1] == {}
    fg[0]['Pipeline Selection'] = '1 (Media)'
    ok = ok and len(field_disagreements(iris, gt, fi, fg)[1]) == 1
    ok = ok and same_value('0xfffffffefffee030', '0xfffefffee030')
    # two submissions run in the other order (two contexts): matched back;
    # a submission gtsim never ran: left as it was, so it shows
    a, b = [('PIPE_CONTROL', 6), ('X', 1)], [('PIPELINE_SELECT', 1)]
    fa, fb = [{'a': '1'}, {}], [{'b': '2'}]
    got, gotf = submission_order(a + b, b + a, [0, 2], [0, 1], fb + fa)
    ok = ok and got == a + b and gotf == fa + fb
    got, _ = submission_order(a + b, b + b, [0, 2], [0, 1], fb + fb)
    ok = ok and got == b + b
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
    iris_fields, gt_fields, iris_units, gt_units = [], [], [], []
    iris = commands(err.splitlines(), fields=iris_fields, units=iris_units)
    with open(trace, errors='replace') as f:
        gt = commands(f, keep_section=lambda s: s not in ('ring', 'kernel'), fields=gt_fields,
                      units=gt_units)
    gt, gt_fields = submission_order(iris, gt, iris_units, gt_units, gt_fields)
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
    compared, fbad = field_disagreements(iris, gt, iris_fields, gt_fields)
    for line in fbad[:20]:
        print(line)
    if fbad:
        print('FAIL: %d of %d field values disagree' % (len(fbad), compared))
        return 1
    if not compared:
        print('FAIL: no field printed by both decoders')
        return 1
    print('all %d commands agree (name and length), and all %d field values both print'
          % (len(iris), compared))
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
