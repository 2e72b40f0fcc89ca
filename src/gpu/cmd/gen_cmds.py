#!/usr/bin/env python3
"""Generator of gtsim's command code from the command description.

Reads the description files (desc/gen8.cmds, desc/gen9.cmds: format in
docs/cmd.md) and writes:
  cmd_tables.c   the tables the decoder and the command streamer walk
                 (struct cmd_desc / cmd_field of cmd.h), one per generation
  cmd_structs.h  command and structure ids, register offsets, and for every
                 command, structure and register a typed C struct with
                 pack/unpack functions (fields merged over the generations)
  cmd_structs.c  their definitions
  cmd_selftest.c (with --selftest, instead of the three above) the
                 round-trip test of every pack/unpack, for tests/unit/cmd
Usage: gen_cmds.py [--selftest] OUTDIR DESC...
"""
import re
import sys

TYPES = {'uint': 'CMD_T_UINT', 'int': 'CMD_T_INT', 'bool': 'CMD_T_BOOL',
         'address': 'CMD_T_ADDRESS', 'offset': 'CMD_T_OFFSET', 'float': 'CMD_T_FLOAT',
         'ufixed': 'CMD_T_UFIXED', 'sfixed': 'CMD_T_SFIXED', 'enum': 'CMD_T_ENUM',
         'struct': 'CMD_T_STRUCT', 'mbo': 'CMD_T_MBO'}
PRIV = {'none': 'CMD_PRIV_NONE', 'always': 'CMD_PRIV_ALWAYS', 'ggtt': 'CMD_PRIV_GGTT',
        'reg': 'CMD_PRIV_REG'}
ENGINES = ['rcs', 'bcs', 'vcs', 'vecs']


class DescError(Exception):
    pass


class Field:
    def __init__(self, name, start, end, type_, arg, group, where, alts=()):
        self.name, self.start, self.end = name, start, end
        self.alts = list(alts)             # fields whose bits this one overlays
        self.type, self.arg = type_, arg   # arg: frac, struct name or enum name
        self.group = group                 # (start, size, count) or None
        self.where = where

    def key(self):
        return (self.name, self.group[0] if self.group else None)


class Desc:
    """A command, structure or register of one generation."""

    def __init__(self, kind, name, where):
        self.kind, self.name, self.where = kind, name, where
        self.match = self.mask = self.len_mask = 0
        self.bias = 0
        self.length = 0
        self.min_length = 0       # shortest total length accepted (0: length)
        self.engines = []
        self.priv = 'none'
        self.priv_fields = []
        self.noop = False
        self.masked = False       # registers: bit n+16 enables the write of bit n
        self.offset = None        # registers: MMIO offset
        self.engine_rel = False   # registers: relative to an engine's base
        self.fields = []

    def copy(self):
        d = Desc(self.kind, self.name, self.where)
        d.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                           for k, v in self.__dict__.items()})
        return d


class Gen:
    def __init__(self, gen):
        self.gen = gen
        self.enums = {}       # name -> [(value, label)]
        self.items = {}       # (kind, name) -> Desc, in order


def strip_comment(raw):
    """The line without its comment ('#' to the end, outside quotes)."""
    quoted = False
    for i, ch in enumerate(raw):
        if ch == '"':
            quoted = not quoted
        elif ch == '#' and not quoted:
            return raw[:i]
    return raw


def tokens(line):
    return re.findall(r'"[^"]*"|\S+', line)


def unq(t):
    return t[1:-1] if t.startswith('"') else t


def parse_int(t, where):
    try:
        return int(t, 0)
    except ValueError:
        raise DescError(f'{where}: not a number: {t}')


