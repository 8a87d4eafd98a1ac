//! # risa
//!
//! A toolkit for AMD GPU machine code: GCN 1.0, 1.1, 1.2 and 1.4 (gfx6-gfx9,
//! including gfx906) and Cayman (TeraScale 3, VLIW4). This crate gathers the
//! layers of the workspace behind one dependency; each layer is a cargo
//! feature, all on by default:
//!
//! | Feature | Modules | What |
//! |---|---|---|
//! | `gcn` | [`gcn`] | GCN instruction tables, decoder, encoder, printer (LLVM and CLRX syntax), listings |
//! | `cayman` | [`cayman`] | Cayman tables, codec, disassembler of CF programs and r600 objects |
//! | `asm` | [`asm`], [`metadata`] | the assemblers of both ISAs, code objects, AMDGPU metadata (implies `gcn`, `cayman`) |
//! | `emu` | [`emu`], [`fp`] | the bit-exact emulators and their IEEE arithmetic under every rounding mode (implies `gcn`, `cayman`) |
//! | `runtime` | [`runtime`] | code-object loading, kernel arguments, multi-threaded dispatch (implies `gcn`, `cayman`, `emu`) |
//!
//! [`elf`] (the ELF reader and writer) is always there.
//!
//! ```toml
//! [dependencies]
//! risa = { version = "0.1", default-features = false, features = ["gcn"] }
//! ```
//!
//! Each layer's crate documents its API; the examples below run one thing
//! per feature.
//!
//! ## `gcn`: decode and print
//!
//! ```
//! # #[cfg(feature = "gcn")] {
//! use risa::gcn::{decode, print, Dialect, Gen};
//! // v_add_f32_e32 v0, v1, v2 (GCN 1.2)
//! let i = decode(Gen::Gcn12, &[0x0200_0501]).unwrap();
//! assert_eq!(print(&i, Dialect::Llvm), "v_add_f32_e32 v0, v1, v2");
//! assert!(decode(Gen::Gcn12, &[]).is_err());
//! # }
//! ```
//!
//! ## `gcn`: build an instruction and encode it
//!
//! [`gcn::encode`](fn@gcn::encode) is the exact inverse of [`gcn::decode`](fn@gcn::decode), separate from
//! any assembler syntax (in the manner of iced-x86's `Encoder`): an
//! instruction built from operands ([`gcn::Instr::new`]) or field by field
//! ([`gcn::Instr::build`]) becomes words held inline ([`gcn::Words`]), and
//! what cannot be encoded is a typed [`gcn::EncodeError`] naming the field.
//!
//! ```
//! # #[cfg(feature = "gcn")] {
//! use risa::gcn::{decode, encode, Enc, Field, Gen, Instr, Operand::*};
//! let i = Instr::new(Gen::Gcn12, "v_add_f32", &[V(0), V(1), V(2)]).unwrap();
//! assert_eq!(&encode(&i).unwrap()[..], [0x0200_0501]);
//! // Field by field: s_waitcnt with SIMM16 = 0.
//! let w = Instr::build(Gen::Gcn14, "s_waitcnt", Enc::Sopp).unwrap().with(Field::Simm16, 0).unwrap();
//! assert_eq!(&encode(&w).unwrap()[..], [0xbf8c_0000]);
//! // Decoded words encode back to themselves, reserved bits included.
//! let d = decode(Gen::Gcn10, &[0xbe80_0380]).unwrap(); // s_mov_b32 s0, 0
//! assert_eq!(&encode(&d).unwrap()[..], [0xbe80_0380]);
//! // A value wider than its field is an error that says so.
//! let e = Instr::build(Gen::Gcn12, "v_add_f32", Enc::Vop2).unwrap().with(Field::Vsrc1, 256);
//! assert!(e.unwrap_err().to_string().contains("Vsrc1"));
//! # }
//! ```
//!
//! ## `cayman`: disassemble an r600 object
//!
//! ```
//! # #[cfg(feature = "cayman")] {
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cayman/vadd.o");
//! let obj = std::fs::read(path).unwrap();
//! let kernels = risa::cayman::kernels(&obj).unwrap();
//! assert_eq!(kernels[0].name, "vadd");
//! let text = risa::cayman::disassemble_object(&obj, &Default::default()).unwrap();
//! assert!(text.contains("ALU_PUSH_BEFORE"));
//! # }
//! ```
//!
//! ## `asm`: assemble GCN and Cayman source
//!
//! ```
//! # #[cfg(feature = "asm")] {
//! use risa::gcn::Gen;
//! let out = risa::asm::gcn::assemble(Some(Gen::Gcn12), "t.s", "v_add_f32 v0, v1, v2\ns_endpgm\n");
//! assert!(!out.output.has_errors());
//! assert_eq!(out.code(), [0x0200_0501, 0xbf81_0000]);
//! // The same program as a code object: its metadata note reads back.
//! let src = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n.text\nk:\n  s_endpgm\n.rodata\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n";
//! let a = risa::asm::gcn::assemble(None, "k.s", src);
//! assert!(!a.output.has_errors(), "{:?}", a.output.diagnostics);
//! let obj = risa::asm::gcn::codeobj::build(&a).unwrap();
//! assert!(risa::elf::Elf::parse(&obj).is_ok());
//! # }
//! ```
//!
//! ## `emu`: run a wavefront
//!
//! ```
//! # #[cfg(feature = "emu")] {
//! use risa::emu::gcn::{exec, Ctx, Program, SimpleMemory, Wave};
//! use risa::gcn::Gen;
//! // v_add_u32 v0, vcc, 5, v0 ; s_endpgm  (GCN 1.2)
//! let code = [0x3200_0085u32, 0xbf81_0000];
//! let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let prog = Program::new(Gen::Gcn12, &bytes, 0x1000);
//! let mem = SimpleMemory::new();
//! let mut lds = Vec::new();
//! let mut ctx = Ctx::new(&prog, &mem, &mut lds);
//! let mut w = Wave::new(0);
//! w.set_s64(risa::emu::gcn::wave::EXEC, u64::MAX);
//! w.v[0] = [37; 64];
//! exec::run_wave(&mut w, &mut ctx).unwrap();
//! assert_eq!(w.v[0][5], 42);
//! # }
//! ```
//!
//! ## `runtime`: load a code object and launch a kernel
//!
//! ```
//! # #[cfg(feature = "runtime")] {
//! use risa::runtime::{args::ArgValue, gcn::GcnObject, LaunchConfig};
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/gcn/vadd-gfx900.o");
//! let obj = GcnObject::load(&std::fs::read(path).unwrap()).unwrap();
//! let k = obj.kernel(Some("vadd")).unwrap();
//! let a: Vec<u8> = (0..64).flat_map(|i| (i as f32).to_le_bytes()).collect();
//! let args = [ArgValue::Buffer(a.clone()), ArgValue::Buffer(a), ArgValue::Buffer(vec![0; 256]), ArgValue::I32(64)];
//! let r = risa::runtime::gcn::launch(&obj, k, &args, &LaunchConfig::new([64, 1, 1], 1)).unwrap();
//! let c = &r.buffers[2].1; // c[i] = a[i] + b[i]
//! assert_eq!(f32::from_le_bytes(c[12..16].try_into().unwrap()), 6.0);
//! # }
//! ```
//!
//! ## Versions
//!
//! The workspace's crates share one version; `CHANGELOG.md` at the root of
//! the repository records each release and the semver policy.

