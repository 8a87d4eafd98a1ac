//! MUBUF/MTBUF `_d16` format loads and stores (GCN 1.2 and 1.4), MUBUF LDS=1
//! loads and buffer_store_lds_dword. Expected values: GcnInstrsMubuf.md
//! (BUFFER_LOAD_FORMAT_D16_*: components as half floats or 16-bit integers;
//! GCN 1.4 packs two per VGPR, its syntax shows VDATA(2) for XYZW where GCN
//! 1.2 has VDATA(4); D16_HI_X: the high half; BUFFER_STORE_LDS_DWORD),
//! GcnMemHandling.md (LDS=1: LDS address M0[15:0] + LANEID * 4, value
//! zero-extended to a dword) and the DATA_FORMAT/NUM_FORMAT tables; the half
//! encodings were computed with Python's `struct.pack('<e', x)` (IEEE
//! binary16, round to nearest even).

use risa_gcn::layout::{set, Enc, Field};
use risa_gcn::table::find_by_name;
use risa_gcn::Gen;
use risa_gcn_emu::wave::{EXEC, M0};
use risa_gcn_emu::{exec, Ctx, FaultKind, Program, SimpleMemory, Wave};

const BUF: u64 = 0x10000;

fn enc(gen: Gen, e: Enc, name: &str, f: &[(Field, u32)]) -> Vec<u32> {
    let (_, info) = find_by_name(name, gen).next().unwrap();
    let (_, val) = e.prefix(gen).unwrap();
    let mut raw = u64::from(val);
    assert!(set(
        e,
        gen,
        &mut raw,
        Field::Op,
        u32::from(info.opcode(gen).unwrap())
    ));
    // srsrc = s[4:7], soffset = 0 (inline constant 128).
    set(e, gen, &mut raw, Field::Srsrc, 1);
    set(e, gen, &mut raw, Field::Soffset, 128);
    for &(k, v) in f {
        assert!(set(e, gen, &mut raw, k, v), "{k:?}");
    }
    vec![raw as u32, (raw >> 32) as u32]
}

struct Out {
    w: Wave,
    mem: Vec<u8>,
    lds: Vec<u8>,
    fault: Option<FaultKind>,
}

/// Runs one instruction on `lanes` lanes with the buffer holding `data`
/// (V# word 3 = `word3`, NUM_RECORDS = its size); LDS byte i holds 0xc0 + i.
fn go(
    gen: Gen,
    words: Vec<u32>,
    word3: u32,
    data: &[u8],
    lanes: u32,
    init: impl FnOnce(&mut Wave),
) -> Out {
    let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    code.extend(0xbf81_0000u32.to_le_bytes());
    let prog = Program::new(gen, &code, 0x1000);
    let mem = SimpleMemory::new();
    mem.add(BUF, data.to_vec());
    let mut lds: Vec<u8> = (0..64u8).map(|i| 0xc0 + i).collect();
    let mut w = Wave::new(0);
    let fault;
    {
        let mut ctx = Ctx::new(&prog, &mem, &mut lds);
        w.mode = 0x3f0;
        w.set_s64(EXEC, (1u64 << lanes) - 1);
        w.s[4] = BUF as u32;
        w.s[5] = (BUF >> 32) as u32;
        w.s[6] = data.len() as u32;
        w.s[7] = word3;
        init(&mut w);
        fault = exec::run_wave(&mut w, &mut ctx).err().map(|f| f.kind);
    }
    Out {
        w,
        mem: mem.get(BUF).unwrap(),
        lds,
        fault,
    }
}

/// DATA_FORMAT in V# word 3 bits 18:15, NUM_FORMAT in bits 14:12.
fn fmt(dfmt: u32, nfmt: u32) -> u32 {
    dfmt << 15 | nfmt << 12
}