def parse(path, gens):
    lines = open(path).read().split('\n')
    g = None
    stack = []   # open blocks: ('enum', name) / ('item', Desc, patch) / ('group', (s,z,c))
    for n, raw in enumerate(lines, 1):
        where = f'{path}:{n}'
        line = strip_comment(raw).strip()
        if not line:
            continue
        t = tokens(line)
        kw = t[0]
        if kw == 'gen':
            g = Gen(parse_int(t[1], where))
            if len(t) == 4 and t[2] == 'base':
                base = gens[parse_int(t[3], where)]
                g.enums = dict(base.enums)
                g.items = {k: v.copy() for k, v in base.items.items()}
            gens[g.gen] = g
            continue
        if g is None:
            raise DescError(f'{where}: "gen N" must come first')
        top = stack[-1] if stack else None
        if kw == 'end':
            if not stack:
                raise DescError(f'{where}: end without a block')
            stack.pop()
            continue
        if top and top[0] == 'enum':
            g.enums[top[1]].append((parse_int(t[0], where), unq(t[1])))
            continue
        if top is None:
            if kw == 'enum':
                g.enums[t[1]] = []
                stack.append(('enum', t[1]))
            elif kw == 'remove':
                if (t[1], unq(t[2])) not in g.items:
                    raise DescError(f'{where}: remove of unknown {t[1]} {t[2]}')
                del g.items[(t[1], unq(t[2]))]
            elif kw in ('command', 'struct', 'register'):
                name = unq(t[1])
                k = (kw, name)
                rest = t[2:]
                replace = 'replace' in rest
                if replace:
                    rest.remove('replace')
                if k in g.items and not replace:
                    d = g.items[k]      # changes to the base generation's entry
                    patch = True
                else:
                    d = Desc(kw, name, where)
                    patch = False
                    if k in g.items:
                        g.items[k] = d     # keeps its position
                    else:
                        g.items[k] = d
                i = 0
                while i < len(rest):
                    if rest[i] == 'length':
                        d.length = parse_int(rest[i + 1], where); i += 2
                    elif rest[i] == 'bias':
                        d.bias = parse_int(rest[i + 1], where); i += 2
                    elif kw == 'register' and rest[i] == 'engine':
                        d.engine_rel = True; i += 1
                    elif kw == 'register' and d.offset is None:
                        d.offset = parse_int(rest[i], where); i += 1
                    else:
                        raise DescError(f'{where}: unexpected {rest[i]}')
                if kw == 'register' and not d.length:
                    d.length = 1
                stack.append(('item', d, patch))
            else:
                raise DescError(f'{where}: unknown keyword {kw}')
            continue
        # inside a command/struct/register (or one of its groups)
        item = next(s for s in reversed(stack) if s[0] == 'item')
        d, patch = item[1], item[2]
        group = top[1] if top[0] == 'group' else None
        if kw == 'header':
            d.match, d.mask = parse_int(t[1], where), parse_int(t[2], where)
        elif kw == 'length':
            d.length = parse_int(t[1], where)
            d.len_mask = 0
            d.bias = 0
            d.min_length = 0
            i = 2
            while i < len(t):
                if t[i] == 'dwordlength':
                    d.len_mask = parse_int(t[i + 1], where)
                elif t[i] == 'bias':
                    d.bias = parse_int(t[i + 1], where)
                elif t[i] == 'minlength':
                    d.min_length = parse_int(t[i + 1], where)
                else:
                    raise DescError(f'{where}: unexpected {t[i]}')
                i += 2
        elif kw == 'engines':
            for e in t[1:]:
                if e not in ENGINES:
                    raise DescError(f'{where}: unknown engine {e}')
            d.engines = t[1:]
        elif kw == 'priv':
            if t[1] not in PRIV:
                raise DescError(f'{where}: unknown privilege {t[1]}')
            d.priv, d.priv_fields = t[1], [unq(x) for x in t[2:]]
        elif kw == 'noop':
            d.noop = True
        elif kw == 'masked':
            if d.kind != 'register':
                raise DescError(f'{where}: masked outside a register')
            d.masked = True
        elif kw == 'group':
            kv = dict(x.split('=') for x in t[1:])
            stack.append(('group', (parse_int(kv['start'], where), parse_int(kv['size'], where),
                                    parse_int(kv['count'], where))))
        elif kw == 'drop':
            name = unq(t[1])
            before = len(d.fields)
            d.fields = [f for f in d.fields if f.name != name]
            if len(d.fields) == before:
                raise DescError(f'{where}: drop of unknown field "{name}"')
        elif kw == 'field':
            dword = parse_int(t[1], where)
            m = re.fullmatch(r'(\d+):(\d+)', t[2])
            if not m:
                raise DescError(f'{where}: bits must be HIGH:LOW, not {t[2]}')
            hi, lo = int(m.group(1)), int(m.group(2))
            if hi < lo:
                raise DescError(f'{where}: high bit below low bit')
            ty, _, arg = t[3].partition('.')
            if ty not in TYPES:
                raise DescError(f'{where}: unknown type {ty}')
            if ty in ('ufixed', 'sfixed'):
                arg = parse_int(arg, where)
            alts = []
            if len(t) > 5:
                if t[5] != 'alt' or len(t) == 6:
                    raise DescError(f'{where}: expected alt "FIELD"... after the name')
                alts = [unq(x) for x in t[6:]]
            f = Field(unq(t[4]), dword * 32 + lo, dword * 32 + hi, ty, arg, group, where, alts)
            if patch:
                for i, o in enumerate(d.fields):
                    if o.key() == f.key():
                        d.fields[i] = f
                        break
                else:
                    d.fields.append(f)
            else:
                d.fields.append(f)
        else:
            raise DescError(f'{where}: unknown keyword {kw} in {d.kind} {d.name}')
    if stack:
        raise DescError(f'{path}: block not closed at the end of the file')


def same_place(a, b):
    return a.group == b.group


def check_overlaps(d):
    """Two fields of one placement share bits only where the PRM overlays
    them, which the description says with 'alt' on the second one."""
    for i, a in enumerate(d.fields):
        for name in a.alts:
            if not any(o.name == name and same_place(o, a) for o in d.fields):
                raise DescError(f'{a.where}: alt "{name}" is not a field of {d.name}')
        for b in d.fields[i + 1:]:
            if not same_place(a, b) or a.end < b.start or b.end < a.start:
                continue
            if b.name not in a.alts and a.name not in b.alts:
                raise DescError(f'{b.where}: "{b.name}" overlaps "{a.name}" in {d.name} '
                                f'(say alt "{a.name}" if the PRM overlays them)')


def check(g):
    """Consistency checks: names, references, overlapping fields, lengths."""
    structs = {n for (k, n) in g.items if k == 'struct'}
    for d in g.items.values():
        names = set()
        for f in d.fields:
            if f.key() in names:
                raise DescError(f'{f.where}: field "{f.name}" twice in {d.name}')
            names.add(f.key())
            if f.type != 'struct' and f.end - f.start >= 64:
                raise DescError(f'{f.where}: "{f.name}" is wider than 64 bits: make it a group')
            if f.type == 'struct' and f.arg not in structs:
                raise DescError(f'{f.where}: unknown structure {f.arg}')
            if f.arg and f.type in ('enum', 'int', 'uint') and f.arg not in g.enums:
                raise DescError(f'{f.where}: unknown enum {f.arg}')
        check_overlaps(d)
        if len(d.priv_fields) > 2:
            raise DescError(f'{d.where}: at most 2 privilege fields (cmd.h CMD_PRIV_FIELDS)')
        for pf in d.priv_fields:
            if not any(f.name == pf for f in d.fields):
                raise DescError(f'{d.where}: privilege field "{pf}" is not a field of {d.name}')
        if d.min_length and not (d.len_mask and d.bias <= d.min_length < d.length):
            raise DescError(f'{d.where}: minlength of {d.name} must lie in [bias, length) '
                            'of a variable-length command')
        if d.kind == 'command' and d.mask & 0xffff:
            raise DescError(f'{d.where}: header mask of {d.name} must only cover bits 31:16')
    # no two commands of an engine match the same header
    for e in ENGINES:
        seen = {}
        for d in g.items.values():
            if d.kind != 'command' or e not in d.engines:
                continue
            m, v = d.mask >> 16, d.match >> 16
            free = ~m & 0xffff
            sub = 0
            while True:
                k = v | sub
                if k in seen:
                    raise DescError(f'{d.where}: {d.name} and {seen[k]} match the same header on {e}')
                seen[k] = d.name
                sub = (sub - free) & free
                if not sub:
                    break


def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def cident(s):
    s = re.sub(r'[^A-Za-z0-9]+', '_', s).strip('_')
    return s


