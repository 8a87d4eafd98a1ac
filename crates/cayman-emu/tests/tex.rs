//! TEX clause instructions on host-bound resources (guide 8.3 texture
//! instructions, 9.4 TEX_WORD0..2) and vertex fetches through bound
//! buffers, written with risa's Cayman assembler. Expected values are
//! computed here from the guide's definitions: LD reads the unfiltered
//! element at unsigned integer X, Y, Z plus OFFSET_X/Y/Z, W being the LOD;
//! GET_TEXTURE_RESINFO returns width, height, depth and mip levels.

mod common;
use common::*;
use risa_cayman_emu::wave::{Env, Wave};
use risa_cayman_emu::*;
use risa_runtime::cayman::{load, run, Arg};

fn run_wave(
    src: &str,
    pool: &Pool,
    res: &Resources,
    setup: impl Fn(&mut Wave),
) -> Result<Wave, Fault> {
    let k = kernel_from_asm(src);
    let cb = vec![vec![0u32; 64]];
    let gds = Pool::new(64);
    let env = Env {
        resources: res,
        ..one_wave_env(&k, &cb, pool, &gds)
    };
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, &mut [0u32; 16])?;
    Ok(w)
}

/// FMT_8_8_8_8 normalized unsigned (DATA_FORMAT 26, NUM_FORMAT_ALL 0).
const RGBA8: Format = Format {
    data: 26,
    num: 0,
    signed: false,
};

#[test]
fn ld_reads_texels_of_a_pitched_2d_texture_with_offsets_and_swizzles() {
    // a 5 x 3 texture, rows 32 bytes apart (pitch > width * 4), at byte 64
    let (w, h, pitch, base) = (5u32, 3u32, 32u32, 64u32);
    let mut bytes = vec![0u8; 256];
    for y in 0..h {
        for x in 0..w {
            let a = (base + y * pitch + 4 * x) as usize;
            bytes[a..a + 4].copy_from_slice(&[
                (10 * x + y) as u8,
                (50 + x) as u8,
                (100 + y) as u8,
                255 - x as u8,
            ]);
        }
    }
    let pool = Pool::from_bytes(&bytes);
    let mut res = Resources::new();
    res.bind(
        7,
        Resource {
            row_pitch: pitch,
            // resource swizzle: (Z, Y, X, 1)
            swizzle: [2, 1, 0, 5],
            ..Resource::texture(Dim::Tex2D, base as u64, [w, h, 1], RGBA8)
        },
    );
    // OFFSET(1, 30 = -2, 0); destination W masked, Z <- 0, source Z/W <- 0
    let src = "
        TC:
            LD R2.xy0_, R0.xy00, t7, s0 OFFSET(1,30,0)
        END:
    ";
    let coord = |l: usize| ((l % 8) as u32, (l / 8) as u32); // x in 0..8, y in 0..8
    let wave = run_wave(src, &pool, &res, |wv| {
        for l in 0..64 {
            let (x, y) = coord(l);
            wv.gpr_mut(0, 0)[l] = x;
            wv.gpr_mut(0, 1)[l] = y;
            wv.gpr_mut(2, 3)[l] = 0xdead;
        }
    })
    .unwrap();
    for l in 0..64 {
        let (x, y) = coord(l);
        let (tx, ty) = (x as i32 + 1, y as i32 - 2);
        let texel = if (0..w as i32).contains(&tx) && (0..h as i32).contains(&ty) {
            let a = (base as i32 + ty * pitch as i32 + 4 * tx) as usize;
            Some([bytes[a], bytes[a + 1], bytes[a + 2], bytes[a + 3]])
        } else {
            None
        };
        // normalized: v / 255; the resource swizzle puts Z first
        let want = match texel {
            Some(t) => [t[2] as f32 / 255.0, t[1] as f32 / 255.0],
            None => [0.0, 0.0],
        };
        assert_eq!(
            f32::from_bits(wave.gpr(2, 0)[l]),
            want[0],
            "lane {l} ({tx},{ty}) x"
        );
        assert_eq!(f32::from_bits(wave.gpr(2, 1)[l]), want[1], "lane {l} y");
        assert_eq!(wave.gpr(2, 2)[l], 0, "SEL_0");
        assert_eq!(wave.gpr(2, 3)[l], 0xdead, "SEL_MASK keeps W");
    }
}

