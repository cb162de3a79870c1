//! The Pacman2 judge's map generator, call for call (`specs/judge-maps.md`):
//! one extra or missing `rand()` changes every map after it.

use super::{Constants, Map, GENERATOR, LARGE_FRUIT, MAX_SIDE, SMALL_FRUIT};
use crate::crand::GlibcRand;

const N: u8 = 1;
const E: u8 = 2;
const S: u8 = 4;
const W: u8 = 8;
/// Wall bit of each direction (up, right, down, left) and its opposite.
const WALL: [u8; 4] = [N, E, S, W];
const OPPOSITE: [u8; 4] = [S, W, N, E];
const DR: [i32; 4] = [-1, 0, 1, 0];
const DC: [i32; 4] = [0, 1, 0, -1];

/// The 24 orders of the four directions, in lexicographic order.
fn permutations() -> [[usize; 4]; 24] {
    let mut out = [[0; 4]; 24];
    let mut n = 0;
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    if a != b && a != c && a != d && b != c && b != d && c != d {
                        out[n] = [a, b, c, d];
                        n += 1;
                    }
                }
            }
        }
    }
    out
}

struct Gen {
    rng: GlibcRand,
    w: usize,
    h: usize,
    ph: usize,
    pw: usize,
    statics: [[u8; MAX_SIDE]; MAX_SIDE],
    content: [[u8; MAX_SIDE]; MAX_SIDE],
    visited: [[bool; MAX_SIDE]; MAX_SIDE],
    unvisited: usize,
    opened: [bool; 4],
    perms: [[usize; 4]; 24],
}

impl Gen {
    /// Visits `(r, c)`; `true` once every quadrant cell is visited.
    fn visit(&mut self, r: usize, c: usize) -> bool {
        self.visited[r][c] = true;
        self.unvisited -= 1;
        if self.unvisited == 0 {
            return true;
        }
        let order = self.perms[self.rng.between(0, 24) as usize];
        for d in order {
            let nr = r as i32 + DR[d];
            let nc = c as i32 + DC[d];
            if nr >= 0 && nc >= 0 && (nr as usize) < self.ph && (nc as usize) < self.pw {
                let (nr, nc) = (nr as usize, nc as usize);
                if self.visited[nr][nc] {
                    continue;
                }
                if self.statics[nr][nc] & GENERATOR != 0 {
                    self.visited[nr][nc] = true;
                    self.unvisited -= 1;
                    if self.unvisited == 0 {
                        return true;
                    }
                    continue;
                }
                self.statics[r][c] &= !WALL[d];
                self.statics[nr][nc] &= !OPPOSITE[d];
                if self.visit(nr, nc) {
                    return true;
                }
            } else if !self.opened[d] {
                self.opened[d] = true;
                self.statics[r][c] &= !WALL[d];
            }
        }
        false
    }

    /// Whether `(r, c)` is hidden from the quadrant's edges in all four
    /// directions (the judge's test for player and large-fruit cells).
    fn hidden(&self, r: usize, c: usize) -> bool {
        let s = &self.statics;
        let up = (0..r).any(|i| s[i][c] & (N | S) != 0) || s[r][c] & N != 0;
        let down = (r + 1..self.ph).any(|i| s[i][c] & (N | S) != 0) || s[r][c] & S != 0;
        let left = (0..c).any(|j| s[r][j] & (W | E) != 0) || s[r][c] & W != 0;
        let right = (c + 1..self.pw).any(|j| s[r][j] & (W | E) != 0) || s[r][c] & E != 0;
        up && down && left && right
    }

    /// Draws a hidden cell for a player or a large fruit; `None` after the
    /// judge's 1000 tries.
    fn place(&mut self, avoid: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let mut tries = 0;
        loop {
            let r = self.rng.between(0, self.ph as i32 - 1) as usize;
            let c = self.rng.between(0, self.pw as i32 - 1) as usize;
            tries += 1;
            if tries > 1000 {
                return None;
            }
            if self.statics[r][c] & GENERATOR != 0 || avoid == Some((r, c)) {
                continue;
            }
            if self.hidden(r, c) {
                return Some((r, c));
            }
        }
    }

    fn mirrors(&self, r: usize, c: usize) -> [(usize, usize); 4] {
        let (h, w) = (self.h, self.w);
        [
            (r, c),
            (r, w - 1 - c),
            (h - 1 - r, c),
            (h - 1 - r, w - 1 - c),
        ]
    }

