//! The ABI alignment of each kernel argument on Cayman, read from the LLVM
//! IR clang emits for the r600 target. LLVM's r600 back end places every
//! explicit argument at its ABI alignment (counted from the first explicit
//! argument, ABI-NOTES); for scalars and vectors that is the natural
//! alignment of the size, but a struct's is its largest member's, which
//! only the types say. r600 objects carry no argument metadata, so the
//! kernels' signatures in the IR are where it is found.

use std::collections::HashMap;

/// Size and alignment (bytes) of an LLVM type in r600's data layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    size: u32,
    align: u32,
}

/// Reads LLVM types from text, with the module's named struct types.
struct Types<'a> {
    named: HashMap<&'a str, &'a str>,
}

impl<'a> Types<'a> {
    /// The type at the start of `s` and the text after it.
    fn parse<'s>(&self, s: &'s str, depth: u32) -> Result<(Layout, &'s str), String> {
        if depth > 32 {
            return Err("types nest too deeply".into());
        }
        let s = s.trim_start();
        let (mut l, mut rest) = if let Some(r) = s.strip_prefix("<{") {
            let (l, r) = self.fields(r, "}>", depth)?;
            (Layout { align: 1, ..l }, r)
        } else if let Some(r) = s.strip_prefix('{') {
            self.fields(r, "}", depth)?
        } else if let Some(r) = s.strip_prefix('<') {
            let (n, t, r) = self.repeat(r, '>', depth)?;
            // A vector is as big and as aligned as the next power of two
            // of its elements' bytes (r600: v96:128 and so on).
            let bytes = (n * t.size).max(1).next_power_of_two();
            (
                Layout {
                    size: bytes,
                    align: bytes,
                },
                r,
            )
        } else if let Some(r) = s.strip_prefix('[') {
            let (n, t, r) = self.repeat(r, ']', depth)?;
            (
                Layout {
                    size: n * t.size,
                    align: t.align,
                },
                r,
            )
        } else if let Some(r) = s.strip_prefix('%') {
            let end = r
                .find(|c: char| !(c.is_alphanumeric() || "._-$".contains(c)))
                .unwrap_or(r.len());
            let name = &r[..end];
            let body = self
                .named
                .get(name)
                .ok_or_else(|| format!("unknown type %{name}"))?;
            (self.parse(body, depth + 1)?.0, &r[end..])
        } else {
            let end = s.find(|c: char| !c.is_alphanumeric()).unwrap_or(s.len());
            let word = &s[..end];
            let bytes = match word {
                "half" => 2,
                "float" | "ptr" => 4,
                "double" => 8,
                w if w.starts_with('i') => w[1..]
                    .parse::<u32>()
                    .map_err(|_| format!("unknown type {w}"))?
                    .div_ceil(8)
                    .next_power_of_two(),
                w => return Err(format!("unknown type {w:?}")),
            };
            (
                Layout {
                    size: bytes,
                    align: bytes,
                },
                &s[end..],
            )
        };
        // Pointers (every address space is 32 bits on r600).
        loop {
            let r = rest.trim_start();
            let r = match r.strip_prefix("addrspace(") {
                Some(a) => a.split_once(')').map_or(a, |x| x.1).trim_start(),
                None => r,
            };
            match r.strip_prefix('*') {
                Some(after) => {
                    l = Layout { size: 4, align: 4 };
                    rest = after;
                }
                None => break,
            }
        }
        Ok((l, rest))
    }

    /// `N x T` then `close`: the count, the element and the text after.
    fn repeat<'s>(
        &self,
        s: &'s str,
        close: char,
        depth: u32,
    ) -> Result<(u32, Layout, &'s str), String> {
        let (n, r) = s
            .trim_start()
            .split_once(" x ")
            .ok_or("a vector or array without its count")?;
        let n: u32 = n.trim().parse().map_err(|_| format!("bad count {n:?}"))?;
        let (t, r) = self.parse(r, depth + 1)?;
        let r = r.trim_start().strip_prefix(close).ok_or("unclosed type")?;
        Ok((n, t, r))
    }

    /// A struct's fields up to `close`: its layout and the text after.
    fn fields<'s>(&self, s: &'s str, close: &str, depth: u32) -> Result<(Layout, &'s str), String> {
        let packed = close == "}>";
        let (mut size, mut align) = (0u32, 1u32);
        let mut r = s.trim_start();
        if let Some(after) = r.strip_prefix(close) {
            return Ok((Layout { size: 0, align: 1 }, after));
        }
        loop {
            let (f, after) = self.parse(r, depth + 1)?;
            let fa = if packed { 1 } else { f.align };
            size = size.next_multiple_of(fa) + f.size;
            align = align.max(fa);
            let after = after.trim_start();
            if let Some(a) = after.strip_prefix(',') {
                r = a;
            } else if let Some(a) = after.strip_prefix(close) {
                let size = size.next_multiple_of(if packed { 1 } else { align });
                return Ok((Layout { size, align }, a));
            } else {
                return Err("a struct's fields do not end".into());
            }
        }
    }
}