#[test]
fn ld_on_buffers_arrays_and_lod() {
    // a buffer of 10 FMT_32_32 integer elements with a 12-byte stride at byte 16
    let mut words = vec![0u32; 64];
    for e in 0..10u32 {
        words[4 + 3 * e as usize] = 1000 + e;
        words[4 + 3 * e as usize + 1] = 2000 + e;
    }
    let pool = Pool::from_bytes(&bytes_u32(&words));
    let mut res = Resources::new();
    let int2 = Format {
        data: 29,
        num: 1,
        signed: false,
    };
    res.bind(
        3,
        Resource {
            stride: 12,
            ..Resource::buffer(16, 10, int2)
        },
    );
    // X = element, W = LOD (from R0.w)
    let src = "
        TC:
            LD R1.xyzw, R0.x00w, t3, s0
        END:
    ";
    let wave = run_wave(src, &pool, &res, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32 % 16;
            wv.gpr_mut(0, 3)[l] = (l >= 48) as u32;
        }
    })
    .unwrap();
    for l in 0..64 {
        let e = l as u32 % 16;
        let want = if e < 10 && l < 48 {
            // two components; Z = 0, W = 1 (integer format)
            [1000 + e, 2000 + e, 0, 1]
        } else {
            // past the buffer, or a mip level the resource does not have
            [0; 4]
        };
        let got: Vec<u32> = (0..4).map(|c| wave.gpr(1, c)[l]).collect();
        assert_eq!(got, want, "lane {l}");
    }

    // a 2-D array: 2 x 2 texels x 3 layers of FMT_32 at byte 0; layer = Z
    let words: Vec<u32> = (0..12).map(|i| 500 + i).collect();
    let pool = Pool::from_bytes(&bytes_u32(&words));
    let mut res = Resources::new();
    res.bind(
        0,
        Resource::texture(Dim::Tex2DArray, 0, [2, 2, 3], Format::U32),
    );
    let src = "
        TC:
            LD R1.x___, R0.xyz0, t0, s0
        END:
    ";
    let wave = run_wave(src, &pool, &res, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32 & 1;
            wv.gpr_mut(0, 1)[l] = (l as u32 >> 1) & 1;
            wv.gpr_mut(0, 2)[l] = l as u32 >> 2; // layers 0..15
        }
    })
    .unwrap();
    for l in 0..64u32 {
        let (x, y, z) = (l & 1, (l >> 1) & 1, l >> 2);
        let want = if z < 3 { 500 + x + 2 * y + 4 * z } else { 0 };
        assert_eq!(wave.gpr(1, 0)[l as usize], want, "lane {l}");
    }
}

#[test]
fn resinfo_and_the_default_pool_resource() {
    let pool = Pool::from_bytes(&bytes_u32(&(0..64).map(|i| 7 * i).collect::<Vec<u32>>()));
    let mut res = Resources::new();
    res.bind(4, Resource::texture(Dim::Tex3D, 0, [4, 2, 2], Format::U32));
    res.bind(5, Resource::texture(Dim::Tex1DArray, 0, [8, 6, 1], RGBA8));
    // resource 1 defaults to the pool as a byte-addressed buffer of dwords
    let src = "
        TC:
            GET_TEXTURE_RESINFO R1.xyzw, R0.y___, t4, s0
            GET_TEXTURE_RESINFO R2.xyzw, R0.y___, t5, s0
            GET_NUMBER_OF_SAMPLES R3.xyzw, R0.x___, t4, s0
            LD R4.x___, R0.x000, t1, s0
            GET_BUFFER_RESINFO R5.x___, R0.x, fc1
            GET_BUFFER_RESINFO R6.x___, R0.x, fc4
        END:
    ";
    let wave = run_wave(src, &pool, &res, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = 4 * l as u32; // byte address of dword l
            wv.gpr_mut(0, 1)[l] = (l % 2) as u32; // LOD 0 or 1
        }
    })
    .unwrap();
    for l in 0..64 {
        let row = |r: usize| (0..4).map(|c| wave.gpr(r, c)[l]).collect::<Vec<u32>>();
        if l % 2 == 0 {
            assert_eq!(row(1), [4, 2, 2, 1], "3-D");
            assert_eq!(row(2), [8, 6, 0, 1], "1-D array: layers in Y");
        } else {
            // a LOD past the only level: 0 in X, Y, Z, the level count in W
            assert_eq!(row(1), [0, 0, 0, 1]);
            assert_eq!(row(2), [0, 0, 0, 1]);
        }
        assert_eq!(row(3), [4, 2, 2, 1], "samples in W");
        assert_eq!(wave.gpr(4, 0)[l], 7 * l as u32, "pool dword");
        assert_eq!(wave.gpr(5, 0)[l], 256, "pool bytes");
        assert_eq!(wave.gpr(6, 0)[l], 4, "elements (width) of resource 4");
    }
}

