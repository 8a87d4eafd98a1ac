//! Kernel arguments: the `--arg` SPEC language and the kernel's argument list
//! (from its metadata), and the check that one matches the other.

use crate::error::{ArgError, SpecError};
use crate::image_object::Format;
use std::fmt;

/// One argument value given by the user.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    /// `i32:V`
    I32(i32),
    /// `u32:V`
    U32(u32),
    /// `i64:V`
    I64(i64),
    /// `u64:V`
    U64(u64),
    /// `f32:V`
    F32(f32),
    /// `f64:V`
    F64(f64),
    /// `buf:PATH` (the file's bytes) or `buf:zeros:BYTES`: a global buffer.
    Buffer(Vec<u8>),
    /// `local:BYTES`: a `__local` pointer argument with that much dynamic LDS.
    Local(u32),
    /// `img2d:W:H:FORMAT:DATA`: a linear 2D image (see [`ImageArg`]).
    Image(ImageArg),
}

/// A 2D image argument: its texels (row-major, rows `width` texels apart)
/// and its format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageArg {
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// The format's name in `img2d:` specs.
    pub format: &'static str,
    /// The OpenCL format it names and how the descriptor encodes it (the
    /// image object's T# format and its channel type and order words).
    pub cl_format: Format,
    /// The texels: `width * height * bytes_per_texel` bytes.
    pub data: Vec<u8>,
}

/// Image formats `img2d:` accepts: name, OpenCL channel order and channel
/// type (`CL_*` values); [`crate::image_object::format`] gives the rest.
pub const IMAGE_FORMATS: &[(&str, u32, u32)] = &[
    ("r8", CL_R, 0x10D2),          // CL_UNORM_INT8
    ("r8ui", CL_R, 0x10DA),        // CL_UNSIGNED_INT8
    ("r16ui", CL_R, 0x10DB),       // CL_UNSIGNED_INT16
    ("r32ui", CL_R, 0x10DC),       // CL_UNSIGNED_INT32
    ("r32i", CL_R, 0x10D9),        // CL_SIGNED_INT32
    ("r32f", CL_R, 0x10DE),        // CL_FLOAT
    ("rgba8", CL_RGBA, 0x10D2),    // CL_UNORM_INT8
    ("rgba8ui", CL_RGBA, 0x10DA),  // CL_UNSIGNED_INT8
    ("rgba8i", CL_RGBA, 0x10D7),   // CL_SIGNED_INT8
    ("rgba16ui", CL_RGBA, 0x10DB), // CL_UNSIGNED_INT16
    ("rgba16i", CL_RGBA, 0x10D8),  // CL_SIGNED_INT16
    ("rgba16f", CL_RGBA, 0x10DD),  // CL_HALF_FLOAT
    ("rgba32ui", CL_RGBA, 0x10DC), // CL_UNSIGNED_INT32
    ("rgba32i", CL_RGBA, 0x10D9),  // CL_SIGNED_INT32
    ("rgba32f", CL_RGBA, 0x10DE),  // CL_FLOAT
];

/// `CL_R` (channel order of the one-channel [`IMAGE_FORMATS`]).
const CL_R: u32 = 0x10B0;
/// `CL_RGBA` (channel order of the four-channel [`IMAGE_FORMATS`]).
const CL_RGBA: u32 = 0x10B5;

/// The [`Format`] of `img2d:` format `name`, if it is one.
fn image_format(name: &str) -> Option<(&'static str, Format)> {
    let &(n, order, ty) = IMAGE_FORMATS.iter().find(|x| x.0 == name)?;
    Some((n, crate::image_object::format(order, ty)?))
}

/// Parses `W:H:FORMAT:DATA` (DATA: `zeros`, `TYPE:LIST` as for `buf:`, or a file path).
fn image_spec(v: &str) -> Result<ImageArg, String> {
    let mut it = v.splitn(4, ':');
    let (Some(w), Some(h), Some(f), Some(data)) = (it.next(), it.next(), it.next(), it.next())
    else {
        return Err("expected img2d:WIDTH:HEIGHT:FORMAT:DATA".into());
    };
    let (width, height): (u32, u32) = (ranged(w, "a width")?, ranged(h, "a height")?);
    if !(1..=16384).contains(&width) || !(1..=16384).contains(&height) {
        return Err(format!("{width}x{height}: sizes are 1 to 16384 texels"));
    }
    let (format, cl_format) = image_format(f).ok_or_else(|| {
        let names: Vec<&str> = IMAGE_FORMATS.iter().map(|x| x.0).collect();
        format!("unknown image format {f:?} ({})", names.join(" "))
    })?;
    let size = u64::from(width) * u64::from(height) * u64::from(cl_format.bytes);
    let data = if data == "zeros" {
        vec![0; size as usize]
    } else if let Some((ty, list)) = inline_type(data) {
        inline_values(ty, list)?
    } else {
        std::fs::read(data).map_err(|x| format!("cannot read {data}: {x}"))?
    };
    if data.len() as u64 != size {
        return Err(format!(
            "a {width}x{height} {format} image holds {size} bytes, the data has {}",
            data.len()
        ));
    }
    Ok(ImageArg {
        width,
        height,
        format,
        cl_format,
        data,
    })
}

