//! The one deterministic random generator of risa's instruction generators,
//! property tests, fuzzers and benchmarks.
//!
//! Two sources behind one type:
//! * a seeded xorshift64 stream (13/7/17 shifts): fast, reproducible, no
//!   dependencies; the stream the committed test vectors were generated with;
//! * a *choice list* ([`Rng::from_choices`]): every draw takes the next
//!   number of a given list, then 0 for [`ZERO_TAIL`] draws, then the numbers
//!   of a fixed stream (so that a generator's rejection loop, which may
//!   refuse 0, still ends). A property test (proptest) generates the list; when a property
//!   fails, proptest shrinks the list towards shorter lists of smaller
//!   numbers, which makes the draws the first (smallest) options: a failure
//!   shrinks to a minimal instruction (register 0, no modifiers, the first
//!   form) instead of an arbitrary seed.

#![warn(missing_docs)]

/// Draws past the end of a choice list that still give 0 (the smallest
/// choice) before a fixed stream takes over.
pub const ZERO_TAIL: usize = 256;

/// A deterministic random source (see the crate docs).
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
    /// The choice list and the next position, when replaying one.
    choices: Option<(Vec<u64>, usize)>,
}

impl Rng {
    /// A generator from a seed (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Rng::from_state(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A generator whose xorshift state is `state` as given (must not be 0):
    /// the stream of the hand-written generators this type replaced.
    pub fn from_state(state: u64) -> Self {
        debug_assert!(state != 0, "xorshift state 0 only gives zeros");
        Rng {
            state,
            choices: None,
        }
    }

    /// A generator that returns `choices` one by one from [`Rng::next_u64`],
    /// then [`ZERO_TAIL`] zeros, then the stream of a fixed seed: drawn by
    /// proptest, shrunk to the smallest draws.
    pub fn from_choices(choices: Vec<u64>) -> Self {
        Rng {
            state: Rng::new(0).state,
            choices: Some((choices, 0)),
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        if let Some((list, at)) = &mut self.choices {
            let k = *at;
            *at += 1;
            if let Some(&v) = list.get(k) {
                return v;
            }
            if k < list.len() + ZERO_TAIL {
                return 0;
            }
        }
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }

    /// 32 random bits (bits 16..48 of [`Rng::next_u64`]).
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 16) as u32
    }

    /// A number in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            0
        } else {
            (self.next_u64() % u64::from(n)) as u32
        }
    }

    /// True with probability 1/n (a choice of 0 says yes).
    pub fn one_in(&mut self, n: u32) -> bool {
        self.below(n) == 0
    }

    /// An integer in `lo..=hi`.
    pub fn i32_in(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
        (i64::from(lo) + (self.next_u64() % span) as i64) as i32
    }

    /// A float in `lo..hi` (24 random bits of fraction).
    pub fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_stream_is_xorshift64_13_7_17() {
        // Three steps of x ^= x << 13; x ^= x >> 7; x ^= x << 17 from 1,
        // worked by hand: 1 -> 0x40822041 -> ...
        let mut r = Rng::from_state(1);
        assert_eq!(r.next_u64(), 0x0000_0000_4082_2041);
        let mut x: u64 = 0x4082_2041;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        assert_eq!(r.next_u64(), x);
    }

    #[test]
    fn choices_replay_then_a_fixed_stream() {
        let mut r = Rng::from_choices(vec![7, 12, 0]);
        assert_eq!(r.below(5), 2);
        assert_eq!(r.next_u64(), 12);
        assert!(r.one_in(9));
        for _ in 0..super::ZERO_TAIL {
            assert_eq!(r.next_u64(), 0);
        }
        let mut tail = Rng::new(0);
        for _ in 0..3 {
            assert_eq!(r.next_u64(), tail.next_u64());
        }
    }

    #[test]
    fn ranges_hold() {
        let mut r = Rng::new(3);
        for _ in 0..1000 {
            let i = r.i32_in(-5, 5);
            assert!((-5..=5).contains(&i));
            let f = r.f32_in(1.0, 2.0);
            assert!((1.0..2.0).contains(&f));
            assert!(r.below(10) < 10);
        }
        assert_eq!(r.below(0), 0);
    }
}