#[test]
fn vertex_fetch_through_a_bound_buffer() {
    // FMT_32_32_FLOAT elements, 16 bytes apart, 8 of them at byte 128
    let mut words = vec![0u32; 96];
    for e in 0..8 {
        words[32 + 4 * e] = (e as f32 + 0.5).to_bits();
        words[32 + 4 * e + 1] = (-(e as f32)).to_bits();
    }
    let pool = Pool::from_bytes(&bytes_u32(&words));
    let mut res = Resources::new();
    res.bind(
        9,
        Resource {
            stride: 16,
            ..Resource::buffer(128, 8, Format::U32)
        },
    );
    // OFFSET(4): the second dword of the element
    let src = "
        TC:
            VFETCH R1.xy01, R0.x, fc9 FMT_32_32_FLOAT
            VFETCH R2.x___, R0.x, fc9 FMT_32 NUM_INT OFFSET(4)
        END:
    ";
    let wave = run_wave(src, &pool, &res, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32 % 10;
        }
    })
    .unwrap();
    for l in 0..64 {
        let e = l % 10;
        let (x, y) = if e < 8 {
            (e as f32 + 0.5, -(e as f32))
        } else {
            (0.0, 0.0)
        };
        assert_eq!(f32::from_bits(wave.gpr(1, 0)[l]), x, "lane {l}");
        assert_eq!(f32::from_bits(wave.gpr(1, 1)[l]), y, "lane {l}");
        assert_eq!(wave.gpr(1, 2)[l], 0);
        assert_eq!(wave.gpr(1, 3)[l], 0x3f80_0000);
        assert_eq!(f32::from_bits(wave.gpr(2, 0)[l]), y, "OFFSET");
    }
}

#[test]
fn state_instructions_write_nothing_and_sampling_faults() {
    let pool = Pool::new(64);
    let res = Resources::new();
    let src = "
        TC:
            SET_GRADIENTS_H R1.xyzw, R0.xyzw, t0, s0
            SET_GRADIENTS_V R1.xyzw, R0.xyzw, t0, s0
            SET_TEXTURE_OFFSETS R1.xyzw, R0.xyzw, t0, s0
        END:
    ";
    let wave = run_wave(src, &pool, &res, |wv| {
        wv.gpr_mut(0, 0).fill(3);
        wv.gpr_mut(1, 0).fill(9);
    })
    .unwrap();
    assert!(wave.gpr(1, 0).iter().all(|&v| v == 9));

    for (op, what) in [
        ("SAMPLE", "TEX SAMPLE needs a sampler"),
        ("SAMPLE_C_LZ", "TEX SAMPLE_C_LZ needs a sampler"),
        ("GATHER4", "TEX GATHER4 needs a sampler"),
        ("GET_GRADIENTS_H", "TEX GET_GRADIENTS_H needs a sampler"),
        ("KEEP_GRADIENTS", "TEX KEEP_GRADIENTS needs a sampler"),
        ("GET_COMP_TEX_LOD", "TEX GET_COMP_TEX_LOD needs a sampler"),
    ] {
        let src = format!("TC:\n {op} R1.xyzw, R0.xyzw, t0, s0\nEND:\n");
        let f = run_wave(&src, &pool, &res, |_| {}).err().expect("a fault");
        assert!(f.message.contains(what), "{op}: {f}");
        assert_eq!((f.at.cf, f.at.group), (Some(0), Some(0)), "{f}");
    }
    let f = run_wave(
        "TC:\n LD R1.xyzw, R0.xyzw, t9, s0\nEND:\n",
        &pool,
        &res,
        |_| {},
    )
    .err()
    .expect("a fault");
    assert!(f.message.contains("texture resource 9 is not bound"), "{f}");
    let f = run_wave(
        "TC:\n LD R1.xyzw, R0.xyzw, t1, s0 INST_MOD(1)\nEND:\n",
        &pool,
        &res,
        |_| {},
    )
    .err()
    .expect("a fault");
    assert!(f.message.contains("MSAA"), "{f}");
}