    /// One attempt at the field (steps 3 to 11); `false` when the players
    /// or the large fruit could not be placed.
    fn attempt(&mut self) -> bool {
        let (h, w, ph, pw) = (self.h, self.w, self.ph, self.pw);
        self.statics = [[0; MAX_SIDE]; MAX_SIDE];
        self.content = [[0; MAX_SIDE]; MAX_SIDE];
        self.visited = [[false; MAX_SIDE]; MAX_SIDE];
        self.opened = [false; 4];
        // 3. Walls everywhere in the quadrant.
        for r in 0..ph {
            for c in 0..pw {
                self.statics[r][c] = N | E | S | W;
            }
        }
        // 4. The generator.
        let gr = self.rng.between(0, ph as i32 - 1) as usize;
        let gc = self.rng.between(0, pw as i32 - 1) as usize;
        for (r, c) in self.mirrors(gr, gc) {
            self.statics[r][c] |= GENERATOR;
        }
        // 5. Depth-first search; GCC draws the column first.
        let sc = self.rng.between(0, pw as i32) as usize;
        let sr = self.rng.between(0, ph as i32) as usize;
        self.unvisited = ph * pw;
        self.visit(sr, sc);
        // 6. Border openings not made yet: left, right, up, down.
        if !self.opened[3] {
            let r = self.rng.between(0, ph as i32) as usize;
            self.statics[r][0] &= !W;
        }
        if !self.opened[1] {
            let r = self.rng.between(0, ph as i32) as usize;
            self.statics[r][pw - 1] &= !E;
        }
        if !self.opened[0] {
            let c = self.rng.between(0, pw as i32) as usize;
            self.statics[0][c] &= !N;
        }
        if !self.opened[2] {
            let c = self.rng.between(0, pw as i32) as usize;
            self.statics[ph - 1][c] &= !S;
        }
        // 7. Mirroring, with random openings on the quadrant's edges.
        for r in 0..ph {
            for c in 0..pw {
                let s = self.statics[r][c];
                let (mut n, mut wst, mut so, mut e) =
                    (s & N != 0, s & W != 0, s & S != 0, s & E != 0);
                let g = s & GENERATOR;
                if (c == 0 || c == pw - 1) && self.rng.rand() % 4 == 0 {
                    if c == 0 {
                        wst = false;
                    } else {
                        e = false;
                    }
                }
                if (r == 0 || r == ph - 1) && self.rng.rand() % 4 == 0 {
                    if r == 0 {
                        n = false;
                    } else {
                        so = false;
                    }
                }
                if 2 * r + 1 == h {
                    so = n;
                }
                if 2 * c + 1 == w {
                    e = wst;
                }
                let bits = |n: bool, e: bool, s: bool, wv: bool| {
                    (if n { N } else { 0 })
                        | (if e { E } else { 0 })
                        | (if s { S } else { 0 })
                        | (if wv { W } else { 0 })
                        | g
                };
                let [a, bb, cc, dd] = self.mirrors(r, c);
                self.statics[a.0][a.1] = bits(n, e, so, wst);
                self.statics[bb.0][bb.1] = bits(n, wst, so, e);
                self.statics[cc.0][cc.1] = bits(so, e, n, wst);
                self.statics[dd.0][dd.1] = bits(so, wst, n, e);
                for (rr, cx) in [a, bb, cc, dd] {
                    self.content[rr][cx] = 0;
                }
            }
        }
        // 8. Generators are walled in, and so are their neighbours' sides.
        for r in 0..h {
            for c in 0..w {
                if self.statics[r][c] & GENERATOR == 0 {
                    continue;
                }
                self.statics[r][c] |= N | E | S | W;
                for d in 0..4 {
                    let nr = (r as i32 + DR[d] + h as i32) as usize % h;
                    let nc = (c as i32 + DC[d] + w as i32) as usize % w;
                    self.statics[nr][nc] |= OPPOSITE[d];
                }
            }
        }
        // 9. Players.
        let Some((pr, pc)) = self.place(None) else {
            return false;
        };
        for (i, (r, c)) in self.mirrors(pr, pc).into_iter().enumerate() {
            self.content[r][c] |= 1 << i;
        }
        // 10. Large fruit.
        let Some((lr, lc)) = self.place(Some((pr, pc))) else {
            return false;
        };
        for (r, c) in self.mirrors(lr, lc) {
            self.content[r][c] |= LARGE_FRUIT;
        }
        // 11. Small fruit.
        for r in 0..ph - 1 {
            for c in 0..pw - 1 {
                if self.statics[r][c] & GENERATOR != 0
                    || (r, c) == (pr, pc)
                    || self.content[r][c] & LARGE_FRUIT != 0
                {
                    continue;
                }
                if self.rng.rand() % 7 > 2 {
                    continue;
                }
                for (rr, cx) in self.mirrors(r, c) {
                    self.content[rr][cx] = SMALL_FRUIT;
                }
            }
        }
        true
    }
}

/// The judge's map for `seed`.
pub(super) fn generate(seed: u32) -> Map {
    generate_sized(seed, None, None)
}

/// The judge's map for `seed` when `initdata` also gives a size: the judge
/// still draws both sides, then a given side in `6..12` replaces the drawn
/// one (others are ignored).
pub(super) fn generate_sized(seed: u32, width: Option<usize>, height: Option<usize>) -> Map {
    let mut rng = GlibcRand::new(seed);
    let side = |rng: &mut GlibcRand| {
        if rng.rand() % 3 == 0 {
            rng.between(6, 12)
        } else {
            rng.between(9, 12)
        }
    };
    let given = |n: Option<usize>| n.filter(|n| (6..12).contains(n));
    let w = side(&mut rng) as usize;
    let h = side(&mut rng) as usize;
    let w = given(width).unwrap_or(w);
    let h = given(height).unwrap_or(h);
    let mut g = Gen {
        rng,
        w,
        h,
        ph: h.div_ceil(2),
        pw: w.div_ceil(2),
        statics: [[0; MAX_SIDE]; MAX_SIDE],
        content: [[0; MAX_SIDE]; MAX_SIDE],
        visited: [[false; MAX_SIDE]; MAX_SIDE],
        unvisited: 0,
        opened: [false; 4],
        perms: permutations(),
    };
    while !g.attempt() {}
    Map {
        seed: Some(seed),
        width: w,
        height: h,
        constants: Constants::default(),
        statics: g.statics,
        content: g.content,
    }
}