def field_ident(name):
    s = cident(name).lower()
    if not s or s[0].isdigit():
        s = '_' + s
    return s


def emit_tables(gens, out):
    w = out.append
    w('/* Generated by src/gpu/cmd/gen_cmds.py from src/gpu/cmd/desc/genN.cmds: do not edit. */')
    w('#include "gpu/cmd/cmd.h"')
    w('#include "gpu/cmd/cmd_structs.h"')
    w('')
    for gn, g in sorted(gens.items()):
        p = f'gen{gn}'
        items = list(g.items.values())
        structs = [d for d in items if d.kind == 'struct']
        cmds = [d for d in items if d.kind == 'command']
        regs = [d for d in items if d.kind == 'register']
        sidx = {d.name: i for i, d in enumerate(structs)}
        w(f'static const struct cmd_desc {p}_structs[{max(len(structs), 1)}];')
        enum_used = sorted({f.arg for d in items for f in d.fields
                            if f.arg and f.type in ('enum', 'int', 'uint')})
        for en in enum_used:
            w(f'static const struct cmd_value {p}_v_{cident(en)}[] = {{')
            for v, label in g.enums[en]:
                w(f'\t{{ {v}, {cstr(label)} }},')
            w('};')
        for d in items:
            if not d.fields:
                continue
            w(f'static const struct cmd_field {p}_f_{d.kind[0]}_{cident(d.name)}[] = {{')
            for f in d.fields:
                gs, gz, gc = f.group or (0, 0, 0)
                frac = f.arg if f.type in ('ufixed', 'sfixed') else 0
                has_vals = f.arg and f.type in ('enum', 'int', 'uint')
                nv = len(g.enums[f.arg]) if has_vals else 0
                vals = f'{p}_v_{cident(f.arg)}' if has_vals else 'NULL'
                sub = f'&{p}_structs[{sidx[f.arg]}]' if f.type == 'struct' else 'NULL'
                alt = cstr(';'.join(f.alts)) if f.alts else 'NULL'
                w(f'\t{{ {cstr(f.name)}, {f.start}, {f.end}, {TYPES[f.type]}, {frac}, {gc}, {gs}, {gz}, '
                  f'{1 if f.group else 0}, {nv}, {vals}, {sub}, {alt} }},')
            w('};')

        def desc(d, kind_id):
            eng = ' | '.join('CMD_' + e.upper() for e in d.engines) or ('CMD_ALL' if d.engine_rel else '0')
            # a register's .match is its MMIO offset (from each engine's base
            # when .engines is set)
            match = d.offset if d.kind == 'register' else d.match
            fl = f'{p}_f_{d.kind[0]}_{cident(d.name)}' if d.fields else 'NULL'
            # the fields that select the GGTT, resolved here (no look-up by
            # name at run time)
            idx = [next(i for i, f in enumerate(d.fields) if f.name == pf) for pf in d.priv_fields]
            pf = '{ ' + ', '.join(f'&{fl}[{i}]' for i in idx) + ' }' if idx else '{ NULL }'
            flags = ' | '.join(x for x in ['CMD_F_HW_NOOP' if d.noop else '',
                                            'CMD_F_MASKED' if d.masked else ''] if x) or '0'
            return (f'\t{{ .name = {cstr(d.name)}, .id = {kind_id}, .match = 0x{match:08x}, '
                    f'.mask = 0x{d.mask:08x}, .len_mask = 0x{d.len_mask:x}, .bias = {d.bias}, '
                    f'.length = {d.length}, .min_length = {d.min_length or d.length}, .engines = {eng}, .priv = {PRIV[d.priv]}, .priv_fields = {pf}, '
                    f'.flags = {flags}, .num_fields = {len(d.fields)}, .fields = {fl} }},')
        w(f'static const struct cmd_desc {p}_structs[{max(len(structs), 1)}] = {{')
        for d in structs:
            w(desc(d, f'CMD_STRUCT_ID_{cident(d.name)}'))
        w('};')
        w(f'static const struct cmd_desc {p}_cmds[] = {{')
        for d in cmds:
            w(desc(d, f'CMD_ID_{cident(d.name)}'))
        w('};')
        w(f'static const struct cmd_desc {p}_regs[{max(len(regs), 1)}] = {{')
        for d in regs:
            w(desc(d, f'CMD_REG_ID_{cident(d.name)}'))
        w('};')
        w(f'const struct cmd_table cmd_table_{p} = {{')
        w(f'\t.gen = {gn},')
        w(f'\t.num_cmds = {len(cmds)}, .num_structs = {len(structs)}, .num_regs = {len(regs)},')
        w(f'\t.cmds = {p}_cmds, .structs = {p}_structs, .regs = {p}_regs,')
        w('};')
        w('')


# ---- typed structs -------------------------------------------------------

def ctype(f, g):
    width = f.end - f.start + 1
    if f.type == 'bool':
        return 'bool'
    if f.type == 'float':
        return 'float'
    if f.type in ('int', 'sfixed'):
        return 'int32_t' if width <= 32 else 'int64_t'
    if f.type == 'address':
        return 'uint64_t'
    return 'uint32_t' if width <= 32 and f.end < 64 * 1024 else 'uint64_t'


class Merged:
    """A command, structure or register over all generations."""

    def __init__(self, kind, name):
        self.kind, self.name = kind, name
        self.per_gen = {}     # gen -> Desc
        self.members = []     # (ident, ctype, kind, info) in first-seen order
        self.by_ident = {}


def member_of(f, gens_g):
    """The struct member a field becomes, or None (header fields, mbo)."""
    if f.type == 'mbo':
        return None
    ident = field_ident(f.name)
    if f.group and f.group[2] == 0:
        return None                      # variable groups: element accessors
    if f.type == 'struct':
        t = f'struct cmd_{cident(f.arg)}'
    else:
        t = ctype(f, gens_g)
    count = f.group[2] if f.group else 0
    return (ident, t, count)


def is_header_field(d, f):
    if d.kind != 'command' or f.group or f.end >= 32:
        return False
    bits = ((1 << (f.end - f.start + 1)) - 1) << f.start
    return (d.mask & bits) != 0 or f.name == 'DWord Length' and d.len_mask == bits


