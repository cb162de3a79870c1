// tank_minimax: one-file bundle of bots/tank_minimax.rs made by `botzone bundle` (botzone 0.1.0).
// Library modules: crand, fixed, games, games::tank, games::tank::eval, games::tank::map, games::tank::item, json, protocol, rng, search (namespace), search::alphabeta, time.
// Build: rustc -O --edition 2021 <this file>
#![allow(dead_code, unused, clippy::all)]
#![forbid(unsafe_code)]
//! `tank_minimax`: a Tank (2018) bot. Iterative-deepening alpha-beta over
//! joint actions (our two tanks' pair, then the opponent's reply, judged
//! conservatively) with a real evaluation, move ordering, a preallocated
//! transposition table and the turn's deadline
//! (`botzone::games::tank::eval::TankMinimax`). Its `debug` reports the depth
//! reached and the nodes searched. It never answers an invalid action.
//!
//! Protocol (the wiki's): the first request is `{"field":[i0,i1,i2],"mySide":s}`,
//! each later request the opponent's last actions `[a0,a1]` (-1 for a
//! destroyed tank); the response is `[a0,a1]`. It stays running between
//! turns (keep-running mode) and also works started afresh each turn with
//! the full history (traditional mode).
//!
//! ```text
//! $ echo '{"requests":[{"field":[124802088,13368984,10571895],"mySide":0}],"responses":[]}' \
//!     | BOTZONE_TIME_LIMIT=0.3 cargo run --release --bin tank_minimax
//! {"response":[6,-1],"debug":"depth 2, nodes 35211, value -40, 213 ms"}
//! >>>BOTZONE_REQUEST_KEEP_RUNNING<<<
//! ```

use std::process::ExitCode;

use botzone::games::tank::eval::TankMinimax;
use botzone::games::tank::{Field, TankAction, BLUE};
use botzone::json::Value;
use botzone::protocol::{self, At, Bot, BotError, Input, Output};
use botzone::time::Deadline;

/// Transposition table size: 2^20 entries (about 24 MB).
const TABLE_BITS: u32 = 20;

struct TankBot {
    player: TankMinimax,
    /// The game so far, and our side; `None` before the first request.
    game: Option<(Field, usize)>,
    /// Our answer of last turn, to pair with the opponent's actions.
    pending: [TankAction; 2],
}

impl TankBot {
    fn new() -> Self {
        TankBot {
            player: TankMinimax::new(TABLE_BITS),
            game: None,
            pending: [TankAction::Stay; 2],
        }
    }

    /// Decodes the first request: the field and our side.
    fn start(request: &At) -> Result<(Field, usize), BotError> {
        let field = request.key("field")?;
        let mut bricks = [0u32; 3];
        for (i, b) in bricks.iter_mut().enumerate() {
            *b = field.index(i)?.int_in(0, (1 << 27) - 1)? as u32;
        }
        if field.array()?.len() != 3 {
            return Err(BotError::new(format!(
                "{}: expected 3 ints, found {}",
                field.path(),
                field.array()?.len()
            )));
        }
        let side = request.key("mySide")?.int_in(0, 1)? as usize;
        Ok((Field::new(bricks), side))
    }

    /// Decodes a pair of actions `[a0, a1]` for `side`, checked against the
    /// field (a destroyed tank's entry is ignored, as the judge does).
    fn pair(at: &At, field: &Field, side: usize) -> Result<[TankAction; 2], BotError> {
        let items = at.array()?;
        if items.len() != 2 {
            return Err(BotError::new(format!(
                "{}: expected 2 actions, found {}",
                at.path(),
                items.len()
            )));
        }
        let mut out = [TankAction::Stay; 2];
        for (t, a) in out.iter_mut().enumerate() {
            let slot = at.index(t)?;
            let code = slot.int_in(-1, 7)?;
            let action = TankAction::from_code(code).expect("checked range");
            if field.tank_alive(side, t) {
                if !field.is_valid(side, t, action) {
                    let name = if side == BLUE { "blue" } else { "red" };
                    return Err(BotError::new(format!(
                        "{}: {name} tank {t} cannot play {code} on turn {}",
                        slot.path(),
                        field.turn()
                    )));
                }
                *a = action;
            }
        }
        Ok(out)
    }

    /// Plays last turn (our pending answer and the opponent's `request`).
    fn play_turn(&mut self, request: &At, ours: [TankAction; 2]) -> Result<(), BotError> {
        let (field, side) = self
            .game
            .as_mut()
            .ok_or_else(|| BotError::new(format!("{}: no field yet", request.path())))?;
        let side = *side;
        let theirs = Self::pair(request, field, 1 - side)?;
        if field.is_over() {
            return Err(BotError::new(format!(
                "{}: the game is already over",
                request.path()
            )));
        }
        let mut joint = [[TankAction::Stay; 2]; 2];
        joint[side] = ours;
        joint[1 - side] = theirs;
        field
            .try_apply(joint)
            .map_err(|e| BotError::new(format!("{}: {e}", request.path())))
    }

    /// Chooses this turn's answer.
    fn answer(&mut self, deadline: &Deadline) -> Result<Output, BotError> {
        let (field, side) = self
            .game
            .as_mut()
            .ok_or_else(|| BotError::new("no field yet"))?;
        let side = *side;
        if field.is_over() {
            self.pending = [TankAction::Stay; 2];
            return Ok(Output::new(pair_json(self.pending)).with_debug("game over"));
        }
        let result = self.player.choose(field, side, deadline);
        self.pending = result.best.0;
        let debug = format!(
            "depth {}, nodes {}, value {}, {} ms",
            result.depth,
            result.nodes,
            result.value,
            deadline.elapsed().as_millis()
        );
        Ok(Output::new(pair_json(self.pending)).with_debug(debug))
    }
}

fn pair_json(pair: [TankAction; 2]) -> Value {
    Value::Array(vec![
        Value::from(i64::from(pair[0].code())),
        Value::from(i64::from(pair[1].code())),
    ])
}

impl Bot for TankBot {
    fn on_input(&mut self, input: &Input, deadline: &Deadline) -> Result<Output, BotError> {
        self.game = None;
        let first = At::root(&input.requests[0], "requests[0]");
        self.game = Some(Self::start(&first)?);
        for i in 1..input.requests.len() {
            let (field, side) = self.game.as_ref().expect("set above");
            let response = At::root(&input.responses[i - 1], &format!("responses[{}]", i - 1));
            let ours = Self::pair(&response, field, *side)?;
            let request = At::root(&input.requests[i], &format!("requests[{i}]"));
            self.play_turn(&request, ours)?;
        }
        self.answer(deadline)
    }

    fn on_request(&mut self, request: &Value, deadline: &Deadline) -> Result<Output, BotError> {
        let at = At::root(request, "request");
        if request.as_object().is_some() {
            // A new match in the same process: start again.
            self.game = Some(Self::start(&at)?);
        } else {
            self.play_turn(&at, self.pending)?;
        }
        self.answer(deadline)
    }

