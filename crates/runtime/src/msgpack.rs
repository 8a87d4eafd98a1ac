//! A small MessagePack reader for the AMDGPU metadata note (bounds-checked,
//! depth-limited; never panics on bad input).

/// A decoded MessagePack value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// nil
    Nil,
    /// true / false
    Bool(bool),
    /// Any integer (unsigned values above i64::MAX are kept as their bits).
    Int(i64),
    /// float 32 or 64
    Float(f64),
    /// str
    Str(String),
    /// bin
    Bin(Vec<u8>),
    /// array
    Array(Vec<Value>),
    /// map, in file order
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// The value of `key` in a map.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m
                .iter()
                .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Decodes one value from the start of `b`.
pub fn parse(b: &[u8]) -> Result<Value, String> {
    let mut p = Parser { b, at: 0 };
    p.value(0)
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| format!("msgpack: truncated at byte {}", self.at))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn uint(&mut self, n: usize) -> Result<u64, String> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0u64, |v, &x| v << 8 | u64::from(x)))
    }
    fn value(&mut self, depth: u32) -> Result<Value, String> {
        if depth > 64 {
            return Err("msgpack: nesting too deep".into());
        }
        let t = self.take(1)?[0];
        Ok(match t {
            0x00..=0x7f => Value::Int(i64::from(t)),
            0x80..=0x8f => self.map((t & 0xf) as usize, depth)?,
            0x90..=0x9f => self.array((t & 0xf) as usize, depth)?,
            0xa0..=0xbf => self.str((t & 0x1f) as usize)?,
            0xc0 => Value::Nil,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xc4 => {
                let n = self.uint(1)? as usize;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xc5 => {
                let n = self.uint(2)? as usize;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xc6 => {
                let n = self.uint(4)? as usize;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xca => Value::Float(f64::from(f32::from_bits(self.uint(4)? as u32))),
            0xcb => Value::Float(f64::from_bits(self.uint(8)?)),
            0xcc => Value::Int(self.uint(1)? as i64),
            0xcd => Value::Int(self.uint(2)? as i64),
            0xce => Value::Int(self.uint(4)? as i64),
            0xcf => Value::Int(self.uint(8)? as i64),
            0xd0 => Value::Int(i64::from(self.uint(1)? as u8 as i8)),
            0xd1 => Value::Int(i64::from(self.uint(2)? as u16 as i16)),
            0xd2 => Value::Int(i64::from(self.uint(4)? as u32 as i32)),
            0xd3 => Value::Int(self.uint(8)? as i64),
            0xd9 => {
                let n = self.uint(1)? as usize;
                self.str(n)?
            }
            0xda => {
                let n = self.uint(2)? as usize;
                self.str(n)?
            }
            0xdb => {
                let n = self.uint(4)? as usize;
                self.str(n)?
            }
            0xdc => {
                let n = self.uint(2)? as usize;
                self.array(n, depth)?
            }
            0xdd => {
                let n = self.uint(4)? as usize;
                self.array(n, depth)?
            }
            0xde => {
                let n = self.uint(2)? as usize;
                self.map(n, depth)?
            }
            0xdf => {
                let n = self.uint(4)? as usize;
                self.map(n, depth)?
            }
            0xe0..=0xff => Value::Int(i64::from(t as i8)),
            _ => return Err(format!("msgpack: unsupported type byte {t:#04x}")),
        })
    }
    fn str(&mut self, n: usize) -> Result<Value, String> {
        Ok(Value::Str(
            String::from_utf8_lossy(self.take(n)?).into_owned(),
        ))
    }
    fn array(&mut self, n: usize, depth: u32) -> Result<Value, String> {
        let mut v = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            v.push(self.value(depth + 1)?);
        }
        Ok(Value::Array(v))
    }
    fn map(&mut self, n: usize, depth: u32) -> Result<Value, String> {
        let mut v = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            let k = self.value(depth + 1)?;
            let x = self.value(depth + 1)?;
            v.push((k, x));
        }
        Ok(Value::Map(v))
    }
}
