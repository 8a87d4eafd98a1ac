#!/usr/bin/env python3
"""Writes crates/gcn-emu/src/sem/screen_partition.rs: the 256-entry lookup
table of v_screen_partition_4se_b32, read from the CLRX page
GcnInstrsVop1.md (section V_SCREEN_PARTITION_4SE_B32).

usage: tools/gen-screen-partition.py [REFERENCE_DIR]
(default: ../shared/reference/clrx-doc relative to the repository)"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ref = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, '..', 'shared', 'reference', 'clrx-doc')
text = open(os.path.join(ref, 'GcnInstrsVop1.md')).read()
sec = text.index('#### V_SCREEN_PARTITION_4SE_B32')
start = text.index('BYTE TABLE[256] = {', sec) + len('BYTE TABLE[256] = {')
body = text[start:text.index('}', start)]
vals = [int(x, 16) for x in re.findall(r'0x[0-9a-fA-F]+', body)]
if len(vals) != 256:
    sys.exit('expected 256 entries, found %d' % len(vals))
rows = ['    ' + ' '.join('0x%x,' % v for v in vals[16 * r:16 * r + 16]) for r in range(16)]
out = '''//! The lookup table of `v_screen_partition_4se_b32` (GCN 1.4): the CLRX page
//! GcnInstrsVop1.md, V_SCREEN_PARTITION_4SE_B32, gives the 256 entries; this
//! file was extracted from it by `tools/gen-screen-partition.py`.

/// `VDST = TABLE[SRC0 & 0xff]`.
#[rustfmt::skip]
pub(crate) const SCREEN_PARTITION_4SE: [u8; 256] = [
%s
];
''' % '\n'.join(rows)
open(os.path.join(ROOT, 'crates', 'gcn-emu', 'src', 'sem', 'screen_partition.rs'), 'w').write(out)