#[test]
fn ld_outside_the_pool_faults_with_the_lane() {
    // a resource that claims more than the pool holds
    let pool = Pool::new(64);
    let mut res = Resources::new();
    res.bind(2, Resource::buffer(0, 100, Format::U32));
    let f = run_wave(
        "TC:\n LD R1.x___, R0.x000, t2, s0\nEND:\n",
        &pool,
        &res,
        |wv| {
            for l in 0..64 {
                wv.gpr_mut(0, 0)[l] = l as u32;
            }
        },
    )
    .err()
    .expect("a fault");
    assert_eq!(f.at.lane, Some(16), "{f}");
    assert!(f.message.contains("outside the global pool"), "{f}");
}

#[test]
fn dispatch_binds_resources_for_every_wave() {
    // work-item x of group g copies texel (x, g) of a 64 x 2 texture to out[64 g + x]
    let k = kernel_from_asm(
        "
        ALU:
            0 x: MOV R4.x, R0.x
            1 y: MOV R4.y, R1.x
              z: LSHL_INT R3.z, R1.x, (6)
            2 x: ADD_INT R3.x, R3.z, R0.x
            3 x: ADD_INT R3.x, R3.x, (128)
        TC:
            LD R2.x___, R4.xy00, t6, s0
        MEM_RAT_CACHELESS STORE_DWORD: WRITE_IND RAT(0) [R3], R2.x___
        END:
    ",
    );
    let words: Vec<u32> = (0..128).map(|i| i * i + 1).collect();
    let mut all = bytes_u32(&words);
    all.extend(vec![0u8; 512]);
    let pool = Pool::from_bytes(&all);
    let mut d = Dispatch::linear(128, 64);
    d.threads = 2;
    d.resources
        .bind(6, Resource::texture(Dim::Tex2D, 0, [64, 2, 1], Format::U32));
    go(&k, &d, &[], &pool);
    let out = read_u32(&pool, 512, 128);
    for g in 0..128u32 {
        assert_eq!(out[g as usize], g * g + 1, "work-item {g}");
    }
}

#[test]
fn huge_resources_fault_instead_of_overflowing() {
    let pool = Pool::new(64);
    let mut res = Resources::new();
    res.bind(
        1,
        Resource {
            row_pitch: u32::MAX,
            slice_pitch: u32::MAX,
            ..Resource::texture(
                Dim::Tex3D,
                u64::MAX - 3,
                [u32::MAX, u32::MAX, u32::MAX],
                Format::U32,
            )
        },
    );
    res.bind(
        2,
        Resource {
            stride: u32::MAX,
            ..Resource::buffer(u64::MAX / 2, u32::MAX, Format::U32)
        },
    );
    for src in [
        "TC:\n LD R1.xyzw, R0.xyzw, t1, s0\nEND:\n",
        "TC:\n VFETCH R1.x___, R0.x, fc2 FMT_32 OFFSET(65535)\nEND:\n",
    ] {
        let f = run_wave(src, &pool, &res, |wv| {
            for c in 0..3 {
                wv.gpr_mut(0, c).fill(u32::MAX - 1);
            }
            wv.gpr_mut(0, 3).fill(0);
        })
        .err()
        .expect("a fault");
        assert!(f.message.contains("outside the global pool"), "{f}");
    }
    res.bind_rat(0, u64::MAX - 10, u64::MAX);
    let f = run_wave(
        "MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R0], R1.x___\nEND:\n",
        &pool,
        &res,
        |wv| wv.gpr_mut(0, 0).fill(1000),
    )
    .err()
    .expect("a fault");
    assert!(f.message.contains("MEM_RAT STORE_DWORD"), "{f}");
}