def merge(gens):
    merged = {}
    order = []
    for gn, g in sorted(gens.items()):
        for (kind, name), d in g.items.items():
            k = (kind, name)
            if k not in merged:
                merged[k] = Merged(kind, name)
                order.append(k)
            m = merged[k]
            m.per_gen[gn] = d
            for f in d.fields:
                if is_header_field(d, f):
                    continue
                mem = member_of(f, g)
                if not mem:
                    continue
                ident, t, count = mem
                if ident in m.by_ident:
                    old = m.by_ident[ident]
                    if old[1] != t:
                        # widen integer types, otherwise a conflict
                        ints = ['bool', 'uint32_t', 'uint64_t']
                        sints = ['int32_t', 'int64_t']
                        for fam in (ints, sints):
                            if old[1] in fam and t in fam:
                                t = fam[max(fam.index(old[1]), fam.index(t))]
                                break
                        else:
                            if old[1] in ints + sints and t in ints + sints:
                                t = 'int64_t'   # signed in one generation, unsigned in another
                            else:
                                raise DescError(f'{f.where}: field {name}.{f.name} is {t} here and '
                                                f'{old[1]} in another generation')
                    if old[2] != count:
                        count = max(old[2], count)
                    m.by_ident[ident] = (ident, t, count)
                    m.members = [m.by_ident[x[0]] for x in m.members]
                else:
                    m.by_ident[ident] = (ident, t, count)
                    m.members.append((ident, t, count))
    return [merged[k] for k in order]


def address_fields(m):
    """Idents of the address fields (outside groups) of m, in order."""
    out = []
    for gn, d in sorted(m.per_gen.items()):
        for f in d.fields:
            if f.type == 'address' and not f.group and field_ident(f.name) not in out:
                out.append(field_ident(f.name))
    return out


