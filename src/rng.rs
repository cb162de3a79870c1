//! A small, fast random generator for rollouts (xoshiro256++, seeded by
//! SplitMix64), with `BOTZONE_SEED` for reproducible bots.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

/// The environment variable that fixes a bot's random choices.
pub const SEED_VAR: &str = "BOTZONE_SEED";

/// xoshiro256++: fast, small state, good statistical quality.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator fully determined by `seed`.
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let s = [
            splitmix64(&mut x),
            splitmix64(&mut x),
            splitmix64(&mut x),
            splitmix64(&mut x),
        ];
        Rng { s }
    }

    /// Seeded from `BOTZONE_SEED` when it holds an integer, else from the
    /// clock and the process id.
    pub fn from_env() -> Self {
        match seed_from_env() {
            Some(seed) => Rng::new(seed),
            None => {
                // The clock, mixed with the per-process random keys of
                // std's `RandomState` (the OS's entropy; WASI's
                // `random_get` on WebAssembly, where `process::id` panics).
                let nanos = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(0);
                let mut hasher = RandomState::new().build_hasher();
                hasher.write_u64(nanos);
                Rng::new(hasher.finish() ^ nanos)
            }
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// The next 32 random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift; the bias is
    /// below 2^-32 for any `n` a game needs).
    ///
    /// # Panics
    /// In debug builds, when `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "Rng::below(0)");
        ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32
    }

    /// A uniform index into a non-empty slice of length `len`.
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u32) as usize
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    #[inline]
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.index(items.len())])
        }
    }
}

/// The seed in `BOTZONE_SEED`, if it is set to an unsigned integer.
pub fn seed_from_env() -> Option<u64> {
    std::env::var(SEED_VAR).ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn deterministic_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut counts = [0u32; 5];
        for _ in 0..50_000 {
            counts[a.below(5) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        let u = a.unit();
        assert!((0.0..1.0).contains(&u));
    }
}
