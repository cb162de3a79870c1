//! glibc's `srand`/`rand` (the TYPE_3 additive feedback generator), bit for
//! bit, so that map generators draw exactly what Botzone's judges draw.

/// The generator behind glibc's `rand()` after `srand(seed)`.
#[derive(Clone, Debug)]
pub struct GlibcRand {
    r: [u32; 34],
    k: usize,
}

impl GlibcRand {
    /// Seeds like `srand(seed)` (a seed of 0 is taken as 1).
    pub fn new(seed: u32) -> Self {
        let mut r = [0u32; 34];
        r[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            // Schrage's method on signed 32-bit values, as glibc does.
            let prev = r[i - 1] as i32;
            let hi = prev / 127_773;
            let lo = prev % 127_773;
            let mut w = 16_807i32
                .wrapping_mul(lo)
                .wrapping_sub(2_836i32.wrapping_mul(hi));
            if w < 0 {
                w = w.wrapping_add(2_147_483_647);
            }
            r[i] = w as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = GlibcRand { r, k: 0 };
        // The ring holds the last 34 words; `k` indexes the oldest.
        for _ in 0..310 {
            g.next_raw();
        }
        g
    }

    #[inline]
    fn next_raw(&mut self) -> u32 {
        // r[k] = r[k-31] + r[k-3] over a ring of 34 words.
        let k = self.k;
        let a = self.r[(k + 3) % 34]; // k - 31
        let b = self.r[(k + 31) % 34]; // k - 3
        let v = a.wrapping_add(b);
        self.r[k] = v;
        self.k = (k + 1) % 34;
        v
    }

    /// The next `rand()` result, in `0..=RAND_MAX` (2^31 - 1).
    #[inline]
    pub fn rand(&mut self) -> i32 {
        (self.next_raw() >> 1) as i32
    }

    /// The judges' `RandBetween(a, b)`: `rand() % (b - a) + a`, swapping
    /// `a` and `b` when `a > b`.
    ///
    /// # Panics
    /// When `a == b` (a division by zero in the judges' C++ too).
    #[inline]
    pub fn between(&mut self, a: i32, b: i32) -> i32 {
        let (a, b) = if a > b { (b, a) } else { (a, b) };
        self.rand() % (b - a) + a
    }
}

#[cfg(test)]
mod tests {
    use super::GlibcRand;

    #[test]
    fn matches_glibc_for_seed_1() {
        // glibc: srand(1); rand() x5
        let mut g = GlibcRand::new(1);
        let got: Vec<i32> = (0..5).map(|_| g.rand()).collect();
        assert_eq!(
            got,
            [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
        );
    }

    #[test]
    fn seed_zero_is_seed_one() {
        let mut a = GlibcRand::new(0);
        let mut b = GlibcRand::new(1);
        for _ in 0..100 {
            assert_eq!(a.rand(), b.rand());
        }
    }
}
