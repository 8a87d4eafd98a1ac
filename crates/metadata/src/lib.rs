//! AMDGPU code-object metadata: the one reader and writer of the
//! `NT_AMDGPU_METADATA` note (MessagePack, code object v3 and later) and of
//! its YAML text (the `.amdgpu_metadata` block of an assembly source), shared
//! by the assembler (`risa-gcn-asm`) and the loader (`risa-runtime`).
//!
//! The document is an [`rmpv::Value`] ([`Value`]): maps keep their order, so
//! a document read and written again gives the same bytes when the input used
//! the smallest MessagePack forms (as LLVM writes them). MessagePack goes
//! through `rmpv`/`rmp`, YAML through `yaml-rust2`.
//!
//! ```
//! use risa_metadata::{field, from_msgpack, from_yaml, to_msgpack, to_yaml};
//!
//! let doc = from_yaml("---\namdhsa.version:\n  - 1\n  - 2\n...\n").unwrap();
//! let bytes = to_msgpack(&doc);
//! assert_eq!(bytes, [0x81, 0xae, b'a', b'm', b'd', b'h', b's', b'a', b'.',
//!                    b'v', b'e', b'r', b's', b'i', b'o', b'n', 0x92, 1, 2]);
//! let back = from_msgpack(&bytes).unwrap();
//! assert_eq!(field(&back, "amdhsa.version").and_then(|v| v.as_array()).map(Vec::len), Some(2));
//! assert_eq!(to_yaml(&back).unwrap(), "---\namdhsa.version:\n  - 1\n  - 2\n...\n");
//! ```

#![warn(missing_docs)]
mod msgpack;
mod yaml;

pub use msgpack::{from_msgpack, from_msgpack_prefix, to_msgpack};
pub use rmpv::Value;
pub use yaml::{from_yaml, to_yaml};

/// Why a metadata document could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The MessagePack ends inside a value.
    #[error("truncated at byte {0}")]
    Truncated(usize),
    /// Maps and arrays nest deeper than [`MAX_DEPTH`].
    #[error("nesting too deep")]
    TooDeep,
    /// Bytes follow the document.
    #[error("{0} bytes after the value")]
    Trailing(usize),
    /// YAML that does not parse; `line` is 1-based.
    #[error("line {line}: {message}")]
    Yaml {
        /// The line (1-based) of the text.
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// A value YAML cannot hold as it is (binary, extension, a key that is
    /// not a scalar, an integer above `i64::MAX`, a float).
    #[error("{0} cannot be written as YAML")]
    NotYaml(&'static str),
}

/// How deep maps and arrays may nest in a document.
pub const MAX_DEPTH: usize = 64;

/// The value of `key` in a map (`None` when `map` is not a map or has no such key).
pub fn field<'a>(map: &'a Value, key: &str) -> Option<&'a Value> {
    map.as_map()?
        .iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}
