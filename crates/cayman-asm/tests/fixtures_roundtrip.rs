//! For every kernel of every clang/llc-built fixture object
//! (tests/fixtures/cayman, rebuilt by tools/build-cayman-fixtures.sh):
//! disassemble → assemble gives the identical bytes, with no diagnostics
//! (so the VLIW checks accept everything llc emits).

use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/cayman");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_fixture_kernel_reassembles_to_identical_bytes() {
    let objs = fixtures();
    assert!(objs.len() >= 30, "only {} fixture objects", objs.len());
    let mut kernels = 0;
    let mut bytes = 0;
    let mut failures = Vec::new();
    for o in &objs {
        let obj = std::fs::read(o).expect("read");
        for k in risa_cayman::kernels(&obj).expect("kernels") {
            let text = risa_cayman::disassemble(k.code, &Default::default());
            let name = format!("{}:{}", o.file_name().unwrap().to_string_lossy(), k.name);
            let out = risa_cayman_asm::assemble(&name, &text, Default::default());
            if !out.output.diagnostics.is_empty() {
                failures.push(format!("{name}: diagnostics:\n{}", out.diagnostics()));
                continue;
            }
            let got = out.text();
            if got != k.code {
                let first = got
                    .iter()
                    .zip(k.code.iter())
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(k.code.len()));
                failures.push(format!(
                    "{name}: bytes differ at 0x{first:x} (got {} bytes, want {})",
                    got.len(),
                    k.code.len()
                ));
                continue;
            }
            kernels += 1;
            bytes += got.len();
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(kernels >= 34, "{kernels} kernels");
    eprintln!("{kernels} kernels, {bytes} bytes reassembled identically");
}

/// Whole objects: disassemble_object → assemble → r600 ELF with the same
/// .text, .AMDGPU.config and kernel symbols (name, offset, size).
#[test]
fn every_fixture_object_reassembles_to_an_equivalent_elf() {
    for o in fixtures() {
        let obj = std::fs::read(&o).expect("read");
        let text = risa_cayman::disassemble_object(&obj, &Default::default()).expect("disasm");
        let name = o.file_name().unwrap().to_string_lossy().to_string();
        let out = risa_cayman_asm::assemble(&name, &text, Default::default());
        assert!(
            out.output.diagnostics.is_empty(),
            "{name}:\n{}",
            out.diagnostics()
        );
        let ours = out.object().expect("object");
        let a = risa_elf::Elf::parse(&obj).unwrap();
        let b = risa_elf::Elf::parse(&ours).unwrap();
        assert_eq!((b.is64, b.machine), (false, risa_elf::EM_AMDGPU));
        for s in [".text", ".AMDGPU.config"] {
            assert_eq!(
                a.section_by_name(s).unwrap().data,
                b.section_by_name(s).unwrap().data,
                "{name} {s}"
            );
        }
        let syms = |e: &risa_elf::Elf| {
            let mut v: Vec<(String, u64, u64)> = e
                .symbols
                .iter()
                .filter(|s| s.sym_type == risa_elf::STT_FUNC)
                .map(|s| (s.name.clone(), s.value, s.size))
                .collect();
            v.sort();
            v
        };
        assert_eq!(syms(&a), syms(&b), "{name}");
        // and the disassembler reads our object back to the same text (but
        // for the note on clang's .comment etc., which are not written)
        let noted = |t: &str| {
            t.lines()
                .filter(|l| !l.starts_with("; not reproduced"))
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        };
        assert_eq!(
            noted(&risa_cayman::disassemble_object(&ours, &Default::default()).unwrap()),
            noted(&text),
            "{name}"
        );
    }
}