impl ArgValue {
    /// The bytes a by-value argument puts in the kernarg segment.
    pub fn scalar_bytes(&self) -> Option<Vec<u8>> {
        Some(match self {
            ArgValue::I32(v) => v.to_le_bytes().to_vec(),
            ArgValue::U32(v) => v.to_le_bytes().to_vec(),
            ArgValue::I64(v) => v.to_le_bytes().to_vec(),
            ArgValue::U64(v) => v.to_le_bytes().to_vec(),
            ArgValue::F32(v) => v.to_le_bytes().to_vec(),
            ArgValue::F64(v) => v.to_le_bytes().to_vec(),
            _ => return None,
        })
    }

    fn describe(&self) -> String {
        match self {
            ArgValue::I32(_) | ArgValue::U32(_) | ArgValue::F32(_) => "a 4-byte value".into(),
            ArgValue::I64(_) | ArgValue::U64(_) | ArgValue::F64(_) => "an 8-byte value".into(),
            ArgValue::Buffer(b) => format!("a buffer of {} bytes", b.len()),
            ArgValue::Local(n) => format!("{n} bytes of local memory"),
            ArgValue::Image(i) => format!("a {}x{} {} image", i.width, i.height, i.format),
        }
    }
}

fn int(s: &str) -> Result<i128, String> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16)
    } else {
        t.parse::<i128>()
    }
    .map_err(|_| format!("{s:?} is not a decimal or 0x-hex integer"))?;
    Ok(if neg { -v } else { v })
}

fn ranged<T: TryFrom<i128>>(s: &str, ty: &str) -> Result<T, String> {
    let v = int(s)?;
    T::try_from(v).map_err(|_| format!("{s} does not fit in {ty}"))
}

/// `buf:TYPE:LIST` with TYPE one of i32 u32 f32 i64 u64 f64.
fn inline_type(v: &str) -> Option<(&str, &str)> {
    let (ty, list) = v.split_once(':')?;
    matches!(ty, "i32" | "u32" | "f32" | "i64" | "u64" | "f64").then_some((ty, list))
}

/// The bytes of an inline buffer: comma-separated values, or `A..B` for the
/// integers A, A+1, ..., B-1 (converted to TYPE).
fn inline_values(ty: &str, list: &str) -> Result<Vec<u8>, String> {
    let mut vals: Vec<String> = Vec::new();
    if let Some((a, b)) = list.split_once("..") {
        let (a, b): (i64, i64) = (ranged(a, "i64")?, ranged(b, "i64")?);
        if b < a || b - a > 1 << 28 {
            return Err(format!("range {a}..{b} is empty or too long"));
        }
        vals.extend((a..b).map(|x| x.to_string()));
    } else {
        vals.extend(list.split(',').map(|x| x.trim().to_string()));
    }
    let mut out = Vec::new();
    for x in &vals {
        let spec = format!("{ty}:{x}");
        let v = parse_spec(&spec).map_err(|e| e.to_string())?;
        out.extend(v.scalar_bytes().expect("scalar"));
    }
    Ok(out)
}

/// Parses one SPEC: `i32:V u32:V i64:V u64:V f32:V f64:V buf:PATH buf:zeros:BYTES local:BYTES`,
/// and `buf:TYPE:V,V,...` / `buf:TYPE:A..B` for small inline buffers. `buf:PATH` reads the file.
/// `img2d:W:H:FORMAT:DATA` is a 2D image (DATA as for `buf:`, or `zeros`).
pub fn parse_spec(spec: &str) -> Result<ArgValue, SpecError> {
    spec_value(spec).map_err(|why| SpecError {
        spec: spec.to_string(),
        why,
    })
}