def emit_structs(gens, merged, hout, cout):
    h, c = hout.append, cout.append
    h('/* Generated by src/gpu/cmd/gen_cmds.py from src/gpu/cmd/desc/genN.cmds: do not edit.')
    h(' *')
    h(' * For every command, state structure and register of the description: a')
    h(' * typed struct holding its fields (merged over the generations: a field a')
    h(' * generation lacks unpacks as 0 there), unpack and pack functions taking the')
    h(' * generation, and its length. Conventions (docs/cmd.md):')
    h(' *  - addresses and offsets keep their bits in place (a field at bits 47:6')
    h(' *    holds the byte address); other fields are shifted down to bit 0;')
    h(' *  - ufixed/sfixed fields hold their raw bits (frac fraction bits);')
    h(' *  - float fields hold the value; bool fields true/false;')
    h(' *  - header fields (command type, opcodes, DWord Length) are not members:')
    h(' *    pack writes them from the description;')
    h(' *  - a repeated part with a fixed count is an array; a repeated part that')
    h(' *    runs to the end of the command is read element by element with')
    h(' *    cmd_<NAME>_<field>_count() and cmd_<NAME>_<field>_at(). */')
    h('#ifndef GTSIM_CMD_CMD_STRUCTS_H')
    h('#define GTSIM_CMD_CMD_STRUCTS_H')
    h('')
    h('#include <stdbool.h>')
    h('#include <stdint.h>')
    h('')
    # ids
    for kind, prefix in (('command', 'CMD_ID'), ('struct', 'CMD_STRUCT_ID'), ('register', 'CMD_REG_ID')):
        h(f'enum {prefix.lower()} {{')
        h(f'\t{prefix}_NONE,')
        for m in merged:
            if m.kind == kind:
                h(f'\t{prefix}_{cident(m.name)},')
        h(f'\t{prefix}_COUNT')
        h('};')
        h('')
    # register offsets
    for m in merged:
        if m.kind != 'register':
            continue
        offs = {gn: d.offset for gn, d in m.per_gen.items()}
        d0 = next(iter(m.per_gen.values()))
        if len(set(offs.values())) == 1:
            h(f'#define REG_{cident(m.name)} 0x{d0.offset:x}u{"  /* from the engine base */" if d0.engine_rel else ""}')
        else:
            for gn, o in sorted(offs.items()):
                h(f'#define REG_{cident(m.name)}_GEN{gn} 0x{o:x}u')
        # field positions, for code that tests or sets a bit in place (the
        # hot paths; pack/unpack otherwise): only where every generation
        # agrees, so a constant never means two things
        for f in d0.fields:
            places = {(x.start, x.end) for d in m.per_gen.values() for x in d.fields if x.name == f.name}
            if len(places) != 1 or len([d for d in m.per_gen.values()
                                        if any(x.name == f.name for x in d.fields)]) != len(m.per_gen):
                continue
            width = f.end - f.start + 1
            suf = 'ull' if f.end >= 32 else 'u'
            fn = f'REG_{cident(m.name)}_{cident(f.name).upper()}'
            h(f'#define {fn}_SHIFT {f.start}')
            h(f'#define {fn}_MASK 0x{((1 << width) - 1) << f.start:x}{suf}')
    h('')
    # structs in dependency order (nested structs first)
    done = set()
    bykey = {(m.kind, m.name): m for m in merged}

    def emit_struct(m):
        if (m.kind, m.name) in done:
            return
        for ident, t, count in m.members:
            if t.startswith('struct cmd_'):
                sub = next(x for x in merged if x.kind == 'struct' and 'struct cmd_' + cident(x.name) == t)
                emit_struct(sub)
        done.add((m.kind, m.name))
        n = cident(m.name)
        gensl = ', '.join(f'gen{g}' for g in sorted(m.per_gen))
        h(f'/* {m.kind} {m.name} ({gensl}) */')
        h(f'struct cmd_{n} {{')
        if not m.members:
            h('\tchar empty_;')
        for ident, t, count in m.members:
            h(f'\t{t} {ident}{f"[{count}]" if count else ""};')
        h('};')
        h(f'bool cmd_{n}_unpack(int gen, const uint32_t *dw, uint32_t len, struct cmd_{n} *v);')
        h(f'void cmd_{n}_unpack_at(int gen, const uint32_t *dw, uint32_t len, uint64_t bit, struct cmd_{n} *v);')
        h(f'/* Packs v into dw[0..len): 0 when every value fits, -1 otherwise. */')
        h(f'int cmd_{n}_pack(int gen, uint32_t *dw, uint32_t len, const struct cmd_{n} *v);')
        h(f'int cmd_{n}_pack_at(int gen, uint32_t *dw, uint32_t len, uint64_t bit, const struct cmd_{n} *v);')
        h(f'/* Default length in dwords on gen (0: not in that generation). */')
        h(f'uint32_t cmd_{n}_length(int gen);')
        for fi in address_fields(m):
            h(f'/* First bit of address field {fi} on gen (for a relocation), -1: none there. */')
            h(f'int cmd_{n}_{fi}_bit(int gen);')
        # variable groups
        seen = set()
        for gn, d in sorted(m.per_gen.items()):
            for f in d.fields:
                if f.group and f.group[2] == 0 and field_ident(f.name) not in seen:
                    seen.add(field_ident(f.name))
                    fi = field_ident(f.name)
                    h(f'/* Repeated "{f.name}": number of elements in len dwords, element i. */')
                    h(f'uint32_t cmd_{n}_{fi}_count(int gen, uint32_t len);')
                    if f.type == 'struct':
                        h(f'bool cmd_{n}_{fi}_at(int gen, const uint32_t *dw, uint32_t len, uint32_t i, '
                          f'struct cmd_{cident(f.arg)} *v);')
                        h(f'int cmd_{n}_{fi}_set(int gen, uint32_t *dw, uint32_t len, uint32_t i, '
                          f'const struct cmd_{cident(f.arg)} *v);')
                    else:
                        h(f'uint64_t cmd_{n}_{fi}_at(int gen, const uint32_t *dw, uint32_t len, uint32_t i);')
                        h(f'int cmd_{n}_{fi}_set(int gen, uint32_t *dw, uint32_t len, uint32_t i, uint64_t value);')
        h('')

    for m in merged:
        emit_struct(m)
    h('#endif')

    # ---- definitions
    c('/* Generated by src/gpu/cmd/gen_cmds.py from src/gpu/cmd/desc/genN.cmds: do not edit. */')
    c('#include "gpu/cmd/cmd_structs.h"')
    c('#include "gpu/cmd/cmd_bits.h"')
    c('')
    for m in merged:
        n = cident(m.name)
        # unpack_at
        c(f'void cmd_{n}_unpack_at(int gen, const uint32_t *dw, uint32_t len, uint64_t bit, struct cmd_{n} *v)')
        c('{')
        c(f'\t*v = (struct cmd_{n}){{0}};')
        c('\tswitch (gen) {')
        for gn, d in sorted(m.per_gen.items()):
            c(f'\tcase {gn}:')
            for f in d.fields:
                if is_header_field(d, f) or not member_of(f, gens[gn]):
                    continue
                ident, t, count = member_of(f, gens[gn])
                reps = range(f.group[2]) if f.group else [None]
                for r in reps:
                    lhs = f'v->{ident}' + (f'[{r}]' if r is not None else '')
                    start = f.start + (f.group[0] + r * f.group[1] if r is not None else 0)
                    width = f.end - f.start + 1
                    if f.type == 'struct':
                        c(f'\t\tcmd_{cident(f.arg)}_unpack_at(gen, dw, len, bit + {start}, &{lhs});')
                    elif f.type == 'float':
                        c(f'\t\t{lhs} = cmd_bits_float(dw, len, bit + {start});')
                    elif f.type in ('int', 'sfixed'):
                        c(f'\t\t{lhs} = ({t})cmd_bits_signed(dw, len, bit + {start}, {width});')
                    elif f.type in ('address', 'offset'):
                        c(f'\t\t{lhs} = ({t})cmd_bits_in_place(dw, len, bit + {start}, {width});')
                    elif f.type == 'bool':
                        c(f'\t\t{lhs} = cmd_bits(dw, len, bit + {start}, 1) != 0;')
                    else:
                        c(f'\t\t{lhs} = ({t})cmd_bits(dw, len, bit + {start}, {width});')
            c('\t\tbreak;')
        c('\tdefault:')
        c('\t\tbreak;')
        c('\t}')
        c('}')
        c('')
        c(f'bool cmd_{n}_unpack(int gen, const uint32_t *dw, uint32_t len, struct cmd_{n} *v)')
        c('{')
        c(f'\tcmd_{n}_unpack_at(gen, dw, len, 0, v);')
        c(f'\treturn cmd_{n}_length(gen) != 0 || ' + ' || '.join(f'gen == {g}' for g in sorted(m.per_gen)) + ';')
        c('}')
        c('')
        # pack_at
        c(f'int cmd_{n}_pack_at(int gen, uint32_t *dw, uint32_t len, uint64_t bit, const struct cmd_{n} *v)')
        c('{')
        c('\tint bad = 0;')
        c('\tswitch (gen) {')
        for gn, d in sorted(m.per_gen.items()):
            c(f'\tcase {gn}:')
            if d.kind == 'command':
                c(f'\t\tbad |= cmd_put_header(dw, len, bit, 0x{d.match:08x}u, 0x{d.mask:08x}u, 0x{d.len_mask:x}u, {d.bias});')
            # overlays (alt) last, and only when set: they win over the
            # fields whose bits they share (see docs/cmd.md)
            for f in sorted(d.fields, key=lambda x: bool(x.alts)):
                width = f.end - f.start + 1
                if f.type == 'mbo':
                    c(f'\t\tbad |= cmd_put(dw, len, bit + {f.start}, {width}, (1ull << {width}) - 1);'
                      if width < 64 else f'\t\tbad |= cmd_put(dw, len, bit + {f.start}, 64, ~0ull);')
                    continue
                if is_header_field(d, f) or not member_of(f, gens[gn]):
                    continue
                ident, t, count = member_of(f, gens[gn])
                reps = range(f.group[2]) if f.group else [None]
                for r in reps:
                    rhs = f'v->{ident}' + (f'[{r}]' if r is not None else '')
                    start = f.start + (f.group[0] + r * f.group[1] if r is not None else 0)
                    ind = '\t' if f.alts and f.type != 'struct' else ''
                    if f.alts and f.type != 'struct':
                        c(f'\t\tif ({rhs})')
                    if f.type == 'struct':
                        c(f'\t\t{ind}bad |= cmd_{cident(f.arg)}_pack_at(gen, dw, len, bit + {start}, &{rhs});')
                    elif f.type == 'float':
                        c(f'\t\t{ind}bad |= cmd_put_float(dw, len, bit + {start}, {rhs});')
                    elif f.type in ('int', 'sfixed'):
                        c(f'\t\t{ind}bad |= cmd_put_signed(dw, len, bit + {start}, {width}, (int64_t){rhs});')
                    elif f.type in ('address', 'offset'):
                        c(f'\t\t{ind}bad |= cmd_put_in_place(dw, len, bit + {start}, {width}, (uint64_t){rhs});')
                    else:
                        c(f'\t\t{ind}bad |= cmd_put(dw, len, bit + {start}, {width}, (uint64_t){rhs});')
            c('\t\tbreak;')
        c('\tdefault:')
        c('\t\treturn -1;')
        c('\t}')
        c('\treturn bad ? -1 : 0;')
        c('}')
        c('')
        c(f'int cmd_{n}_pack(int gen, uint32_t *dw, uint32_t len, const struct cmd_{n} *v)')
        c('{')
        c('\tfor (uint32_t i = 0; i < len; i++)')
        c('\t\tdw[i] = 0;')
        c(f'\treturn cmd_{n}_pack_at(gen, dw, len, 0, v);')
        c('}')
        c('')
        c(f'uint32_t cmd_{n}_length(int gen)')
        c('{')
        c('\tswitch (gen) {')
        for gn, d in sorted(m.per_gen.items()):
            c(f'\tcase {gn}: return {d.length if d.length else d.bias};')
        c('\tdefault: return 0;')
        c('\t}')
        c('}')
        c('')
        for fi in address_fields(m):
            c(f'int cmd_{n}_{fi}_bit(int gen)')
            c('{')
            c('\tswitch (gen) {')
            for gn, d in sorted(m.per_gen.items()):
                for f in d.fields:
                    if f.type == 'address' and not f.group and field_ident(f.name) == fi:
                        c(f'\tcase {gn}: return {f.start};')
            c('\tdefault: return -1;')
            c('\t}')
            c('}')
            c('')
        # variable groups
        seen = set()
        for f0 in [f for gn, d in sorted(m.per_gen.items()) for f in d.fields]:
            if not (f0.group and f0.group[2] == 0) or field_ident(f0.name) in seen:
                continue
            fi = field_ident(f0.name)
            seen.add(fi)
            c(f'uint32_t cmd_{n}_{fi}_count(int gen, uint32_t len)')
            c('{')
            c('\tswitch (gen) {')
            for gn, d in sorted(m.per_gen.items()):
                for f in d.fields:
                    if f.group and f.group[2] == 0 and field_ident(f.name) == fi:
                        c(f'\tcase {gn}: return cmd_group_count({f.group[0]}, {f.group[1]}, len);')
            c('\tdefault: return 0;')
            c('\t}')
            c('}')
            c('')
            for getter in (True, False):
                if f0.type == 'struct':
                    sub = f'struct cmd_{cident(f0.arg)}'
                    if getter:
                        c(f'bool cmd_{n}_{fi}_at(int gen, const uint32_t *dw, uint32_t len, uint32_t i, {sub} *v)')
                    else:
                        c(f'int cmd_{n}_{fi}_set(int gen, uint32_t *dw, uint32_t len, uint32_t i, const {sub} *v)')
                else:
                    if getter:
                        c(f'uint64_t cmd_{n}_{fi}_at(int gen, const uint32_t *dw, uint32_t len, uint32_t i)')
                    else:
                        c(f'int cmd_{n}_{fi}_set(int gen, uint32_t *dw, uint32_t len, uint32_t i, uint64_t value)')
                c('{')
                c(f'\tif (i >= cmd_{n}_{fi}_count(gen, len))')
                c(f'\t\treturn {"false" if getter and f0.type == "struct" else "0" if getter else "-1"};')
                c('\tswitch (gen) {')
                for gn, d in sorted(m.per_gen.items()):
                    for f in d.fields:
                        if not (f.group and f.group[2] == 0 and field_ident(f.name) == fi):
                            continue
                        width = f.end - f.start + 1
                        at = f'(uint64_t){f.group[0]} + (uint64_t)i * {f.group[1]} + {f.start}'
                        c(f'\tcase {gn}:')
                        if f.type == 'struct':
                            if getter:
                                c(f'\t\tcmd_{cident(f.arg)}_unpack_at(gen, dw, len, {at}, v);')
                                c('\t\treturn true;')
                            else:
                                c(f'\t\treturn cmd_{cident(f.arg)}_pack_at(gen, dw, len, {at}, v);')
                        elif getter:
                            if f.type in ('address', 'offset'):
                                c(f'\t\treturn cmd_bits_in_place(dw, len, {at}, {width});')
                            elif f.type in ('int', 'sfixed'):
                                c(f'\t\treturn (uint64_t)cmd_bits_signed(dw, len, {at}, {width});')
                            else:
                                c(f'\t\treturn cmd_bits(dw, len, {at}, {width});')
                        else:
                            if f.type in ('address', 'offset'):
                                c(f'\t\treturn cmd_put_in_place(dw, len, {at}, {width}, value);')
                            elif f.type in ('int', 'sfixed'):
                                c(f'\t\treturn cmd_put_signed(dw, len, {at}, {width}, (int64_t)value);')
                            else:
                                c(f'\t\treturn cmd_put(dw, len, {at}, {width}, value);')
                c('\tdefault:')
                c(f'\t\treturn {"false" if getter and f0.type == "struct" else "0" if getter else "-1"};')
                c('\t}')
                c('}')
                c('')


