#!/usr/bin/env python3
"""Checks that gtsim's layers only point downward and are wired explicitly.

The layers (docs/ARCHITECTURE.md):
    common <- gpu <- kernel <- shim <- tools
    drv: the kernel's public API (include/gtsim/), plus gpu/cmd's packers and
         gpu/eu's assembler (as Mesa's drivers use genxml and their compiler)
Inside gpu the units are ranked; a unit includes its own headers and those
of units ranked below it:
    cmd < mem < format < surface < eu < sfid < gpu.h (the device) < cs
        < render, blt, gpgpu < gpu.c (the top: creates the engines)
cmd (the command, structure and register description and what is
generated from it) is the bottom: it uses nothing of the gpu, and the
surface module reads SURFACE_STATE through its typed structs, as Mesa's
isl uses genxml.
The kernel includes only the gpu's public headers (GPU_PUBLIC below).

For every "..." (and project <...>) #include of src/, include/ and tools/
it classifies the including file and the included path and fails on an
include the rules do not allow, on a folder it cannot classify, and on
weak symbols or constructors outside the few allowed (WIRING_EXCEPTIONS).
It also checks that every subcommand a tools/cmd_*.c defines is in the
table of tools/gtsim.c.

With --symbols it checks the built libraries the same way at link level
(what each one's objects leave undefined and another layer defines), which
also catches a declaration written by hand instead of an include:
    common uses nothing of gpu, kernel, drv; gpu nothing of kernel, drv;
    kernel nothing of drv; drv of the kernel only the gtsim_* API.

Usage: check_layers.py SOURCE_ROOT | --selftest
       check_layers.py --symbols NM common=LIB gpu=LIB kernel=LIB drv=LIB
"""
import os
import re
import subprocess
import sys
import tempfile

GPU_RANK = {'cmd': 0, 'mem': 1, 'format': 2, 'surface': 3, 'eu': 4, 'sfid': 5, 'dataport': 5,
            'device': 6, 'cs': 7, 'render': 8, 'blt': 8, 'gpgpu': 8, 'top': 9}

# The gpu headers the kernel model may include: the device and its MMIO,
# the engines' kernel-facing API and register names, memory and GTT, the
# surface layouts (fences, tiling), the command description.
GPU_PUBLIC = {'gpu/gpu.h', 'gpu/cs/engine.h', 'gpu/cs/regs.h', 'gpu/mem/mem.h',
              'gpu/mem/tiling.h', 'gpu/cmd/cmd.h', 'gpu/cmd/cmd_structs.h',
              'gpu/cmd/decode.h'}
GPU_PUBLIC_DIRS = ('gpu/surface/',)
# What drv (our own driver) may take from gpu besides the kernel's API.
DRV_FROM_GPU = {'gpu/cmd/cmd.h', 'gpu/cmd/cmd_structs.h', 'gpu/eu/asm.h'}

# Known upward includes inside gpu, each with the reason it is still there
# (none left: add one only with its reason and the issue that removes it).
EXCEPTIONS = {
}

# Weak symbols and constructors that stay: how a preloaded library starts,
# and registrations the command streamer's explicit table will replace.
WIRING_EXCEPTIONS = {
    'src/shim/real.c': 'a preloaded library starts in a constructor',
    'src/shim/devnode.c': 'a preloaded library starts in a constructor',
}

INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)')
PROJECT_PREFIXES = ('common/', 'gpu/', 'kernel/', 'shim/', 'drv/', 'gtsim/')
WIRING = re.compile(r'__attribute__\s*\(\(\s*(weak|constructor|destructor)\b')


def classify_file(rel):
    """Layer of a file of the tree (rel: path from the root), or None."""
    p = rel.split('/')
    if p[0] == 'include':
        return 'api'
    if p[0] == 'tools':
        return 'tools'
    if p[0] != 'src' or len(p) < 3:
        return None
    if p[1] == 'gpu':
        if len(p) == 3:
            return 'gpu/device' if p[2] == 'gpu.h' else 'gpu/top'
        return 'gpu/' + p[2]
    if p[1] in ('common', 'kernel', 'shim', 'drv'):
        return p[1]
    return None