/// [`parse_spec`] with the reason alone as the error.
fn spec_value(spec: &str) -> Result<ArgValue, String> {
    let (kind, v) = spec
        .split_once(':')
        .ok_or_else(|| "expected KIND:VALUE (e.g. i32:5, buf:in.bin)".to_string())?;
    Ok(match kind {
        "i32" => ArgValue::I32(ranged(v, "i32")?),
        "u32" => ArgValue::U32(ranged(v, "u32")?),
        "i64" => ArgValue::I64(ranged(v, "i64")?),
        "u64" => ArgValue::U64(ranged(v, "u64")?),
        "f32" => ArgValue::F32(match v.strip_prefix("0x") {
            Some(h) => f32::from_bits(u32::from_str_radix(h, 16).map_err(|x| x.to_string())?),
            None => v.parse().map_err(|_| format!("{v:?} is not a number"))?,
        }),
        "f64" => ArgValue::F64(match v.strip_prefix("0x") {
            Some(h) => f64::from_bits(u64::from_str_radix(h, 16).map_err(|x| x.to_string())?),
            None => v.parse().map_err(|_| format!("{v:?} is not a number"))?,
        }),
        "buf" if inline_type(v).is_some() => {
            let (ty, list) = inline_type(v).unwrap();
            ArgValue::Buffer(inline_values(ty, list)?)
        }
        "buf" => match v.strip_prefix("zeros:") {
            Some(n) => {
                let n: u64 = ranged(n, "a byte count")?;
                if n > 1 << 32 {
                    return Err("buffers are limited to 4 GiB".into());
                }
                ArgValue::Buffer(vec![0; n as usize])
            }
            None => {
                ArgValue::Buffer(std::fs::read(v).map_err(|x| format!("cannot read {v}: {x}"))?)
            }
        },
        "local" => ArgValue::Local(ranged(v, "a byte count")?),
        "img2d" => ArgValue::Image(image_spec(v)?),
        k => {
            return Err(format!(
                "unknown kind {k:?} (i32 u32 i64 u64 f32 f64 buf local img2d)"
            ))
        }
    })
}

/// What a kernel argument is, from the code object's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgKind {
    /// A `__global` (or `__constant`) pointer.
    GlobalBuffer,
    /// A value passed by copy (`.size` bytes).
    ByValue,
    /// A `__local` pointer: the runtime places dynamic LDS.
    DynamicLds,
    /// An image (`image2d_t`): a pointer to its descriptor.
    Image,
    /// A hidden argument filled by the runtime (`hidden_global_offset_x`, ...).
    Hidden(String),
    /// Something risa cannot supply (image, sampler, pipe, queue).
    Other(String),
}

/// One kernel argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgInfo {
    /// Source name (may be empty).
    pub name: String,
    /// Source type name (may be empty).
    pub type_name: String,
    /// Offset in the kernarg segment.
    pub offset: u32,
    /// Size in the kernarg segment.
    pub size: u32,
    /// Kind.
    pub kind: ArgKind,
    /// Access qualifier of an image (`read_only`, `write_only`,
    /// `read_write`; empty for other arguments).
    pub access: String,
}

impl ArgInfo {
    /// Whether the user supplies this argument (it is not hidden).
    pub fn is_explicit(&self) -> bool {
        !matches!(self.kind, ArgKind::Hidden(_))
    }
}

impl fmt::Display for ArgInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.kind {
            ArgKind::GlobalBuffer => {
                "buffer (buf:PATH, buf:zeros:BYTES or buf:TYPE:LIST)".to_string()
            }
            ArgKind::ByValue => format!("{}-byte value", self.size),
            ArgKind::DynamicLds => "local pointer (local:BYTES)".to_string(),
            ArgKind::Image => "image (img2d:W:H:FORMAT:DATA)".to_string(),
            ArgKind::Hidden(k) => format!("hidden {k}"),
            ArgKind::Other(k) => format!("unsupported {k}"),
        };
        write!(f, "{} {} : {}", self.type_name, self.name, what)
    }
}

/// Checks that `values` fit the explicit arguments `args`: count and kinds.
pub fn check(args: &[ArgInfo], values: &[ArgValue]) -> Result<(), ArgError> {
    let explicit: Vec<&ArgInfo> = args.iter().filter(|a| a.is_explicit()).collect();
    let list = || {
        explicit
            .iter()
            .enumerate()
            .map(|(i, a)| format!("\n  {i}: {a}"))
            .collect::<String>()
    };
    if explicit.len() != values.len() {
        return Err(ArgError::CountExpecting {
            want: explicit.len(),
            got: values.len(),
            expects: list(),
        });
    }
    for (i, (a, v)) in explicit.iter().zip(values).enumerate() {
        let ok = match (&a.kind, v) {
            (ArgKind::GlobalBuffer, ArgValue::Buffer(_)) => true,
            (ArgKind::DynamicLds, ArgValue::Local(_)) => true,
            (ArgKind::Image, ArgValue::Image(_)) => a.type_name.starts_with("image2d"),
            (ArgKind::ByValue, v) => v.scalar_bytes().is_some_and(|b| b.len() as u32 == a.size),
            (ArgKind::Other(k), _) => {
                return Err(ArgError::Unsupported {
                    index: i,
                    name: a.name.clone(),
                    kind: k.clone(),
                })
            }
            _ => false,
        };
        if !ok {
            let name = if a.name.is_empty() {
                String::new()
            } else {
                format!(" ({})", a.name)
            };
            return Err(ArgError::Mismatch {
                index: i,
                name,
                want: match &a.kind {
                    ArgKind::ByValue => format!("{}-byte value", a.size),
                    ArgKind::GlobalBuffer => "buffer".into(),
                    ArgKind::DynamicLds => "local pointer".into(),
                    ArgKind::Image => a.type_name.clone(),
                    k => format!("{k:?}"),
                },
                given: v.describe(),
                expects: list(),
            });
        }
    }
    Ok(())
}
