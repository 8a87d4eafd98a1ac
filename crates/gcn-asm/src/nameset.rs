//! Small fixed sets of names (modifier names, selector values) matched
//! without regard to ASCII case. A `match` on strings compares the name
//! with each arm in turn, and the modifier parser matched each name against
//! some forty arms, several times over; here a name is one hash and mostly
//! one compare, in an open-addressing table built when the program is
//! compiled.

/// The key of a name of 1 to 16 bytes: its bytes, each with bit 5 set
/// (ASCII letters folded to lower case), in a little-endian integer padded
/// with spaces; 0 for any other length. The folding maps the bytes of
/// names (letters, digits, `_`, `.`, `$`) to distinct values other than
/// the space, except a letter's two cases to one.
const fn key(b: &[u8]) -> u128 {
    if b.is_empty() || b.len() > 16 {
        return 0;
    }
    let mut k = FOLD;
    let mut i = 0;
    while i < b.len() {
        k |= (b[i] as u128) << (8 * i);
        i += 1;
    }
    k
}

/// Bit 5 of every byte (the spaces of the padding).
const FOLD: u128 = u128::from_le_bytes([0x20; 16]);

/// [`key`] with a few word loads instead of a loop over the bytes (which
/// made a name's look-up cost more than the string compares it replaces).
#[inline(always)]
fn key_of(b: &[u8]) -> u128 {
    let n = b.len();
    if n == 0 || n > 16 {
        return 0;
    }
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
    // (Overlapping loads: a byte read twice lands in the same place.)
    let (lo, hi) = if n > 8 {
        (u64_at(0), u64_at(n - 8) >> (8 * (16 - n)))
    } else if n == 8 {
        (u64_at(0), 0)
    } else if n >= 4 {
        (
            u64::from(u32_at(0)) | u64::from(u32_at(n - 4)) << (8 * (n - 4)),
            0,
        )
    } else {
        (b.iter().rev().fold(0, |w, &c| w << 8 | u64::from(c)), 0)
    };
    (u128::from(lo) | u128::from(hi) << 64) | FOLD
}

/// The first slot to try for `k` in a table of `size` (a power of two) slots.
#[inline(always)]
const fn home(k: u128, size: usize) -> usize {
    let h = (k as u64) ^ ((k >> 64) as u64).rotate_left(29);
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - size.trailing_zeros())) as usize
}

/// Names with a value each, looked up without regard to case.
pub(crate) struct NameSet<T: Copy, const SIZE: usize> {
    /// 0: an empty slot.
    keys: [u128; SIZE],
    vals: [T; SIZE],
}

impl<T: Copy, const SIZE: usize> NameSet<T, SIZE> {
    /// The set of `names` (1 to 16 bytes, distinct without regard to case)
    /// in `SIZE` slots (a power of two, at least twice as many as names,
    /// so that probe runs stay short); `none` fills the empty slots.
    pub(crate) const fn new(names: &[(&str, T)], none: T) -> Self {
        assert!(SIZE.is_power_of_two() && names.len() <= SIZE / 2);
        let mut keys = [0u128; SIZE];
        let mut vals = [none; SIZE];
        let mut i = 0;
        while i < names.len() {
            let k = key(names[i].0.as_bytes());
            assert!(k != 0, "a name must have 1 to 16 bytes");
            let mut s = home(k, SIZE);
            while keys[s] != 0 {
                assert!(keys[s] != k, "a name is listed twice");
                s = (s + 1) % SIZE;
            }
            keys[s] = k;
            vals[s] = names[i].1;
            i += 1;
        }
        NameSet { keys, vals }
    }

    /// The value of `name` (of name characters or digits: other bytes
    /// may fold onto them), if it is in the set.
    #[inline]
    pub(crate) fn get(&self, name: &[u8]) -> Option<T> {
        let k = key_of(name);
        if k == 0 {
            return None;
        }
        let mut s = home(k, SIZE);
        loop {
            match self.keys[s] {
                0 => return None,
                x if x == k => return Some(self.vals[s]),
                _ => s = (s + 1) % SIZE,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_of_is_key() {
        let text = b"a_Z9.$b_y8XW7v6U5t4S3r2Q1pONMlkjIhgFEdcbA";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let b = &text[start..end];
                assert_eq!(key_of(b), key(b), "{:?}", std::str::from_utf8(b));
            }
        }
    }

    #[test]
    fn finds_names_in_any_case_and_nothing_else() {
        const S: NameSet<u8, 8> = NameSet::new(&[("glc", 1), ("src0_sel", 2), ("a16", 3)], 0);
        assert_eq!(S.get(b"glc"), Some(1));
        assert_eq!(S.get(b"GlC"), Some(1));
        assert_eq!(S.get(b"SRC0_SEL"), Some(2));
        assert_eq!(S.get(b"a16"), Some(3));
        for miss in [
            &b""[..],
            b"gl",
            b"glcc",
            b"src0sel",
            b"src0_sel_",
            b"a17",
            b"a16a16a16a16a16a16",
        ] {
            assert_eq!(S.get(miss), None, "{:?}", std::str::from_utf8(miss));
        }
    }
}
