//! The MessagePack note: read with `rmpv` (depth-limited, never trusting a
//! length beyond the bytes there are), written with `rmp`'s smallest forms.

use crate::{Error, Value, MAX_DEPTH};

/// Reads one document from the start of `bytes`; returns it and the number of
/// bytes it took (what follows is left to the caller).
pub fn from_msgpack_prefix(bytes: &[u8]) -> Result<(Value, usize), Error> {
    let mut rest = bytes;
    // rmpv counts a level for the value and one for its contents.
    match rmpv::decode::read_value_with_max_depth(&mut rest, 2 * MAX_DEPTH + 2) {
        Ok(v) => Ok((v, bytes.len() - rest.len())),
        Err(rmpv::decode::Error::DepthLimitExceeded) => Err(Error::TooDeep),
        // A short read is the only I/O error a byte slice gives.
        Err(_) => Err(Error::Truncated(bytes.len() - rest.len())),
    }
}

/// Reads a document that fills `bytes` exactly.
pub fn from_msgpack(bytes: &[u8]) -> Result<Value, Error> {
    let (v, used) = from_msgpack_prefix(bytes)?;
    match bytes.len() - used {
        0 => Ok(v),
        n => Err(Error::Trailing(n)),
    }
}

/// The MessagePack of a document, every integer, string, array and map in
/// its smallest form (as LLVM's writer does).
pub fn to_msgpack(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = rmpv::encode::write_value(&mut out, v);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_forms() {
        let cases: [(Value, &[u8]); 8] = [
            (Value::from(127u64), &[0x7f]),
            (Value::from(128u64), &[0xcc, 0x80]),
            (Value::from(65535u64), &[0xcd, 0xff, 0xff]),
            (Value::from(65536u64), &[0xce, 0, 1, 0, 0]),
            (Value::from(1u64 << 32), &[0xcf, 0, 0, 0, 1, 0, 0, 0, 0]),
            (Value::from(-32i64), &[0xe0]),
            (Value::from(-33i64), &[0xd0, 0xdf]),
            (Value::from(-129i64), &[0xd1, 0xff, 0x7f]),
        ];
        for (v, want) in cases {
            assert_eq!(to_msgpack(&v), want, "{v}");
            assert_eq!(from_msgpack(want).unwrap(), v);
        }
        let s = "x".repeat(40);
        assert_eq!(&to_msgpack(&Value::from(s.as_str()))[..2], [0xd9, 40]);
        let long = "x".repeat(300);
        assert_eq!(&to_msgpack(&Value::from(long.as_str()))[..3], [0xda, 1, 44]);
        let a = Value::Array(vec![Value::Nil; 16]);
        assert_eq!(&to_msgpack(&a)[..3], [0xdc, 0, 16]);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(from_msgpack(&[0x92, 1]), Err(Error::Truncated(2)));
        assert_eq!(
            from_msgpack(&[0xdb, 0xff, 0xff, 0xff, 0xff, b'a']),
            Err(Error::Truncated(6))
        );
        assert_eq!(
            from_msgpack(&[0xdd, 0xff, 0xff, 0xff, 0xff]),
            Err(Error::Truncated(5))
        );
        assert_eq!(from_msgpack(&[1, 2]), Err(Error::Trailing(1)));
        assert_eq!(from_msgpack_prefix(&[1, 2]), Ok((Value::from(1u64), 1)));
        let deep = vec![0x91u8; MAX_DEPTH + 1];
        assert_eq!(from_msgpack(&deep), Err(Error::TooDeep));
        let mut ok = vec![0x91u8; MAX_DEPTH];
        ok.push(0);
        assert!(from_msgpack(&ok).is_ok());
        assert_eq!(Error::Truncated(3).to_string(), "truncated at byte 3");
    }
}