def classify_include(path):
    """Layer of an included path as written (from src/ or include/)."""
    p = path.split('/')
    if p[0] == 'gtsim':
        return 'api'
    if p[0] == 'gpu':
        if len(p) == 2:
            return 'gpu/device' if p[1] == 'gpu.h' else 'gpu/top'
        return 'gpu/' + p[1]
    if p[0] in ('common', 'kernel', 'shim', 'drv'):
        return p[0]
    return None


def allowed(frm, to, path):
    if frm == to:
        return True
    if frm == 'tools':
        return True
    if to == 'common':
        return True
    if frm == 'common':
        return False
    if frm == 'api':
        return to == 'api'
    if frm.startswith('gpu/'):
        if not to.startswith('gpu/'):
            return False
        a, b = GPU_RANK.get(frm[4:]), GPU_RANK.get(to[4:])
        return a is not None and b is not None and b < a
    if frm == 'kernel':
        return to == 'api' or path in GPU_PUBLIC or path.startswith(GPU_PUBLIC_DIRS)
    if frm == 'shim':
        return to == 'api'
    if frm == 'drv':
        return to == 'api' or path in DRV_FROM_GPU
    return False


def source_files(root):
    for top in ('src', 'include', 'tools'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith(('.c', '.h')):
                    full = os.path.join(dirpath, f)
                    yield full, os.path.relpath(full, root).replace(os.sep, '/')


def check(root):
    errors, notes = [], []
    wiring_seen = set()
    for full, rel in source_files(root):
        frm = classify_file(rel)
        if frm is None:
            errors.append(f'{rel}: not in a known layer (classify it in {sys.argv[0]})')
            continue
        if frm.startswith('gpu/') and frm[4:] not in GPU_RANK:
            errors.append(f'{rel}: gpu unit {frm[4:]} has no rank in GPU_RANK')
            continue
        with open(full, errors='replace') as f:
            lines = f.read().splitlines()
        for n, line in enumerate(lines, 1):
            if WIRING.search(line) and not line.lstrip().startswith(('*', '/*', '//')):
                if rel in WIRING_EXCEPTIONS:
                    wiring_seen.add(rel)
                else:
                    errors.append(f'{rel}:{n}: weak symbol or constructor; wire it '
                                  'with an explicit table or call instead')
            m = INCLUDE.match(line)
            if not m:
                continue
            path = m.group(1) or m.group(2)
            if m.group(1) and os.path.exists(os.path.join(os.path.dirname(full), path)) \
                    and '/' not in path:
                path = os.path.dirname(rel).split('/', 1)[1] + '/' + path \
                    if rel.startswith(('src/', 'include/')) else path
            if not path.startswith(PROJECT_PREFIXES):
                if m.group(1) and rel.startswith('tools/'):
                    continue        # tools' own headers
                if m.group(1):
                    errors.append(f'{rel}:{n}: #include "{path}": not a project path '
                                  '(write it from src/ or include/)')
                continue
            to = classify_include(path)
            if to is None or (to.startswith('gpu/') and to[4:] not in GPU_RANK):
                errors.append(f'{rel}:{n}: #include "{path}": unknown layer')
                continue
            if allowed(frm, to, path):
                continue
            if (rel, path) in EXCEPTIONS:
                continue
            errors.append(f'{rel}:{n}: #include "{path}": {frm} may not include {to} '
                          '(an arrow back up, or a private header of another layer)')
    for rel, why in WIRING_EXCEPTIONS.items():
        if rel not in wiring_seen and os.path.exists(os.path.join(root, rel)):
            notes.append(f'note: {rel} no longer needs its wiring exception ({why})')
    errors += check_commands(root)
    return errors, notes


def check_commands(root):
    tools = os.path.join(root, 'tools')
    table_path = os.path.join(tools, 'gtsim.c')
    if not os.path.exists(table_path):
        return []
    table = open(table_path).read()
    errors = []
    for f in sorted(os.listdir(tools)):
        if not (f.startswith('cmd_') and f.endswith('.c')):
            continue
        text = open(os.path.join(tools, f)).read()
        for name in re.findall(r'const struct gtsim_command (\w+)\s*=', text):
            if '&' + name not in table:
                errors.append(f'tools/{f}: {name} is missing from the table in tools/gtsim.c')
    return errors


def selftest():
    """The checker itself: an upward include fails, a downward one passes."""
    def tree(files):
        d = tempfile.mkdtemp(prefix='gtsim-layers-')
        for rel, text in files.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), 'w') as f:
                f.write(text)
        return d
    ok = {'src/common/a.h': '', 'src/gpu/mem/m.h': '#include "common/a.h"\n',
          'src/gpu/cs/c.c': '#include "gpu/mem/m.h"\n#include "gpu/gpu.h"\n',
          'src/gpu/gpu.h': '#include "gpu/mem/m.h"\n',
          'src/kernel/k.c': '#include "gpu/gpu.h"\n#include "gtsim/gtsim.h"\n',
          'include/gtsim/gtsim.h': '#include <stdint.h>\n',
          'src/shim/s.c': '#include "gtsim/gtsim.h"\n#include "common/a.h"\n',
          'src/drv/d.c': '#include "gtsim/gtsim.h"\n#include "gpu/cmd/cmd.h"\n',
          'tools/gtsim.c': 'static const void *t[] = { &command_x };\n',
          'tools/cmd_x.c': 'const struct gtsim_command command_x = { 0 };\n'}
    bad = [('src/gpu/mem/m.h', '#include "gpu/cs/c.h"\n'),       # up inside gpu
           ('src/gpu/cs/c.c', '#include "kernel/k.h"\n'),        # gpu -> kernel
           ('src/common/a.h', '#include "gpu/gpu.h"\n'),         # common -> gpu
           ('src/kernel/k.c', '#include "gpu/render/r.h"\n'),    # gpu internals
           ('src/shim/s.c', '#include "kernel/device.h"\n'),     # kernel internals
           ('src/drv/d.c', '#include "kernel/device.h"\n'),
           ('src/gpu/newunit/n.c', ''),                          # unranked unit
           ('src/kernel/k.c', '__attribute__((weak)) int f(void);\n'),
           ('tools/cmd_y.c', 'const struct gtsim_command command_y = { 0 };\n')]
    errors, _ = check(tree(ok))
    if errors:
        print('selftest: a legal tree fails:', *errors, sep='\n  ')
        return 1
    for rel, text in bad:
        files = dict(ok)
        files[rel] = files.get(rel, '') + text
        errors, _ = check(tree(files))
        if not errors:
            print(f'selftest: {rel} with {text.strip()!r} passes but must fail')
            return 1
    print(f'selftest: a legal tree passes, {len(bad)} broken ones fail')
    return 0