    fn fallback(&self) -> Option<Value> {
        // Staying is always valid.
        Some(pair_json([TankAction::Stay; 2]))
    }
}

fn main() -> ExitCode {
    protocol::run(&mut TankBot::new())
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
        pub mod tank {
            use crate::botzone::fixed::FixedList;
            use crate::botzone::games::Game;
            use crate::botzone::rng::Rng;
            use std::fmt;
            pub mod eval {
                use super::{
                    item, Field, SideAction, TankAction, BASE_POS, CELLS, HEIGHT, SIDES, WIDTH,
                };
                use crate::botzone::search::alphabeta::{
                    AlphaBeta, Evaluator, Limits, SearchResult,
                };
                use crate::botzone::time::Deadline;
                const FAR: u8 = 60;
                const CACHE_SLOTS: usize = 1024;
                #[derive(Clone, Copy, Debug)]
                pub struct Weights {
                    pub tank: i32,
                    pub attack_time: i32,
                    pub second_attack_time: i32,
                    pub base_line_ready: i32,
                    pub base_line_cooling: i32,
                    pub tank_line_free: i32,
                    pub loaded: i32,
                }
                impl Default for Weights {
                    fn default() -> Self {
                        Weights {
                            tank: 500,
                            attack_time: 12,
                            second_attack_time: 4,
                            base_line_ready: 400,
                            base_line_cooling: 150,
                            tank_line_free: 120,
                            loaded: 8,
                        }
                    }
                }
                #[derive(Clone, Copy)]
                struct CacheSlot {
                    bricks: u128,
                    bases: u8,
                    time: [[u8; CELLS]; SIDES],
                }
                pub struct TankEval {
                    pub weights: Weights,
                    cache: Vec<Option<CacheSlot>>,
                }
                impl Default for TankEval {
                    fn default() -> Self {
                        TankEval::new()
                    }
                }
                impl TankEval {
                    pub fn new() -> Self {
                        TankEval {
                            weights: Weights::default(),
                            cache: vec![None; CACHE_SLOTS],
                        }
                    }
                    pub fn attack_times(&mut self, field: &Field) -> [[u8; CELLS]; SIDES] {
                        self.slot(field).time
                    }
                    fn slot(&mut self, field: &Field) -> &CacheSlot {
                        let bricks = field.core.walls;
                        let bases = field.core.bases;
                        let h = (bricks as u64 ^ (bricks >> 64) as u64 ^ u64::from(bases))
                            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let i = (h >> 54) as usize % CACHE_SLOTS;
                        let hit = matches!(
                            & self.cache[i], Some(s) if s.bricks == bricks && s.bases ==
                            bases
                        );
                        if !hit {
                            let time = [attack_map(field, 0), attack_map(field, 1)];
                            self.cache[i] = Some(CacheSlot {
                                bricks,
                                bases,
                                time,
                            });
                        }
                        self.cache[i].as_ref().expect("filled above")
                    }
                    pub fn value(&mut self, field: &Field, side: usize) -> i32 {
                        let w = self.weights;
                        let times = self.slot(field).time;
                        let mut total = 0;
                        for s in 0..SIDES {
                            let enemy = 1 - s;
                            let mut v = 0;
                            let mut best = FAR;
                            let mut other = FAR;
                            for t in 0..2 {
                                let i = s * 2 + t;
                                let Some(c) = field.tank_cell(i) else {
                                    continue;
                                };
                                v += w.tank;
                                let ready = !field.shot_last_turn(s, t);
                                if ready {
                                    v += w.loaded;
                                }
                                let at = times[enemy][c];
                                if at < best {
                                    other = best;
                                    best = at;
                                } else if at < other {
                                    other = at;
                                }
                                for dir in 0..4 {
                                    let Some(h) = field.first_hit(c, dir) else {
                                        continue;
                                    };
                                    let items = field.at_cell(h);
                                    let (bx, by) = BASE_POS[enemy];
                                    if items & item::BASE != 0 && h == by * WIDTH + bx {
                                        v += if ready {
                                            w.base_line_ready
                                        } else {
                                            w.base_line_cooling
                                        };
                                    } else if items & item::TANKS != 0 {
                                        let enemy_bits = (items >> (3 + enemy * 2)) & 3;
                                        let own_bits = (items >> (3 + s * 2)) & 3;
                                        if enemy_bits != 0 && own_bits == 0 && ready {
                                            let answer = (0..2).any(|u| {
                                                enemy_bits >> u & 1 == 1
                                                    && !field.shot_last_turn(enemy, u)
                                            });
                                            if !answer {
                                                v += w.tank_line_free;
                                            }
                                        }
                                    }
                                }
                            }
                            if best < FAR {
                                v -= w.attack_time * i32::from(best);
                            } else {
                                v -= w.attack_time * i32::from(FAR);
                            }
                            v -= w.second_attack_time * i32::from(other.min(FAR));
                            total += if s == side { v } else { -v };
                        }
                        total
                    }
                    fn action_score(
                        &mut self,
                        field: &Field,
                        side: usize,
                        t: usize,
                        a: TankAction,
                    ) -> i32 {
                        let Some(c) = field.tank_cell(side * 2 + t) else {
                            return 0;
                        };
                        let enemy = 1 - side;
                        match a {
                            TankAction::Stay => 0,
                            a if a.is_shoot() => {
                                let dir = a.code() as usize & 3;
                                match field.first_hit(c, dir) {
                                    None => -20,
                                    Some(h) => {
                                        let items = field.at_cell(h);
                                        let (bx, by) = BASE_POS[enemy];
                                        if items & item::BASE != 0 {
                                            if h == by * WIDTH + bx {
                                                10_000
                                            } else {
                                                -10_000
                                            }
                                        } else if items & item::TANKS != 0 {
                                            let enemy_bits = (items >> (3 + enemy * 2)) & 3;
                                            if enemy_bits != 0 {
                                                5_000
                                            } else {
                                                -5_000
                                            }
                                        } else if items & item::BRICK != 0 {
                                            40
                                        } else {
                                            -20
                                        }
                                    }
                                }
                            }
                            a => {
                                let dir = a.code() as usize;
                                let times = &self.slot(field).time[enemy];
                                match super::step(c, dir) {
                                    Some(n) => 10 * (i32::from(times[c]) - i32::from(times[n])),
                                    None => -100,
                                }
                            }
                        }
                    }
                }
                fn attack_map(field: &Field, side: usize) -> [u8; CELLS] {
                    let mut time = [FAR; CELLS];
                    let (bx, by) = BASE_POS[side];
                    let base = by * WIDTH + bx;
                    if !field.base_alive(side) {
                        return time;
                    }
                    for dir in 0..4 {
                        let mut bricks = 0u8;
                        let mut c = base;
                        while let Some(n) = super::step(c, dir) {
                            c = n;
                            let items = field.at_cell(c);
                            if items & (item::STEEL | item::BASE) != 0 {
                                break;
                            }
                            time[c] = time[c].min(2 * bricks + 1);
                            if items & item::BRICK != 0 {
                                bricks += 1;
                            }
                        }
                    }
                    let mut cost = [0u8; CELLS];
                    for (c, k) in cost.iter_mut().enumerate() {
                        let items = field.at_cell(c);
                        *k = if items & (item::STEEL | item::BASE) != 0 {
                            FAR
                        } else if items & item::BRICK != 0 {
                            2
                        } else {
                            1
                        };
                    }
                    loop {
                        let mut changed = false;
                        for y in 0..HEIGHT {
                            for x in 0..WIDTH {
                                let c = y * WIDTH + x;
                                if cost[c] >= FAR {
                                    continue;
                                }
                                for dir in 0..4 {
                                    if let Some(n) = super::step(c, dir) {
                                        if cost[n] < FAR && time[n] < FAR {
                                            let t = time[n] + cost[n];
                                            if t < time[c] {
                                                time[c] = t;
                                                changed = true;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        if !changed {
                            break;
                        }
                    }
                    time
                }
                impl Evaluator<Field> for TankEval {
                    fn evaluate(&mut self, game: &Field, me: usize) -> i32 {
                        self.value(game, me)
                    }
                    fn key(&mut self, game: &Field) -> u64 {
                        game.key()
                    }
                    fn order(
                        &mut self,
                        game: &Field,
                        player: usize,
                        actions: &[SideAction],
                        scores: &mut [i32],
                    ) {
                        let mut per_tank = [[0i32; TankAction::COUNT]; 2];
                        for (t, row) in per_tank.iter_mut().enumerate() {
                            let mask = game.valid_mask(player * 2 + t);
                            for (k, s) in row.iter_mut().enumerate() {
                                if mask >> k & 1 == 1 {
                                    *s = self.action_score(game, player, t, TankAction::ALL[k]);
                                }
                            }
                        }
                        for (a, s) in actions.iter().zip(scores.iter_mut()) {
                            *s = per_tank[0][a.0[0].index()] + per_tank[1][a.0[1].index()];
                        }
                    }
                }
                pub struct TankMinimax {
                    search: AlphaBeta<Field>,
                    eval: TankEval,
                    pub limits: Limits,
                }
                impl TankMinimax {
                    pub fn new(table_bits: u32) -> Self {
                        TankMinimax {
                            search: AlphaBeta::new(table_bits),
                            eval: TankEval::new(),
                            limits: Limits::from_env(),
                        }
                    }
                    pub fn choose(
                        &mut self,
                        field: &mut Field,
                        side: usize,
                        deadline: &Deadline,
                    ) -> SearchResult<SideAction> {
                        let mut result =
                            self.search
                                .search(field, side, &mut self.eval, deadline, self.limits);
                        for t in 0..2 {
                            if !field.tank_alive(side, t)
                                || !field.is_valid(side, t, result.best.0[t])
                            {
                                result.best.0[t] = TankAction::Stay;
                            }
                        }
                        result
                    }
                }
            }
            mod map {
                use super::Bricks;
                use crate::botzone::crand::GlibcRand;
                pub fn bricks_from_seed(seed: u32) -> Bricks {
                    let mut rand = GlibcRand::new(seed);
                    let mut brick = [[false; 9]; 9];
                    for row in brick.iter_mut().take(5) {
                        for b in row.iter_mut() {
                            *b = rand.rand() % 3 > 1;
                        }
                    }
                    brick[1][5] = true;
                    brick[1][3] = true;
                    brick[0][5] = true;
                    brick[0][3] = true;
                    brick[0][4] = false;
                    brick[1][4] = false;
                    brick[0][6] = false;
                    brick[0][2] = false;
                    for y in 0..5 {
                        for x in 0..9 {
                            brick[8 - y][8 - x] = brick[y][x];
                        }
                    }
                    for row in brick.iter_mut().take(7).skip(2) {
                        row[4] = true;
                    }
                    brick[4] = [true; 9];
                    let mut out = [0u32; 3];
                    for (i, word) in out.iter_mut().enumerate() {
                        for j in 0..27 {
                            let c = 27 * i + j;
                            if brick[c / 9][c % 9] {
                                *word |= 1 << j;
                            }
                        }
                    }
                    out
                }
            }
            pub use map::bricks_from_seed;
            pub const WIDTH: usize = 9;
            pub const HEIGHT: usize = 9;
            pub const CELLS: usize = WIDTH * HEIGHT;
            pub const SIDES: usize = 2;
            pub const TANKS_PER_SIDE: usize = 2;
            pub const BLUE: usize = 0;
            pub const RED: usize = 1;
            pub const MAX_TURN: u32 = 100;
            pub const TURN_CAPACITY: usize = 255;
            pub mod item {
                pub const NONE: u8 = 0;
                pub const BRICK: u8 = 1;
                pub const STEEL: u8 = 2;
                pub const BASE: u8 = 4;
                pub const BLUE0: u8 = 8;
                pub const BLUE1: u8 = 16;
                pub const RED0: u8 = 32;
                pub const RED1: u8 = 64;
                pub const TANKS: u8 = BLUE0 | BLUE1 | RED0 | RED1;
                #[inline]
                pub const fn tank(side: usize, tank: usize) -> u8 {
                    8 << (side * 2 + tank)
                }
            }
            pub const BASE_POS: [(usize, usize); SIDES] = [(4, 0), (4, 8)];
            pub const STEEL_POS: [(usize, usize); SIDES] = [(4, 1), (4, 7)];
            pub const TANK_START: [[(usize, usize); TANKS_PER_SIDE]; SIDES] =
                [[(2, 0), (6, 0)], [(6, 8), (2, 8)]];
            #[inline]
            pub const fn cell(x: usize, y: usize) -> usize {
                y * WIDTH + x
            }
            const PW: usize = WIDTH + 2;
            const IDX: usize = 127;
            const DEAD: u8 = 0;
            const DELTA: [usize; 4] = [PW.wrapping_neg(), 1, PW, 1usize.wrapping_neg()];
            static MOVE_DELTA: [usize; 16] = [
                0, DELTA[0], 1, PW, DELTA[3], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ];
            static ACTION16: [TankAction; 16] = {
                let mut t = [TankAction::Stay; 16];
                let mut k = 0;
                while k < 9 {
                    t[k] = TankAction::ALL[k];
                    k += 1;
                }
                t
            };
            const BORDER: u128 = {
                let mut m = 0u128;
                let mut p = 0;
                while p < 128 {
                    let (r, c) = (p / PW, p % PW);
                    if p >= PW * PW || r == 0 || r == PW - 1 || c == 0 || c == PW - 1 {
                        m |= 1 << p;
                    }
                    p += 1;
                }
                m
            };
            const BASE_P: [usize; SIDES] = [
                pad(cell(BASE_POS[0].0, BASE_POS[0].1)),
                pad(cell(BASE_POS[1].0, BASE_POS[1].1)),
            ];
            const STEEL_MASK: u128 = 1 << pad(cell(STEEL_POS[0].0, STEEL_POS[0].1))
                | 1 << pad(cell(STEEL_POS[1].0, STEEL_POS[1].1));
            const FIXED: u128 = BORDER | STEEL_MASK;
            const BIT_BASES: [u128; SIDES] = [1 << BASE_P[BLUE], 1 << BASE_P[RED]];
            static RAYS: [u128; 512] = {
                let mut t = [0u128; 512];
                let mut p = 0;
                while p < 128 {
                    let mut q = 0;
                    while q < 128 {
                        let bit = 1u128 << q;
                        let same_column = q % PW == p % PW;
                        if q < p && same_column {
                            t[p] |= bit;
                        }
                        if q > p {
                            t[128 + p] |= bit;
                        }
                        if q > p && same_column {
                            t[256 + p] |= bit;
                        }
                        if q < p {
                            t[384 + p] |= bit;
                        }
                        q += 1;
                    }
                    p += 1;
                }
                t
            };
            static BIT: [u128; 128] = {
                let mut t = [0u128; 128];
                let mut p = 0;
                while p < 128 {
                    t[p] = 1 << p;
                    p += 1;
                }
                t
            };
            static CHOICES: [u64; 32] = {
                let mut t = [0u64; 32];
                let mut m = 0;
                while m < 32 {
                    let valid = 1 | ((m & 15) << 1) | (((m >> 4) & 1) * 0b1_1110_0000);
                    let mut n = 0u64;
                    let mut b = 0;
                    while b < 9 {
                        if valid >> b & 1 == 1 {
                            t[m] |= (b as u64) << (4 + 4 * n);
                            n += 1;
                        }
                        b += 1;
                    }
                    t[m] |= n;
                    m += 1;
                }
                t
            };
            const GATHER: u64 = 1 << 22 | 1 << 11 | 1 << 2 | 1 << 15;
            #[inline]
            const fn pad(c: usize) -> usize {
                (c / WIDTH + 1) * PW + c % WIDTH + 1
            }
            #[inline]
            const fn unpad(p: usize) -> usize {
                (p / PW - 1) * WIDTH + p % PW - 1
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #[repr(i8)]
            pub enum TankAction {
                #[default]
                Stay = -1,
                Up = 0,
                Right = 1,
                Down = 2,
                Left = 3,
                UpShoot = 4,
                RightShoot = 5,
                DownShoot = 6,
                LeftShoot = 7,
            }
            impl TankAction {
                pub const ALL: [TankAction; 9] = [
                    TankAction::Stay,
                    TankAction::Up,
                    TankAction::Right,
                    TankAction::Down,
                    TankAction::Left,
                    TankAction::UpShoot,
                    TankAction::RightShoot,
                    TankAction::DownShoot,
                    TankAction::LeftShoot,
                ];
                pub const COUNT: usize = 9;
                #[inline]
                pub const fn code(self) -> i8 {
                    self as i8
                }
                #[inline]
                pub const fn index(self) -> usize {
                    (self as i8 + 1) as usize
                }
                #[inline]
                pub fn from_code(code: i64) -> Option<TankAction> {
                    if (-1..=7).contains(&code) {
                        Some(Self::ALL[(code + 1) as usize])
                    } else {
                        None
                    }
                }
                #[inline]
                pub const fn is_move(self) -> bool {
                    matches!(self as i8, 0..=3)
                }
                #[inline]
                pub const fn is_shoot(self) -> bool {
                    self as i8 >= 4
                }
                #[inline]
                pub const fn direction(self) -> Option<usize> {
                    if self as i8 >= 0 {
                        Some((self as i8 % 4) as usize)
                    } else {
                        None
                    }
                }
            }
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct InvalidCode(pub i64);
            impl fmt::Display for InvalidCode {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    write!(f, "{} is not a tank action (expected -1..=7)", self.0)
                }
            }
            impl std::error::Error for InvalidCode {}
            impl TryFrom<i64> for TankAction {
                type Error = InvalidCode;
                fn try_from(code: i64) -> Result<Self, InvalidCode> {
                    TankAction::from_code(code).ok_or(InvalidCode(code))
                }
            }
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct SideAction(pub [TankAction; TANKS_PER_SIDE]);
            pub type TankActions = FixedList<TankAction, 9>;
            pub type SideActions = FixedList<SideAction, 81>;
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum Outcome {
                Ongoing,
                Draw,
                Win(usize),
            }
            impl Outcome {
                pub fn code(self) -> i32 {
                    match self {
                        Outcome::Ongoing => -2,
                        Outcome::Draw => -1,
                        Outcome::Win(side) => side as i32,
                    }
                }
                pub fn scores(self) -> [f64; SIDES] {
                    match self {
                        Outcome::Win(0) => [2.0, 0.0],
                        Outcome::Win(_) => [0.0, 2.0],
                        _ => [1.0, 1.0],
                    }
                }
            }
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct InvalidAction {
                pub side: usize,
                pub tank: usize,
                pub action: TankAction,
            }
            impl fmt::Display for InvalidAction {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    let side = if self.side == BLUE { "blue" } else { "red" };
                    let why = if self.action.is_shoot() {
                        "it shot last turn"
                    } else {
                        "the target cell is off the board or not empty"
                    };
                    write!(
                        f,
                        "{side} tank {} cannot {:?} ({}): {why}",
                        self.tank,
                        self.action,
                        self.action.code()
                    )
                }
            }
            impl std::error::Error for InvalidAction {}
            pub type Bricks = [u32; 3];
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            struct Core {
                walls: u128,
                occ: u128,
                pos: [u8; 4],
                alive: u8,
                bases: u8,
                shot: u8,
            }
            #[derive(Clone, Debug, PartialEq, Eq)]
            pub struct Field {
                core: Core,
                turn: u16,
                max_turn: u16,
                log: FixedList<Core, TURN_CAPACITY>,
            }
            impl Field {
                pub fn new(bricks: Bricks) -> Field {
                    Field::with_max_turn(bricks, MAX_TURN)
                }
                pub fn with_max_turn(bricks: Bricks, max_turn: u32) -> Field {
                    let mut brick_bits = 0u128;
                    for (i, &word) in bricks.iter().enumerate() {
                        for j in 0..27 {
                            if word >> j & 1 == 1 {
                                brick_bits |= 1 << pad(27 * i + j);
                            }
                        }
                    }
                    let mut pos = [DEAD; 4];
                    for side in 0..SIDES {
                        for tank in 0..TANKS_PER_SIDE {
                            let (x, y) = TANK_START[side][tank];
                            pos[side * 2 + tank] = pad(cell(x, y)) as u8;
                            brick_bits &= !(1 << pad(cell(x, y)));
                        }
                        brick_bits &= !(1 << BASE_P[side]);
                    }
                    brick_bits &= !STEEL_MASK;
                    let mut field = Field {
                        core: Core {
                            walls: brick_bits | FIXED | BIT[BASE_P[BLUE]] | BIT[BASE_P[RED]],
                            occ: 0,
                            pos,
                            alive: 0b1111,
                            bases: 0b11,
                            shot: 0,
                        },
                        turn: 1,
                        max_turn: max_turn.min(TURN_CAPACITY as u32) as u16,
                        log: FixedList::new(),
                    };
                    field.core.occ = Field::compute_occupancy(field.core.walls, &field.core.pos);
                    field
                }
                #[inline]
                pub fn turn(&self) -> u32 {
                    u32::from(self.turn)
                }
                #[inline]
                pub fn max_turn(&self) -> u32 {
                    u32::from(self.max_turn)
                }
                #[inline]
                pub fn history_len(&self) -> usize {
                    self.log.len()
                }
                #[inline]
                pub fn at(&self, x: usize, y: usize) -> u8 {
                    assert!(x < WIDTH && y < HEIGHT, "({x}, {y}) is off the board");
                    self.items(pad(cell(x, y)))
                }
                #[inline]
                pub fn at_cell(&self, c: usize) -> u8 {
                    assert!(c < CELLS, "cell {c} is off the board");
                    self.items(pad(c))
                }
                #[inline]
                fn items(&self, p: usize) -> u8 {
                    let core = &self.core;
                    let mut v = (self.bricks() >> p) as u8 & 1;
                    v |= ((STEEL_MASK >> p) as u8 & 1) << 1;
                    for (side, &b) in BASE_P.iter().enumerate() {
                        if b == p && core.bases >> side & 1 == 1 {
                            v |= item::BASE;
                        }
                    }
                    v | self.tanks_at(p) << 3
                }
                #[inline]
                fn tanks_at(&self, p: usize) -> u8 {
                    let core = &self.core;
                    let mut m = 0u8;
                    for (i, &q) in core.pos.iter().enumerate() {
                        m |= u8::from(q as usize == p) << i;
                    }
                    m & core.alive
                }
                #[inline]
                fn occupancy(&self) -> u128 {
                    self.core.occ
                }
                #[inline]
                fn compute_occupancy(walls: u128, pos: &[u8; 4]) -> u128 {
                    walls
                        | BIT[pos[0] as usize & IDX]
                        | BIT[pos[1] as usize & IDX]
                        | BIT[pos[2] as usize & IDX]
                        | BIT[pos[3] as usize & IDX]
                }
                #[inline]
                fn bricks(&self) -> u128 {
                    self.core.walls & !(FIXED | BIT_BASES[BLUE] | BIT_BASES[RED])
                }
                pub fn brick_bits(&self) -> u128 {
                    let mut out = 0u128;
                    for c in 0..CELLS {
                        if self.bricks() >> pad(c) & 1 == 1 {
                            out |= 1 << c;
                        }
                    }
                    out
                }
                #[inline]
                pub fn tank_alive(&self, side: usize, tank: usize) -> bool {
                    self.core.alive >> (side * 2 + tank) & 1 == 1
                }
                #[inline]
                pub fn tank_position(&self, side: usize, tank: usize) -> Option<(usize, usize)> {
                    self.tank_cell(side * 2 + tank)
                        .map(|c| (c % WIDTH, c / WIDTH))
                }
                #[inline]
                pub fn tank_cell(&self, i: usize) -> Option<usize> {
                    let p = self.core.pos[i];
                    (p != DEAD).then(|| unpad(p as usize))
                }
                #[inline]
                pub fn shot_last_turn(&self, side: usize, tank: usize) -> bool {
                    self.core.shot >> (side * 2 + tank) & 1 == 1
                }
                #[inline]
                pub fn base_alive(&self, side: usize) -> bool {
                    self.core.bases >> side & 1 == 1
                }
                #[inline]
                fn failed(&self, side: usize) -> bool {
                    (self.core.alive >> (side * 2)) & 3 == 0 || self.core.bases >> side & 1 == 0
                }
                #[inline]
                pub fn outcome(&self) -> Outcome {
                    let blue = self.failed(BLUE);
                    let red = self.failed(RED);
                    if blue == red {
                        if blue || self.turn > self.max_turn {
                            Outcome::Draw
                        } else {
                            Outcome::Ongoing
                        }
                    } else if blue {
                        Outcome::Win(RED)
                    } else {
                        Outcome::Win(BLUE)
                    }
                }
                #[inline]
                pub fn is_over(&self) -> bool {
                    let alive = self.core.alive;
                    let tanks_ok = alive & 0b11 != 0 && alive & 0b1100 != 0;
                    !(tanks_ok && self.core.bases == 0b11 && self.turn <= self.max_turn)
                }
                #[inline]
                pub fn is_valid(&self, side: usize, tank: usize, action: TankAction) -> bool {
                    let i = side * 2 + tank;
                    self.core.pos[i] == DEAD || self.valid_mask(i) >> action.index() & 1 == 1
                }
                #[inline]
                pub fn valid_mask(&self, i: usize) -> u16 {
                    self.valid_mask_in(i, self.occupancy())
                }
                #[inline]
                fn valid_mask_in(&self, i: usize, occ: u128) -> u16 {
                    let c = self.choice_index(i, occ) as u32;
                    (1 | ((c & 15) << 1) | ((c >> 4) * 0b1_1110_0000)) as u16
                }
                #[inline(always)]
                fn choice_index(&self, i: usize, occ: u128) -> usize {
                    let core = &self.core;
                    let p = core.pos[i] as usize;
                    let live = u64::from(core.alive >> i & 1);
                    let w = !((occ >> (p.wrapping_sub(PW) & IDX)) as u64)
                        & 0x40_1401
                        & live.wrapping_neg();
                    let moves = (w.wrapping_mul(GATHER) >> 22 & 0xf) as usize;
                    let can_shoot = usize::from((core.shot | !core.alive) >> i & 1 == 0);
                    moves | can_shoot << 4
                }
                pub fn legal_tank_actions(&self, side: usize, tank: usize, out: &mut TankActions) {
                    out.clear();
                    let mut mask = self.valid_mask(side * 2 + tank);
                    while mask != 0 {
                        let k = mask.trailing_zeros() as usize;
                        out.push(TankAction::ALL[k]);
                        mask &= mask - 1;
                    }
                }
                pub fn legal_side_actions(&self, side: usize, out: &mut SideActions) {
                    out.clear();
                    let occ = self.occupancy();
                    let m0 = self.valid_mask_in(side * 2, occ);
                    let m1 = self.valid_mask_in(side * 2 + 1, occ);
                    let mut a = m0;
                    while a != 0 {
                        let i = a.trailing_zeros() as usize;
                        a &= a - 1;
                        let mut b = m1;
                        while b != 0 {
                            let j = b.trailing_zeros() as usize;
                            b &= b - 1;
                            out.push(SideAction([ACTION16[i & 15], ACTION16[j & 15]]));
                        }
                    }
                }
                pub fn check(&self, actions: [[TankAction; 2]; 2]) -> Result<(), InvalidAction> {
                    for (side, pair) in actions.iter().enumerate() {
                        for (tank, &action) in pair.iter().enumerate() {
                            if !self.is_valid(side, tank, action) {
                                return Err(InvalidAction { side, tank, action });
                            }
                        }
                    }
                    Ok(())
                }
                pub fn try_apply(
                    &mut self,
                    actions: [[TankAction; 2]; 2],
                ) -> Result<(), InvalidAction> {
                    self.check(actions)?;
                    if self.is_over() || self.log.is_full() {
                        return Err(InvalidAction {
                            side: BLUE,
                            tank: 0,
                            action: actions[0][0],
                        });
                    }
                    self.apply_unchecked(actions);
                    Ok(())
                }
                #[inline]
                fn ray(p: usize, dir: usize, occ: u128) -> usize {
                    let b = occ & RAYS[(dir & 3) << 7 | (p & IDX)];
                    let low = b.trailing_zeros() as usize;
                    let high = IDX - b.leading_zeros() as usize;
                    let forward = (dir.wrapping_sub(1) < 2) as usize;
                    let m = forward.wrapping_neg();
                    (low & m) | (high & !m)
                }
                #[inline]
                pub fn apply_unchecked(&mut self, actions: [[TankAction; 2]; 2]) {
                    self.apply_indices([
                        actions[0][0].index(),
                        actions[0][1].index(),
                        actions[1][0].index(),
                        actions[1][1].index(),
                    ]);
                }
                #[inline(always)]
                fn apply_indices(&mut self, acts: [usize; 4]) {
                    self.log.push(self.core);
                    let core = &mut self.core;
                    let mut shooters = 0u8;
                    for (i, &a) in acts.iter().enumerate() {
                        let live = core.alive >> i & 1;
                        let delta = MOVE_DELTA[a & 15] & (live as usize).wrapping_neg();
                        core.pos[i] = ((core.pos[i] as usize).wrapping_add(delta) & IDX) as u8;
                        shooters |= (u8::from(a >= 5) & live) << i;
                    }
                    let occ = Field::compute_occupancy(core.walls, &core.pos);
                    let tanks_at = |p: usize| {
                        let mut m = 0u8;
                        for (i, &q) in core.pos.iter().enumerate() {
                            m |= u8::from(q as usize == p) << i;
                        }
                        m & core.alive
                    };
                    let tank_cells = occ & !core.walls;
                    let mut hit = 0u128;
                    let mut left = shooters;
                    while left != 0 {
                        let i = left.trailing_zeros() as usize;
                        left &= left - 1;
                        let dir = acts[i].wrapping_sub(1) & 3;
                        let from = core.pos[i] as usize & IDX;
                        let c = Field::ray(from, dir, occ) & IDX;
                        let at = BIT[c];
                        if at & tank_cells != 0 {
                            let there = tanks_at(c);
                            if !multiple(there) && !multiple(tanks_at(from)) {
                                let theirs = acts[there.trailing_zeros() as usize & 3];
                                if theirs >= 5 && theirs.wrapping_sub(1) & 3 == (dir + 2) & 3 {
                                    continue;
                                }
                            }
                        }
                        hit |= at;
                    }
                    let tanks_hit = hit & tank_cells;
                    let cleared = hit & !FIXED;
                    core.walls &= !cleared;
                    core.occ = occ & !cleared;
                    let blue_base = u8::from(hit & BIT_BASES[BLUE] != 0);
                    let red_base = u8::from(hit & BIT_BASES[RED] != 0);
                    core.bases &= !(blue_base | red_base << 1);
                    if tanks_hit != 0 {
                        for i in 0..4 {
                            let at = BIT[core.pos[i] as usize & IDX];
                            let killed = u8::from(hit & at != 0) & (core.alive >> i);
                            core.alive &= !(killed << i);
                            core.pos[i] &= killed.wrapping_sub(1);
                        }
                    }
                    core.shot = shooters;
                    self.turn += 1;
                }
                #[inline]
                pub fn undo(&mut self) -> bool {
                    match self.log.pop() {
                        Some(core) => {
                            self.core = core;
                            self.turn -= 1;
                            true
                        }
                        None => false,
                    }
                }
                #[inline]
                pub fn random_turn(&self, rng: &mut Rng) -> [[TankAction; 2]; 2] {
                    let k = self.random_indices(rng);
                    [
                        [ACTION16[k[0] & 15], ACTION16[k[1] & 15]],
                        [ACTION16[k[2] & 15], ACTION16[k[3] & 15]],
                    ]
                }
                #[inline(always)]
                fn random_indices(&self, rng: &mut Rng) -> [usize; 4] {
                    let mut r = rng.next_u64();
                    let occ = self.occupancy();
                    let mut out = [0usize; 4];
                    for (i, k) in out.iter_mut().enumerate() {
                        let choices = CHOICES[self.choice_index(i, occ) & 31];
                        let prod = u128::from(r) * u128::from(choices & 15);
                        r = prod as u64;
                        let pick = (prod >> 64) as u32 & 15;
                        *k = (choices >> (4 + 4 * pick)) as usize & 15;
                    }
                    out
                }
                pub fn random_playout(&mut self, rng: &mut Rng) -> u32 {
                    let mut turns = 0;
                    while !self.is_over() {
                        let k = self.random_indices(rng);
                        self.apply_indices(k);
                        turns += 1;
                    }
                    turns
                }
                #[inline]
                pub fn key(&self) -> u64 {
                    let core = &self.core;
                    let lo = core.walls as u64;
                    let hi = (core.walls >> 64) as u64;
                    let tanks = u64::from(u32::from_le_bytes(core.pos));
                    let flags = u64::from(core.alive)
                        | u64::from(core.bases) << 4
                        | u64::from(core.shot) << 8
                        | u64::from(self.turn) << 12;
                    let mut h = mix(lo ^ 0x9e37_79b9_7f4a_7c15);
                    h = mix(h ^ hi);
                    h = mix(h ^ (tanks | flags << 32));
                    h
                }
                #[inline]
                pub fn first_hit(&self, from: usize, dir: usize) -> Option<usize> {
                    let c = Field::ray(pad(from), dir, self.occupancy());
                    (BORDER >> c & 1 == 0).then(|| unpad(c))
                }
            }
            #[inline]
            pub fn step(c: usize, dir: usize) -> Option<usize> {
                let (x, y) = ((c % WIDTH) as i32 + DX[dir], (c / WIDTH) as i32 + DY[dir]);
                (x >= 0 && x < WIDTH as i32 && y >= 0 && y < HEIGHT as i32)
                    .then(|| cell(x as usize, y as usize))
            }
            const DX: [i32; 4] = [0, 1, 0, -1];
            const DY: [i32; 4] = [-1, 0, 1, 0];
            #[inline]
            fn multiple(items: u8) -> bool {
                items & items.wrapping_sub(1) != 0
            }
            #[inline]
            fn mix(mut z: u64) -> u64 {
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            }
            impl fmt::Display for Field {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    for y in 0..HEIGHT {
                        for x in 0..WIDTH {
                            let ch = match self.at(x, y) {
                                item::NONE => '.',
                                item::BRICK => '#',
                                item::STEEL => '%',
                                item::BASE => '*',
                                item::BLUE0 => 'b',
                                item::BLUE1 => 'B',
                                item::RED0 => 'r',
                                item::RED1 => 'R',
                                _ => '@',
                            };
                            write!(f, "{ch}")?;
                        }
                        writeln!(f)?;
                    }
                    let word = |b: bool| if b { "alive" } else { "destroyed" };
                    for (side, name) in ["blue", "red"].iter().enumerate() {
                        writeln!(
                            f,
                            "{name}: base {}, tank 0 {}, tank 1 {}",
                            word(self.base_alive(side)),
                            word(self.tank_alive(side, 0)),
                            word(self.tank_alive(side, 1))
                        )?;
                    }
                    let result = match self.outcome() {
                        Outcome::Ongoing => "not finished",
                        Outcome::Draw => "draw",
                        Outcome::Win(BLUE) => "blue won",
                        Outcome::Win(_) => "red won",
                    };
                    writeln!(f, "turn {}: {result}", self.turn)
                }
            }
            impl Game for Field {
                type Action = SideAction;
                type Actions = SideActions;
                fn player_count(&self) -> usize {
                    SIDES
                }
                fn is_over(&self) -> bool {
                    Field::is_over(self)
                }
                fn is_active(&self, player: usize) -> bool {
                    !self.is_over() && self.core.alive >> (player * 2) & 3 != 0
                }
                fn legal_actions(&self, player: usize, out: &mut SideActions) {
                    self.legal_side_actions(player, out);
                }
                fn apply(&mut self, joint: &[SideAction]) {
                    self.apply_unchecked([joint[0].0, joint[1].0]);
                }
                fn undo(&mut self) -> bool {
                    Field::undo(self)
                }
                fn scores(&self, out: &mut [f64]) {
                    out[..SIDES].copy_from_slice(&self.outcome().scores());
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
        pub mod alphabeta {
            use crate::botzone::games::Game;
            use crate::botzone::time::Deadline;
            pub const WIN: i32 = 1_000_000;
            pub const ACTION_CAPACITY: usize = 128;
            pub const MAX_DEPTH: u32 = 64;
            const CLOCK_INTERVAL: u64 = 256;
            const INF: i32 = i32::MAX / 2;
            pub trait Evaluator<G: Game> {
                fn evaluate(&mut self, game: &G, me: usize) -> i32;
                fn key(&mut self, game: &G) -> u64;
                fn terminal(&mut self, game: &G, me: usize) -> i32 {
                    let mut scores = [0.0f64; 2];
                    game.scores(&mut scores);
                    let diff = scores[me] - scores[1 - me];
                    if diff > 0.0 {
                        WIN
                    } else if diff < 0.0 {
                        -WIN
                    } else {
                        0
                    }
                }
                fn order(
                    &mut self,
                    game: &G,
                    player: usize,
                    actions: &[G::Action],
                    scores: &mut [i32],
                ) {
                    let _ = (game, player, actions);
                    scores.fill(0);
                }
            }
            #[derive(Clone, Copy, Debug)]
            pub struct Limits {
                pub max_depth: u32,
                pub max_nodes: Option<u64>,
            }
            impl Default for Limits {
                fn default() -> Self {
                    Limits {
                        max_depth: MAX_DEPTH,
                        max_nodes: None,
                    }
                }
            }
            impl Limits {
                pub fn from_env() -> Self {
                    Limits {
                        max_nodes: crate::botzone::time::iteration_budget(),
                        ..Limits::default()
                    }
                }
            }
            #[derive(Clone, Copy, Debug)]
            pub struct SearchResult<A> {
                pub best: A,
                pub value: i32,
                pub depth: u32,
                pub nodes: u64,
            }
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            enum Bound {
                Exact,
                Lower,
                Upper,
            }
            #[derive(Clone, Copy, Debug)]
            struct Entry<A> {
                key: u64,
                value: i32,
                depth: u8,
                bound: Bound,
                best: A,
            }
            struct Ply<A> {
                ours: Vec<(i32, A)>,
                theirs: Vec<(i32, A)>,
                killer: Option<A>,
            }
            pub struct AlphaBeta<G: Game> {
                table: Vec<Option<Entry<G::Action>>>,
                plies: Vec<Ply<G::Action>>,
                scratch_actions: G::Actions,
                scratch_scores: Vec<i32>,
                nodes: u64,
                node_limit: u64,
                deadline: Option<Deadline>,
                stopped: bool,
            }
            impl<G: Game> AlphaBeta<G> {
                pub fn new(table_bits: u32) -> Self {
                    assert!(table_bits <= 30, "transposition table too large");
                    let plies = (0..=MAX_DEPTH as usize + 1)
                        .map(|_| Ply {
                            ours: Vec::with_capacity(ACTION_CAPACITY),
                            theirs: Vec::with_capacity(ACTION_CAPACITY),
                            killer: None,
                        })
                        .collect();
                    AlphaBeta {
                        table: vec![None; 1 << table_bits],
                        plies,
                        scratch_actions: G::Actions::default(),
                        scratch_scores: vec![0; ACTION_CAPACITY],
                        nodes: 0,
                        node_limit: u64::MAX,
                        deadline: None,
                        stopped: false,
                    }
                }
                pub fn clear(&mut self) {
                    self.table.fill(None);
                }
                pub fn search<E: Evaluator<G>>(
                    &mut self,
                    game: &mut G,
                    me: usize,
                    eval: &mut E,
                    deadline: &Deadline,
                    limits: Limits,
                ) -> SearchResult<G::Action> {
                    assert_eq!(game.player_count(), 2, "alpha-beta needs two players");
                    self.nodes = 0;
                    self.stopped = false;
                    self.deadline = Some(*deadline);
                    self.node_limit = limits.max_nodes.unwrap_or(u64::MAX);
                    for ply in &mut self.plies {
                        ply.killer = None;
                    }
                    self.generate(game, me, 0, true, eval, None);
                    let mut result = SearchResult {
                        best: self.plies[0].ours[0].1,
                        value: 0,
                        depth: 0,
                        nodes: 0,
                    };
                    if game.is_over() {
                        return result;
                    }
                    let max_depth = limits.max_depth.clamp(1, MAX_DEPTH);
                    for depth in 1..=max_depth {
                        let (value, best, finished) = self.root(game, me, depth, eval, result.best);
                        if let Some(best) = best {
                            result.best = best;
                            result.value = value;
                        }
                        if !finished {
                            break;
                        }
                        result.depth = depth;
                        if value.abs() >= WIN / 2 || deadline.passed() {
                            break;
                        }
                    }
                    result.nodes = self.nodes;
                    result
                }
                fn root<E: Evaluator<G>>(
                    &mut self,
                    game: &mut G,
                    me: usize,
                    depth: u32,
                    eval: &mut E,
                    first: G::Action,
                ) -> (i32, Option<G::Action>, bool) {
                    self.generate(game, me, 0, true, eval, Some(first));
                    self.generate(game, 1 - me, 0, false, eval, None);
                    let mut alpha = -INF;
                    let mut best = None;
                    for i in 0..self.plies[0].ours.len() {
                        let a = self.plies[0].ours[i].1;
                        let worst = self.reply(game, me, a, depth, 0, alpha, INF, eval);
                        if self.stopped {
                            return (alpha, best, false);
                        }
                        if worst > alpha || best.is_none() {
                            alpha = alpha.max(worst);
                            best = Some(a);
                        }
                    }
                    if let Some(b) = best {
                        let key = eval.key(game);
                        self.store(key, depth, alpha, Bound::Exact, b);
                    }
                    (alpha, best, true)
                }
                #[allow(clippy::too_many_arguments)]
                fn reply<E: Evaluator<G>>(
                    &mut self,
                    game: &mut G,
                    me: usize,
                    a: G::Action,
                    depth: u32,
                    ply: usize,
                    alpha: i32,
                    beta: i32,
                    eval: &mut E,
                ) -> i32 {
                    let mut worst = INF;
                    let n = self.plies[ply].theirs.len();
                    let killer = self.plies[ply]
                        .killer
                        .filter(|k| self.plies[ply].theirs.iter().any(|&(_, b)| b == *k));
                    let mut joint = [a, a];
                    for k in 0..=n {
                        let b = match (k, killer) {
                            (0, Some(kb)) => kb,
                            (0, None) => continue,
                            (k, _) => {
                                let b = self.plies[ply].theirs[k - 1].1;
                                if Some(b) == killer {
                                    continue;
                                }
                                b
                            }
                        };
                        joint[me] = a;
                        joint[1 - me] = b;
                        game.apply(&joint);
                        let v =
                            self.node(game, me, depth - 1, ply + 1, alpha, beta.min(worst), eval);
                        game.undo();
                        if self.stopped {
                            return worst;
                        }
                        if v < worst {
                            worst = v;
                            if worst <= alpha {
                                self.plies[ply].killer = Some(b);
                                break;
                            }
                        }
                    }
                    worst
                }
                #[allow(clippy::too_many_arguments)]
                fn node<E: Evaluator<G>>(
                    &mut self,
                    game: &mut G,
                    me: usize,
                    depth: u32,
                    ply: usize,
                    mut alpha: i32,
                    beta: i32,
                    eval: &mut E,
                ) -> i32 {
                    self.nodes += 1;
                    if self.nodes % CLOCK_INTERVAL == 0 {
                        let late = self.deadline.is_some_and(|d| d.passed());
                        if late || self.nodes >= self.node_limit {
                            self.stopped = true;
                            return 0;
                        }
                    }
                    if game.is_over() {
                        let v = eval.terminal(game, me);
                        return v - v.signum() * ply as i32;
                    }
                    if depth == 0 {
                        return eval.evaluate(game, me);
                    }
                    let key = eval.key(game);
                    let mut tt_best = None;
                    if let Some(e) = self.table[key as usize & (self.table.len() - 1)] {
                        if e.key == key {
                            tt_best = Some(e.best);
                            if u32::from(e.depth) >= depth {
                                match e.bound {
                                    Bound::Exact => return e.value,
                                    Bound::Lower if e.value >= beta => return e.value,
                                    Bound::Upper if e.value <= alpha => return e.value,
                                    _ => {}
                                }
                            }
                        }
                    }
                    self.generate(game, me, ply, true, eval, tt_best);
                    self.generate(game, 1 - me, ply, false, eval, None);
                    let alpha0 = alpha;
                    let mut best = -INF;
                    let mut best_action = self.plies[ply].ours[0].1;
                    for i in 0..self.plies[ply].ours.len() {
                        let a = self.plies[ply].ours[i].1;
                        let worst = self.reply(game, me, a, depth, ply, alpha, beta, eval);
                        if self.stopped {
                            return 0;
                        }
                        if worst > best {
                            best = worst;
                            best_action = a;
                            if best > alpha {
                                alpha = best;
                                if alpha >= beta {
                                    break;
                                }
                            }
                        }
                    }
                    let bound = if best <= alpha0 {
                        Bound::Upper
                    } else if best >= beta {
                        Bound::Lower
                    } else {
                        Bound::Exact
                    };
                    self.store(key, depth, best, bound, best_action);
                    best
                }
                fn store(
                    &mut self,
                    key: u64,
                    depth: u32,
                    value: i32,
                    bound: Bound,
                    best: G::Action,
                ) {
                    let mask = self.table.len() - 1;
                    let slot = &mut self.table[key as usize & mask];
                    if let Some(e) = slot {
                        if e.key == key && u32::from(e.depth) > depth {
                            return;
                        }
                    }
                    *slot = Some(Entry {
                        key,
                        value,
                        depth: depth.min(255) as u8,
                        bound,
                        best,
                    });
                }
                fn generate<E: Evaluator<G>>(
                    &mut self,
                    game: &G,
                    player: usize,
                    ply: usize,
                    ours: bool,
                    eval: &mut E,
                    first: Option<G::Action>,
                ) {
                    let mut actions = std::mem::take(&mut self.scratch_actions);
                    if game.is_active(player) {
                        game.legal_actions(player, &mut actions);
                    }
                    let list = if ours {
                        &mut self.plies[ply].ours
                    } else {
                        &mut self.plies[ply].theirs
                    };
                    list.clear();
                    if actions.is_empty() {
                        list.push((0, G::Action::default()));
                    } else {
                        if self.scratch_scores.len() < actions.len() {
                            self.scratch_scores.resize(actions.len(), 0);
                        }
                        let scores = &mut self.scratch_scores[..actions.len()];
                        eval.order(game, player, &actions, scores);
                        for (&a, &s) in actions.iter().zip(scores.iter()) {
                            let s = if Some(a) == first { i32::MAX } else { s };
                            list.push((s, a));
                        }
                        for i in 1..list.len() {
                            let mut j = i;
                            while j > 0 && list[j - 1].0 < list[j].0 {
                                list.swap(j - 1, j);
                                j -= 1;
                            }
                        }
                    }
                    self.scratch_actions = actions;
                }
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