#[test]
fn load_format_d16() {
    let data = [0u8, 255, 51, 128];
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        // 8_8_8_8 unorm: 0, 1.0, 0.2, 128/255 as halves 0, 0x3c00, 0x3266, 0x3804.
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_load_format_d16_xyzw",
                &[(Field::Vdata, 8)],
            ),
            fmt(10, 0),
            &data,
            1,
            |w| {
                for r in 8..12 {
                    w.v[r][0] = 0xdead_beef;
                }
            },
        );
        assert_eq!(o.fault, None);
        let v: Vec<u32> = (8..12).map(|r| o.w.v[r][0]).collect();
        if gen == Gen::Gcn14 {
            assert_eq!(&v[..2], &[0x3c00_0000, 0x3804_3266], "{gen}: packed");
            assert_eq!(&v[2..], &[0xdead_beef; 2], "{gen}: VDATA(2) only");
        } else {
            assert_eq!(v, [0, 0x3c00, 0x3266, 0x3804], "{gen}: one per VGPR");
        }
        // 8 uint loaded as xyz: 0, then y = 0 and z = 0 (missing components);
        // 16-bit integers, not halves.
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_load_format_d16_xyz",
                &[(Field::Vdata, 8), (Field::Offset, 1)],
            ),
            fmt(1, 4),
            &data,
            1,
            |w| {
                w.v[8][0] = 0xdead_beef;
                w.v[9][0] = 0xdead_beef;
            },
        );
        if gen == Gen::Gcn14 {
            // x | y << 16 in v8; z in the low half of v9, its high half kept.
            assert_eq!((o.w.v[8][0], o.w.v[9][0]), (255, 0xdead_0000), "{gen}");
        } else {
            assert_eq!(
                (o.w.v[8][0], o.w.v[9][0], o.w.v[10][0]),
                (255, 0, 0),
                "{gen}"
            );
        }
        // tbuffer, format from the instruction: 16_16 float stays the same half.
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mtbuf,
                "tbuffer_load_format_d16_xy",
                &[(Field::Vdata, 8), (Field::Dfmt, 5), (Field::Nfmt, 7)],
            ),
            0,
            &[0x00, 0x3c, 0x66, 0xb2],
            1,
            |_| {},
        );
        if gen == Gen::Gcn14 {
            assert_eq!(o.w.v[8][0], 0xb266_3c00, "{gen}");
        } else {
            assert_eq!((o.w.v[8][0], o.w.v[9][0]), (0x3c00, 0xb266), "{gen}");
        }
    }
    // GCN 1.4 d16_hi_x: the half goes to bits 31:16, bits 15:0 are kept.
    let gen = Gen::Gcn14;
    let o = go(
        gen,
        enc(
            gen,
            Enc::Mubuf,
            "buffer_load_format_d16_hi_x",
            &[(Field::Vdata, 8), (Field::Offset, 1)],
        ),
        fmt(1, 0),
        &data,
        1,
        |w| w.v[8][0] = 0x1234_5678,
    );
    assert_eq!(o.w.v[8][0], 0x3c00_5678);
}

#[test]
fn store_format_d16() {
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        // 8_8 unorm from halves 1.0 and 0.5: bytes 255 and 128 (0.5 * 255 = 127.5, ties to even).
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_store_format_d16_xy",
                &[(Field::Vdata, 8)],
            ),
            fmt(3, 0),
            &[0; 4],
            1,
            |w| {
                if gen == Gen::Gcn14 {
                    w.v[8][0] = 0x3800_3c00;
                } else {
                    w.v[8][0] = 0xffff_3c00; // the high half is not read
                    w.v[9][0] = 0x3800;
                }
            },
        );
        assert_eq!(o.fault, None);
        assert_eq!(&o.mem[..2], &[255, 128], "{gen}");
        // tbuffer 32 sint (DFMT 4, NFMT 5) from the 16-bit integer 0x8000: sign-extended.
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mtbuf,
                "tbuffer_store_format_d16_x",
                &[(Field::Vdata, 8), (Field::Dfmt, 4), (Field::Nfmt, 5)],
            ),
            0,
            &[0; 4],
            1,
            |w| w.v[8][0] = 0x0001_8000,
        );
        assert_eq!(&o.mem[..4], &0xffff_8000u32.to_le_bytes(), "{gen}");
    }
    let gen = Gen::Gcn14;
    // d16_hi_x stores the high half: 16 float (DFMT 2, NFMT 7) keeps the bits.
    let o = go(
        gen,
        enc(
            gen,
            Enc::Mubuf,
            "buffer_store_format_d16_hi_x",
            &[(Field::Vdata, 8)],
        ),
        fmt(2, 7),
        &[0; 4],
        1,
        |w| w.v[8][0] = 0xb266_3c00,
    );
    assert_eq!(&o.mem[..2], &[0x66, 0xb2]);
}

