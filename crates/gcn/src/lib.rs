//! GCN 1.0–1.4 machine code: instruction tables, decoder, encoder and printer.
//!
//! ```
//! use risa_gcn::{decode, print, Dialect, Gen};
//! let i = decode(Gen::Gcn12, &[0xbf81_0000]).unwrap();
//! assert_eq!(print(&i, Dialect::Llvm), "s_endpgm");
//! // ... and back: encode is decode's exact inverse.
//! assert_eq!(&risa_gcn::encode(&i).unwrap()[..], [0xbf81_0000]);
//! ```
#![warn(missing_docs)]

pub mod decode;
pub mod encode;
pub mod gen;
pub mod layout;
pub mod listing;
pub mod operand;
mod optext;
pub mod print;
pub mod processor;
pub mod random;
pub mod semantics;
pub mod table;

pub use decode::{decode, decode_bytes, DecodeError, Instr};
pub use encode::{encode, EncodeError, Operand, Words};
pub use gen::{Gen, GenInfo, ALL_GENS, GEN_COUNT};
pub use layout::{Enc, Field};
pub use print::{print, Dialect, Printer};
pub use processor::{Feature, Features, Processor, Target};
pub use table::{Family, OpInfo, OPS};
