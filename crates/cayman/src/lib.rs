//! Cayman (AMD TeraScale 3, Radeon HD 6900, VLIW4) instruction tables, codec
//! and disassembler.
//!
//! * [`fields`] — every microcode dword format of chapter 9 of AMD's HD 6900
//!   ISA guide, as field tables;
//! * [`ops`] — every instruction of chapter 8, as opcode tables;
//! * [`sem`] — what each ALU instruction computes, as the ALU rows name it;
//! * [`codec`] — `decode_*`/`encode_*`, driven by the tables, panic-free and
//!   allocation-free;
//! * [`print`](mod@print) — the text form of one instruction;
//! * [`disasm`] — walks a CF program and its clauses: [`disassemble`],
//!   [`disassemble_object`].

#![warn(missing_docs)]
pub mod codec;
pub mod disasm;
pub mod fields;
pub mod ops;
pub mod print;
pub mod sem;

pub use codec::{
    decode_alu, decode_cf, decode_fetch, encode_alu, encode_cf, encode_fetch, DecodeError,
};
pub use disasm::{
    disassemble, disassemble_object, disassemble_object_warn, kernels, listing, DisasmOptions,
    Error, Item, ItemKind, Kernel, Listing,
};