/// LDS=1: lane l's value goes to LDS at M0[15:0] + 4 l (zero-extended), VDATA untouched.
#[test]
fn loads_into_lds() {
    let data: Vec<u8> = (0..32u8).map(|i| 0x80 | i).collect();
    for gen in [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14] {
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_load_dword",
                &[
                    (Field::Vdata, 8),
                    (Field::Vaddr, 1),
                    (Field::Offen, 1),
                    (Field::Lds, 1),
                ],
            ),
            0,
            &data,
            3,
            |w| {
                w.s[M0] = 8;
                w.v[1][..3].copy_from_slice(&[0, 4, 40]); // lane 2 past NUM_RECORDS: 0
                w.v[8] = [7; 64];
            },
        );
        assert_eq!(o.fault, None, "{gen}");
        let lds: Vec<u32> = o
            .lds
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(
            &lds[..5],
            &[0xc3c2_c1c0, 0xc7c6_c5c4, 0x8382_8180, 0x8786_8584, 0],
            "{gen}"
        );
        assert_eq!(lds[5], 0xd7d6_d5d4, "{gen}");
        assert_eq!(o.w.v[8][0], 7, "{gen}: VDATA untouched");
        // sbyte: zero-extended into LDS (GcnMemHandling.md), at M0 = 0.
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_load_sbyte",
                &[(Field::Offset, 3), (Field::Lds, 1)],
            ),
            0,
            &data,
            1,
            |w| w.s[M0] = 0xffff_0000,
        );
        assert_eq!(&o.lds[..4], &[0x83, 0, 0, 0], "{gen}");
        // format_x with LDS=1: the converted value (8 uint -> 0x81).
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_load_format_x",
                &[(Field::Offset, 1), (Field::Lds, 1)],
            ),
            fmt(1, 4),
            &data,
            1,
            |w| w.s[M0] = 4,
        );
        assert_eq!(&o.lds[4..8], &[0x81, 0, 0, 0], "{gen}");
        // LDS=1 on a store is refused with a clear fault.
        let o = go(
            gen,
            enc(gen, Enc::Mubuf, "buffer_store_dword", &[(Field::Lds, 1)]),
            0,
            &data,
            1,
            |_| {},
        );
        assert!(
            matches!(o.fault, Some(FaultKind::BadOperand(_))),
            "{gen}: {:?}",
            o.fault
        );
        // The other legal loads: ubyte, ushort, sshort, each zero-extended
        // (buffer bytes 0x80 + i; lane 0's LDS dword at M0 = 0).
        for (name, want) in [
            ("buffer_load_ubyte", [0x82u8, 0, 0, 0]),
            ("buffer_load_ushort", [0x82, 0x83, 0, 0]),
            ("buffer_load_sshort", [0x82, 0x83, 0, 0]),
        ] {
            let o = go(
                gen,
                enc(
                    gen,
                    Enc::Mubuf,
                    name,
                    &[(Field::Offset, 2), (Field::Lds, 1)],
                ),
                0,
                &data,
                1,
                |w| w.s[M0] = 0,
            );
            assert_eq!(o.fault, None, "{gen} {name}");
            assert_eq!(&o.lds[..4], &want, "{gen} {name}");
        }
        // Loads GcnMemHandling.md does not list, and TFE with LDS, fault.
        for (name, f) in [
            ("buffer_load_dwordx2", &[(Field::Lds, 1)][..]),
            ("buffer_load_dwordx4", &[(Field::Lds, 1)][..]),
            ("buffer_load_format_xy", &[(Field::Lds, 1)][..]),
            ("buffer_load_format_xyzw", &[(Field::Lds, 1)][..]),
            ("buffer_load_dword", &[(Field::Lds, 1), (Field::Tfe, 1)][..]),
            (
                "buffer_load_format_x",
                &[(Field::Lds, 1), (Field::Tfe, 1)][..],
            ),
        ] {
            let o = go(
                gen,
                enc(gen, Enc::Mubuf, name, f),
                fmt(4, 4),
                &data,
                1,
                |_| {},
            );
            assert!(
                matches!(&o.fault, Some(FaultKind::BadOperand(m)) if m.contains("GcnMemHandling")),
                "{gen} {name} {f:?}: {:?}",
                o.fault
            );
            assert_eq!(
                o.lds[..4],
                [0xc0, 0xc1, 0xc2, 0xc3],
                "{gen} {name}: LDS untouched"
            );
        }
    }
}

/// buffer_store_lds_dword: lane l stores the LDS dword at M0[15:0] + OFFSET +
/// 4 l to the buffer at VADDR = 0, SOFFSET + OFFSET; with ADD_TID (V# word 3
/// bit 23) and a stride of 4 the lanes' records follow each other.
#[test]
fn store_lds_dword() {
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        let o = go(
            gen,
            enc(
                gen,
                Enc::Mubuf,
                "buffer_store_lds_dword",
                &[(Field::Offset, 4)],
            ),
            1 << 23,
            &[0; 12],
            2,
            |w| {
                w.s[M0] = 0xffff_0008;
                w.s[5] |= 4 << 16;
            },
        );
        assert_eq!(o.fault, None, "{gen}");
        // Lane 0: LDS 12..16 to bytes 4..8; lane 1: LDS 16..20 to bytes 8..12.
        assert_eq!(
            &o.mem,
            &[0, 0, 0, 0, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3],
            "{gen}"
        );
    }
}
