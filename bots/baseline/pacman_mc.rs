// pacman_mc: one-file bundle of bots/pacman_mc.rs made by `botzone bundle` (botzone 0.1.0).
// Library modules: crand, fixed, games, games::pacman2, games::pacman2::mapgen, games::pacman2::policy, json, protocol, rng, search (namespace), search::flat_mc, time.
// Build: rustc -O --edition 2021 <this file>
#![allow(dead_code, unused, clippy::all)]
#![forbid(unsafe_code)]
//! `pacman_mc`: a Pacman2 bot for Botzone. Flat Monte Carlo over its own
//! valid actions (round robin): each rollout plays the action, then at most
//! 20 turns in which every player follows `pacman2::policy::GreedyPolicy`
//! (eat fruit, step onto weaker players, shoot only with someone in the
//! beam's path, keep away from stronger players and their beams, with
//! random noise), and is valued by `pacman2::policy::evaluate`: Botzone's
//! score for this bot (rank points plus strength share) on the strengths
//! reached, large-fruit boosts that run out before the end taken off. It
//! spends the turn's budget minus a safety margin (`botzone::time::Deadline`),
//! and says how many rollouts it ran in `debug` (`rollouts=123456 ...`).
//!
//! Keep-running by default: the state is kept between turns and only each
//! turn's request is applied. Traditional mode (the whole history every
//! turn) works too: the state is rebuilt from the requests.
//!
//! ```text
//! cargo run --release --bin pacman_mc < input-samples/pacman2/first-turn.json
//! ```
//!
//! Environment: `BOTZONE_TIME_LIMIT` (seconds per turn), `BOTZONE_SEED`
//! (reproducible random choices), `BOTZONE_ITERATIONS` (a fixed number of
//! rollouts per turn instead of the clock).

use std::process::ExitCode;

use botzone::games::pacman2::policy::{evaluate, GreedyPolicy};
use botzone::games::pacman2::{Action, Actions, Map, Pacman2, PLAYERS};
use botzone::json::{self, Value};
use botzone::protocol::{self, Bot, BotError, Input, Output};
use botzone::rng::Rng;
use botzone::search::flat_mc::Limits;
use botzone::time::Deadline;

struct PacmanMc {
    game: Option<Pacman2>,
    me: usize,
    rng: Rng,
}

impl PacmanMc {
    fn new() -> Self {
        PacmanMc {
            game: None,
            me: 0,
            rng: Rng::from_env(),
        }
    }

    /// Starts a game from a first request (the map plus `"id"`).
    fn start(&mut self, request: &Value, path: &str) -> Result<(), BotError> {
        let id = match request.get("id") {
            None => return Err(BotError::new(format!("{path}.id: missing"))),
            Some(v) => match v.as_i64() {
                Some(id) if (0..PLAYERS as i64).contains(&id) => id as usize,
                _ => {
                    return Err(BotError::new(format!(
                        "{path}.id: expected a player number 0..=3, found {v}"
                    )))
                }
            },
        };
        let map = Map::from_json(request).map_err(|e| BotError::new(format!("{path}: {e}")))?;
        self.game = Some(Pacman2::new(&map));
        self.me = id;
        Ok(())
    }

    /// Applies one later request (the players' actions of the last turn).
    fn follow(&mut self, request: &Value, path: &str) -> Result<(), BotError> {
        let game = self.game.as_mut().ok_or_else(|| {
            BotError::new(format!("{path}: a turn's actions came before the map"))
        })?;
        let joint = game
            .joint_from_request(request, path)
            .map_err(|e| BotError::new(e.to_string()))?;
        game.apply(&joint);
        Ok(())
    }

    /// Whether a request starts a game (holds a map) rather than reporting
    /// a turn.
    fn is_map(request: &Value) -> bool {
        request.get("static").is_some() || request.get("width").is_some()
    }

    fn think(&mut self, deadline: &Deadline) -> Output {
        let me = self.me;
        let Some(game) = self.game.as_mut() else {
            return answer(Action::STAY, "rollouts=0 no game".into());
        };
        if !game.is_active(me) {
            let why = if game.is_over() { "game over" } else { "dead" };
            return answer(Action::STAY, format!("rollouts=0 {why}"));
        }
        let result = search(game, me, deadline, &mut self.rng, DEPTH);
        let mut best = result.best;
        if !game.is_valid(me, best) {
            best = Action::STAY; // never happens; staying is always valid
        }
        let mean = result.mean;
        answer(
            best,
            format!(
                "rollouts={} turn={} action={} mean={:.2} ms={}",
                result.rollouts,
                game.turn(),
                best.code(),
                mean,
                deadline.elapsed().as_millis()
            ),
        )
    }
}

/// Turns a rollout plays before it is valued by [`evaluate`].
const DEPTH: usize = 20;

/// What a search found.
struct Found {
    best: Action,
    mean: f64,
    rollouts: u64,
}

/// Flat Monte Carlo over `me`'s valid actions (round robin): each rollout
/// plays the action, then at most `depth` turns of [`GreedyPolicy`] for
/// everyone, and is valued by [`evaluate`]; `game` is left as it was. Stops
/// at the deadline or after `BOTZONE_ITERATIONS` rollouts.
fn search(
    game: &mut Pacman2,
    me: usize,
    deadline: &Deadline,
    rng: &mut Rng,
    depth: usize,
) -> Found {
    let mut legal = Actions::default();
    game.legal_actions(me, &mut legal);
    let mut found = Found {
        best: Action::STAY,
        mean: 0.0,
        rollouts: 0,
    };
    if legal.len() <= 1 {
        found.best = legal.first().copied().unwrap_or(Action::STAY);
        return found;
    }
    let policy = GreedyPolicy::new(game);
    let limits = Limits::from_env();
    let max = limits.max_rollouts.unwrap_or(u64::MAX);
    let check = u64::from(limits.check_every.max(1));
    let mut total = [0.0f64; 9];
    let mut visits = [0u64; 9];
    let start = game.turn();
    let mut arm = 0;
    while found.rollouts < max {
        if found.rollouts % check == 0 && deadline.passed() {
            break;
        }
        let mut joint = policy.joint(game, rng);
        joint[me] = legal[arm];
        game.apply(&joint);
        let mut turns = 1;
        while turns < depth && !game.is_over() {
            let joint = policy.joint(game, rng);
            game.apply(&joint);
            turns += 1;
        }
        total[arm] += evaluate(game, me);
        visits[arm] += 1;
        game.undo_to(start);
        found.rollouts += 1;
        arm += 1;
        if arm == legal.len() {
            arm = 0;
        }
    }
    let mut best = 0;
    let mut best_mean = f64::MIN;
    for i in 0..legal.len() {
        if visits[i] > 0 {
            let mean = total[i] / visits[i] as f64;
            if mean > best_mean {
                best_mean = mean;
                best = i;
            }
        }
    }
    found.best = legal[best];
    found.mean = if best_mean == f64::MIN {
        0.0
    } else {
        best_mean
    };
    found
}

fn answer(action: Action, debug: String) -> Output {
    Output::new(json::object([
        ("action", Value::from(i64::from(action.code()))),
        ("tauntText", Value::from("")),
    ]))
    .with_debug(debug)
}

impl Bot for PacmanMc {
    fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError> {
        self.game = None;
        for (i, request) in input.requests.iter().enumerate() {
            let path = format!("requests[{i}]");
            if i == 0 {
                self.start(request, &path)?;
            } else {
                self.follow(request, &path)?;
            }
        }
        Ok(self.think(deadline))
    }

    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError> {
        if Self::is_map(request) {
            self.start(request, "request")?;
        } else {
            self.follow(request, "request")?;
        }
        Ok(self.think(deadline))
    }