# ---- self-test ------------------------------------------------------------

def st_members(d, g):
    """(field, ident, count) of the members d packs on its generation."""
    out = []
    for f in d.fields:
        if is_header_field(d, f) or not member_of(f, g):
            continue
        ident, t, count = member_of(f, g)
        out.append((f, ident, count))
    return out


def st_value(f, t):
    """A C expression: a random value that fits field f (member type t)."""
    width = f.end - f.start + 1
    mask = '~0ull' if width >= 64 else f'0x{(1 << width) - 1:x}ull'
    if f.type == 'bool':
        return '(rnd(s) & 1) != 0'
    if f.type == 'float':
        return '(float)((int)(rnd(s) % 2001) - 1000) / 8.0f'
    if f.type in ('int', 'sfixed'):
        return f'({t})sext(rnd(s), {width})'
    if f.type in ('address', 'offset'):
        lo = f.start % 32
        w = min(width, 64 - lo)
        m = '~0ull' if w >= 64 else f'0x{(1 << w) - 1:x}ull'
        return f'({t})((rnd(s) & {m}) << {lo})'
    return f'({t})(rnd(s) & {mask})'


def st_type_bits(t):
    return {'bool': 1, 'uint32_t': 32, 'int32_t': 32, 'uint64_t': 64, 'int64_t': 64}.get(t, 0)