#[test]
fn llc_sampling_instructions_decode_as_llc_prints_them_and_fault() {
    // tests/data/tex_llc (build.sh): the TEX instructions llc-14 selects for
    // r600 kernels, with llc's text and encodings
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tex_llc");
    let s = std::fs::read_to_string(dir.join("sample.s")).unwrap();
    let obj = std::fs::read(dir.join("sample.o")).unwrap();
    let kernels = load(&obj).unwrap();
    // "TEX_SAMPLE_C T0.XYZW, T0.XYZW RID:12 SID:5 CT:NNUU ; encoding: [0x18,...]"
    let lines: Vec<&str> = s
        .lines()
        .filter(|l| l.trim_start().starts_with("TEX_"))
        .collect();
    assert_eq!(lines.len(), 2);
    for (line, k) in lines.iter().zip(&kernels) {
        let name = line
            .split_whitespace()
            .next()
            .unwrap()
            .trim_start_matches("TEX_");
        let field = |key: &str| -> u8 {
            let f = line
                .split_whitespace()
                .find(|t| t.starts_with(key))
                .unwrap();
            f[key.len()..].parse().unwrap()
        };
        let enc: Vec<u8> = line[line.find('[').unwrap() + 1..line.find(']').unwrap()]
            .split(',')
            .map(|b| u8::from_str_radix(b.trim_start_matches("0x"), 16).unwrap())
            .collect();
        let tex: Vec<&risa_cayman_emu::program::TexFetch> = k
            .program
            .fetch
            .iter()
            .flatten()
            .filter_map(|f| match f {
                risa_cayman_emu::program::FetchOp::Tex(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(tex.len(), 1, "{}", k.name);
        let t = tex[0];
        assert_eq!(
            t.op,
            risa_cayman_emu::program::TexOp::NeedsSampler(if name == "SAMPLE" {
                "SAMPLE"
            } else {
                "SAMPLE_C"
            }),
            "{line}"
        );
        assert_eq!(
            (t.resource, t.sampler),
            (field("RID:"), field("SID:")),
            "{line}"
        );
        // OFFSET_X/Y/Z of the .ll calls, 5-bit two's complement in TEX_WORD2
        let want_off = if name == "SAMPLE" {
            [1, 2, 3]
        } else {
            [-1, 0, -8]
        };
        assert_eq!(t.offset, want_off, "{line}");
        let w2 = u32::from_le_bytes([enc[8], enc[9], enc[10], enc[11]]);
        assert_eq!(
            w2 & 0x1f,
            (want_off[0] as u32) & 0x1f,
            "llc's OFFSET_X bits"
        );
        let pool = Pool::new(256);
        let f = run(
            k,
            &Dispatch::linear(64, 64),
            &[Arg::Ptr(0), Arg::F32(0.0)],
            &pool,
        )
        .expect_err("a fault");
        assert!(
            f.message.contains(&format!("TEX {name} needs a sampler")),
            "{f}"
        );
    }
}

#[test]
fn ld_resource_index_mode_adds_cf_idx0() {
    // RESOURCE_ID 5 + CF_IDX0 (2) = resource 7, a 4-element FMT_32 buffer
    let pool = Pool::from_bytes(&bytes_u32(&[0, 0, 0, 0, 11, 22, 33, 44]));
    let mut res = Resources::new();
    let int = Format {
        data: 13,
        num: 1,
        signed: false,
    };
    res.bind(7, Resource::buffer(16, 4, int));
    let src = "
        ALU:
            0 x: SET_CF_IDX0 ____, (2)
        TC:
            LD R1.x___, R0.x000, t5, s0 RIM(1)
        END:
    ";
    let wave = run_wave(src, &pool, &res, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32 % 4;
        }
    })
    .unwrap();
    for l in 0..64 {
        assert_eq!(wave.gpr(1, 0)[l], [11, 22, 33, 44][l % 4], "lane {l}");
    }
    // without the index mode, resource 5 is not bound
    let e = run_wave(&src.replace(" RIM(1)", ""), &pool, &res, |_| {})
        .err()
        .expect("a fault");
    assert!(e.message.contains("resource 5"), "{e}");
}