# For each layer, the layers whose symbols it may use, and a filter.
SYMBOL_RULES = {
    'common': {},
    'gpu': {'common': None},
    'kernel': {'common': None, 'gpu': None},
    'drv': {'common': None, 'gpu': None, 'kernel': re.compile(r'gtsim_')},
}


def nm_symbols(nm, lib, defined):
    args = [nm, '--defined-only', '-g'] if defined else [nm, '-u']
    out = subprocess.run(args + [lib], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        if defined and len(f) == 3 and f[1] not in 'Uw':
            names.add(f[2])
        elif not defined and len(f) == 2:
            names.add(f[1])
    return names


def check_symbols(nm, libs):
    defined = {layer: nm_symbols(nm, lib, True) for layer, lib in libs.items()}
    errors = []
    for layer, lib in libs.items():
        rules = SYMBOL_RULES[layer]
        for sym in sorted(nm_symbols(nm, lib, False)):
            for other, names in defined.items():
                if other == layer or sym not in names:
                    continue
                if other in rules and (rules[other] is None or rules[other].match(sym)):
                    continue
                errors.append(f'{layer} uses {sym} of {other}')
    return errors


def main():
    if len(sys.argv) > 2 and sys.argv[1] == '--symbols':
        libs = dict(a.split('=', 1) for a in sys.argv[3:])
        errors = check_symbols(sys.argv[2], libs)
        for e in errors:
            print(e)
        if errors:
            print(f'FAIL: {len(errors)} symbol(s) used across the layer rules')
            return 1
        print('layers: no library uses a symbol of a layer above it')
        return 0
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if sys.argv[1] == '--selftest':
        return selftest()
    errors, notes = check(sys.argv[1])
    for n in notes:
        print(n)
    for e in errors:
        print(e)
    if errors:
        print(f'FAIL: {len(errors)} include/wiring rule(s) broken (docs/ARCHITECTURE.md)')
        return 1
    print('layers: every include points downward; wiring is explicit')
    return 0


if __name__ == '__main__':
    sys.exit(main())