def emit_selftest(gens, merged, out):
    w = out.append
    w('/* Generated by src/gpu/cmd/gen_cmds.py --selftest: do not edit.')
    w(' *')
    w(' * Round trip of every command, structure and register of the description')
    w(' * through its generated pack and unpack: random values that fit each')
    w(' * field are packed, unpacked and compared field by field (overlaid "alt"')
    w(' * fields one at a time), and a value one bit too wide for a field must')
    w(' * make pack fail. Compiled only into tests/unit/cmd/test_cmd_roundtrip. */')
    w('#include <stdio.h>')
    w('#include <string.h>')
    w('')
    w('#include "gpu/cmd/cmd_selftest.h"')
    w('#include "gpu/cmd/cmd_structs.h"')
    w('')
    w('static uint64_t rnd(uint64_t *s)')
    w('{')
    w('\t*s ^= *s << 13;')
    w('\t*s ^= *s >> 7;')
    w('\t*s ^= *s << 17;')
    w('\treturn *s;')
    w('}')
    w('')
    w('static int64_t sext(uint64_t v, unsigned width)')
    w('{')
    w('\tif (width >= 64)')
    w('\t\treturn (int64_t)v;')
    w('\tv &= (1ull << width) - 1;')
    w('\treturn (int64_t)(v ^ (1ull << (width - 1))) - (int64_t)(1ull << (width - 1));')
    w('}')
    w('')
    w('#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)')
    w('')
    bykey = {}
    for m in merged:
        bykey[(m.kind, m.name)] = m
    entries = []
    # nested structures: fill and compare helpers per generation
    for m in merged:
        if m.kind != 'struct':
            continue
        n = cident(m.name)
        for gn, d in sorted(m.per_gen.items()):
            mem = st_members(d, gens[gn])
            w(f'static inline void fill_{n}_{gn}(struct cmd_{n} *v, uint64_t *s);')
            w(f'static inline int cmp_{n}_{gn}(const struct cmd_{n} *a, const struct cmd_{n} *b, char *err, size_t errlen);')
    w('')

    def fill_lines(mem, gn, g, alts_too=False):
        lines = []
        for f, ident, count in mem:
            if f.alts and not alts_too:
                continue
            t = member_of(f, g)[1]
            for r in (range(count) if count else [None]):
                lhs = f'v->{ident}' + (f'[{r}]' if r is not None else '')
                if f.type == 'struct':
                    lines.append(f'\tfill_{cident(f.arg)}_{gn}(&{lhs}, s);')
                else:
                    lines.append(f'\t{lhs} = {st_value(f, t)};')
        return lines

    def cmp_lines(mem, gn, what, only=None):
        lines = []
        for f, ident, count in mem:
            if (only is None and f.alts) or (only is not None and f is not only):
                continue
            for r in (range(count) if count else [None]):
                x = f'{ident}' + (f'[{r}]' if r is not None else '')
                if f.type == 'struct':
                    lines.append(f'\tif (cmp_{cident(f.arg)}_{gn}(&a->{x}, &b->{x}, err, errlen))')
                    lines.append('\t\treturn -1;')
                else:
                    lines.append(f'\tif (a->{x} != b->{x})')
                    lines.append(f'\t\tFAIL("{what}: {cstr(f.name)[1:-1]}{"[" + str(r) + "]" if r is not None else ""} differs");')
        return lines

    for m in merged:
        if m.kind != 'struct':
            continue
        n = cident(m.name)
        for gn, d in sorted(m.per_gen.items()):
            mem = st_members(d, gens[gn])
            w(f'static inline void fill_{n}_{gn}(struct cmd_{n} *v, uint64_t *s)')
            w('{')
            w(f'\t*v = (struct cmd_{n}){{0}};')
            for x in fill_lines(mem, gn, gens[gn]):
                w(x)
            w('\t(void)s;')
            w('}')
            w('')
            w(f'static inline int cmp_{n}_{gn}(const struct cmd_{n} *a, const struct cmd_{n} *b, char *err, size_t errlen)')
            w('{')
            for x in cmp_lines(mem, gn, f'{m.name} (gen{gn})'):
                w(x)
            w('\t(void)a; (void)b; (void)err; (void)errlen;')
            w('\treturn 0;')
            w('}')
            w('')

    for m in merged:
        n = cident(m.name)
        for gn, d in sorted(m.per_gen.items()):
            g = gens[gn]
            mem = st_members(d, g)
            what = f'{m.name} (gen{gn})'
            # the length: the description's, or enough for every fixed field
            # and two elements of each repeated part
            ln = max(d.length, d.bias, 1)
            var = [f for f in d.fields if f.group and f.group[2] == 0]
            for f in d.fields:
                if f.group:
                    gs, gz, gc = f.group
                    end = gs + gz * (gc if gc else 2)
                else:
                    end = f.end + 1
                ln = max(ln, (end + 31) // 32)
            fn = f'st_{m.kind[0]}_{n}_{gn}'
            entries.append((m.name, m.kind, gn, fn))
            w(f'static int {fn}(uint64_t *s, char *err, size_t errlen)')
            w('{')
            w(f'\tuint32_t dw[{ln}];')
            w(f'\tconst uint32_t len = {ln};')
            w(f'\tstruct cmd_{n} v, u, *vp = &v;')
            w(f'\t*vp = (struct cmd_{n}){{0}};')
            w('\tstruct cmd_' + n + ' *const x = vp;')
            w('\t(void)x;')
            w('\t{')
            w(f'\t\tstruct cmd_{n} *v = x;')
            for line in fill_lines(mem, gn, g):
                w('\t' + line)
            w('\t\t(void)v;')
            w('\t}')
            w(f'\tif (cmd_{n}_pack({gn}, dw, len, &v))')
            w(f'\t\tFAIL("{what}: pack of values that fit failed");')
            w(f'\tcmd_{n}_unpack({gn}, dw, len, &u);')
            w('\t{')
            w(f'\t\tconst struct cmd_{n} *a = &v, *b = &u;')
            for line in cmp_lines(mem, gn, what):
                w('\t' + line)
            w('\t\t(void)a; (void)b;')
            w('\t}')
            # repeated parts that run to the end: elements 0 and 1
            for f in var:
                if f.alts:
                    continue
                # addresses and offsets stay in place relative to the dword
                # that holds them: a structure nested at a bit that is not a
                # dword boundary (3DSTATE_GATHER_CONSTANT_*'s Entry_1) takes
                # values aligned to where it lands, which fill_ does not know
                if f.type == 'struct' and f.start % 32 and any(
                        x.type in ('address', 'offset') for x in g.items[('struct', f.arg)].fields):
                    continue
                fi = field_ident(f.name)
                for i in (0, 1):
                    if f.type == 'struct':
                        sn = cident(f.arg)
                        w('\t{')
                        w(f'\t\tstruct cmd_{sn} e, r;')
                        w(f'\t\tfill_{sn}_{gn}(&e, s);')
                        w(f'\t\tif (cmd_{n}_{fi}_set({gn}, dw, len, {i}, &e) || !cmd_{n}_{fi}_at({gn}, dw, len, {i}, &r))')
                        w(f'\t\t\tFAIL("{what}: element {i} of {cstr(f.name)[1:-1]} not stored");')
                        w(f'\t\tif (cmp_{sn}_{gn}(&e, &r, err, errlen))')
                        w('\t\t\treturn -1;')
                        w('\t}')
                    else:
                        w('\t{')
                        w(f'\t\tuint64_t e = (uint64_t)({st_value(f, "int64_t" if f.type in ("int", "sfixed") else "uint64_t")});')
                        w(f'\t\tif (cmd_{n}_{fi}_set({gn}, dw, len, {i}, e) || cmd_{n}_{fi}_at({gn}, dw, len, {i}) != e)')
                        w(f'\t\t\tFAIL("{what}: element {i} of {cstr(f.name)[1:-1]} differs");')
                        w('\t}')
            # overlays, one at a time
            for f, ident, count in mem:
                if not f.alts:
                    continue
                t = member_of(f, g)[1]
                w(f'\t*vp = (struct cmd_{n}){{0}};')
                lhs = f'v.{ident}' + ('[0]' if count else '')
                if f.type == 'struct':
                    w(f'\tfill_{cident(f.arg)}_{gn}(&{lhs}, s);')
                else:
                    w(f'\t{lhs} = {st_value(f, t)};')
                w(f'\tif (cmd_{n}_pack({gn}, dw, len, &v))')
                w(f'\t\tFAIL("{what}: pack of overlay {cstr(f.name)[1:-1]} failed");')
                w(f'\tcmd_{n}_unpack({gn}, dw, len, &u);')
                w('\t{')
                w(f'\t\tconst struct cmd_{n} *a = &v, *b = &u;')
                for line in cmp_lines(mem, gn, what, only=f):
                    w('\t' + line)
                w('\t\t(void)a; (void)b;')
                w('\t}')
            # one bit too many
            for f, ident, count in mem:
                if f.alts or f.type in ('struct', 'bool', 'float'):
                    continue
                t = member_of(f, g)[1]
                tb = st_type_bits(t)
                width = f.end - f.start + 1
                lhs = f'v.{ident}' + ('[0]' if count else '')
                bads = []
                if f.type in ('int', 'sfixed'):
                    if width < tb:
                        bads.append(f'({t})(1ll << {width - 1})')
                elif f.type in ('address', 'offset'):
                    lo = f.start % 32
                    if lo:
                        bads.append(f'({t})({lhs} | 1)')
                    if lo + width < tb:
                        bads.append(f'({t})(1ull << {lo + width})')
                elif width < tb:
                    bads.append(f'({t})(1ull << {width})')
                for b in bads:
                    w('\t{')
                    w(f'\t\tstruct cmd_{n} keep = v;')
                    w(f'\t\t{lhs} = {b};')
                    w(f'\t\tint r = cmd_{n}_pack({gn}, dw, len, &v);')
                    w('\t\tv = keep;')
                    w('\t\tif (r != -1)')
                    w(f'\t\t\tFAIL("{what}: pack accepted a value too wide for {cstr(f.name)[1:-1]}");')
                    w('\t}')
            w('\t(void)s;')
            w('\treturn 0;')
            w('}')
            w('')
    w(f'const struct cmd_selftest cmd_selftests[] = {{')
    for name, kind, gn, fn in entries:
        w(f'\t{{ {cstr(name)}, {cstr(kind)}, {gn}, {fn} }},')
    w('};')
    w(f'const unsigned cmd_num_selftests = {len(entries)};')


def main():
    selftest = len(sys.argv) > 1 and sys.argv[1] == '--selftest'
    args = sys.argv[2:] if selftest else sys.argv[1:]
    outdir, paths = args[0], args[1:]
    gens = {}
    try:
        for p in paths:
            parse(p, gens)
        for g in gens.values():
            check(g)
        merged = merge(gens)
    except DescError as e:
        sys.stderr.write(f'gen_cmds.py: {e}\n')
        sys.exit(1)
    if selftest:
        st = []
        emit_selftest(gens, merged, st)
        with open(f'{outdir}/cmd_selftest.c', 'w') as f:
            f.write('\n'.join(st) + '\n')
        return
    t, h, c = [], [], []
    emit_tables(gens, t)
    emit_structs(gens, merged, h, c)
    for name, lines in (('cmd_tables.c', t), ('cmd_structs.h', h), ('cmd_structs.c', c)):
        with open(f'{outdir}/{name}', 'w') as f:
            f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