/// The disassembly with the CF indices and the clause ADDR/CNT fields taken
/// out (padding CF words after END too), i.e. clauses written in place as by
/// hand; `None` for listings with placed data (`.at`, `.int`).
fn strip(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut ended = false;
    for line in text.lines() {
        if line.contains(".at ") || line.trim_start().starts_with(".int") {
            return None;
        }
        let t = line.trim_start();
        let nd = t.bytes().take_while(|c| c.is_ascii_digit()).count();
        let is_cf = !line.starts_with(' ') && nd > 0;
        if is_cf {
            if ended {
                continue; // padding after END: the layout's zero fill is a NOP
            }
            let rest = &t[nd..].trim_start();
            let mut l = String::new();
            for w in rest.split(' ') {
                let clause =
                    rest.starts_with("ALU") || rest.starts_with("TC:") || rest.starts_with("GDS:");
                if clause && (w.starts_with("ADDR(") || w.starts_with("CNT(")) {
                    continue;
                }
                l.push_str(w);
                l.push(' ');
            }
            if rest.starts_with("END:") {
                ended = true;
            }
            out.push_str(l.trim_end());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    Some(out)
}

/// The assembler's own layout (clause addresses and counts, literal
/// placement, LAST bits, padding) reproduces llc's: every fixture kernel
/// written with clauses in place assembles to clang's bytes. Kernels whose
/// listing has data outside the CF program's reach (llc's wrapped ALU
/// clause counts) cannot be written that way and are skipped.
#[test]
fn computed_layout_matches_llc() {
    let (mut same, mut skipped) = (0, 0);
    for o in fixtures() {
        let obj = std::fs::read(&o).expect("read");
        for k in risa_cayman::kernels(&obj).expect("kernels") {
            let text = risa_cayman::disassemble(k.code, &Default::default());
            let Some(src) = strip(&text) else {
                skipped += 1;
                continue;
            };
            // no clause line keeps its address or count
            assert!(src
                .lines()
                .filter(|l| l.starts_with("ALU") || l.starts_with("TC:"))
                .all(|l| !l.contains("ADDR(") && !l.contains("CNT(")));
            let out = risa_cayman_asm::assemble("x.s", &src, Default::default());
            assert!(
                !out.has_errors(),
                "{}:{}\n{}",
                o.display(),
                k.name,
                out.diagnostics()
            );
            assert_eq!(out.text(), k.code, "{}:{}\n{src}", o.display(), k.name);
            same += 1;
        }
    }
    assert!(same >= 34 && skipped <= 2, "{same} same, {skipped} skipped");
}

/// Kernels whose NUM_GPRS clang sets above the highest GPR in the code:
/// nested_branch names only R0 and R1 but gets 4 (llc counts registers of
/// its own, never emitted); sin_cos uses R8 in the part of an over-long ALU
/// clause that llc's wrapped COUNT leaves outside the CF program. For
/// them the computed value must be smaller, never larger.
const GPR_COUNT_ABOVE_CODE: &[&str] = &["nested_branch", "sin_cos"];

fn config_pairs(obj: &[u8]) -> Vec<(u32, u32)> {
    let elf = risa_elf::Elf::parse(obj).unwrap();
    elf.section_by_name(".AMDGPU.config")
        .unwrap()
        .data
        .chunks_exact(8)
        .map(|c| {
            let w = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            (w(0), w(4))
        })
        .collect()
}

/// Every fixture object with its `.config_reg` lines taken out (the LDS one
/// replaced by `.lds_size`, the declared size) reassembles to an ELF whose
/// `.AMDGPU.config` is clang's: NUM_GPRS and STACK_SIZE computed.
#[test]
fn computed_config_matches_clang() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for o in fixtures() {
        let obj = std::fs::read(&o).expect("read");
        let name = o.file_name().unwrap().to_string_lossy().to_string();
        let text = risa_cayman::disassemble_object(&obj, &Default::default()).expect("disasm");
        let mut src = String::new();
        for line in text.lines() {
            let t = line.trim_start();
            if let Some(r) = t.strip_prefix(".config_reg 0x288e8, ") {
                let v = r.split(' ').next().unwrap();
                let dw = u32::from_str_radix(v.trim_start_matches("0x"), 16).unwrap();
                src.push_str(&format!(".lds_size {}\n", dw * 4));
            } else if !t.starts_with(".config_reg") {
                src.push_str(line);
                src.push('\n');
            }
        }
        let out = risa_cayman_asm::assemble(&name, &src, Default::default());
        assert!(
            out.output.diagnostics.is_empty(),
            "{name}: {}",
            out.diagnostics()
        );
        assert!(out.config.is_empty());
        let ours = config_pairs(&out.object().expect("object"));
        let clang = config_pairs(&obj);
        assert_eq!(ours.len(), clang.len(), "{name}");
        let mut ks = risa_cayman::kernels(&obj).expect("kernels");
        ks.sort_by_key(|k| k.offset);
        for (n, k) in ks.iter().enumerate() {
            let (a, b) = (&ours[n * 3..n * 3 + 3], &clang[n * 3..n * 3 + 3]);
            checked += 1;
            if a == b {
                continue;
            }
            let above = GPR_COUNT_ABOVE_CODE.contains(&k.name.as_str())
                && a[0].1 >> 8 == b[0].1 >> 8
                && a[0].1 & 0xff < b[0].1 & 0xff
                && a[1..] == b[1..];
            if !above {
                bad.push(format!("{name}:{}: computed {a:x?}, clang {b:x?}", k.name));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {checked}:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(checked >= 34, "{checked}");
}

/// An ALU clause whose COUNT ends it in the middle of an instruction group
/// (what a wrapped 7-bit COUNT does to clang-14's long clauses): the
/// disassembler warns, prints the cut group (NOT_LAST) and the unreached
/// slots as data, and the text assembles to the same bytes.
#[test]
fn a_clause_cut_mid_group_reassembles_and_is_reported() {
    let src =
        "ALU:\n    0 x: MOV R1.x, R0.x\n      y: MOV R1.y, R0.y\n    1 x: MOV R2.x, R0.x\nEND:\n";
    let out = risa_cayman_asm::assemble("cut.s", src, Default::default());
    assert!(!out.has_errors(), "{}", out.diagnostics());
    let mut code = out.text();
    let mut w1 = u32::from_le_bytes(code[4..8].try_into().unwrap());
    assert_eq!(risa_cayman::fields::CF_ALU_WORD1::COUNT.get(w1), 2);
    risa_cayman::fields::CF_ALU_WORD1::COUNT.set(&mut w1, 0);
    code[4..8].copy_from_slice(&w1.to_le_bytes());
    let (l, _) = risa_cayman::listing(&code);
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert!(
        l.warnings[0].contains("2 more ALU slots"),
        "{}",
        l.warnings[0]
    );
    let text = risa_cayman::disassemble(&code, &Default::default());
    assert!(
        text.contains("NOT_LAST") && text.contains("; warning:"),
        "{text}"
    );
    let back = risa_cayman_asm::assemble("cut2.s", &text, Default::default());
    assert!(!back.has_errors(), "{}\n{text}", back.diagnostics());
    assert_eq!(back.text(), code, "{text}");
}