    fn fallback(&self) -> Option<Value> {
        // Staying is valid for every live player on every field.
        Some(json::object([
            ("action", Value::from(-1i64)),
            ("tauntText", Value::from("")),
        ]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut PacmanMc::new())
}

// The botzone library: the modules the bot reaches.
#[allow(dead_code, unused_imports, unused_macros)]
mod botzone {
    pub mod crand {
        #[derive(Clone, Debug)]
        pub struct GlibcRand {
            r: [u32; 34],
            k: usize,
        }
        impl GlibcRand {
            pub fn new(seed: u32) -> Self {
                let mut r = [0u32; 34];
                r[0] = if seed == 0 { 1 } else { seed };
                for i in 1..31 {
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
                for _ in 0..310 {
                    g.next_raw();
                }
                g
            }
            #[inline]
            fn next_raw(&mut self) -> u32 {
                let k = self.k;
                let a = self.r[(k + 3) % 34];
                let b = self.r[(k + 31) % 34];
                let v = a.wrapping_add(b);
                self.r[k] = v;
                self.k = (k + 1) % 34;
                v
            }
            #[inline]
            pub fn rand(&mut self) -> i32 {
                (self.next_raw() >> 1) as i32
            }
            #[inline]
            pub fn between(&mut self, a: i32, b: i32) -> i32 {
                let (a, b) = if a > b { (b, a) } else { (a, b) };
                self.rand() % (b - a) + a
            }
        }
    }
    pub mod fixed {
        use std::fmt;
        use std::ops::{Deref, DerefMut};
        #[derive(Clone, Copy)]
        pub struct FixedList<T: Copy + Default, const N: usize> {
            items: [T; N],
            len: usize,
        }
        impl<T: Copy + Default, const N: usize> FixedList<T, N> {
            pub const CAPACITY: usize = N;
            #[inline]
            pub fn new() -> Self {
                FixedList {
                    items: [T::default(); N],
                    len: 0,
                }
            }
            #[inline]
            pub fn push(&mut self, item: T) {
                self.items[self.len] = item;
                self.len += 1;
            }
            #[inline]
            pub fn try_push(&mut self, item: T) -> Result<(), T> {
                if self.len == N {
                    return Err(item);
                }
                self.push(item);
                Ok(())
            }
            #[inline]
            pub fn pop(&mut self) -> Option<T> {
                if self.len == 0 {
                    None
                } else {
                    self.len -= 1;
                    Some(self.items[self.len])
                }
            }
            #[inline]
            pub fn clear(&mut self) {
                self.len = 0;
            }
            #[inline]
            pub fn truncate(&mut self, len: usize) {
                if len < self.len {
                    self.len = len;
                }
            }
            #[inline]
            pub fn swap_remove(&mut self, i: usize) -> T {
                assert!(i < self.len, "swap_remove index out of bounds");
                let item = self.items[i];
                self.len -= 1;
                self.items[i] = self.items[self.len];
                item
            }
            #[inline]
            pub fn is_full(&self) -> bool {
                self.len == N
            }
        }
        impl<T: Copy + Default, const N: usize> Default for FixedList<T, N> {
            fn default() -> Self {
                Self::new()
            }
        }
        impl<T: Copy + Default, const N: usize> Deref for FixedList<T, N> {
            type Target = [T];
            #[inline]
            fn deref(&self) -> &[T] {
                &self.items[..self.len]
            }
        }
        impl<T: Copy + Default, const N: usize> DerefMut for FixedList<T, N> {
            #[inline]
            fn deref_mut(&mut self) -> &mut [T] {
                &mut self.items[..self.len]
            }
        }
        impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for FixedList<T, N> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }
        impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for FixedList<T, N> {
            fn eq(&self, other: &Self) -> bool {
                **self == **other
            }
        }
        impl<T: Copy + Default + Eq, const N: usize> Eq for FixedList<T, N> {}
        impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a FixedList<T, N> {
            type Item = &'a T;
            type IntoIter = std::slice::Iter<'a, T>;
            fn into_iter(self) -> Self::IntoIter {
                self.iter()
            }
        }
    }
    pub mod games {
        use std::fmt::Debug;
        use std::ops::Deref;
        pub mod pacman2 {
            use crate::botzone::fixed::FixedList;
            use crate::botzone::games::Game;
            use crate::botzone::json::Value;
            use crate::botzone::rng::Rng;
            use std::fmt;
            mod mapgen {
                use super::{Constants, Map, GENERATOR, LARGE_FRUIT, MAX_SIDE, SMALL_FRUIT};
                use crate::botzone::crand::GlibcRand;
                const N: u8 = 1;
                const E: u8 = 2;
                const S: u8 = 4;
                const W: u8 = 8;
                const WALL: [u8; 4] = [N, E, S, W];
                const OPPOSITE: [u8; 4] = [S, W, N, E];
                const DR: [i32; 4] = [-1, 0, 1, 0];
                const DC: [i32; 4] = [0, 1, 0, -1];
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
                            if nr >= 0
                                && nc >= 0
                                && (nr as usize) < self.ph
                                && (nc as usize) < self.pw
                            {
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
                    fn hidden(&self, r: usize, c: usize) -> bool {
                        let s = &self.statics;
                        let up = (0..r).any(|i| s[i][c] & (N | S) != 0) || s[r][c] & N != 0;
                        let down =
                            (r + 1..self.ph).any(|i| s[i][c] & (N | S) != 0) || s[r][c] & S != 0;
                        let left = (0..c).any(|j| s[r][j] & (W | E) != 0) || s[r][c] & W != 0;
                        let right =
                            (c + 1..self.pw).any(|j| s[r][j] & (W | E) != 0) || s[r][c] & E != 0;
                        up && down && left && right
                    }
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
                    fn attempt(&mut self) -> bool {
                        let (h, w, ph, pw) = (self.h, self.w, self.ph, self.pw);
                        self.statics = [[0; MAX_SIDE]; MAX_SIDE];
                        self.content = [[0; MAX_SIDE]; MAX_SIDE];
                        self.visited = [[false; MAX_SIDE]; MAX_SIDE];
                        self.opened = [false; 4];
                        for r in 0..ph {
                            for c in 0..pw {
                                self.statics[r][c] = N | E | S | W;
                            }
                        }
                        let gr = self.rng.between(0, ph as i32 - 1) as usize;
                        let gc = self.rng.between(0, pw as i32 - 1) as usize;
                        for (r, c) in self.mirrors(gr, gc) {
                            self.statics[r][c] |= GENERATOR;
                        }
                        let sc = self.rng.between(0, pw as i32) as usize;
                        let sr = self.rng.between(0, ph as i32) as usize;
                        self.unvisited = ph * pw;
                        self.visit(sr, sc);
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
                        let Some((pr, pc)) = self.place(None) else {
                            return false;
                        };
                        for (i, (r, c)) in self.mirrors(pr, pc).into_iter().enumerate() {
                            self.content[r][c] |= 1 << i;
                        }
                        let Some((lr, lc)) = self.place(Some((pr, pc))) else {
                            return false;
                        };
                        for (r, c) in self.mirrors(lr, lc) {
                            self.content[r][c] |= LARGE_FRUIT;
                        }
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
                pub(super) fn generate(seed: u32) -> Map {
                    generate_sized(seed, None, None)
                }
                pub(super) fn generate_sized(
                    seed: u32,
                    width: Option<usize>,
                    height: Option<usize>,
                ) -> Map {
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
            }
            pub mod policy {
                use super::{Action, Pacman2, LARGE_FRUIT, MAX_CELLS, PLAYERS, SMALL_FRUIT};
                use crate::botzone::rng::Rng;
                const NONE: u8 = u8::MAX;
                const W_SMALL: i32 = 70;
                const W_LARGE: i32 = 140;
                const W_LARGE_AGAIN: i32 = 30;
                const W_PREY: i32 = 110;
                const W_BLOCKED: i32 = -60;
                const W_DANGER: i32 = -180;
                const W_BEAM_THREAT: i32 = -40;
                const W_SHOT_HIT: i32 = 60;
                const W_SHOT_MISS: i32 = -200;
                #[derive(Clone, Debug)]
                pub struct GreedyPolicy {
                    width: usize,
                    next: [[u8; 4]; MAX_CELLS],
                    near: [u128; MAX_CELLS],
                    beam: [[u128; 4]; MAX_CELLS],
                    beam_any: [u128; MAX_CELLS],
                    skill_cost: i32,
                }
                impl GreedyPolicy {
                    pub fn new(game: &Pacman2) -> GreedyPolicy {
                        let (w, h) = (game.width(), game.height());
                        let mut p = GreedyPolicy {
                            width: w,
                            next: [[NONE; 4]; MAX_CELLS],
                            near: [0; MAX_CELLS],
                            beam: [[0; 4]; MAX_CELLS],
                            beam_any: [0; MAX_CELLS],
                            skill_cost: game.constants().skill_cost,
                        };
                        const DR: [isize; 4] = [-1, 0, 1, 0];
                        const DC: [isize; 4] = [0, 1, 0, -1];
                        let step = |r: usize, c: usize, d: usize| {
                            (
                                (r as isize + DR[d] + h as isize) as usize % h,
                                (c as isize + DC[d] + w as isize) as usize % w,
                            )
                        };
                        for r in 0..h {
                            for c in 0..w {
                                let i = r * w + c;
                                p.near[i] = 1u128 << i;
                                for d in 0..4 {
                                    if game.static_at(r, c) & (1 << d) == 0 {
                                        let (nr, nc) = step(r, c, d);
                                        p.next[i][d] = (nr * w + nc) as u8;
                                        p.near[i] |= 1u128 << (nr * w + nc);
                                    }
                                    let (mut br, mut bc) = (r, c);
                                    let mut path = 0u128;
                                    while game.static_at(br, bc) & (1 << d) == 0 {
                                        (br, bc) = step(br, bc, d);
                                        if (br, bc) == (r, c) {
                                            break;
                                        }
                                        path |= 1u128 << (br * w + bc);
                                    }
                                    p.beam[i][d] = path;
                                    p.beam_any[i] |= path;
                                }
                            }
                        }
                        p
                    }
                    pub fn joint(&self, game: &Pacman2, rng: &mut Rng) -> [Action; PLAYERS] {
                        let view = View::of(game, self.width);
                        let mut joint = [Action::STAY; PLAYERS];
                        for (p, slot) in joint.iter_mut().enumerate() {
                            if view.alive & (1 << p) != 0 {
                                *slot = self.pick(game, &view, p, rng);
                            }
                        }
                        joint
                    }
                    pub fn action(&self, game: &Pacman2, p: usize, rng: &mut Rng) -> Action {
                        let view = View::of(game, self.width);
                        self.pick(game, &view, p, rng)
                    }
                    fn pick(&self, game: &Pacman2, v: &View, p: usize, rng: &mut Rng) -> Action {
                        let me = v.cell[p] as usize;
                        let s = v.strength[p];
                        let mut danger = 0u128;
                        let mut beams = 0u128;
                        let mut others = 0u128;
                        let mut weaker = 0u128;
                        let mut stronger = 0u128;
                        for q in 0..PLAYERS {
                            if q == p || v.alive & (1 << q) == 0 {
                                continue;
                            }
                            let c = v.cell[q] as usize;
                            let b = 1u128 << c;
                            others |= b;
                            if v.strength[q] > s {
                                danger |= self.near[c];
                                stronger |= b;
                            } else if v.strength[q] < s {
                                weaker |= b;
                            }
                            if v.strength[q] > self.skill_cost {
                                beams |= self.beam_any[c];
                            }
                        }
                        let mut noise = rng.next_u64();
                        let mut best = Action::STAY;
                        let mut best_score = i32::MIN;
                        let mut consider = |a: Action, score: i32, noise: &mut u64| {
                            let total = score + (*noise & 127) as i32;
                            *noise >>= 7;
                            if total > best_score {
                                best_score = total;
                                best = a;
                            }
                        };
                        let here = 1u128 << me;
                        let mut stay = 0;
                        if danger & here != 0 {
                            stay += W_DANGER;
                        }
                        if beams & here != 0 {
                            stay += W_BEAM_THREAT;
                        }
                        consider(Action::STAY, stay, &mut noise);
                        for d in 0..4 {
                            let n = self.next[me][d];
                            if n == NONE {
                                continue;
                            }
                            let nb = 1u128 << n;
                            let mut score = 0;
                            if stronger & nb != 0 {
                                score += W_BLOCKED;
                            } else if weaker & nb != 0 {
                                score += W_PREY;
                            }
                            if danger & nb != 0 {
                                score += W_DANGER;
                            }
                            if beams & nb != 0 {
                                score += W_BEAM_THREAT;
                            }
                            if others & nb == 0 {
                                let (r, c) = (n as usize / self.width, n as usize % self.width);
                                let content = game.content_at(r, c);
                                if content & SMALL_FRUIT != 0 {
                                    score += W_SMALL;
                                } else if content & LARGE_FRUIT != 0 {
                                    score += if game.player(p).power_up_left > 0 {
                                        W_LARGE_AGAIN
                                    } else {
                                        W_LARGE
                                    };
                                }
                            }
                            consider(Action::ALL[1 + d], score, &mut noise);
                        }
                        if s > self.skill_cost {
                            for d in 0..4 {
                                let hits = (self.beam[me][d] & others).count_ones() as i32;
                                let score = if hits > 0 {
                                    W_SHOT_HIT * hits
                                } else {
                                    W_SHOT_MISS
                                };
                                consider(Action::ALL[5 + d], score, &mut noise);
                            }
                        }
                        best
                    }
                }
                struct View {
                    cell: [u8; PLAYERS],
                    strength: [i32; PLAYERS],
                    alive: u8,
                }
                impl View {
                    fn of(game: &Pacman2, width: usize) -> View {
                        let mut v = View {
                            cell: [0; PLAYERS],
                            strength: [0; PLAYERS],
                            alive: 0,
                        };
                        for p in 0..PLAYERS {
                            let pl = game.player(p);
                            v.cell[p] = (pl.row * width + pl.col) as u8;
                            v.strength[p] = pl.strength;
                            if !pl.dead {
                                v.alive |= 1 << p;
                            }
                        }
                        v
                    }
                }
                pub fn evaluate(game: &Pacman2, me: usize) -> f64 {
                    if game.is_over() {
                        return game.final_scores()[me];
                    }
                    let left = (super::MAX_TURN - game.turn()) as i32;
                    let boost = game.constants().large_fruit_enhancement;
                    let mut s = [0i64; PLAYERS];
                    for (p, slot) in s.iter_mut().enumerate() {
                        let pl = game.player(p);
                        let mut x = pl.strength;
                        if pl.power_up_left > 0 && pl.power_up_left <= left {
                            x -= boost;
                        }
                        *slot = i64::from(x.max(0));
                    }
                    let total = s.iter().sum::<i64>().max(1);
                    let rank = 1 + s.iter().filter(|&&x| x < s[me]).count() as i64;
                    (rank * 1000 + 10000 * s[me] / total) as f64 / 100.0
                }
            }
            pub const PLAYERS: usize = 4;
            pub const MAX_SIDE: usize = 11;
            pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
            pub const MAX_TURN: usize = 100;
            pub const WALL_NORTH: u8 = 1;
            pub const WALL_EAST: u8 = 2;
            pub const WALL_SOUTH: u8 = 4;
            pub const WALL_WEST: u8 = 8;
            pub const GENERATOR: u8 = 16;
            pub const SMALL_FRUIT: u8 = 16;
            pub const LARGE_FRUIT: u8 = 32;
            const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];
            const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub struct Action(i8);
            impl Default for Action {
                fn default() -> Self {
                    Action::STAY
                }
            }
            impl Action {
                pub const STAY: Action = Action(-1);
                pub const UP: Action = Action(0);
                pub const RIGHT: Action = Action(1);
                pub const DOWN: Action = Action(2);
                pub const LEFT: Action = Action(3);
                pub const SHOOT_UP: Action = Action(4);
                pub const SHOOT_RIGHT: Action = Action(5);
                pub const SHOOT_DOWN: Action = Action(6);
                pub const SHOOT_LEFT: Action = Action(7);
                pub const INVALID: Action = Action(-10);
                pub const ALL: [Action; 9] = [
                    Action::STAY,
                    Action::UP,
                    Action::RIGHT,
                    Action::DOWN,
                    Action::LEFT,
                    Action::SHOOT_UP,
                    Action::SHOOT_RIGHT,
                    Action::SHOOT_DOWN,
                    Action::SHOOT_LEFT,
                ];
                pub fn from_code(code: i64) -> Action {
                    if (-1..=7).contains(&code) {
                        Action(code as i8)
                    } else {
                        Action::INVALID
                    }
                }
                pub fn code(self) -> i8 {
                    self.0
                }
                pub fn is_move(self) -> bool {
                    (0..4).contains(&self.0)
                }
                pub fn is_shot(self) -> bool {
                    (4..8).contains(&self.0)
                }
            }
            pub type Actions = FixedList<Action, 9>;
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Constants {
                pub generator_interval: i32,
                pub large_fruit_duration: i32,
                pub large_fruit_enhancement: i32,
                pub skill_cost: i32,
            }
            impl Default for Constants {
                fn default() -> Self {
                    Constants {
                        generator_interval: 20,
                        large_fruit_duration: 10,
                        large_fruit_enhancement: 10,
                        skill_cost: 4,
                    }
                }
            }
            #[derive(Clone, Debug, PartialEq, Eq)]
            pub struct Map {
                pub seed: Option<u32>,
                pub width: usize,
                pub height: usize,
                pub constants: Constants,
                pub statics: [[u8; MAX_SIDE]; MAX_SIDE],
                pub content: [[u8; MAX_SIDE]; MAX_SIDE],
            }
            #[derive(Clone, Debug, PartialEq, Eq)]
            pub struct InputError(String);
            impl InputError {
                fn new(msg: impl Into<String>) -> Self {
                    InputError(msg.into())
                }
                pub fn message(&self) -> &str {
                    &self.0
                }
            }
            impl fmt::Display for InputError {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str(&self.0)
                }
            }
            impl std::error::Error for InputError {}
            fn int_field(
                v: &Value,
                name: &str,
                range: std::ops::RangeInclusive<i64>,
            ) -> Result<i64, InputError> {
                match v.get(name) {
                    None => Err(InputError::new(format!("{name}: missing"))),
                    Some(x) => match x.as_i64() {
                        Some(n) if range.contains(&n) => Ok(n),
                        _ => Err(InputError::new(format!(
                            "{name}: expected an integer in {}..={}, found {}",
                            range.start(),
                            range.end(),
                            x
                        ))),
                    },
                }
            }
            fn grid_field(
                v: &Value,
                name: &str,
                width: usize,
                height: usize,
                max: u8,
            ) -> Result<[[u8; MAX_SIDE]; MAX_SIDE], InputError> {
                let rows = match v.get(name) {
                    None => return Err(InputError::new(format!("{name}: missing"))),
                    Some(x) => x.as_array().ok_or_else(|| {
                        InputError::new(format!(
                            "{name}: expected an array of {height} rows, found {}",
                            x.kind()
                        ))
                    })?,
                };
                if rows.len() != height {
                    return Err(InputError::new(format!(
                        "{name}: expected {height} rows (the height), found {}",
                        rows.len()
                    )));
                }
                let mut out = [[0u8; MAX_SIDE]; MAX_SIDE];
                for (r, row) in rows.iter().enumerate() {
                    let cols = row.as_array().ok_or_else(|| {
                        InputError::new(format!(
                            "{name}[{r}]: expected an array, found {}",
                            row.kind()
                        ))
                    })?;
                    if cols.len() != width {
                        return Err(InputError::new(format!(
                            "{name}[{r}]: expected {width} cells (the width), found {}",
                            cols.len()
                        )));
                    }
                    for (c, cell) in cols.iter().enumerate() {
                        match cell.as_i64() {
                            Some(n) if (0..=i64::from(max)).contains(&n) => {
                                out[r][c] = n as u8;
                            }
                            _ => {
                                return Err(InputError::new(format!(
											"{name}[{r}][{c}]: expected an integer in 0..={max}, found {cell}"
										)));
                            }
                        }
                    }
                }
                Ok(out)
            }
            impl Map {
                pub fn generate(seed: u32) -> Map {
                    mapgen::generate(seed)
                }
                pub fn generate_sized(
                    seed: u32,
                    width: Option<usize>,
                    height: Option<usize>,
                ) -> Map {
                    mapgen::generate_sized(seed, width, height)
                }
                pub fn from_json(v: &Value) -> Result<Map, InputError> {
                    if v.as_object().is_none() {
                        return Err(InputError::new(format!(
                            "expected an object, found {}",
                            v.kind()
                        )));
                    }
                    let width = int_field(v, "width", 1..=MAX_SIDE as i64)? as usize;
                    let height = int_field(v, "height", 1..=MAX_SIDE as i64)? as usize;
                    let defaults = Constants::default();
                    let constant = |name: &str, default: i32| -> Result<i32, InputError> {
                        if v.get(name).is_none() {
                            Ok(default)
                        } else {
                            Ok(int_field(v, name, 0..=1_000_000)? as i32)
                        }
                    };
                    let constants = Constants {
                        generator_interval: constant(
                            "GENERATOR_INTERVAL",
                            defaults.generator_interval,
                        )?,
                        large_fruit_duration: constant(
                            "LARGE_FRUIT_DURATION",
                            defaults.large_fruit_duration,
                        )?,
                        large_fruit_enhancement: constant(
                            "LARGE_FRUIT_ENHANCEMENT",
                            defaults.large_fruit_enhancement,
                        )?,
                        skill_cost: constant("SKILL_COST", defaults.skill_cost)?,
                    };
                    if constants.generator_interval < 1 {
                        return Err(InputError::new("GENERATOR_INTERVAL: expected at least 1"));
                    }
                    let seed = match v.get("seed") {
                        None | Some(Value::Null) => None,
                        Some(s) => Some(
                            s.as_i64()
                                .filter(|n| (0..=i64::from(u32::MAX)).contains(n))
                                .ok_or_else(|| {
                                    InputError::new(format!(
                                        "seed: expected an unsigned integer, found {s}"
                                    ))
                                })? as u32,
                        ),
                    };
                    let statics = grid_field(v, "static", width, height, 31)?;
                    let content = grid_field(v, "content", width, height, 63)?;
                    let map = Map {
                        seed,
                        width,
                        height,
                        constants,
                        statics,
                        content,
                    };
                    map.check_players()?;
                    Ok(map)
                }
                fn check_players(&self) -> Result<(), InputError> {
                    for p in 0..PLAYERS {
                        let mut seen = 0;
                        for r in 0..self.height {
                            for c in 0..self.width {
                                if self.content[r][c] & (1 << p) != 0 {
                                    seen += 1;
                                }
                            }
                        }
                        if seen != 1 {
                            return Err(InputError::new(format!(
                                "content: player {p} must be on exactly one cell, found on {seen}"
                            )));
                        }
                    }
                    Ok(())
                }
                pub fn to_json(&self) -> String {
                    self.to_json_with_id(None)
                }
                #[allow(clippy::needless_range_loop)]
                pub fn to_json_with_id(&self, id: Option<usize>) -> String {
                    use std::fmt::Write as _;
                    let grid = |out: &mut String, g: &[[u8; MAX_SIDE]; MAX_SIDE]| {
                        out.push('[');
                        for r in 0..self.height {
                            if r > 0 {
                                out.push(',');
                            }
                            out.push('[');
                            for c in 0..self.width {
                                if c > 0 {
                                    out.push(',');
                                }
                                let _ = write!(out, "{}", g[r][c]);
                            }
                            out.push(']');
                        }
                        out.push(']');
                    };
                    let k = &self.constants;
                    let mut out = String::with_capacity(1024);
                    out.push('{');
                    if let Some(id) = id {
                        let _ = write!(out, "\"id\":{id},");
                    }
                    let _ = write!(
						out,
						"\"GENERATOR_INTERVAL\":{},\"LARGE_FRUIT_DURATION\":{},\"LARGE_FRUIT_ENHANCEMENT\":{},\"SKILL_COST\":{},\"content\":",
						k.generator_interval, k.large_fruit_duration, k
						.large_fruit_enhancement, k.skill_cost
					);
                    grid(&mut out, &self.content);
                    let _ = write!(out, ",\"height\":{}", self.height);
                    if let Some(seed) = self.seed {
                        let _ = write!(out, ",\"seed\":{seed}");
                    }
                    out.push_str(",\"static\":");
                    grid(&mut out, &self.statics);
                    let _ = write!(out, ",\"width\":{}}}", self.width);
                    out
                }
            }
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Player {
                pub row: usize,
                pub col: usize,
                pub strength: i32,
                pub power_up_left: i32,
                pub dead: bool,
            }
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
            struct Dynamic {
                small: Cells,
                large: Cells,
                strength: [i32; PLAYERS],
                power_up_left: [i32; PLAYERS],
                generator_turn_left: i32,
                small_fruit_count: i32,
                cell: [u8; PLAYERS],
                alive: u8,
                boosted: u8,
            }
            #[derive(Clone)]
            struct Board {
                width: u8,
                height: u8,
                constants: Constants,
                hit: i32,
                statics: [u8; 128],
                dest: [[u8; 16]; 128],
                valid: [u16; 128],
                roll: [[u32; 16]; 128],
                step: [[[u8; 16]; 2]; 128],
                beam: [[Cells; 4]; 128],
                spawn: Cells,
                bits: [Cells; 128],
            }
            #[derive(Clone)]
            pub struct Pacman2 {
                board: Board,
                cur: Dynamic,
                turn: usize,
                history: [Dynamic; MAX_TURN],
            }
            impl fmt::Debug for Pacman2 {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(
                        f,
                        "Pacman2 {{ turn: {}, players: {:?} }}",
                        self.turn(),
                        self.players()
                    )
                }
            }
            impl PartialEq for Pacman2 {
                fn eq(&self, other: &Self) -> bool {
                    let n = self.turn;
                    self.turn == other.turn
                        && self.board.width == other.board.width
                        && self.board.height == other.board.height
                        && self.board.statics == other.board.statics
                        && self.board.constants == other.board.constants
                        && self.cur == other.cur
                        && self.history[..n] == other.history[..n]
                }
            }
            #[inline(always)]
            fn bit(cell: u8) -> u128 {
                1u128 << (cell & 127)
            }
            type Cells = [u64; 2];
            #[inline(always)]
            fn words(x: u128) -> Cells {
                [x as u64, (x >> 64) as u64]
            }
            #[inline(always)]
            fn has(c: &Cells, cell: u8) -> bool {
                (c[(cell >> 6) as usize & 1] >> (cell & 63)) & 1 != 0
            }
            #[inline(always)]
            fn set(c: &mut Cells, cell: u8) {
                c[(cell >> 6) as usize & 1] |= 1 << (cell & 63);
            }
            #[inline(always)]
            fn zero_lanes(x: u32) -> u32 {
                !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x) & 0x8080_8080
            }
            #[inline(always)]
            fn lane_bits(x: u32) -> u8 {
                ((((x >> 7) & 0x0101_0101).wrapping_mul(0x0102_0408)) >> 24) as u8 & 15
            }
            #[inline(always)]
            fn byte_masks(bits: u8) -> u32 {
                ((u32::from(bits & 15).wrapping_mul(0x0020_4081)) & 0x0101_0101).wrapping_mul(0xff)
            }
            #[inline(always)]
            fn lanes(cell: [u8; PLAYERS], alive: u8) -> u32 {
                let m = byte_masks(alive);
                (u32::from_le_bytes(cell) & m) | (0x8382_8180 & !m)
            }
            #[inline(always)]
            fn shared_lanes(c: u32) -> u32 {
                let e1 = zero_lanes(c ^ c.rotate_right(8));
                let e2 = zero_lanes(c ^ c.rotate_right(16));
                e1 | e1.rotate_left(8) | e2
            }
            impl Pacman2 {
                pub fn new(map: &Map) -> Pacman2 {
                    let (w, h) = (map.width, map.height);
                    let mut board = Board {
                        width: w as u8,
                        height: h as u8,
                        constants: map.constants,
                        hit: map.constants.skill_cost * 3 / 2,
                        statics: [0; 128],
                        dest: [[0; 16]; 128],
                        valid: [0; 128],
                        roll: [[0; 16]; 128],
                        beam: [[[0; 2]; 4]; 128],
                        spawn: [0; 2],
                        bits: [[0; 2]; 128],
                        step: [[[0xff; 16]; 2]; 128],
                    };
                    let idx = |r: usize, c: usize| (r * w + c) as u8;
                    let wrap = |r: usize, c: usize, d: usize| {
                        let nr = (r as i32 + DY[d] + h as i32) as usize % h;
                        let nc = (c as i32 + DX[d] + w as i32) as usize % w;
                        (nr, nc)
                    };
                    let mut spawn = 0u128;
                    let mut generators = 0u128;
                    for r in 0..h {
                        for c in 0..w {
                            let i = idx(r, c) as usize;
                            let s = map.statics[r][c];
                            board.statics[i] = s;
                            board.bits[i] = words(bit(i as u8));
                            board.dest[i] = [i as u8; 16];
                            board.valid[i] = 1;
                            board.roll[i][0] = u32::from(i as u8) << 16;
                            let mut n = 0;
                            for d in 0..4 {
                                let (nr, nc) = wrap(r, c, d);
                                if s & (1 << d) == 0 {
                                    board.dest[i][d + 1] = idx(nr, nc);
                                    board.valid[i] |= 1 << (d + 1);
                                    n += 1;
                                    board.roll[i][n] =
                                        (d as u32 + 1) | u32::from(idx(nr, nc)) << 16;
                                }
                            }
                            for k in 0..4 {
                                board.roll[i][n + 1 + k] =
                                    (5 + k as u32) | u32::from(i as u8) << 16;
                            }
                            board.roll[i][0] |= (1 + n as u32) << 24;
                            for strong in 0..2 {
                                let ok =
                                    u32::from(board.valid[i]) | if strong == 1 { 0x1e0 } else { 0 };
                                for c in 0..9 {
                                    if ok & (1 << c) != 0 {
                                        board.step[i][strong][c] = board.dest[i][c];
                                    }
                                }
                            }
                            if s & GENERATOR != 0 {
                                generators |= bit(i as u8);
                                for d in 0..8 {
                                    let (nr, nc) = wrap(r, c, d);
                                    spawn |= bit(idx(nr, nc));
                                }
                            }
                            for d in 0..4 {
                                let (mut rr, mut cc) = (r, c);
                                let mut mask = 0u128;
                                while map.statics[rr][cc] & (1 << d) == 0 {
                                    (rr, cc) = wrap(rr, cc, d);
                                    if rr == r && cc == c {
                                        break;
                                    }
                                    mask |= bit(idx(rr, cc));
                                }
                                board.beam[i][d] = words(mask);
                            }
                        }
                    }
                    board.spawn = words(spawn & !generators);
                    let mut cur = Dynamic {
                        generator_turn_left: map.constants.generator_interval,
                        ..Dynamic::default()
                    };
                    for r in 0..h {
                        for c in 0..w {
                            let i = idx(r, c);
                            let content = map.content[r][c];
                            if content & SMALL_FRUIT != 0 {
                                set(&mut cur.small, i);
                                cur.small_fruit_count += 1;
                            }
                            if content & LARGE_FRUIT != 0 {
                                set(&mut cur.large, i);
                            }
                            for p in 0..PLAYERS {
                                if content & (1 << p) != 0 {
                                    cur.cell[p] = i;
                                    cur.strength[p] = 1;
                                    cur.power_up_left[p] = 0;
                                    cur.alive |= 1 << p;
                                }
                            }
                        }
                    }
                    Pacman2 {
                        board,
                        cur,
                        turn: 0,
                        history: [Dynamic::default(); MAX_TURN],
                    }
                }
                pub fn width(&self) -> usize {
                    self.board.width as usize
                }
                pub fn height(&self) -> usize {
                    self.board.height as usize
                }
                pub fn constants(&self) -> Constants {
                    self.board.constants
                }
                pub fn turn(&self) -> usize {
                    self.turn
                }
                pub fn alive_count(&self) -> usize {
                    self.cur.alive.count_ones() as usize
                }
                pub fn generator_turn_left(&self) -> i32 {
                    self.cur.generator_turn_left
                }
                pub fn small_fruit_count(&self) -> i32 {
                    self.cur.small_fruit_count
                }
                pub fn player(&self, p: usize) -> Player {
                    let cell = self.cur.cell[p] as usize;
                    let w = self.width();
                    Player {
                        row: cell / w,
                        col: cell % w,
                        strength: self.cur.strength[p],
                        power_up_left: self.cur.power_up_left[p],
                        dead: self.cur.alive & (1 << p) == 0,
                    }
                }
                pub fn players(&self) -> [Player; PLAYERS] {
                    [
                        self.player(0),
                        self.player(1),
                        self.player(2),
                        self.player(3),
                    ]
                }
                pub fn static_at(&self, row: usize, col: usize) -> u8 {
                    self.board.statics[row * self.width() + col]
                }
                pub fn content_at(&self, row: usize, col: usize) -> u8 {
                    let i = (row * self.width() + col) as u8;
                    let mut v = 0;
                    if has(&self.cur.small, i) {
                        v |= SMALL_FRUIT;
                    }
                    if has(&self.cur.large, i) {
                        v |= LARGE_FRUIT;
                    }
                    for p in 0..PLAYERS {
                        if self.cur.alive & (1 << p) != 0 && self.cur.cell[p] == i {
                            v |= 1 << p;
                        }
                    }
                    v
                }
                pub fn content_grid(&self) -> [[u8; MAX_SIDE]; MAX_SIDE] {
                    let mut g = [[0u8; MAX_SIDE]; MAX_SIDE];
                    for (r, row) in g.iter_mut().enumerate().take(self.height()) {
                        for (c, v) in row.iter_mut().enumerate().take(self.width()) {
                            *v = self.content_at(r, c);
                        }
                    }
                    g
                }
                #[inline]
                pub fn is_alive(&self, p: usize) -> bool {
                    self.cur.alive & (1 << p) != 0
                }
                #[inline]
                pub fn is_active(&self, p: usize) -> bool {
                    !self.is_over() && self.is_alive(p)
                }
                #[inline]
                pub fn is_over(&self) -> bool {
                    let a = self.cur.alive;
                    a & a.wrapping_sub(1) == 0 || self.turn >= MAX_TURN
                }
                #[inline]
                pub fn is_valid(&self, p: usize, action: Action) -> bool {
                    if !self.is_alive(p) {
                        return false;
                    }
                    let a = action.0;
                    if a == -1 {
                        true
                    } else if a >= 4 {
                        a < 8 && self.cur.strength[p] > self.board.constants.skill_cost
                    } else {
                        a >= 0
                            && self.board.statics[self.cur.cell[p] as usize & 127] & (1 << a) == 0
                    }
                }
                pub fn legal_actions(&self, p: usize, out: &mut Actions) {
                    out.clear();
                    if !self.is_alive(p) {
                        return;
                    }
                    for a in Action::ALL {
                        if self.is_valid(p, a) {
                            out.push(a);
                        }
                    }
                }
                #[inline]
                pub fn random_action(&self, p: usize, rng: &mut Rng) -> Action {
                    let (row, n) = self.roll_row(p);
                    Action(row[rng.below(n) as usize & 15] as i8 - 1)
                }
                #[inline(always)]
                fn roll_row(&self, p: usize) -> (&[u32; 16], u32) {
                    let row = &self.board.roll[self.cur.cell[p] as usize & 127];
                    let strong = u32::from(self.cur.strength[p] > self.board.constants.skill_cost);
                    (row, (row[0] >> 24) + 4 * strong)
                }
                #[inline(always)]
                fn pick(&self, p: usize, r: u64) -> (u32, u64) {
                    let (row, n) = self.roll_row(p);
                    let m = u128::from(r) * u128::from(n);
                    (row[(m >> 64) as usize & 15], m as u64)
                }
                #[inline]
                #[allow(clippy::needless_range_loop)]
                pub fn apply(&mut self, joint: &[Action]) -> bool {
                    let joint = [joint[0], joint[1], joint[2], joint[3]];
                    debug_assert!(!self.is_over(), "apply on a finished game");
                    let b = &self.board;
                    let d = &self.cur;
                    let cost = b.constants.skill_cost;
                    let jw = u32::from_le_bytes([
                        joint[0].0 as u8,
                        joint[1].0 as u8,
                        joint[2].0 as u8,
                        joint[3].0 as u8,
                    ]);
                    let cw = (((jw & 0x7f7f_7f7f) + 0x0101_0101) ^ (jw & 0x8080_8080))
                        & byte_masks(d.alive);
                    let big = (((cw & 0x7f7f_7f7f) + 0x7777_7777) | cw) & 0x8080_8080;
                    let mut tw = 0;
                    for p in 0..PLAYERS {
                        let c = (cw >> (8 * p)) as usize & 15;
                        let strong = usize::from(d.strength[p] > cost);
                        tw |= u32::from(b.step[d.cell[p] as usize & 127][strong][c]) << (8 * p);
                    }
                    let invalid = lane_bits(big | zero_lanes(!tw));
                    self.advance(cw, tw, invalid)
                }
                #[inline(always)]
                #[allow(clippy::needless_range_loop)]
                fn advance(&mut self, cw: u32, tw: u32, invalid: u8) -> bool {
                    let depth = self.turn;
                    if depth >= MAX_TURN {
                        return false;
                    }
                    self.history[depth] = self.cur;
                    let b = &self.board;
                    let d = &mut self.cur;
                    let cost = b.constants.skill_cost;
                    let alive0 = d.alive;
                    let mut shots = lane_bits(((cw & 0x7f7f_7f7f) + 0x7b7b_7b7b) | cw);
                    let code = cw.to_le_bytes().map(u32::from);
                    let c0 = lanes(d.cell, alive0);
                    let t = lanes(tw.to_le_bytes(), alive0);
                    let bump = zero_lanes(t ^ c0.rotate_right(8))
                        | zero_lanes(t ^ c0.rotate_right(16))
                        | zero_lanes(t ^ c0.rotate_right(24));
                    let mut act = code;
                    let mut errored = 0u8;
                    let cells = if (u32::from(invalid) | bump) == 0 {
                        tw
                    } else {
                        let mut occ = [0u8; 128];
                        for p in 0..PLAYERS {
                            occ[d.cell[p] as usize & 127] |= alive0 & (1 << p);
                        }
                        for p in 0..PLAYERS {
                            let cell = d.cell[p] as usize & 127;
                            if invalid & (1 << p) != 0 {
                                d.strength[p] = 0;
                                d.alive &= !(1 << p);
                                errored |= 1 << p;
                                occ[cell] &= !(1 << p);
                                act[p] = 0;
                                continue;
                            }
                            let c = code[p];
                            let target = b.dest[cell][c as usize & 15];
                            let is_move = c.wrapping_sub(1) < 4;
                            let others =
                                occ[target as usize & 127] & 0u8.wrapping_sub(u8::from(is_move));
                            let mut scared = false;
                            for i in 0..PLAYERS {
                                scared |=
                                    (others & (1 << i) != 0) & (d.strength[i] > d.strength[p]);
                            }
                            act[p] = if scared { 0 } else { c };
                        }
                        shots &= !errored;
                        let mut cells = 0;
                        for p in 0..PLAYERS {
                            let to = b.dest[d.cell[p] as usize & 127][act[p] as usize & 15];
                            cells |= u32::from(to) << (8 * p);
                        }
                        cells
                    };
                    d.cell = cells.to_le_bytes();
                    let cell = move |p: usize| (cells >> (8 * (p & 3))) as u8;
                    let alive = d.alive;
                    let shared = shared_lanes(lanes(cells.to_le_bytes(), alive)) != 0;
                    if shared {
                        let mut occ = [0u8; 128];
                        for p in 0..PLAYERS {
                            occ[cell(p) as usize & 127] |= alive & (1 << p);
                        }
                        let mut done = 0u8;
                        for p in 0..PLAYERS {
                            if alive & (1 << p) == 0 || done & (1 << p) != 0 {
                                continue;
                            }
                            let group = occ[cell(p) as usize & 127];
                            done |= group;
                            if group & group.wrapping_sub(1) == 0 {
                                continue;
                            }
                            let mut best = i32::MIN;
                            for q in 0..PLAYERS {
                                if group & (1 << q) != 0 {
                                    best = best.max(d.strength[q]);
                                }
                            }
                            let mut looted = 0;
                            let mut winners = 0;
                            for q in 0..PLAYERS {
                                if group & (1 << q) == 0 {
                                    continue;
                                }
                                if d.strength[q] == best {
                                    winners += 1;
                                } else {
                                    let drop = d.strength[q] / 2;
                                    d.strength[q] -= drop;
                                    looted += drop;
                                    d.alive &= !(1 << q);
                                }
                            }
                            let inc = looted / winners;
                            for q in 0..PLAYERS {
                                if group & (1 << q) != 0 && d.strength[q] == best {
                                    d.strength[q] += inc;
                                }
                            }
                        }
                    }
                    let shooters = shots & d.alive;
                    if shooters != 0 {
                        let mut targets = d.alive;
                        if errored != 0 {
                            for q in 0..PLAYERS {
                                let mut shared = false;
                                for p in 0..PLAYERS {
                                    shared |= (d.alive & (1 << p) != 0) & (cell(p) == cell(q));
                                }
                                targets |= u8::from((errored & (1 << q) != 0) & shared) << q;
                            }
                        }
                        if b.hit * 2 == cost * 3 {
                            let mut spots: Cells = [0; 2];
                            for q in 0..PLAYERS {
                                let on = 0u64.wrapping_sub(u64::from(targets & (1 << q) != 0));
                                let m = &b.bits[cell(q) as usize & 127];
                                spots[0] |= m[0] & on;
                                spots[1] |= m[1] & on;
                            }
                            let mut rest = shooters;
                            while rest != 0 {
                                let p = rest.trailing_zeros() as usize & 3;
                                rest &= rest - 1;
                                let beam = &b.beam[cell(p) as usize & 127]
                                    [(act[p] as usize).wrapping_sub(5) & 3];
                                d.strength[p] -= cost;
                                if (beam[0] & spots[0]) | (beam[1] & spots[1]) != 0 {
                                    for q in 0..PLAYERS {
                                        let hit = (targets & (1 << q) != 0) & has(beam, cell(q));
                                        d.strength[q] -= i32::from(hit) * b.hit;
                                        d.strength[p] += i32::from(hit) * b.hit;
                                    }
                                }
                            }
                        } else {
                            let half = f64::from(cost) * 1.5;
                            for p in 0..PLAYERS {
                                if shooters & (1 << p) == 0 {
                                    continue;
                                }
                                d.strength[p] -= cost;
                                let beam =
                                    &b.beam[cell(p) as usize & 127][(act[p] as usize - 5) & 3];
                                for q in 0..PLAYERS {
                                    if targets & (1 << q) != 0 && has(beam, cell(q)) {
                                        d.strength[q] = (f64::from(d.strength[q]) - half) as i32;
                                        d.strength[p] = (f64::from(d.strength[p]) + half) as i32;
                                    }
                                }
                            }
                        }
                        for p in 0..PLAYERS {
                            let die = (d.alive & (1 << p) != 0) & (d.strength[p] <= 0);
                            d.alive &= !(u8::from(die) << p);
                            d.strength[p] = if die { 0 } else { d.strength[p] };
                        }
                    }
                    d.generator_turn_left -= 1;
                    if d.generator_turn_left == 0 {
                        d.generator_turn_left = b.constants.generator_interval;
                        for w in 0..2 {
                            let new = b.spawn[w] & !(d.small[w] | d.large[w]);
                            d.small[w] |= new;
                            d.small_fruit_count += new.count_ones() as i32;
                        }
                    }
                    let alive = d.alive;
                    let alone = if shared {
                        alive & !lane_bits(shared_lanes(lanes(cells.to_le_bytes(), alive)))
                    } else {
                        alive
                    };
                    let fruit = [d.small[0] | d.large[0], d.small[1] | d.large[1]];
                    let mut here = 0u8;
                    for p in 0..PLAYERS {
                        let cell = u32::from(cell(p));
                        here |= (((fruit[(cell >> 6) as usize & 1] >> (cell & 63)) & 1) as u8) << p;
                    }
                    let enh = b.constants.large_fruit_enhancement;
                    let mut rest = here & alone;
                    while rest != 0 {
                        let p = rest.trailing_zeros() as usize & 3;
                        rest &= rest - 1;
                        let cell = cell(p);
                        let word = (cell >> 6) as usize & 1;
                        let m = 1u64 << (cell & 63);
                        if d.small[word] & m != 0 {
                            d.small[word] ^= m;
                            d.small_fruit_count -= 1;
                            d.strength[p] += 1;
                        } else {
                            d.large[word] ^= m;
                            if d.power_up_left[p] == 0 {
                                d.strength[p] += enh;
                            }
                            d.power_up_left[p] += b.constants.large_fruit_duration;
                            d.boosted |= u8::from(d.power_up_left[p] > 0) << p;
                        }
                    }
                    let boosted = d.boosted & alive;
                    if boosted != 0 {
                        let mut ends = 0u8;
                        for p in 0..PLAYERS {
                            let on = (boosted >> p) & 1;
                            d.power_up_left[p] -= i32::from(on);
                            ends |= u8::from((on != 0) & (d.power_up_left[p] == 0)) << p;
                        }
                        d.boosted &= !ends;
                        while ends != 0 {
                            let p = ends.trailing_zeros() as usize & 3;
                            ends &= ends - 1;
                            d.strength[p] -= enh;
                            if d.strength[p] <= 0 {
                                d.alive &= !(1 << p);
                                d.strength[p] = 0;
                            }
                        }
                    }
                    self.turn = depth + 1;
                    if d.alive & d.alive.wrapping_sub(1) == 0 {
                        for p in 0..PLAYERS {
                            if d.alive & (1 << p) != 0 {
                                d.strength[p] += d.small_fruit_count;
                            }
                        }
                        return false;
                    }
                    depth + 1 < MAX_TURN
                }
                #[inline]
                pub fn undo(&mut self) -> bool {
                    if self.turn == 0 {
                        return false;
                    }
                    self.turn -= 1;
                    self.cur = self.history[self.turn];
                    true
                }
                pub fn undo_to(&mut self, turn: usize) {
                    if turn < self.turn {
                        self.cur = self.history[turn];
                        self.turn = turn;
                    }
                }
                #[inline]
                pub fn random_rollout(&mut self, rng: &mut Rng) -> usize {
                    let start = self.turn();
                    if self.is_over() {
                        return 0;
                    }
                    loop {
                        let mut r = rng.next_u64();
                        let mut e = [0; PLAYERS];
                        for (p, e) in e.iter_mut().enumerate() {
                            (*e, r) = self.pick(p, r);
                        }
                        let (x, y) = (
                            (e[0] & 0x00ff_00ff) | e[1] << 8,
                            (e[2] & 0x00ff_00ff) | e[3] << 8,
                        );
                        let cw = (x & 0xffff) | y << 16;
                        let tw = x >> 16 | (y & 0xffff_0000);
                        let m = byte_masks(self.cur.alive);
                        let cw = cw & m;
                        let tw = (tw & m) | (u32::from_le_bytes(self.cur.cell) & !m);
                        if !self.advance(cw, tw, 0) {
                            break;
                        }
                    }
                    self.turn() - start
                }
                pub fn final_scores(&self) -> [f64; PLAYERS] {
                    let s = self.cur.strength;
                    let mut total: i64 = s.iter().map(|&x| i64::from(x)).sum();
                    if total == 0 {
                        total = 1;
                    }
                    let mut out = [0.0; PLAYERS];
                    for p in 0..PLAYERS {
                        let rank = 1 + s.iter().filter(|&&x| x < s[p]).count() as i64;
                        out[p] = (rank * 1000 + 10000 * i64::from(s[p]) / total) as f64 / 100.0;
                    }
                    out
                }
            }
            impl Pacman2 {
                pub fn joint_from_request(
                    &self,
                    request: &Value,
                    path: &str,
                ) -> Result<[Action; PLAYERS], InputError> {
                    if request.as_object().is_none() {
                        return Err(InputError::new(format!(
                            "{path}: expected an object of the players' actions, found {}",
                            request.kind()
                        )));
                    }
                    if self.is_over() {
                        return Err(InputError::new(format!(
                            "{path}: the game ended at turn {}, no turn can follow",
                            self.turn()
                        )));
                    }
                    let mut joint = [Action::STAY; PLAYERS];
                    for (p, slot) in joint.iter_mut().enumerate() {
                        if !self.is_alive(p) {
                            continue;
                        }
                        let key = ["0", "1", "2", "3"][p];
                        let entry = request.get(key).ok_or_else(|| {
                            InputError::new(format!(
                                "{path}: no entry \"{key}\" for player {p}, who is alive"
                            ))
                        })?;
                        let code = entry.get("action").ok_or_else(|| {
                            InputError::new(format!("{path}.{key}.action: missing"))
                        })?;
                        let code = code.as_i64().ok_or_else(|| {
                            InputError::new(format!(
                                "{path}.{key}.action: expected an integer, found {}",
                                code.kind()
                            ))
                        })?;
                        *slot = Action::from_code(code);
                    }
                    Ok(joint)
                }
            }
            #[derive(Clone, Copy, Debug, Default)]
            pub struct RandomPolicy;
            impl crate::botzone::search::flat_mc::Policy<Pacman2> for RandomPolicy {
                #[inline]
                fn action(&mut self, game: &Pacman2, player: usize, rng: &mut Rng) -> Action {
                    game.random_action(player, rng)
                }
            }
            impl Game for Pacman2 {
                type Action = Action;
                type Actions = Actions;
                fn player_count(&self) -> usize {
                    PLAYERS
                }
                fn is_over(&self) -> bool {
                    Pacman2::is_over(self)
                }
                fn is_active(&self, player: usize) -> bool {
                    Pacman2::is_active(self, player)
                }
                fn legal_actions(&self, player: usize, out: &mut Actions) {
                    Pacman2::legal_actions(self, player, out)
                }
                fn apply(&mut self, joint: &[Action]) {
                    Pacman2::apply(self, joint);
                }
                fn undo(&mut self) -> bool {
                    Pacman2::undo(self)
                }
                fn scores(&self, out: &mut [f64]) {
                    out[..PLAYERS].copy_from_slice(&self.final_scores());
                }
            }
            impl fmt::Display for Pacman2 {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    let (w, h) = (self.width(), self.height());
                    writeln!(
						f,
						"turn {} alive {} | generator G, player 0-3, several *, large fruit o, small fruit .",
						self.turn(), self.alive_count()
					)?;
                    for (p, pl) in self.players().iter().enumerate() {
                        writeln!(
                            f,
                            "[player {p} ({}, {}) | strength {} | boost left {} | {}]",
                            pl.row,
                            pl.col,
                            pl.strength,
                            pl.power_up_left,
                            if pl.dead { "dead" } else { "alive" }
                        )?;
                    }
                    write!(f, "  ")?;
                    for c in 0..w {
                        write!(f, "{c:>3} ")?;
                    }
                    writeln!(f)?;
                    for r in 0..h {
                        write!(f, "  ")?;
                        for c in 0..w {
                            let n = self.static_at(r, c) & WALL_NORTH != 0;
                            write!(f, " {}", if n { "---" } else { "   " })?;
                        }
                        write!(f, "\n{r:>2}")?;
                        for c in 0..w {
                            let s = self.static_at(r, c);
                            let content = self.content_at(r, c);
                            let ch = match content & 15 {
                                0 if s & GENERATOR != 0 => 'G',
                                0 if content & LARGE_FRUIT != 0 => 'o',
                                0 if content & SMALL_FRUIT != 0 => '.',
                                0 => ' ',
                                m if m.count_ones() > 1 => '*',
                                m => (b'0' + m.trailing_zeros() as u8) as char,
                            };
                            write!(f, "{} {} ", if s & WALL_WEST != 0 { '|' } else { ' ' }, ch)?;
                        }
                        let e = self.static_at(r, w - 1) & WALL_EAST != 0;
                        writeln!(f, "{}", if e { '|' } else { ' ' })?;
                    }
                    write!(f, "  ")?;
                    for c in 0..w {
                        let s = self.static_at(h - 1, c) & WALL_SOUTH != 0;
                        write!(f, " {}", if s { "---" } else { "   " })?;
                    }
                    writeln!(f)
                }
            }
        }
        pub trait Game: Clone {
            type Action: Copy + Eq + Default + Debug;
            type Actions: Default + Deref<Target = [Self::Action]>;
            fn player_count(&self) -> usize;
            fn is_over(&self) -> bool;
            fn is_active(&self, player: usize) -> bool;
            fn legal_actions(&self, player: usize, out: &mut Self::Actions);
            fn apply(&mut self, joint: &[Self::Action]);
            fn undo(&mut self) -> bool;
            fn scores(&self, out: &mut [f64]);
        }
    }
    pub mod json {
        use std::fmt::{self, Write as _};
        use std::ops::Index;
        use std::str::FromStr;
        pub const MAX_DEPTH: usize = 128;
        #[derive(Clone, Debug, PartialEq, Default)]
        pub enum Value {
            #[default]
            Null,
            Bool(bool),
            Number(Number),
            String(String),
            Array(Vec<Value>),
            Object(Map),
        }
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Number {
            Int(i64),
            UInt(u64),
            Float(f64),
        }
        impl Number {
            pub fn as_i64(&self) -> Option<i64> {
                match *self {
                    Number::Int(i) => Some(i),
                    Number::UInt(_) | Number::Float(_) => None,
                }
            }
            pub fn as_u64(&self) -> Option<u64> {
                match *self {
                    Number::Int(i) => u64::try_from(i).ok(),
                    Number::UInt(u) => Some(u),
                    Number::Float(_) => None,
                }
            }
            pub fn as_f64(&self) -> f64 {
                match *self {
                    Number::Int(i) => i as f64,
                    Number::UInt(u) => u as f64,
                    Number::Float(f) => f,
                }
            }
        }
        impl fmt::Display for Number {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match *self {
                    Number::Int(i) => write!(f, "{i}"),
                    Number::UInt(u) => write!(f, "{u}"),
                    Number::Float(x) if x.is_finite() => write!(f, "{x:?}"),
                    Number::Float(_) => f.write_str("null"),
                }
            }
        }
        #[derive(Clone, Debug, Default)]
        pub struct Map {
            entries: Vec<(String, Value)>,
        }
        impl PartialEq for Map {
            fn eq(&self, other: &Map) -> bool {
                self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
            }
        }
        impl Map {
            pub fn new() -> Self {
                Map::default()
            }
            pub fn get(&self, key: &str) -> Option<&Value> {
                self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
            }
            pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
                self.entries
                    .iter_mut()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v)
            }
            pub fn contains_key(&self, key: &str) -> bool {
                self.get(key).is_some()
            }
            pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
                let key = key.into();
                match self.get_mut(&key) {
                    Some(slot) => Some(std::mem::replace(slot, value)),
                    None => {
                        self.entries.push((key, value));
                        None
                    }
                }
            }
            pub fn remove(&mut self, key: &str) -> Option<Value> {
                let i = self.entries.iter().position(|(k, _)| k == key)?;
                Some(self.entries.remove(i).1)
            }
            pub fn len(&self) -> usize {
                self.entries.len()
            }
            pub fn is_empty(&self) -> bool {
                self.entries.is_empty()
            }
            pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
                self.entries.iter().map(|(k, v)| (k.as_str(), v))
            }
            pub fn keys(&self) -> impl Iterator<Item = &str> {
                self.entries.iter().map(|(k, _)| k.as_str())
            }
        }
        impl<K: Into<String>> FromIterator<(K, Value)> for Map {
            fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
                let mut map = Map::new();
                for (k, v) in iter {
                    map.insert(k, v);
                }
                map
            }
        }
        pub fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Value)>) -> Value {
            Value::Object(members.into_iter().collect())
        }
        static NULL: Value = Value::Null;
        impl Value {
            pub fn parse(text: &str) -> Result<Value, Error> {
                Parser::new(text.as_bytes()).document()
            }
            pub fn from_slice(bytes: &[u8]) -> Result<Value, Error> {
                match std::str::from_utf8(bytes) {
                    Ok(text) => Value::parse(text),
                    Err(e) => {
                        let valid = &bytes[..e.valid_up_to()];
                        match Parser::new(valid).document() {
                            Err(err) if !err.is_eof() => Err(err),
                            _ => Err(Error::new(e.valid_up_to(), ErrorKind::InvalidUtf8)),
                        }
                    }
                }
            }
            pub fn kind(&self) -> &'static str {
                match self {
                    Value::Null => "null",
                    Value::Bool(_) => "a boolean",
                    Value::Number(_) => "a number",
                    Value::String(_) => "a string",
                    Value::Array(_) => "an array",
                    Value::Object(_) => "an object",
                }
            }
            pub fn is_null(&self) -> bool {
                matches!(self, Value::Null)
            }
            pub fn as_bool(&self) -> Option<bool> {
                match self {
                    Value::Bool(b) => Some(*b),
                    _ => None,
                }
            }
            pub fn as_number(&self) -> Option<Number> {
                match self {
                    Value::Number(n) => Some(*n),
                    _ => None,
                }
            }
            pub fn as_i64(&self) -> Option<i64> {
                self.as_number()?.as_i64()
            }
            pub fn as_u64(&self) -> Option<u64> {
                self.as_number()?.as_u64()
            }
            pub fn as_f64(&self) -> Option<f64> {
                Some(self.as_number()?.as_f64())
            }
            pub fn as_str(&self) -> Option<&str> {
                match self {
                    Value::String(s) => Some(s),
                    _ => None,
                }
            }
            pub fn as_array(&self) -> Option<&[Value]> {
                match self {
                    Value::Array(a) => Some(a),
                    _ => None,
                }
            }
            pub fn as_object(&self) -> Option<&Map> {
                match self {
                    Value::Object(m) => Some(m),
                    _ => None,
                }
            }
            pub fn get(&self, key: &str) -> Option<&Value> {
                self.as_object()?.get(key)
            }
            pub fn get_index(&self, i: usize) -> Option<&Value> {
                self.as_array()?.get(i)
            }
            pub fn write_to(&self, out: &mut String) {
                match self {
                    Value::Null => out.push_str("null"),
                    Value::Bool(true) => out.push_str("true"),
                    Value::Bool(false) => out.push_str("false"),
                    Value::Number(n) => {
                        let _ = write!(out, "{n}");
                    }
                    Value::String(s) => write_string(s, out),
                    Value::Array(items) => {
                        out.push('[');
                        for (i, item) in items.iter().enumerate() {
                            if i > 0 {
                                out.push(',');
                            }
                            item.write_to(out);
                        }
                        out.push(']');
                    }
                    Value::Object(map) => {
                        out.push('{');
                        for (i, (k, v)) in map.iter().enumerate() {
                            if i > 0 {
                                out.push(',');
                            }
                            write_string(k, out);
                            out.push(':');
                            v.write_to(out);
                        }
                        out.push('}');
                    }
                }
            }
        }
        pub fn write_string(s: &str, out: &mut String) {
            out.push('"');
            let mut start = 0;
            for (i, b) in s.bytes().enumerate() {
                let escape = match b {
                    b'"' => "\\\"",
                    b'\\' => "\\\\",
                    b'\n' => "\\n",
                    b'\r' => "\\r",
                    b'\t' => "\\t",
                    0x08 => "\\b",
                    0x0c => "\\f",
                    0..=0x1f => "",
                    _ => continue,
                };
                out.push_str(&s[start..i]);
                if escape.is_empty() {
                    let _ = write!(out, "\\u{b:04x}");
                } else {
                    out.push_str(escape);
                }
                start = i + 1;
            }
            out.push_str(&s[start..]);
            out.push('"');
        }
        impl fmt::Display for Value {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut out = String::new();
                self.write_to(&mut out);
                f.write_str(&out)
            }
        }
        impl FromStr for Value {
            type Err = Error;
            fn from_str(s: &str) -> Result<Value, Error> {
                Value::parse(s)
            }
        }
        impl Index<&str> for Value {
            type Output = Value;
            fn index(&self, key: &str) -> &Value {
                self.get(key).unwrap_or(&NULL)
            }
        }
        impl Index<usize> for Value {
            type Output = Value;
            fn index(&self, i: usize) -> &Value {
                self.get_index(i).unwrap_or(&NULL)
            }
        }
        macro_rules! from_int {
			($($t:ty),*) => {
				$(impl From <$t > for Value { fn from(n : $t) -> Value {
				Value::Number(Number::Int(i64::from(n))) } })*
			};
		}
        from_int!(i8, i16, i32, i64, u8, u16, u32);
        impl From<u64> for Value {
            fn from(n: u64) -> Value {
                Value::Number(match i64::try_from(n) {
                    Ok(i) => Number::Int(i),
                    Err(_) => Number::UInt(n),
                })
            }
        }
        impl From<usize> for Value {
            fn from(n: usize) -> Value {
                Value::from(n as u64)
            }
        }
        impl From<f64> for Value {
            fn from(x: f64) -> Value {
                Value::Number(Number::Float(x))
            }
        }
        impl From<bool> for Value {
            fn from(b: bool) -> Value {
                Value::Bool(b)
            }
        }
        impl From<&str> for Value {
            fn from(s: &str) -> Value {
                Value::String(s.to_owned())
            }
        }
        impl From<String> for Value {
            fn from(s: String) -> Value {
                Value::String(s)
            }
        }
        impl From<Vec<Value>> for Value {
            fn from(items: Vec<Value>) -> Value {
                Value::Array(items)
            }
        }
        impl From<Map> for Value {
            fn from(map: Map) -> Value {
                Value::Object(map)
            }
        }
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Error {
            offset: usize,
            kind: ErrorKind,
        }
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum ErrorKind {
            UnexpectedEnd { expected: &'static str },
            Unexpected { found: char, expected: &'static str },
            InvalidEscape,
            InvalidUnicodeEscape,
            ControlCharacter,
            NumberOutOfRange,
            TooDeep,
            TrailingCharacters,
            InvalidUtf8,
        }
        impl Error {
            fn new(offset: usize, kind: ErrorKind) -> Self {
                Error { offset, kind }
            }
            pub fn offset(&self) -> usize {
                self.offset
            }
            pub fn kind(&self) -> &ErrorKind {
                &self.kind
            }
            pub fn is_eof(&self) -> bool {
                matches!(self.kind, ErrorKind::UnexpectedEnd { .. })
            }
        }
        impl fmt::Display for Error {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "invalid JSON at byte {}: ", self.offset)?;
                match &self.kind {
                    ErrorKind::UnexpectedEnd { expected } => {
                        write!(f, "the text ends where {expected} was expected")
                    }
                    ErrorKind::Unexpected { found, expected } => {
                        write!(f, "expected {expected}, found {found:?}")
                    }
                    ErrorKind::InvalidEscape => f.write_str("invalid escape in a string"),
                    ErrorKind::InvalidUnicodeEscape => {
                        f.write_str("invalid \\u escape (four hex digits; surrogates in pairs)")
                    }
                    ErrorKind::ControlCharacter => {
                        f.write_str("control character in a string (escape it)")
                    }
                    ErrorKind::NumberOutOfRange => f.write_str("number out of range"),
                    ErrorKind::TooDeep => {
                        write!(f, "nested deeper than {MAX_DEPTH} levels")
                    }
                    ErrorKind::TrailingCharacters => {
                        f.write_str("text after the end of the document")
                    }
                    ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
                }
            }
        }
        impl std::error::Error for Error {}
        struct Parser<'a> {
            bytes: &'a [u8],
            pos: usize,
            depth: usize,
        }
        impl<'a> Parser<'a> {
            fn new(bytes: &'a [u8]) -> Self {
                Parser {
                    bytes,
                    pos: 0,
                    depth: 0,
                }
            }
            fn document(mut self) -> Result<Value, Error> {
                let value = self.value()?;
                self.skip_ws();
                if self.pos < self.bytes.len() {
                    return Err(self.error(ErrorKind::TrailingCharacters));
                }
                Ok(value)
            }
            fn error(&self, kind: ErrorKind) -> Error {
                Error::new(self.pos, kind)
            }
            fn unexpected(&self, expected: &'static str) -> Error {
                match self.bytes.get(self.pos) {
                    None => self.error(ErrorKind::UnexpectedEnd { expected }),
                    Some(_) => {
                        let rest = &self.bytes[self.pos..];
                        let found = std::str::from_utf8(&rest[..rest.len().min(4)])
                            .ok()
                            .or_else(|| {
                                (1..4).find_map(|n| std::str::from_utf8(rest.get(..n)?).ok())
                            })
                            .and_then(|s| s.chars().next())
                            .unwrap_or(char::REPLACEMENT_CHARACTER);
                        self.error(ErrorKind::Unexpected { found, expected })
                    }
                }
            }
            fn skip_ws(&mut self) {
                while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
                    self.pos += 1;
                }
            }
            fn peek(&self) -> Option<u8> {
                self.bytes.get(self.pos).copied()
            }
            fn value(&mut self) -> Result<Value, Error> {
                self.skip_ws();
                match self.peek() {
                    Some(b'{') => self.object(),
                    Some(b'[') => self.array(),
                    Some(b'"') => Ok(Value::String(self.string()?)),
                    Some(b't') => self.literal("true", Value::Bool(true)),
                    Some(b'f') => self.literal("false", Value::Bool(false)),
                    Some(b'n') => self.literal("null", Value::Null),
                    Some(b'-' | b'0'..=b'9') => self.number(),
                    _ => Err(self.unexpected("a value")),
                }
            }
            fn literal(&mut self, word: &'static str, value: Value) -> Result<Value, Error> {
                for &b in word.as_bytes() {
                    if self.peek() != Some(b) {
                        return Err(self.unexpected(word));
                    }
                    self.pos += 1;
                }
                Ok(value)
            }
            fn enter(&mut self) -> Result<(), Error> {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(self.error(ErrorKind::TooDeep));
                }
                self.pos += 1;
                Ok(())
            }
            fn array(&mut self) -> Result<Value, Error> {
                self.enter()?;
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                } else {
                    loop {
                        items.push(self.value()?);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b']') => {
                                self.pos += 1;
                                break;
                            }
                            _ => return Err(self.unexpected("',' or ']'")),
                        }
                    }
                }
                self.depth -= 1;
                Ok(Value::Array(items))
            }
            fn object(&mut self) -> Result<Value, Error> {
                self.enter()?;
                let mut map = Map::new();
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip_ws();
                        if self.peek() != Some(b'"') {
                            return Err(self.unexpected("a string key"));
                        }
                        let key = self.string()?;
                        self.skip_ws();
                        if self.peek() != Some(b':') {
                            return Err(self.unexpected("':'"));
                        }
                        self.pos += 1;
                        let value = self.value()?;
                        map.insert(key, value);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b'}') => {
                                self.pos += 1;
                                break;
                            }
                            _ => return Err(self.unexpected("',' or '}'")),
                        }
                    }
                }
                self.depth -= 1;
                Ok(Value::Object(map))
            }
            fn string(&mut self) -> Result<String, Error> {
                self.pos += 1;
                let mut out = String::new();
                loop {
                    let start = self.pos;
                    while let Some(&b) = self.bytes.get(self.pos) {
                        if b == b'"' || b == b'\\' || b < 0x20 {
                            break;
                        }
                        self.pos += 1;
                    }
                    out.push_str(self.utf8(start, self.pos)?);
                    match self.peek() {
                        None => {
                            return Err(self.error(ErrorKind::UnexpectedEnd { expected: "'\"'" }));
                        }
                        Some(b'"') => {
                            self.pos += 1;
                            return Ok(out);
                        }
                        Some(b'\\') => {
                            self.pos += 1;
                            self.escape(&mut out)?;
                        }
                        Some(_) => return Err(self.error(ErrorKind::ControlCharacter)),
                    }
                }
            }
            fn utf8(&self, start: usize, end: usize) -> Result<&'a str, Error> {
                std::str::from_utf8(&self.bytes[start..end])
                    .map_err(|e| Error::new(start + e.valid_up_to(), ErrorKind::InvalidUtf8))
            }
            fn escape(&mut self, out: &mut String) -> Result<(), Error> {
                let Some(b) = self.peek() else {
                    return Err(self.error(ErrorKind::UnexpectedEnd {
                        expected: "an escape",
                    }));
                };
                self.pos += 1;
                let c = match b {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => self.unicode_escape()?,
                    _ => {
                        self.pos -= 1;
                        return Err(self.error(ErrorKind::InvalidEscape));
                    }
                };
                out.push(c);
                Ok(())
            }
            fn unicode_escape(&mut self) -> Result<char, Error> {
                let at = self.pos - 2;
                let first = self.hex4()?;
                let code = match first {
                    0xD800..=0xDBFF => {
                        if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                            let rest = &self.bytes[self.pos..];
                            if rest.is_empty() || rest == b"\\" {
                                return Err(self.error(ErrorKind::UnexpectedEnd {
                                    expected: "a low surrogate",
                                }));
                            }
                            return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape));
                        }
                        self.pos += 2;
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape));
                        }
                        0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    }
                    0xDC00..=0xDFFF => {
                        return Err(Error::new(at, ErrorKind::InvalidUnicodeEscape));
                    }
                    _ => first,
                };
                char::from_u32(code).ok_or(Error::new(at, ErrorKind::InvalidUnicodeEscape))
            }
            fn hex4(&mut self) -> Result<u32, Error> {
                let mut code = 0;
                for _ in 0..4 {
                    let digit = match self.peek() {
                        None => {
                            return Err(self.error(ErrorKind::UnexpectedEnd {
                                expected: "a hex digit",
                            }));
                        }
                        Some(b) => (b as char)
                            .to_digit(16)
                            .ok_or_else(|| self.error(ErrorKind::InvalidUnicodeEscape))?,
                    };
                    code = code * 16 + digit;
                    self.pos += 1;
                }
                Ok(code)
            }
            fn digits(&mut self) -> usize {
                let start = self.pos;
                while let Some(b'0'..=b'9') = self.peek() {
                    self.pos += 1;
                }
                self.pos - start
            }
            fn number(&mut self) -> Result<Value, Error> {
                let start = self.pos;
                if self.peek() == Some(b'-') {
                    self.pos += 1;
                }
                match self.peek() {
                    Some(b'0') => self.pos += 1,
                    Some(b'1'..=b'9') => {
                        self.digits();
                    }
                    _ => return Err(self.unexpected("a digit")),
                }
                let mut integer = true;
                if self.peek() == Some(b'.') {
                    integer = false;
                    self.pos += 1;
                    if self.digits() == 0 {
                        return Err(self.unexpected("a digit after '.'"));
                    }
                }
                if let Some(b'e' | b'E') = self.peek() {
                    integer = false;
                    self.pos += 1;
                    if let Some(b'+' | b'-') = self.peek() {
                        self.pos += 1;
                    }
                    if self.digits() == 0 {
                        return Err(self.unexpected("a digit in the exponent"));
                    }
                }
                let text = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("");
                if integer && text != "-0" {
                    if let Ok(i) = text.parse::<i64>() {
                        return Ok(Value::Number(Number::Int(i)));
                    }
                    if let Ok(u) = text.parse::<u64>() {
                        return Ok(Value::Number(Number::UInt(u)));
                    }
                }
                match text.parse::<f64>() {
                    Ok(x) if x.is_finite() => Ok(Value::Number(Number::Float(x))),
                    _ => Err(Error::new(start, ErrorKind::NumberOutOfRange)),
                }
            }
        }
    }
    pub mod protocol {
        use crate::botzone::json::{self, Value};
        use crate::botzone::time::{turn_limit, Deadline};
        use std::fmt;
        use std::io::{self, BufRead, Write};
        use std::panic::{self, AssertUnwindSafe};
        use std::process::ExitCode;
        pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
        pub const MAX_DEBUG_BYTES: usize = 1024;
        pub const EXIT_OK: u8 = 0;
        pub const EXIT_BAD_INPUT: u8 = 1;
        pub const EXIT_IO: u8 = 2;
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct Input {
            pub requests: Vec<Value>,
            pub responses: Vec<Value>,
            pub data: Option<String>,
            pub globaldata: Option<String>,
            pub time_limit: Option<f64>,
            pub memory_limit: Option<f64>,
            pub simplified: bool,
        }
        impl Input {
            pub fn from_json(doc: &Value) -> Result<Input, BotError> {
                let root = At::root(doc, "input");
                root.object()?;
                let requests = root.key("requests")?.array()?.to_vec();
                if requests.is_empty() {
                    return Err(BotError::new(
                        "requests: expected at least one request, found none",
                    ));
                }
                let responses = match doc.get("responses") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(_) => root.key("responses")?.array()?.to_vec(),
                };
                if responses.len() + 1 != requests.len() {
                    return Err(BotError::new(format!(
                        "responses: expected {} (one fewer than the {} requests), found {}",
                        requests.len() - 1,
                        requests.len(),
                        responses.len()
                    )));
                }
                Ok(Input {
                    requests,
                    responses,
                    data: root.optional_string("data")?,
                    globaldata: root.optional_string("globaldata")?,
                    time_limit: root.optional_number("time_limit")?,
                    memory_limit: root.optional_number("memory_limit")?,
                    simplified: false,
                })
            }
            pub fn parse(text: &str) -> Result<Input, BotError> {
                let doc = Value::parse(text).map_err(BotError::json)?;
                Input::from_json(&doc)
            }
            pub fn request(&self) -> &Value {
                self.requests.last().unwrap_or(&Value::Null)
            }
            pub fn is_first_turn(&self) -> bool {
                self.requests.len() == 1
            }
        }
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct Output {
            pub response: Value,
            pub debug: Option<String>,
            pub data: Option<String>,
            pub globaldata: Option<String>,
        }
        impl Output {
            pub fn new(response: Value) -> Self {
                Output {
                    response,
                    ..Output::default()
                }
            }
            pub fn with_debug(mut self, debug: impl Into<String>) -> Self {
                self.debug = Some(debug.into());
                self
            }
            pub fn with_data(mut self, data: impl Into<String>) -> Self {
                self.data = Some(data.into());
                self
            }
            pub fn with_globaldata(mut self, globaldata: impl Into<String>) -> Self {
                self.globaldata = Some(globaldata.into());
                self
            }
            pub fn to_json_line(&self) -> String {
                let mut map = json::Map::new();
                map.insert("response", self.response.clone());
                if let Some(debug) = &self.debug {
                    map.insert("debug", Value::from(truncate(debug, MAX_DEBUG_BYTES)));
                }
                if let Some(data) = &self.data {
                    map.insert("data", Value::from(data.as_str()));
                }
                if let Some(globaldata) = &self.globaldata {
                    map.insert("globaldata", Value::from(globaldata.as_str()));
                }
                Value::Object(map).to_string()
            }
            pub fn to_simplified(&self) -> String {
                let mut lines = vec![match &self.response {
                    Value::String(s) => one_line(s),
                    other => other.to_string(),
                }];
                let rest = [&self.debug, &self.data, &self.globaldata];
                if let Some(last) = rest.iter().rposition(|x| x.is_some()) {
                    for (i, item) in rest[..=last].iter().enumerate() {
                        let text = item.as_deref().unwrap_or("");
                        let text = if i == 0 {
                            truncate(text, MAX_DEBUG_BYTES)
                        } else {
                            text
                        };
                        lines.push(one_line(text));
                    }
                }
                lines.join("\n")
            }
        }
        fn one_line(s: &str) -> String {
            s.replace(['\n', '\r'], " ")
        }
        fn truncate(s: &str, max: usize) -> &str {
            if s.len() <= max {
                return s;
            }
            let mut end = max;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            &s[..end]
        }
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct BotError {
            message: String,
        }
        impl BotError {
            pub fn new(message: impl Into<String>) -> Self {
                BotError {
                    message: message.into(),
                }
            }
            pub fn json(e: json::Error) -> Self {
                BotError::new(format!("input is not JSON: {e}"))
            }
            pub fn mistyped(path: &str, expected: &str, found: &Value) -> Self {
                BotError::new(format!(
                    "{path}: expected {expected}, found {}",
                    found.kind()
                ))
            }
            pub fn missing(path: &str) -> Self {
                BotError::new(format!("{path}: missing"))
            }
            pub fn message(&self) -> &str {
                &self.message
            }
        }
        impl fmt::Display for BotError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.message)
            }
        }
        impl std::error::Error for BotError {}
        #[derive(Clone, Debug)]
        pub struct At<'a> {
            value: &'a Value,
            path: String,
        }
        impl<'a> At<'a> {
            pub fn root(value: &'a Value, name: &str) -> Self {
                At {
                    value,
                    path: name.to_owned(),
                }
            }
            pub fn value(&self) -> &'a Value {
                self.value
            }
            pub fn path(&self) -> &str {
                &self.path
            }
            pub fn key(&self, key: &str) -> Result<At<'a>, BotError> {
                let map = self.object()?;
                let path = format!("{}.{key}", self.path);
                match map.get(key) {
                    Some(value) => Ok(At { value, path }),
                    None => Err(BotError::missing(&path)),
                }
            }
            pub fn maybe_key(&self, key: &str) -> Result<Option<At<'a>>, BotError> {
                let map = self.object()?;
                Ok(match map.get(key) {
                    None | Some(Value::Null) => None,
                    Some(value) => Some(At {
                        value,
                        path: format!("{}.{key}", self.path),
                    }),
                })
            }
            pub fn index(&self, i: usize) -> Result<At<'a>, BotError> {
                let items = self.array()?;
                let path = format!("{}[{i}]", self.path);
                match items.get(i) {
                    Some(value) => Ok(At { value, path }),
                    None => Err(BotError::new(format!(
                        "{path}: missing (the array has {} elements)",
                        items.len()
                    ))),
                }
            }
            pub fn elements(&self) -> Result<Vec<At<'a>>, BotError> {
                Ok(self
                    .array()?
                    .iter()
                    .enumerate()
                    .map(|(i, value)| At {
                        value,
                        path: format!("{}[{i}]", self.path),
                    })
                    .collect())
            }
            pub fn object(&self) -> Result<&'a json::Map, BotError> {
                self.value
                    .as_object()
                    .ok_or_else(|| BotError::mistyped(&self.path, "an object", self.value))
            }
            pub fn array(&self) -> Result<&'a [Value], BotError> {
                self.value
                    .as_array()
                    .ok_or_else(|| BotError::mistyped(&self.path, "an array", self.value))
            }
            pub fn str(&self) -> Result<&'a str, BotError> {
                self.value
                    .as_str()
                    .ok_or_else(|| BotError::mistyped(&self.path, "a string", self.value))
            }
            pub fn i64(&self) -> Result<i64, BotError> {
                self.value
                    .as_i64()
                    .ok_or_else(|| BotError::mistyped(&self.path, "an integer", self.value))
            }
            pub fn int_in(&self, lo: i64, hi: i64) -> Result<i64, BotError> {
                let n = self.i64()?;
                if n < lo || n > hi {
                    return Err(BotError::new(format!(
                        "{}: expected an integer in {lo}..={hi}, found {n}",
                        self.path
                    )));
                }
                Ok(n)
            }
            pub fn number(&self) -> Result<f64, BotError> {
                match self.value {
                    Value::Number(n) => Ok(n.as_f64()),
                    Value::String(s) => s.trim().parse::<f64>().map_err(|_| {
                        BotError::new(format!("{}: expected a number, found {s:?}", self.path))
                    }),
                    other => Err(BotError::mistyped(&self.path, "a number", other)),
                }
            }
            fn optional_string(&self, key: &str) -> Result<Option<String>, BotError> {
                self.maybe_key(key)?
                    .map(|at| at.str().map(str::to_owned))
                    .transpose()
            }
            fn optional_number(&self, key: &str) -> Result<Option<f64>, BotError> {
                self.maybe_key(key)?.map(|at| at.number()).transpose()
            }
        }
        pub trait Bot {
            fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError>;
            fn on_request(
                &mut self,
                request: &Value,
                deadline: &Deadline,
            ) -> Result<Output, BotError>;
            fn fallback(&self) -> Option<Value>;
            fn keep_running(&self) -> bool {
                true
            }
        }
        pub fn run<B: Bot>(bot: &mut B) -> ExitCode {
            let stdin = io::stdin();
            let stdout = io::stdout();
            let stderr = io::stderr();
            let code = run_with(bot, stdin.lock(), stdout.lock(), stderr.lock());
            ExitCode::from(code)
        }
        pub fn run_with<B: Bot, R: BufRead, W: Write, E: Write>(
            bot: &mut B,
            mut input: R,
            mut output: W,
            mut errors: E,
        ) -> u8 {
            let mut session = Session {
                reader: Reader::new(&mut input),
                output: &mut output,
                errors: &mut errors,
            };
            session.run(bot)
        }
        struct Session<'r, R: BufRead, W: Write, E: Write> {
            reader: Reader<'r, R>,
            output: &'r mut W,
            errors: &'r mut E,
        }
        enum Step {
            Answered,
            Failed(BotError),
        }
        impl<R: BufRead, W: Write, E: Write> Session<'_, R, W, E> {
            fn run<B: Bot>(&mut self, bot: &mut B) -> u8 {
                let first = match self.reader.first_input() {
                    Ok(Some(input)) => input,
                    Ok(None) => {
                        return self.fail(
                            bot,
                            BotError::new("empty input: expected a Botzone request"),
                        );
                    }
                    Err(ReadError::Io(e)) => return self.io_error(&e),
                    Err(ReadError::Bad(e)) => return self.fail(bot, e),
                };
                let deadline =
                    Deadline::for_turn(turn_limit(first.time_limit, first.is_first_turn()));
                let simplified = first.simplified;
                match self.answer(bot, simplified, |bot| bot.on_input(&first, &deadline)) {
                    Ok(Step::Answered) => {}
                    Ok(Step::Failed(e)) => return self.fail(bot, e),
                    Err(e) => return self.io_error(&e),
                }
                loop {
                    if !bot.keep_running() {
                        return EXIT_OK;
                    }
                    let request = match self.reader.next_request(simplified) {
                        Ok(Some(request)) => request,
                        Ok(None) => return EXIT_OK,
                        Err(ReadError::Io(e)) => return self.io_error(&e),
                        Err(ReadError::Bad(e)) => return self.fail(bot, e),
                    };
                    let deadline = Deadline::for_turn(turn_limit(first.time_limit, false));
                    match self.answer(bot, simplified, |bot| bot.on_request(&request, &deadline)) {
                        Ok(Step::Answered) => {}
                        Ok(Step::Failed(e)) => return self.fail(bot, e),
                        Err(e) => return self.io_error(&e),
                    }
                }
            }
            fn answer<B: Bot>(
                &mut self,
                bot: &mut B,
                simplified: bool,
                call: impl FnOnce(&mut B) -> Result<Output, BotError>,
            ) -> io::Result<Step> {
                let result = catch_panic(|| call(bot));
                let output = match result {
                    Ok(output) => output,
                    Err(e) => return Ok(Step::Failed(e)),
                };
                let text = if simplified {
                    output.to_simplified()
                } else {
                    output.to_json_line()
                };
                writeln!(self.output, "{text}")?;
                if bot.keep_running() {
                    writeln!(self.output, "{KEEP_RUNNING_MARKER}")?;
                }
                self.output.flush()?;
                Ok(Step::Answered)
            }
            fn fail<B: Bot>(&mut self, bot: &B, e: BotError) -> u8 {
                let _ = writeln!(self.errors, "bot error: {e}");
                let _ = self.errors.flush();
                if let Some(response) = catch_panic(|| Ok(bot.fallback())).ok().flatten() {
                    let _ = writeln!(self.output, "{}", Output::new(response).to_json_line());
                    let _ = self.output.flush();
                }
                EXIT_BAD_INPUT
            }
            fn io_error(&mut self, e: &io::Error) -> u8 {
                let _ = writeln!(self.errors, "bot error: I/O: {e}");
                EXIT_IO
            }
        }
        fn catch_panic<T>(f: impl FnOnce() -> Result<T, BotError>) -> Result<T, BotError> {
            let previous = panic::take_hook();
            panic::set_hook(Box::new(|_| {}));
            let result = panic::catch_unwind(AssertUnwindSafe(f));
            panic::set_hook(previous);
            match result {
                Ok(r) => r,
                Err(payload) => {
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown cause".to_owned());
                    Err(BotError::new(format!("internal error in the bot: {what}")))
                }
            }
        }
        enum ReadError {
            Io(io::Error),
            Bad(BotError),
        }
        impl From<io::Error> for ReadError {
            fn from(e: io::Error) -> Self {
                ReadError::Io(e)
            }
        }
        struct Reader<'r, R: BufRead> {
            input: &'r mut R,
            line: Vec<u8>,
        }
        impl<'r, R: BufRead> Reader<'r, R> {
            fn new(input: &'r mut R) -> Self {
                Reader {
                    input,
                    line: Vec::new(),
                }
            }
            fn read_line(&mut self) -> io::Result<Option<&[u8]>> {
                self.line.clear();
                if self.input.read_until(b'\n', &mut self.line)? == 0 {
                    return Ok(None);
                }
                while let Some(b'\n' | b'\r') = self.line.last() {
                    self.line.pop();
                }
                Ok(Some(&self.line))
            }
            fn next_nonblank(&mut self) -> io::Result<Option<Vec<u8>>> {
                loop {
                    match self.read_line()? {
                        None => return Ok(None),
                        Some(l) if l.iter().all(u8::is_ascii_whitespace) => continue,
                        Some(l) => return Ok(Some(l.to_vec())),
                    }
                }
            }
            fn document(&mut self, first: Vec<u8>) -> Result<Value, ReadError> {
                let mut text = first;
                loop {
                    match Value::from_slice(&text) {
                        Ok(v) => return Ok(v),
                        Err(e) if e.is_eof() => {
                            let Some(line) = self.read_line()? else {
                                return Err(ReadError::Bad(BotError::new(format!(
                                    "input is not JSON: truncated: {e}"
                                ))));
                            };
                            text.push(b'\n');
                            text.extend_from_slice(line);
                        }
                        Err(e) => return Err(ReadError::Bad(BotError::json(e))),
                    }
                }
            }
            fn first_input(&mut self) -> Result<Option<Input>, ReadError> {
                let Some(first) = self.next_nonblank()? else {
                    return Ok(None);
                };
                if let Some(n) = simplified_count(&first) {
                    return self.simplified(n).map(Some);
                }
                let doc = self.document(first)?;
                Input::from_json(&doc).map(Some).map_err(ReadError::Bad)
            }
            fn simplified(&mut self, n: usize) -> Result<Input, ReadError> {
                if n == 0 {
                    return Err(ReadError::Bad(BotError::new(
                        "simplified input: the first line must be a turn count of at least 1",
                    )));
                }
                let mut input = Input {
                    simplified: true,
                    ..Input::default()
                };
                for i in 0..2 * n - 1 {
                    let Some(line) = self.read_line()? else {
                        let what = if i % 2 == 0 { "request" } else { "response" };
                        return Err(ReadError::Bad(BotError::new(format!(
                            "simplified input: {what} {} of {n} missing (line {})",
                            i / 2 + 1,
                            i + 2
                        ))));
                    };
                    let message = simplified_message(line)?;
                    if i % 2 == 0 {
                        input.requests.push(message);
                    } else {
                        input.responses.push(message);
                    }
                }
                input.data = self
                    .read_line()?
                    .map(|l| String::from_utf8_lossy(l).into_owned());
                input.globaldata = self
                    .read_line()?
                    .map(|l| String::from_utf8_lossy(l).into_owned());
                Ok(input)
            }
            fn next_request(&mut self, simplified: bool) -> Result<Option<Value>, ReadError> {
                let Some(first) = self.next_nonblank()? else {
                    return Ok(None);
                };
                if simplified {
                    return simplified_message(&first).map(Some);
                }
                self.document(first).map(Some)
            }
        }
        fn simplified_count(line: &[u8]) -> Option<usize> {
            let text = std::str::from_utf8(line).ok()?.trim();
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            text.parse().ok()
        }
        fn simplified_message(line: &[u8]) -> Result<Value, ReadError> {
            let text = std::str::from_utf8(line).map_err(|e| {
                ReadError::Bad(BotError::new(format!(
                    "simplified input: invalid UTF-8 at byte {}",
                    e.valid_up_to()
                )))
            })?;
            Ok(Value::parse(text).unwrap_or_else(|_| Value::from(text)))
        }
    }
    pub mod rng {
        use std::time::{SystemTime, UNIX_EPOCH};
        pub const SEED_VAR: &str = "BOTZONE_SEED";
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
            pub fn from_env() -> Self {
                match seed_from_env() {
                    Some(seed) => Rng::new(seed),
                    None => {
                        let nanos = SystemTime::now()
                            .duration_since(UNIX_EPOCH)
                            .map(|d| d.as_nanos() as u64)
                            .unwrap_or(0);
                        Rng::new(nanos ^ (u64::from(std::process::id()) << 32))
                    }
                }
            }
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
            #[inline]
            pub fn next_u32(&mut self) -> u32 {
                (self.next_u64() >> 32) as u32
            }
            #[inline]
            pub fn below(&mut self, n: u32) -> u32 {
                debug_assert!(n > 0, "Rng::below(0)");
                ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32
            }
            #[inline]
            pub fn index(&mut self, len: usize) -> usize {
                self.below(len as u32) as usize
            }
            #[inline]
            pub fn unit(&mut self) -> f64 {
                (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
            }
            #[inline]
            pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
                if items.is_empty() {
                    None
                } else {
                    Some(&items[self.index(items.len())])
                }
            }
        }
        pub fn seed_from_env() -> Option<u64> {
            std::env::var(SEED_VAR).ok()?.trim().parse().ok()
        }
    }
    pub mod search {
        pub mod flat_mc {
            use crate::botzone::games::Game;
            use crate::botzone::rng::Rng;
            use crate::botzone::time::Deadline;
            pub trait Policy<G: Game> {
                fn action(&mut self, game: &G, player: usize, rng: &mut Rng) -> G::Action;
                #[inline]
                fn fill_joint(&mut self, game: &G, rng: &mut Rng, joint: &mut [G::Action]) {
                    for (p, slot) in joint.iter_mut().enumerate() {
                        *slot = if game.is_active(p) {
                            self.action(game, p, rng)
                        } else {
                            G::Action::default()
                        };
                    }
                }
            }
            pub struct UniformPolicy<G: Game> {
                buffer: G::Actions,
            }
            impl<G: Game> Default for UniformPolicy<G> {
                fn default() -> Self {
                    UniformPolicy {
                        buffer: G::Actions::default(),
                    }
                }
            }
            impl<G: Game> Policy<G> for UniformPolicy<G> {
                #[inline]
                fn action(&mut self, game: &G, player: usize, rng: &mut Rng) -> G::Action {
                    game.legal_actions(player, &mut self.buffer);
                    rng.choose(&self.buffer).copied().unwrap_or_default()
                }
            }
            #[derive(Clone, Copy, Debug)]
            pub struct Limits {
                pub max_rollouts: Option<u64>,
                pub check_every: u32,
            }
            impl Limits {
                pub fn from_env() -> Self {
                    Limits {
                        max_rollouts: crate::botzone::time::iteration_budget(),
                        ..Limits::default()
                    }
                }
            }
            impl Default for Limits {
                fn default() -> Self {
                    Limits {
                        max_rollouts: None,
                        check_every: 16,
                    }
                }
            }
            #[derive(Clone, Copy, Debug, PartialEq)]
            pub struct Arm<A> {
                pub action: A,
                pub visits: u64,
                pub total: f64,
            }
            impl<A> Arm<A> {
                pub fn mean(&self) -> f64 {
                    if self.visits == 0 {
                        0.0
                    } else {
                        self.total / self.visits as f64
                    }
                }
            }
            #[derive(Clone, Debug)]
            pub struct SearchResult<A> {
                pub best: A,
                pub rollouts: u64,
                pub turns: u64,
                pub arms: Vec<Arm<A>>,
            }
            pub fn search<G: Game, P: Policy<G>>(
                game: &mut G,
                me: usize,
                deadline: &Deadline,
                rng: &mut Rng,
                policy: &mut P,
                limits: Limits,
            ) -> SearchResult<G::Action> {
                let mut legal = G::Actions::default();
                if game.is_active(me) {
                    game.legal_actions(me, &mut legal);
                }
                let mut arms: Vec<Arm<G::Action>> = legal
                    .iter()
                    .map(|&action| Arm {
                        action,
                        visits: 0,
                        total: 0.0,
                    })
                    .collect();
                let mut result = SearchResult {
                    best: arms.first().map(|a| a.action).unwrap_or_default(),
                    rollouts: 0,
                    turns: 0,
                    arms: Vec::new(),
                };
                if arms.len() <= 1 {
                    result.arms = arms;
                    return result;
                }
                let players = game.player_count();
                let mut joint = vec![G::Action::default(); players];
                let mut scores = vec![0.0; players];
                let check_every = u64::from(limits.check_every.max(1));
                let max = limits.max_rollouts.unwrap_or(u64::MAX);
                let mut arm = 0;
                while result.rollouts < max {
                    if result.rollouts % check_every == 0 && deadline.passed() {
                        break;
                    }
                    for (p, slot) in joint.iter_mut().enumerate() {
                        *slot = if p == me {
                            arms[arm].action
                        } else if game.is_active(p) {
                            policy.action(game, p, rng)
                        } else {
                            G::Action::default()
                        };
                    }
                    game.apply(&joint);
                    let mut depth = 1u64;
                    while !game.is_over() {
                        policy.fill_joint(game, rng, &mut joint);
                        game.apply(&joint);
                        depth += 1;
                    }
                    game.scores(&mut scores);
                    arms[arm].visits += 1;
                    arms[arm].total += scores[me];
                    for _ in 0..depth {
                        game.undo();
                    }
                    result.turns += depth;
                    result.rollouts += 1;
                    arm += 1;
                    if arm == arms.len() {
                        arm = 0;
                    }
                }
                let mut best = 0;
                for (i, a) in arms.iter().enumerate() {
                    if a.visits > 0 && (arms[best].visits == 0 || a.mean() > arms[best].mean()) {
                        best = i;
                    }
                }
                result.best = arms[best].action;
                result.arms = arms;
                result
            }
        }
    }
    pub mod time {
        use std::time::{Duration, Instant};
        pub const TIME_LIMIT_VAR: &str = "BOTZONE_TIME_LIMIT";
        pub const ITERATIONS_VAR: &str = "BOTZONE_ITERATIONS";
        pub fn iteration_budget() -> Option<u64> {
            std::env::var(ITERATIONS_VAR)
                .ok()?
                .trim()
                .parse()
                .ok()
                .filter(|&n| n > 0)
        }
        pub const DEFAULT_LIMIT: Duration = Duration::from_secs(1);
        pub fn turn_limit(input_limit: Option<f64>, first_turn: bool) -> Duration {
            if let Some(env) = env_limit() {
                return env;
            }
            let base = input_limit
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64)
                .unwrap_or(DEFAULT_LIMIT);
            if first_turn {
                base * 2
            } else {
                base
            }
        }
        pub fn env_limit() -> Option<Duration> {
            let s = std::env::var(TIME_LIMIT_VAR).ok()?;
            let secs: f64 = s.trim().parse().ok()?;
            if secs.is_finite() && secs > 0.0 && secs < 1e9 {
                Some(Duration::from_secs_f64(secs))
            } else {
                None
            }
        }
        #[derive(Clone, Copy, Debug)]
        pub struct Deadline {
            start: Instant,
            budget: Duration,
        }
        impl Deadline {
            pub fn after(budget: Duration) -> Self {
                Deadline {
                    start: Instant::now(),
                    budget,
                }
            }
            pub fn for_turn(limit: Duration) -> Self {
                let margin = limit.mul_f64(0.15) + Duration::from_millis(30);
                let budget = limit.saturating_sub(margin).max(limit / 4);
                Deadline::after(budget)
            }
            pub fn start(&self) -> Instant {
                self.start
            }
            pub fn budget(&self) -> Duration {
                self.budget
            }
            pub fn elapsed(&self) -> Duration {
                self.start.elapsed()
            }
            pub fn remaining(&self) -> Duration {
                self.budget.saturating_sub(self.start.elapsed())
            }
            #[inline]
            pub fn passed(&self) -> bool {
                self.start.elapsed() >= self.budget
            }
        }
    }
}