/// Every `amdgpu_kernel` in `ir` (LLVM IR text) with the ABI alignment of
/// each of its arguments.
pub fn kernel_arg_aligns(ir: &str) -> Result<Vec<(String, Vec<u32>)>, String> {
    let mut named = HashMap::new();
    for line in ir.lines() {
        if let Some((name, body)) = line
            .strip_prefix('%')
            .and_then(|l| l.split_once(" = type "))
        {
            named.insert(name.trim(), body.trim());
        }
    }
    let types = Types { named };
    let mut out = Vec::new();
    for line in ir.lines() {
        if !line.starts_with("define ") || !line.contains("amdgpu_kernel") {
            continue;
        }
        let at = line.find(" @").ok_or("a kernel without a name")? + 2;
        let open = at + line[at..].find('(').ok_or("a kernel without arguments")?;
        let name = line[at..open].trim_matches('"').to_string();
        let mut rest = &line[open + 1..];
        let mut aligns = Vec::new();
        while !rest.trim_start().starts_with(')') {
            let (l, after) = types.parse(rest, 0)?;
            aligns.push(l.align);
            // Skip the argument's attributes and name, up to the next
            // argument (attributes hold no commas or parentheses here
            // except align(N)-like groups, which are balanced).
            let mut depth = 0;
            let mut end = after.len();
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = i;
                        break;
                    }
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        end = i + 1;
                        break;
                    }
                    _ => {}
                }
            }
            rest = &after[end..];
            if rest.is_empty() {
                return Err(format!("the arguments of {name} do not end"));
            }
        }
        out.push((name, aligns));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The signature clang-14 -O2 -target r600-- -mcpu=cayman gave for
    // k(global int *, char, float4, short, Small, int3, S3, long, uchar2)
    // with Small = { char; short; } and S3 = { int; float; char; }; the
    // offsets the r600 code read (VTX_READ / KC0) put each at these
    // alignments.
    const IR: &str = r#"%struct.Small = type { i8, i16 }
%struct.S3 = type { i32, float, i8 }
%struct.P = type <{ i8, i32 }>
%struct.N = type { [3 x i8], %struct.S3, <2 x i64> }
define dso_local amdgpu_kernel void @k(i32 addrspace(1)* nocapture noundef writeonly %0, i8 noundef %1, <4 x float> noundef %2, i16 noundef %3, %struct.Small %4, <3 x i32> noundef %5, %struct.S3 %6, i64 noundef %7, <2 x i8> noundef %8) local_unnamed_addr #0 !kernel_arg_addr_space !3 {
define internal void @helper(i32 %0) {
define amdgpu_kernel void @"q"(%struct.P %0, %struct.N %1, float addrspace(3)* %2, ptr addrspace(1) align 4 %3) {
"#;

    #[test]
    fn kernels_and_their_argument_alignments() {
        let k = kernel_arg_aligns(IR).unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(k[0].0, "k");
        assert_eq!(k[0].1, [4, 1, 16, 2, 2, 16, 4, 8, 2]);
        assert_eq!(k[1].0, "q");
        assert_eq!(k[1].1, [1, 16, 4, 4]);
    }

    #[test]
    fn struct_sizes_follow_the_data_layout() {
        let named = IR
            .lines()
            .filter_map(|l| l.strip_prefix('%')?.split_once(" = type "))
            .collect();
        let t = Types { named };
        let size = |s: &str| t.parse(s, 0).unwrap().0;
        assert_eq!(size("%struct.S3"), Layout { size: 12, align: 4 });
        assert_eq!(size("%struct.Small"), Layout { size: 4, align: 2 });
        assert_eq!(size("%struct.P"), Layout { size: 5, align: 1 });
        assert_eq!(
            size("%struct.N"),
            Layout {
                size: 32,
                align: 16
            }
        );
        assert_eq!(
            size("<3 x float>"),
            Layout {
                size: 16,
                align: 16
            }
        );
        assert!(t.parse("%struct.Missing", 0).is_err());
        assert!(t.parse("{ i32, ", 0).is_err());
    }
}