#![warn(missing_docs)]

pub use risa_elf as elf;

/// GCN 1.0-1.4: instruction tables, decoder, encoder, printer, listings ([`risa_gcn`]).
#[cfg(feature = "gcn")]
pub use risa_gcn as gcn;

/// Cayman (TeraScale 3): tables, codec, disassembler ([`risa_cayman`]).
#[cfg(feature = "cayman")]
pub use risa_cayman as cayman;

/// AMDGPU code-object metadata: MessagePack note and YAML text ([`risa_metadata`]).
#[cfg(feature = "asm")]
pub use risa_metadata as metadata;

/// Software IEEE arithmetic under every rounding mode ([`risa_fp`]).
#[cfg(feature = "emu")]
pub use risa_fp as fp;

/// Code-object loading and kernel dispatch on the emulators ([`risa_runtime`]).
#[cfg(feature = "runtime")]
pub use risa_runtime as runtime;

/// The assemblers: the ISA-neutral core (directives, macros, expressions,
/// sections, symbols) and its two back ends.
#[cfg(feature = "asm")]
pub mod asm {
    /// The ISA-neutral assembler core ([`risa_asm_core`]).
    pub use risa_asm_core as core;
    /// The Cayman assembler ([`risa_cayman_asm`]).
    pub use risa_cayman_asm as cayman;
    /// The GCN assembler, code objects and object disassembly ([`risa_gcn_asm`]).
    pub use risa_gcn_asm as gcn;
}

/// The emulators.
#[cfg(feature = "emu")]
pub mod emu {
    /// The Cayman (VLIW4) emulator ([`risa_cayman_emu`]).
    pub use risa_cayman_emu as cayman;
    /// The GCN wavefront emulator ([`risa_gcn_emu`]).
    pub use risa_gcn_emu as gcn;
}
