//! Enclosure planning: distance maps, safe rectangles and bail-out paths.
//!
//! The score `10·ΣS²` rewards one big region, and a pen-down trail dies when
//! anybody steps on it. A loop of `P` edges is safe against any opponent whose
//! distance to every vertex of the loop is at least the number of turns the
//! trail stays open. This module measures that: pen-up distance maps of every
//! player ([`distance_map`]; [`pen_down_distance_map`] for a pen-down one,
//! which may walk no region's interior), every axis-aligned rectangle as a
//! candidate loop (or, where a region crosses the rectangle's border, the
//! outline of each 4-connected piece of unowned land inside it:
//! [`Params::pockets`]) with the unowned land it would take, the opponents it
//! would close round and how close each opponent is to its boundary
//! ([`Planner::best_rectangle`]), the shortest way back to one's own
//! trail ([`closing_path`]) and the one that takes the most land in safety
//! ([`Planner::best_closing`]), bigger loops that go on from a trail
//! ([`Planner::best_extension`] round rectangles, [`Planner::best_free_way`]
//! of any shape), how soon a pen-down opponent can close its loop
//! ([`Planner::cut_target`]) and where its trail is nearest
//! ([`Planner::nearest_trail_vertex`]).
//!
//! Distance maps, paths and the loops played out on the simulator use fixed
//! arrays; [`Planner::best_rectangle`] gathers its candidates, the pieces
//! of land it has outlined and the traps in three `Vec`s per call (once a
//! turn, never inside a rollout).

use super::{
    manhattan, xy, Command, Dir, Pen, PenState, State, CELL_SIDE, MAX_TURNS, PLAYERS, SIDE,
    VERTICES,
};

/// The distance of a vertex nobody can reach.
pub const FAR: u8 = u8::MAX;

/// Distances in moves from one player to every vertex.
pub type DistMap = [u8; VERTICES];

/// A walk: vertex indices in order.
#[derive(Clone, Copy, Debug)]
pub struct Path {
    v: [u8; VERTICES + 1],
    len: usize,
}

impl Default for Path {
    fn default() -> Self {
        Path {
            v: [0; VERTICES + 1],
            len: 0,
        }
    }
}

impl Path {
    /// The vertices.
    pub fn vertices(&self) -> &[u8] {
        &self.v[..self.len]
    }
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the path has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn push(&mut self, v: u8) {
        if self.len < self.v.len() {
            self.v[self.len] = v;
            self.len += 1;
        }
    }
}

/// The direction of the move from `a` to the adjacent vertex `b`.
pub fn dir_between(a: u8, b: u8) -> Option<Dir> {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    Dir::from_delta(i32::from(bx) - i32::from(ax), i32::from(by) - i32::from(ay))
}

fn neighbours(v: u8) -> impl Iterator<Item = (Dir, u8)> {
    Dir::MOVES
        .into_iter()
        .filter_map(move |d| State::neighbour(v, d).map(|n| (d, n)))
}

/// Pen-up distances of player `p` to every vertex ([`FAR`] for a dead
/// player and for vertices it cannot reach): breadth-first over the edges
/// it may walk with the pen up (not interior to another player's region),
/// plus the turns it is still held by a trap. `parent` gets the vertex
/// each one was reached from (for paths back).
pub fn distance_map(st: &State, p: usize, out: &mut DistMap, parent: &mut [u8; VERTICES]) {
    out.fill(FAR);
    parent.fill(FAR);
    let pl = st.player(p);
    if pl.is_alive() {
        pen_up_walk(st, p, pl.vertex(), pl.stuck(), out, parent);
    }
}

/// The pen-up moves of `me` from `here` that neither kill it nor step onto
/// a trap, with the vertex each leads to (in [`Dir::MOVES`] order).
fn safe_pen_up_moves(st: &State, me: usize, here: u8) -> impl Iterator<Item = (Command, u8)> + '_ {
    Dir::MOVES.into_iter().filter_map(move |d| {
        let c = Command::new(d, Pen::Keep);
        let n = State::neighbour(here, d)?;
        let (x, y) = xy(n);
        (!st.kills_itself(me, c) && st.trap(x, y) == 0).then_some((c, n))
    })
}

/// Breadth-first from `start` (at distance `first`) over the edges player
/// `p` may walk with the pen up, into `out` (which holds [`FAR`] everywhere
/// on entry) and `parent`.
fn pen_up_walk(
    st: &State,
    p: usize,
    start: u8,
    first: u8,
    out: &mut DistMap,
    parent: &mut [u8; VERTICES],
) {
    let mut queue = [0u8; VERTICES];
    let (mut head, mut tail) = (0, 0);
    out[usize::from(start)] = first;
    queue[tail] = start;
    tail += 1;
    while head < tail {
        let v = queue[head];
        head += 1;
        let d = out[usize::from(v)];
        for (_, n) in neighbours(v) {
            if out[usize::from(n)] != FAR {
                continue;
            }
            if let Some(o) = st.interior_owner(v, n) {
                if o != p {
                    continue;
                }
            }
            out[usize::from(n)] = d.saturating_add(1);
            parent[usize::from(n)] = v;
            queue[tail] = n;
            tail += 1;
        }
    }
}

/// Distances of pen-down player `p` to every vertex as a pen-down player
/// moves ([`FAR`] where it cannot get): over no edge interior to any region
/// while the pen is down, and, once a move onto its own trail has closed
/// the loop, with the pen up as in [`distance_map`]; plus the turns it is
/// still held by a trap. A lower bound: the rule against reversing is not
/// counted, nor the trail vertices the walk may not cross. For a pen-up
/// player it is [`distance_map`].
pub fn pen_down_distance_map(st: &State, p: usize, out: &mut DistMap) {
    let pl = st.player(p);
    if pl.state() != PenState::Down {
        let mut parent = [FAR; VERTICES];
        distance_map(st, p, out, &mut parent);
        return;
    }
    out.fill(FAR);
    // Breadth-first over (vertex, pen) pairs: `seen[0]` pen down, `seen[1]`
    // pen up after closing.
    let mut seen = [[FAR; VERTICES]; 2];
    let mut queue = [(0u8, 0u8); 2 * VERTICES];
    let (mut head, mut tail) = (0, 0);
    let start = pl.vertex();
    seen[0][usize::from(start)] = pl.stuck();
    queue[tail] = (start, 0);
    tail += 1;
    while head < tail {
        let (v, up) = queue[head];
        head += 1;
        let d = seen[usize::from(up)][usize::from(v)];
        for (_, n) in neighbours(v) {
            let interior = st.interior_owner(v, n);
            let next_up = if up == 1 {
                if interior.is_some_and(|o| o != p) {
                    continue;
                }
                1
            } else {
                if interior.is_some() {
                    continue;
                }
                u8::from(pl.on_trail(n))
            };
            let slot = &mut seen[usize::from(next_up)][usize::from(n)];
            if *slot != FAR {
                continue;
            }
            *slot = d.saturating_add(1);
            queue[tail] = (n, next_up);
            tail += 1;
        }
    }
    for (o, (a, b)) in out.iter_mut().zip(seen[0].iter().zip(seen[1].iter())) {
        *o = (*a).min(*b);
    }
}

/// The shortest way for pen-down player `p` to close its loop: from its
/// vertex to a vertex of its trail, over edges interior to no region,
/// through no other trail vertex, never starting with the move opposite to
/// its last one. The path starts at the player's vertex and ends on the
/// trail; `None` when the pen is up or no way exists.
pub fn closing_path(st: &State, p: usize) -> Option<Path> {
    let tree = ClosingTree::new(st, p, 0)?;
    tree.first.map(|end| tree.way_to(end))
}

/// Breadth-first ways for a pen-down player to close its loop: from its
/// vertex over edges interior to no region, onto no `blocked` vertex,
/// through no trail vertex but the last, never starting with the move
/// opposite to its last one.
struct ClosingTree {
    start: u8,
    dist: [u8; VERTICES],
    parent: [u8; VERTICES],
    /// Every trail vertex a way ends on.
    ends: u128,
    /// The trail vertex reached first (the shortest way's end).
    first: Option<u8>,
}

impl ClosingTree {
    /// `None` when `p`'s pen is up.
    fn new(st: &State, p: usize, blocked: u128) -> Option<ClosingTree> {
        let pl = st.player(p);
        if pl.state() != PenState::Down {
            return None;
        }
        let start = pl.vertex();
        let trail = pl.trail_set();
        let back = pl.last_dir().opposite();
        let mut tree = ClosingTree {
            start,
            dist: [FAR; VERTICES],
            parent: [FAR; VERTICES],
            ends: 0,
            first: None,
        };
        let mut queue = [0u8; VERTICES];
        let (mut head, mut tail) = (0, 0);
        tree.dist[usize::from(start)] = 0;
        queue[tail] = start;
        tail += 1;
        while head < tail {
            let v = queue[head];
            head += 1;
            for (d, n) in neighbours(v) {
                if v == start && pl.last_dir() != Dir::Stay && d == back {
                    continue;
                }
                if tree.dist[usize::from(n)] != FAR
                    || st.interior_owner(v, n).is_some()
                    || blocked & (1u128 << n) != 0
                {
                    continue;
                }
                tree.dist[usize::from(n)] = tree.dist[usize::from(v)] + 1;
                tree.parent[usize::from(n)] = v;
                if trail & (1u128 << n) != 0 {
                    tree.ends |= 1u128 << n;
                    tree.first.get_or_insert(n);
                } else {
                    queue[tail] = n;
                    tail += 1;
                }
            }
        }
        Some(tree)
    }

    /// The way from the player's vertex to `end`, both included.
    fn way_to(&self, end: u8) -> Path {
        let mut path = Path::default();
        let mut x = end;
        while x != self.start {
            path.push(x);
            x = self.parent[usize::from(x)];
        }
        path.push(self.start);
        path.v[..path.len].reverse();
        path
    }
}

/// How the planner weighs safety against size.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// A rectangle of perimeter `P` is taken when every live opponent is at
    /// least `ceil(safety · P)` moves (plus `walk_weight` times the walk to
    /// it) from every vertex of it. `1.0` is safe against any opponent that
    /// rushes the trail; `0.5` assumes opponents go on with their business
    /// and relies on [`Params::bail_slack`] to give up in time.
    pub safety: f64,
    /// Counts the walk to the rectangle against opponents' distances: as
    /// if every opponent came `walk_weight` moves nearer per move of the
    /// walk. `0.0` counts nothing: the walk is made with the pen up, at no
    /// risk, and the plan is made again every turn of it, from where the
    /// opponents then stand.
    pub walk_weight: f64,
    /// Pen down, the plan goes on while every live opponent is at least
    /// `remaining - bail_slack` moves from every vertex of the loop;
    /// otherwise the bot closes ([`Params::bail_most_land`]).
    pub bail_slack: i32,
    /// Value kept per move of walking to a rectangle (`0.9`: a rectangle
    /// ten moves away is worth 35% of one at hand).
    pub walk_discount: f64,
    /// How many moves per turn opponents are assumed to come nearer when a
    /// loop is planned ([`Planner::exposure_ok`]): `1.0` plans for
    /// opponents that rush the trail from the start.
    pub approach: f64,
    /// Loops taking less `ΣS²` than this are not drawn before the last
    /// [`LATE`] turns (in the first turns, [`Params::early_gain`] holds
    /// instead), so as to wait for room for a bigger one (36 in
    /// [`Params::STRONG`]: nothing less than six cells in one region).
    pub min_gain: u32,
    /// While more than [`Params::early_left`] turns are left, loops taking
    /// less `ΣS²` than this are not drawn ([`Params::min_gain`] after
    /// that): early, the board is open and a first region can be big,
    /// and every later loop that borders it adds to it (64 in
    /// [`Params::STRONG`]: nothing less than eight cells in one region in
    /// the first 40 turns).
    pub early_gain: u32,
    /// The turns left above which [`Params::early_gain`] holds (`100` or
    /// more: never).
    pub early_left: u8,
    /// With no loop to draw, step away from the nearest opponent (else
    /// stay); [`Params::idle_territory`] takes precedence.
    pub idle_moves: bool,
    /// Cut a pen-down opponent's trail (pen up) when it is at most this
    /// many moves away and reachable before the opponent can close.
    pub cut_reach: u8,
    /// With one live opponent left, hunt it: cut its trail at any distance
    /// it can be reached in time, and with no loop to draw, walk (pen up)
    /// to within a move of it instead of stepping away. Whoever outlives
    /// every opponent takes every cell nobody owns.
    pub duel_hunt: bool,
    /// With one live opponent left and its pen down, walk (pen up) to the
    /// nearest vertex of its trail even when it can close first: it must
    /// close at once, small, or be cut (needs [`Params::duel_hunt`]).
    pub duel_chase: bool,
    /// Stop the duel chase ([`Params::duel_chase`]) for the rest of the
    /// game once the last opponent has closed this many chased trails
    /// alive: an opponent that keeps out of reach is not worth the walks.
    /// `0` never stops.
    pub chase_give_up: u8,
    /// Pen down, when the plan must be given up, close by the way that
    /// takes the most land among those no opponent can cut in time
    /// ([`Planner::best_closing`]), instead of the shortest way.
    pub bail_most_land: bool,
    /// Weighs a rectangle of perimeter `P` whose nearest live opponent is
    /// `d < P` moves from it by `exp(-(P - d) / risk_tau)`: such a loop can
    /// be reached before it closes, and a bail-out takes less land than the
    /// plan. `0.0` weighs nothing: only [`Planner::exposure_ok`], which
    /// assumes the opponents stand still, decides.
    pub risk_tau: f64,
    /// `ΣS²` a rectangle is worth for each live opponent standing strictly
    /// inside it (it dies when the loop closes, 被围杀); when that is every
    /// live opponent, the rectangle is worth the `ΣS²` of all unowned land
    /// instead (the sole survivor takes it). Only an opponent that cannot
    /// reach the loop in time passes [`Planner::exposure_ok`], such as a
    /// pen-down one walled in by land (see [`Params::pen_down_reach`]).
    /// `0` credits nothing.
    pub kill_value: u32,
    /// Measure a pen-down opponent's reach as a pen-down player moves: over
    /// no edge interior to any region until it closes its loop (by stepping
    /// onto its own trail), with the pen up after that. Else as if its pen
    /// were up.
    pub pen_down_reach: bool,
    /// In the last `late_risk` turns, while at least
    /// [`Params::late_risk_opponents`] opponents are alive, loops are
    /// planned and drawn as if no opponent could reach them: a death keeps
    /// the land already taken, and with enough opponents left it makes
    /// nobody the sole survivor. `0` never.
    pub late_risk: u8,
    /// The fewest live opponents for [`Params::late_risk`]. With two, one
    /// more death after the bot's (an opponent's, or one caused by the
    /// bot's own risky loop) leaves a sole survivor, who takes every cell
    /// nobody owns; with three, that takes two.
    pub late_risk_opponents: u8,
    /// An opponent that has not stepped nearer to the bot (Manhattan
    /// distance to where the bot stood the turn before) for this many
    /// turns in a row is left out of the risk weight ([`Params::risk_tau`]):
    /// it is not coming, and if it starts, the bot bails out as always (the
    /// safety check still counts it). `0` never.
    pub calm_after: u8,
    /// Where a rectangle's border crosses a region (so that no loop can
    /// follow it), plan instead round each 4-connected piece of the
    /// unowned cells inside the rectangle: the outline of the piece (its
    /// holes filled) walks only edges that have unowned land on one side,
    /// and takes as much as the rectangle's unowned land for no longer a
    /// trail when the piece is as wide and as tall.
    pub pockets: bool,
    /// With no loop to draw (and more than one opponent), step to where the
    /// bot reaches first the most vertices next to unowned land, instead
    /// of away from the nearest opponent.
    pub idle_territory: bool,
    /// Pen down, while the plan goes on, switch to a bigger rectangle that
    /// begins with the trail drawn so far when no opponent can reach it
    /// before it closes ([`Planner::best_extension`]).
    pub extend: bool,
    /// With [`Params::extend`]: also rectangles that begin with the end of
    /// the trail from any of its vertices (the loop closes there, the
    /// trail before it left outside), and when the plan must be given up,
    /// such a rectangle instead of the bail-out way when it takes more.
    pub extend_suffix: bool,
    /// With [`Params::extend`]: also ways back to the trail of any shape
    /// ([`Planner::best_free_way`]), safe in the same sense, where they take
    /// more than the plan or the best rectangle, both while the plan goes
    /// on and when it must be given up. The vertices no opponent can reach
    /// in time lie within diamonds round the opponents' reach, which a
    /// staircase follows more closely than a rectangle.
    pub extend_free: bool,
}

impl Params {
    /// The strong bot's setting.
    pub const STRONG: Params = Params {
        safety: 0.0,
        walk_weight: 0.0,
        bail_slack: 0,
        walk_discount: 0.9,
        approach: 0.0,
        min_gain: 36,
        early_gain: 64,
        early_left: 60,
        idle_moves: true,
        cut_reach: 8,
        duel_hunt: true,
        duel_chase: true,
        chase_give_up: 3,
        bail_most_land: true,
        risk_tau: 4.0,
        kill_value: 400,
        pen_down_reach: true,
        late_risk: 10,
        late_risk_opponents: 3,
        calm_after: 3,
        pockets: true,
        idle_territory: true,
        extend: true,
        extend_suffix: true,
        extend_free: true,
    };
    /// A careful planner that never cuts: only loops no opponent can reach
    /// in time.
    pub const CAREFUL: Params = Params {
        safety: 1.0,
        walk_weight: 1.0,
        bail_slack: 0,
        walk_discount: 0.9,
        approach: 1.0,
        min_gain: 1,
        early_gain: 1,
        early_left: 100,
        idle_moves: false,
        cut_reach: 0,
        duel_hunt: false,
        duel_chase: false,
        chase_give_up: 0,
        bail_most_land: false,
        risk_tau: 0.0,
        kill_value: 0,
        pen_down_reach: false,
        late_risk: 0,
        late_risk_opponents: 3,
        calm_after: 0,
        pockets: false,
        idle_territory: false,
        extend: false,
        extend_suffix: false,
        extend_free: false,
    };
}

/// The last turns, when any loop is worth drawing ([`Params::min_gain`],
/// [`Params::early_gain`]).
pub const LATE: i32 = 25;

/// The most candidate loops [`Planner::best_rectangle`] plays out.
pub const MAX_CHECKS: usize = 3000;

/// The most steps [`Planner::best_free_way`] tries.
pub const MAX_FREE_NODES: u32 = 20_000;

/// A planned loop: a rectangle's border, or the outline of a piece of
/// unowned land inside a rectangle ([`Params::pockets`]).
#[derive(Clone, Copy, Debug)]
pub struct Rect {
    /// Corners `(x0, y0)`-`(x1, y1)` of the rectangle, `x0 < x1`, `y0 < y1`.
    pub corners: (u8, u8, u8, u8),
    /// Where the loop starts (a boundary vertex).
    pub entry: u8,
    /// The moves to walk there with the pen up.
    pub walk: u8,
    /// `ΣS²` of the unowned cells it would take.
    pub gain: u32,
    /// The loop's vertices from `entry` round to `entry` again.
    pub loop_path: Path,
}

/// The distance maps of one position, and the plans built on them.
pub struct Planner<'a> {
    st: &'a State,
    me: usize,
    dist: [DistMap; PLAYERS],
    parent: [[u8; VERTICES]; PLAYERS],
    params: Params,
    /// Loops ignore the opponents ([`Params::late_risk`]).
    reckless: bool,
    /// Opponents left out of the risk weight ([`Params::calm_after`]).
    calm: [bool; PLAYERS],
}

/// The boundary of rectangle `(x0, y0)-(x1, y1)` clockwise from its top-left
/// corner, without repeating it.
fn perimeter(x0: u8, y0: u8, x1: u8, y1: u8, out: &mut Path) {
    out.len = 0;
    for x in x0..x1 {
        out.push(super::vertex(x, y0));
    }
    for y in y0..y1 {
        out.push(super::vertex(x1, y));
    }
    for x in (x0 + 1..=x1).rev() {
        out.push(super::vertex(x, y1));
    }
    for y in (y0 + 1..=y1).rev() {
        out.push(super::vertex(x0, y));
    }
}

/// Every rectangle whose border begins with the walk `sub` (either way
/// round) and closes within `max_rest` more moves: `f` gets the rest of
/// its border, from `sub`'s last vertex round to its first, and the number
/// of moves that takes.
fn rectangle_ways(sub: &[u8], max_rest: i32, mut f: impl FnMut(&Path, i32)) {
    let (sx, sy) = xy(sub[0]);
    let drawn = sub.len() as i32 - 1;
    let mut per = Path::default();
    let mut way = Path::default();
    for y0 in 0..=sy {
        for y1 in sy.max(y0 + 1)..SIDE as u8 {
            for x0 in 0..=sx {
                for x1 in sx.max(x0 + 1)..SIDE as u8 {
                    let rest = 2 * (i32::from(x1 - x0) + i32::from(y1 - y0)) - drawn;
                    if rest < 1 || rest > max_rest {
                        continue;
                    }
                    perimeter(x0, y0, x1, y1, &mut per);
                    let vs = per.vertices();
                    let n = vs.len();
                    let Some(i0) = vs.iter().position(|&v| v == sub[0]) else {
                        continue;
                    };
                    for step in [1, n - 1] {
                        let at = |k: usize| vs[(i0 + k * step) % n];
                        if (1..sub.len()).all(|k| at(k) == sub[k]) {
                            way.len = 0;
                            for k in sub.len() - 1..=n {
                                way.push(at(k));
                            }
                            f(&way, rest);
                        }
                    }
                }
            }
        }
    }
}

/// Moves from every vertex to the nearest vertex of `targets` over edges
/// interior to no region (as a pen-down player walks), onto no `blocked`
/// vertex; [`FAR`] where none can be reached.
fn distances_to(st: &State, targets: &[u8], blocked: u128) -> DistMap {
    let mut dist = [FAR; VERTICES];
    let mut queue = [0u8; VERTICES];
    let (mut head, mut tail) = (0, 0);
    for &v in targets {
        if dist[usize::from(v)] == FAR {
            dist[usize::from(v)] = 0;
            queue[tail] = v;
            tail += 1;
        }
    }
    while head < tail {
        let v = queue[head];
        head += 1;
        for (_, n) in neighbours(v) {
            if dist[usize::from(n)] == FAR
                && st.interior_owner(v, n).is_none()
                && blocked & (1u128 << n) == 0
            {
                dist[usize::from(n)] = dist[usize::from(v)] + 1;
                queue[tail] = n;
                tail += 1;
            }
        }
    }
    dist
}

/// The turns still to be played in `st`.
fn turns_left(st: &State) -> i32 {
    i32::try_from(MAX_TURNS.saturating_sub(st.turn())).unwrap_or(0)
}

/// The cells of a set, as bits `j * CELL_SIDE + i`.
type CellSet = u128;

fn cell_bit(i: u8, j: u8) -> CellSet {
    1u128 << (usize::from(j) * CELL_SIDE + usize::from(i))
}

/// The unowned cells of `area`.
fn unowned_in(st: &State, area: CellSet) -> CellSet {
    let mut free: CellSet = 0;
    for c in 0..CELL_SIDE * CELL_SIDE {
        let bit = 1u128 << c;
        if area & bit != 0
            && st
                .owner((c % CELL_SIDE) as u8, (c / CELL_SIDE) as u8)
                .is_none()
        {
            free |= bit;
        }
    }
    free
}

/// The cells of `within` that 4-connected paths inside `within` join to
/// `seed`.
fn flood(seed: CellSet, within: CellSet) -> CellSet {
    let mut set = seed & within;
    loop {
        let grown = (set | grow(set)) & within;
        if grown == set {
            return set;
        }
        set = grown;
    }
}

/// Calls `f` with each 4-connected component of `cells`.
fn for_each_piece(mut cells: CellSet, mut f: impl FnMut(CellSet)) {
    while cells != 0 {
        let piece = flood(cells & cells.wrapping_neg(), cells);
        cells &= !piece;
        f(piece);
    }
}

/// The cells of rectangle `[x0, x1) × [y0, y1)`.
fn rect_cells((x0, y0, x1, y1): (u8, u8, u8, u8)) -> CellSet {
    let mut m = 0;
    for j in y0..y1 {
        for i in x0..x1 {
            m |= cell_bit(i, j);
        }
    }
    m
}

/// The 4-connected components of the unowned cells of rectangle
/// `[x0, x1) × [y0, y1)`, into `out`; how many there are.
fn unowned_pieces(
    st: &State,
    corners: (u8, u8, u8, u8),
    out: &mut [CellSet; CELL_SIDE * CELL_SIDE],
) -> usize {
    let mut n = 0;
    for_each_piece(unowned_in(st, rect_cells(corners)), |piece| {
        out[n] = piece;
        n += 1;
    });
    n
}

/// The cells of the board, as a set.
const ALL_CELLS: CellSet = (1u128 << (CELL_SIDE * CELL_SIDE)) - 1;
/// The cells of column 0 and of column `CELL_SIDE - 1`.
const COLUMN_0: CellSet = {
    let mut m = 0u128;
    let mut j = 0;
    while j < CELL_SIDE {
        m |= 1u128 << (j * CELL_SIDE);
        j += 1;
    }
    m
};
const COLUMN_LAST: CellSet = COLUMN_0 << (CELL_SIDE - 1);
/// The cells on the board's edge.
const EDGE_CELLS: CellSet = COLUMN_0
    | COLUMN_LAST
    | ((1u128 << CELL_SIDE) - 1)
    | (((1u128 << CELL_SIDE) - 1) << (CELL_SIDE * (CELL_SIDE - 1)));

/// `set`'s 4-neighbours on the board.
fn grow(set: CellSet) -> CellSet {
    (((set << 1) & !COLUMN_0)
        | ((set >> 1) & !COLUMN_LAST)
        | (set << CELL_SIDE)
        | (set >> CELL_SIDE))
        & ALL_CELLS
}

/// `piece` with its holes filled (the cells that no path of cells
/// outside it joins to the board's edge), and its outline: the boundary
/// of the filled set as a cycle of vertices, clockwise, each once. `None`
/// when the boundary touches itself at a vertex (two cells of the piece
/// meet only at a corner there), so that no simple loop follows it.
fn outline(piece: CellSet, out: &mut Path) -> Option<CellSet> {
    // The cells outside `piece` that reach the board's edge.
    let outside = flood(EDGE_CELLS, ALL_CELLS & !piece);
    let filled = ALL_CELLS & !outside;
    // Each boundary edge, directed with the filled cell on its right.
    let mut next = [FAR; VERTICES];
    let mut edges = 0usize;
    let mut start = FAR;
    let has = |i: i32, j: i32| {
        (0..CELL_SIDE as i32).contains(&i)
            && (0..CELL_SIDE as i32).contains(&j)
            && filled & (1u128 << (j as usize * CELL_SIDE + i as usize)) != 0
    };
    for j in 0..CELL_SIDE as i32 {
        for i in 0..CELL_SIDE as i32 {
            if !has(i, j) {
                continue;
            }
            let v = |x: i32, y: i32| super::vertex(x as u8, y as u8);
            let sides = [
                (has(i, j - 1), v(i, j), v(i + 1, j)),
                (has(i + 1, j), v(i + 1, j), v(i + 1, j + 1)),
                (has(i, j + 1), v(i + 1, j + 1), v(i, j + 1)),
                (has(i - 1, j), v(i, j + 1), v(i, j)),
            ];
            for (shared, a, b) in sides {
                if shared {
                    continue;
                }
                if next[usize::from(a)] != FAR {
                    return None;
                }
                next[usize::from(a)] = b;
                edges += 1;
                if start == FAR {
                    start = a;
                }
            }
        }
    }
    out.len = 0;
    let mut v = start;
    loop {
        out.push(v);
        v = next[usize::from(v)];
        if v == start || out.len() > edges {
            break;
        }
    }
    (out.len() == edges).then_some(filled)
}

/// Whether `area` is every cell of its bounding rectangle.
fn is_rectangle(area: CellSet) -> bool {
    let (mut x0, mut y0, mut x1, mut y1) = (CELL_SIDE, CELL_SIDE, 0, 0);
    for c in 0..CELL_SIDE * CELL_SIDE {
        if area & (1u128 << c) != 0 {
            let (i, j) = (c % CELL_SIDE, c / CELL_SIDE);
            (x0, y0, x1, y1) = (x0.min(i), y0.min(j), x1.max(i + 1), y1.max(j + 1));
        }
    }
    area.count_ones() as usize == (x1 - x0) * (y1 - y0)
}

/// `ΣS²` over the 4-connected components of the unowned cells of `area`.
fn gain_in(st: &State, area: CellSet) -> u32 {
    let mut total = 0;
    for_each_piece(unowned_in(st, area), |piece| {
        total += piece.count_ones().pow(2)
    });
    total
}

/// Whether vertex `(x, y)` lies strictly inside the loop round `area`: all
/// four cells that meet there are in it.
fn strictly_inside(area: CellSet, x: u8, y: u8) -> bool {
    x > 0
        && y > 0
        && usize::from(x) < CELL_SIDE
        && usize::from(y) < CELL_SIDE
        && [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
            .iter()
            .all(|&(i, j)| area & cell_bit(i, j) != 0)
}

impl<'a> Planner<'a> {
    /// Distance maps of every player in `st`, for player `me`.
    pub fn new(st: &'a State, me: usize, params: Params) -> Self {
        let mut dist = [[FAR; VERTICES]; PLAYERS];
        let mut parent = [[FAR; VERTICES]; PLAYERS];
        for p in 0..PLAYERS {
            // Only `me`'s walks are followed back (`parent`).
            if params.pen_down_reach && p != me && st.player(p).state() == PenState::Down {
                pen_down_distance_map(st, p, &mut dist[p]);
            } else {
                distance_map(st, p, &mut dist[p], &mut parent[p]);
            }
        }
        let live = (0..PLAYERS)
            .filter(|&p| p != me && st.player(p).is_alive())
            .count();
        let reckless = turns_left(st) <= i32::from(params.late_risk)
            && live >= usize::from(params.late_risk_opponents);
        Planner {
            st,
            me,
            dist,
            parent,
            params,
            reckless,
            calm: [false; PLAYERS],
        }
    }

    /// Leaves the opponents marked in `calm` out of the risk weight of
    /// [`Planner::best_rectangle`] ([`Params::calm_after`]); the safety
    /// checks still count them.
    pub fn with_calm(mut self, calm: [bool; PLAYERS]) -> Self {
        self.calm = calm;
        self
    }

    /// [`Planner::loop_threat`] without the calm opponents.
    fn risk_threat(&self, path: &[u8]) -> u8 {
        if self.reckless {
            FAR
        } else {
            self.nearest(path, &self.calm)
        }
    }

    /// Player `p`'s distance map.
    pub fn dist(&self, p: usize) -> &DistMap {
        &self.dist[p]
    }

    /// The nearest any live opponent of `me` gets to a vertex of `path`
    /// ([`FAR`] with no opponent).
    pub fn threat(&self, path: &[u8]) -> u8 {
        self.nearest(path, &[false; PLAYERS])
    }

    /// The nearest any live opponent of `me` not marked in `skip` gets to
    /// a vertex of `path`.
    fn nearest(&self, path: &[u8], skip: &[bool; PLAYERS]) -> u8 {
        let mut m = FAR;
        for p in 0..PLAYERS {
            if p == self.me || skip[p] || !self.st.player(p).is_alive() {
                continue;
            }
            for &v in path {
                m = m.min(self.dist[p][usize::from(v)]);
            }
        }
        m
    }

    /// [`Planner::threat`] as loops see it: [`FAR`] in the last
    /// [`Params::late_risk`] turns while at least
    /// [`Params::late_risk_opponents`] opponents are alive.
    pub fn loop_threat(&self, path: &[u8]) -> u8 {
        if self.reckless {
            FAR
        } else {
            self.threat(path)
        }
    }

    /// The only live opponent of `me`, when exactly one is left.
    pub fn last_opponent(&self) -> Option<usize> {
        let mut live = (0..PLAYERS).filter(|&p| p != self.me && self.st.player(p).is_alive());
        let p = live.next()?;
        live.next().is_none().then_some(p)
    }

    /// The first move of `me`'s shortest pen-up walk to `target`.
    pub fn step_towards(&self, target: u8) -> Option<Dir> {
        let d = &self.dist[self.me];
        if d[usize::from(target)] == FAR {
            return None;
        }
        let here = self.st.player(self.me).vertex();
        let mut v = target;
        while self.parent[self.me][usize::from(v)] != here {
            let p = self.parent[self.me][usize::from(v)];
            if p == FAR {
                return None;
            }
            v = p;
        }
        dir_between(here, v)
    }

    /// The most valuable rectangle loop `me` can start (pen up), or with
    /// [`Params::pockets`] the outline of a piece of unowned land inside a
    /// rectangle whose border a region crosses; its gain
    /// counting the opponents it would close round ([`Params::kill_value`]),
    /// weighing that by the walk there and by the risk that an opponent
    /// reaches it before it closes ([`Params::risk_tau`]). Candidates pass a quick
    /// filter (every live opponent at least `safety · P + walk_weight · walk`
    /// moves from the border), then, best first, the loops that start here
    /// are played out on the simulator ([`Planner::exposure_ok`]); `None`
    /// when none fits.
    pub fn best_rectangle(&self) -> Option<Rect> {
        let st = self.st;
        let me = self.me;
        let mine = &self.dist[me];
        let left = turns_left(st);
        // The least ΣS² of a loop that kills nobody.
        let floor = if left <= LATE {
            0
        } else if left > i32::from(self.params.early_left) {
            self.params.early_gain
        } else {
            self.params.min_gain
        };
        let mut cands: Vec<(f64, Rect)> = Vec::new();
        let mut per = Path::default();
        let trap_vertices = st.trap_set();
        // Live opponents' vertices, for loops that close round them.
        let mut opponents = [(0u8, 0u8); PLAYERS];
        let mut live = 0;
        for p in (0..PLAYERS).filter(|&p| p != me && st.player(p).is_alive()) {
            opponents[live] = xy(st.player(p).vertex());
            live += 1;
        }
        let all_land = if self.params.kill_value > 0 {
            gain_in(st, ALL_CELLS)
        } else {
            0
        };
        // Scores a candidate loop round `vs` (its cycle of vertices) taking
        // `gain`, `inside` telling which vertices it closes round.
        let mut consider = |vs: &[u8], gain: u32, inside: &dyn Fn(u8, u8) -> bool, corners| {
            let p = vs.len() as i32;
            if p > left {
                return;
            }
            // Onto no trap, and the nearest entry. (Walkable with the pen
            // down: the callers pass rectangles whose border crosses no
            // region, and outlines of unowned land.)
            debug_assert!(
                (0..vs.len()).all(|k| st.interior_owner(vs[k], vs[(k + 1) % vs.len()]).is_none())
            );
            let mut entry = 0usize;
            for k in 0..vs.len() {
                let a = vs[k];
                if trap_vertices & (1u128 << a) != 0 {
                    return;
                }
                if mine[usize::from(a)] < mine[usize::from(vs[entry])] {
                    entry = k;
                }
            }
            let walk = mine[usize::from(vs[entry])];
            if walk == FAR || i32::from(walk) + p > left {
                return;
            }
            let need = (self.params.safety * f64::from(p)
                + self.params.walk_weight * f64::from(walk))
            .ceil();
            let threat = i32::from(self.loop_threat(vs));
            if f64::from(threat) < need {
                return;
            }
            let inside = opponents[..live]
                .iter()
                .filter(|&&(x, y)| inside(x, y))
                .count() as u32;
            let kill = match inside {
                _ if self.params.kill_value == 0 => 0,
                0 => 0,
                n if n as usize == live => all_land,
                n => n * self.params.kill_value,
            };
            if gain + kill == 0 || (kill == 0 && gain < floor) {
                return;
            }
            let mut score = f64::from(gain + kill)
                * self.params.walk_discount.powi(i32::from(walk))
                - 0.01 * f64::from(p);
            let risk = if self.calm.contains(&true) {
                i32::from(self.risk_threat(vs))
            } else {
                threat
            };
            if self.params.risk_tau > 0.0 && p > risk {
                score *= (-f64::from(p - risk) / self.params.risk_tau).exp();
            }
            for reverse in [false, true] {
                let mut loop_path = Path::default();
                let n = vs.len();
                for k in 0..=n {
                    let i = if reverse {
                        (entry + n - k % n) % n
                    } else {
                        (entry + k) % n
                    };
                    loop_path.push(vs[i]);
                }
                cands.push((
                    score,
                    Rect {
                        corners,
                        entry: vs[entry],
                        walk,
                        gain,
                        loop_path,
                    },
                ));
            }
        };
        let mut pieces = [0 as CellSet; CELL_SIDE * CELL_SIDE];
        let mut seen_pieces: Vec<CellSet> = Vec::new();
        let mut shape = Path::default();
        for y0 in 0..SIDE as u8 {
            for y1 in y0 + 1..SIDE as u8 {
                for x0 in 0..SIDE as u8 {
                    for x1 in x0 + 1..SIDE as u8 {
                        let corners = (x0, y0, x1, y1);
                        if 2 * (i32::from(x1 - x0) + i32::from(y1 - y0)) > left {
                            continue;
                        }
                        perimeter(x0, y0, x1, y1, &mut per);
                        let vs = per.vertices();
                        let crosses = (0..vs.len())
                            .any(|k| st.interior_owner(vs[k], vs[(k + 1) % vs.len()]).is_some());
                        if !crosses {
                            let gain = gain_in(st, rect_cells(corners));
                            let inside = |x: u8, y: u8| x0 < x && x < x1 && y0 < y && y < y1;
                            consider(vs, gain, &inside, corners);
                            continue;
                        }
                        if !self.params.pockets {
                            continue;
                        }
                        let n = unowned_pieces(st, corners, &mut pieces);
                        for &piece in &pieces[..n] {
                            if seen_pieces.contains(&piece) {
                                continue;
                            }
                            seen_pieces.push(piece);
                            let Some(area) = outline(piece, &mut shape) else {
                                continue;
                            };
                            if is_rectangle(area) {
                                // The rectangle round it is a candidate already.
                                continue;
                            }
                            let inside = |x: u8, y: u8| strictly_inside(area, x, y);
                            consider(shape.vertices(), gain_in(st, area), &inside, corners);
                        }
                    }
                }
            }
        }
        cands.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut here = st.clone();
        let mut there = st.clone();
        let traps: Vec<(u8, u8, u8)> = st.traps().collect();
        for (checked, (_, r)) in cands.into_iter().enumerate() {
            if checked >= MAX_CHECKS {
                break;
            }
            let ok = if r.walk == 0 {
                self.exposure_ok(&mut here, r.loop_path.vertices(), 0.0)
            } else {
                // As if already at the entry, the opponents `walk` moves nearer.
                let mut shown = [(0u8, 0u8, PenState::Up, 0u8, 0i32); PLAYERS];
                for (p, s) in shown.iter_mut().enumerate() {
                    let pl = st.player(p);
                    let (x, y) = if p == me { xy(r.entry) } else { pl.position() };
                    *s = (x, y, pl.state(), pl.stuck(), pl.decline());
                }
                there.clone_from(st);
                there.force_visible(&shown, &traps);
                let lead = self.params.walk_weight * f64::from(r.walk);
                self.exposure_ok(&mut there, r.loop_path.vertices(), lead)
            };
            if ok {
                return Some(r);
            }
        }
        None
    }

    /// Plays `me`'s loop `path` (starting at its vertex, pen down) on
    /// `sim` with everybody else standing still, and checks after every
    /// move but the last that the shortest way to close keeps ahead of
    /// every opponent: each one's distance to the trail and to that way,
    /// less `approach` per move played, is at least the way's length less
    /// [`Params::bail_slack`] and `lead` (moves the opponents get before
    /// the loop starts). `sim` is given back as it was.
    pub fn exposure_ok(&self, sim: &mut State, path: &[u8], lead: f64) -> bool {
        let me = self.me;
        let mut played = 0;
        let mut ok = true;
        for t in 1..path.len() {
            let Some(d) = dir_between(path[t - 1], path[t]) else {
                ok = false;
                break;
            };
            let pen = if t == 1 { Pen::Down } else { Pen::Keep };
            let mut joint = [Command::STAY; PLAYERS];
            joint[me] = Command::new(d, pen);
            if sim.kills_itself(me, joint[me]) {
                ok = false;
                break;
            }
            sim.apply_unchecked(&joint);
            played += 1;
            let pl = sim.player(me);
            if !pl.is_alive() {
                ok = false;
                break;
            }
            if pl.state() != PenState::Down {
                break;
            }
            let Some(c) = closing_path(sim, me) else {
                ok = false;
                break;
            };
            let rest = (c.len() - 1) as f64;
            let near = f64::from(
                self.loop_threat(sim.trail(me))
                    .min(self.loop_threat(c.vertices())),
            );
            if near - 1.0 - lead - self.params.approach * (t as f64)
                < rest - f64::from(self.params.bail_slack)
            {
                ok = false;
                break;
            }
        }
        for _ in 0..played {
            sim.undo();
        }
        ok
    }

    /// The vertex of pen-down player `p`'s trail that `me` reaches first
    /// with the pen up (not its own vertex), whether or not `p` can close
    /// before; `None` when `p`'s pen is up or no vertex is reachable.
    pub fn nearest_trail_vertex(&self, p: usize) -> Option<u8> {
        if self.st.player(p).state() != PenState::Down {
            return None;
        }
        self.nearest_on_trail(p, FAR).map(|(_, v)| v)
    }

    /// The vertex of player `p`'s trail nearest to `me` (the first in trail
    /// order among equals) with its distance, among those `me` reaches
    /// with the pen up in fewer than `limit` moves, its own vertex aside.
    fn nearest_on_trail(&self, p: usize, limit: u8) -> Option<(u8, u8)> {
        let mine = &self.dist[self.me];
        let mut best: Option<(u8, u8)> = None;
        for &v in self.st.trail(p) {
            let d = mine[usize::from(v)];
            if d != 0 && d < limit && best.map_or(true, |(bd, _)| d < bd) {
                best = Some((d, v));
            }
        }
        best
    }

    /// Whether `me`, playing `go` and then standing still, dies inside the
    /// loop pen-down player `p` closes by its shortest way
    /// ([`closing_path`]) meanwhile, everybody else standing still.
    pub fn enclosed_if_closed(&self, go: Command, p: usize) -> bool {
        let Some(c) = closing_path(self.st, p) else {
            return false;
        };
        let mut sim = self.st.clone();
        for (i, w) in c.vertices().windows(2).enumerate() {
            let mut joint = [Command::STAY; PLAYERS];
            if i == 0 {
                joint[self.me] = go;
            }
            joint[p] = command_to(w[0], w[1], Pen::Keep);
            sim.apply_unchecked(&joint);
            if !sim.player(self.me).is_alive() {
                return true;
            }
            if sim.player(p).state() != PenState::Down {
                break;
            }
        }
        false
    }

    /// The way for pen-down `me` to close its loop that takes the most
    /// `ΣS²` among those every live opponent is too far to cut: for each
    /// vertex of the trail, the shortest way there (as [`closing_path`],
    /// onto no trap), kept when every opponent's distance to the trail and
    /// to the way is at least the way's length (an opponent rushing it
    /// arrives no sooner than the loop closes). The gain of each is played
    /// out on a copy of the state, everybody else standing still; ties go
    /// to the shorter way. `None` when no way is safe (or the pen is up).
    pub fn best_closing(&self, sim: &mut State) -> Option<Path> {
        let st = self.st;
        let me = self.me;
        let tree = ClosingTree::new(st, me, st.trap_set())?;
        let mut ends = tree.ends;
        let near_trail = self.loop_threat(st.trail(me));
        let before = st.score(me);
        let mut best: Option<(i32, u8, Path)> = None;
        while ends != 0 {
            let end = ends.trailing_zeros() as u8;
            ends &= ends - 1;
            let len = tree.dist[usize::from(end)];
            if near_trail < len {
                continue;
            }
            let path = tree.way_to(end);
            if self.loop_threat(path.vertices()) < len {
                continue;
            }
            let gain = self.closing_gain(sim, path.vertices()) - before;
            let better = match &best {
                None => true,
                Some((g, l, _)) => gain > *g || (gain == *g && len < *l),
            };
            if better {
                best = Some((gain, len, path));
            }
        }
        best.map(|(_, _, p)| p)
    }

    /// Pen down: a rectangle whose border begins with `me`'s whole trail
    /// (from the pen-down vertex, either way round; with
    /// [`Params::extend_suffix`], from any vertex of the trail) and that
    /// takes more than closing by `plan` (a way from `me`'s vertex to its
    /// trail) would, with every vertex of the trail and of the way round no
    /// nearer to any live opponent than the moves left until it closes
    /// ([`Params::extend`]). Returns the rest of its border from `me`'s
    /// vertex to the trail vertex it begins on; `None` when none is better.
    /// `sim` is given back as it was.
    pub fn best_extension(&self, sim: &mut State, plan: &[u8]) -> Option<Path> {
        let st = self.st;
        let me = self.me;
        let trail = st.trail(me);
        if trail.len() < 2 || st.player(me).state() != PenState::Down {
            return None;
        }
        let left = turns_left(st);
        let trap_vertices = st.trap_set();
        let near_trail = self.loop_threat(trail);
        let before = st.score(me);
        let mut best_gain = self.closing_gain(sim, plan) - before;
        let mut best: Option<Path> = None;
        let trail_set = st.player(me).trail_set();
        let firsts = if self.params.extend_suffix {
            trail.len() - 1
        } else {
            1
        };
        let max_rest = left.min(i32::from(near_trail));
        for j in 0..firsts {
            rectangle_ways(&trail[j..], max_rest, |way, rest| {
                let w = way.vertices();
                let closes_early = w[1..w.len() - 1]
                    .iter()
                    .any(|&v| trail_set & (1u128 << v) != 0);
                let walkable = w
                    .windows(2)
                    .all(|e| st.interior_owner(e[0], e[1]).is_none())
                    && w.iter().all(|&v| trap_vertices & (1u128 << v) == 0);
                if closes_early || !walkable || i32::from(self.loop_threat(w)) < rest {
                    return;
                }
                let gain = self.closing_gain(sim, w) - before;
                if gain > best_gain {
                    best_gain = gain;
                    best = Some(*way);
                }
            });
        }
        best
    }

    /// Pen down: the way from `me`'s vertex back onto its trail, of any
    /// shape, that takes the most `ΣS²` with every vertex of the trail and
    /// of the way no nearer to any live opponent than the moves left until
    /// it closes ([`Params::extend_free`]): a depth-first search over simple
    /// ways (at most [`MAX_FREE_NODES`] steps tried), pruned where the way
    /// so far and the shortest way back to the trail from its end would
    /// be too long for the opponents' distances along it. `None` when no
    /// way takes more than closing by `plan` (a way from `me`'s vertex to
    /// its trail). `sim` is given back as it was.
    pub fn best_free_way(&self, sim: &mut State, plan: &[u8]) -> Option<Path> {
        let st = self.st;
        let me = self.me;
        let pl = st.player(me);
        let trail = st.trail(me);
        if trail.len() < 2 || pl.state() != PenState::Down {
            return None;
        }
        let left = turns_left(st);
        let max_rest = left.min(i32::from(self.loop_threat(trail)));
        if max_rest < 1 {
            return None;
        }
        let traps = st.trap_set();
        let trail_set = pl.trail_set();
        // The nearest any live opponent gets to each vertex.
        let mut threat = [FAR; VERTICES];
        for (v, t) in threat.iter_mut().enumerate() {
            *t = self.loop_threat(&[v as u8]);
        }
        // Moves from each vertex back to the trail, pen down.
        let back = distances_to(st, trail, traps);
        let before = st.score(me);
        let mut best_gain = self.closing_gain(sim, plan) - before;
        let mut best: Option<(i32, Path)> = None;
        let here = pl.vertex();
        let reverse = (pl.last_dir() != Dir::Stay).then(|| pl.last_dir().opposite());
        // The way so far, and for each of its vertices the next neighbour
        // to try (an index into `neighbours`) and the threat along it.
        let mut way = Path::default();
        way.push(here);
        let mut next = [0u8; VERTICES + 1];
        let mut along = [FAR; VERTICES + 1];
        let mut on_way: u128 = 1u128 << here;
        let mut nodes = 0;
        while way.len > 0 && nodes < MAX_FREE_NODES {
            let k = way.len - 1;
            let v = way.v[k];
            let Some((d, n)) = neighbours(v).nth(usize::from(next[k])) else {
                on_way &= !(1u128 << v);
                way.len -= 1;
                continue;
            };
            next[k] += 1;
            nodes += 1;
            let moves = k as i32 + 1;
            if (k == 0 && Some(d) == reverse)
                || on_way & (1u128 << n) != 0
                || traps & (1u128 << n) != 0
                || st.interior_owner(v, n).is_some()
            {
                continue;
            }
            let reach = i32::from(along[k].min(threat[usize::from(n)]));
            if trail_set & (1u128 << n) != 0 {
                if moves <= max_rest && reach >= moves {
                    way.push(n);
                    let gain = self.closing_gain(sim, way.vertices()) - before;
                    let better = gain > best_gain
                        || (gain == best_gain && best.as_ref().is_some_and(|(m, _)| moves < *m));
                    if better {
                        best_gain = gain;
                        best = Some((moves, way));
                    }
                    way.len -= 1;
                }
                continue;
            }
            let rest = moves + i32::from(back[usize::from(n)]);
            if rest > max_rest || rest > reach {
                continue;
            }
            way.push(n);
            next[k + 1] = 0;
            along[k + 1] = reach as u8;
            on_way |= 1u128 << n;
        }
        best.map(|(_, w)| w)
    }

    /// `me`'s score after walking `path` (pen kept down) on `sim`, everybody
    /// else standing still; `sim` is given back as it was.
    fn closing_gain(&self, sim: &mut State, path: &[u8]) -> i32 {
        let me = self.me;
        let mut played = 0;
        for w in path.windows(2) {
            let Some(d) = dir_between(w[0], w[1]) else {
                break;
            };
            let mut joint = [Command::STAY; PLAYERS];
            joint[me] = Command::new(d, Pen::Keep);
            if sim.kills_itself(me, joint[me]) {
                break;
            }
            sim.apply_unchecked(&joint);
            played += 1;
            if sim.player(me).state() != PenState::Down {
                break;
            }
        }
        let score = if sim.player(me).is_alive() {
            sim.score(me)
        } else {
            i32::MIN / 2
        };
        for _ in 0..played {
            sim.undo();
        }
        score
    }

    /// A vertex of a pen-down opponent's trail (or the opponent's vertex)
    /// that `me` reaches with the pen up before the opponent can close its
    /// loop, at most [`Params::cut_reach`] moves away: the nearest such.
    pub fn cut_target(&self) -> Option<u8> {
        self.cut_target_within(self.params.cut_reach)
    }

    /// [`Planner::cut_target`] at most `reach` moves away.
    pub fn cut_target_within(&self, reach: u8) -> Option<u8> {
        let mut best: Option<(u8, u8)> = None;
        for p in 0..PLAYERS {
            let pl = self.st.player(p);
            if p == self.me || pl.state() != PenState::Down {
                continue;
            }
            let close = closing_path(self.st, p).map_or(FAR, |c| (c.len() - 1) as u8);
            // The opponent is still pen down at the end of turn `close - 1`.
            let until = close.saturating_add(pl.stuck());
            let limit = until.min(reach.saturating_add(1));
            if let Some((d, v)) = self.nearest_on_trail(p, limit) {
                if best.map_or(true, |(bd, _)| d < bd) {
                    best = Some((d, v));
                }
            }
        }
        best.map(|(_, v)| v)
    }
}

/// The command that walks from `here` to the adjacent `next`, with `pen`.
pub fn command_to(here: u8, next: u8, pen: Pen) -> Command {
    dir_between(here, next).map_or(Command::STAY, |d| Command::new(d, pen))
}

/// A planning bot's memory across turns: the loop it is drawing.
#[derive(Clone, Copy, Debug)]
pub struct Pilot {
    params: Params,
    plan: Path,
    /// The opponent whose trail the last [`Intent::Chase`] walked to,
    /// until it closes or dies.
    chased: Option<usize>,
    /// How many chased trails were closed by an opponent that lived.
    failed_chases: u8,
    /// Each player's vertex at the last turn seen, and for how many turns
    /// in a row it has not stepped nearer to `me` ([`Params::calm_after`]).
    last_seen: [u8; PLAYERS],
    quiet: [u8; PLAYERS],
}

/// What a [`Pilot`] decided, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Nothing to do (trapped, dead, or no plan fits).
    Idle,
    /// Goes on along its loop.
    Draw,
    /// Closes its loop early, an opponent having come too close: by the
    /// shortest way, or with [`Params::bail_most_land`] by the safe way that
    /// takes the most land.
    BailOut,
    /// Walks (pen up) towards a pen-down opponent's trail.
    Cut,
    /// Walks (pen up) towards the trail of the last opponent, which can
    /// close before it gets there ([`Params::duel_chase`]).
    Chase,
    /// Walks (pen up) towards the last opponent, or stays near it, with no
    /// loop to draw ([`Params::duel_hunt`]).
    Hunt,
    /// Walks (pen up) to where its next loop starts.
    Walk,
    /// Puts the pen down and starts a loop.
    Start,
}

impl Pilot {
    /// A pilot with no plan yet.
    pub fn new(params: Params) -> Self {
        Pilot {
            params,
            plan: Path::default(),
            chased: None,
            failed_chases: 0,
            last_seen: [FAR; PLAYERS],
            quiet: [0; PLAYERS],
        }
    }

    /// The loop being drawn (empty with none).
    pub fn plan(&self) -> &[u8] {
        self.plan.vertices()
    }

    /// Player `me`'s command in `st`: never one that kills it by itself
    /// ([`State::kills_itself`]).
    pub fn command(&mut self, st: &State, me: usize) -> (Command, Intent) {
        let pl = st.player(me);
        if st.is_over() || !pl.is_alive() || pl.stuck() > 0 {
            return (Command::STAY, Intent::Idle);
        }
        if let Some(p) = self.chased {
            match st.player(p).state() {
                PenState::Down => {}
                PenState::Up => {
                    self.failed_chases = self.failed_chases.saturating_add(1);
                    self.chased = None;
                }
                PenState::Dead => self.chased = None,
            }
        }
        let mut calm = [false; PLAYERS];
        let mine_before = self.last_seen[me];
        for (p, c) in calm.iter_mut().enumerate() {
            let o = st.player(p);
            let before = self.last_seen[p];
            // Not a step nearer to where `me` stood (standing still counts).
            let quiet = before != FAR
                && mine_before != FAR
                && o.is_alive()
                && manhattan(o.vertex(), mine_before) >= manhattan(before, mine_before);
            if quiet {
                self.quiet[p] = self.quiet[p].saturating_add(1);
            } else {
                self.quiet[p] = 0;
            }
            self.last_seen[p] = o.vertex();
            *c = p != me && self.params.calm_after > 0 && self.quiet[p] >= self.params.calm_after;
        }
        let planner = Planner::new(st, me, self.params).with_calm(calm);
        let (c, intent) = match pl.state() {
            PenState::Down => self.pen_down(st, me, &planner),
            _ => self.pen_up(&planner),
        };
        if st.kills_itself(me, c) {
            return (self.fallback(st, me), Intent::Idle);
        }
        (c, intent)
    }

    fn pen_down(&mut self, st: &State, me: usize, planner: &Planner) -> (Command, Intent) {
        let trail = st.trail(me);
        let here = st.player(me).vertex();
        let plan = self.plan.vertices();
        if plan.len() > trail.len() && plan[..trail.len()] == *trail {
            let remaining = (plan.len() - trail.len()) as i32;
            let threat = i32::from(planner.loop_threat(&plan[..plan.len() - 1]));
            let next = plan[trail.len()];
            let go = command_to(here, next, Pen::Keep);
            if threat >= remaining - self.params.bail_slack
                || self.can_bail_after(st, me, go, planner)
            {
                if self.params.extend {
                    let rest = &plan[trail.len() - 1..];
                    let mut sim = st.clone();
                    let mut way = planner.best_extension(&mut sim, rest);
                    if self.params.extend_free {
                        let base = way.as_ref().map_or(rest, |w| w.vertices());
                        if let Some(free) = planner.best_free_way(&mut sim, base) {
                            way = Some(free);
                        }
                    }
                    if let Some(way) = way {
                        return (self.follow(trail, &way), Intent::Draw);
                    }
                }
                return (go, Intent::Draw);
            }
        }
        let mut best = None;
        if self.params.bail_most_land {
            // One copy for both: each gives it back as it was.
            let mut sim = st.clone();
            best = planner.best_closing(&mut sim);
            if self.params.extend_suffix {
                if let Some(way) = best
                    .as_ref()
                    .and_then(|b| planner.best_extension(&mut sim, b.vertices()))
                {
                    best = Some(way);
                }
            }
            if self.params.extend && self.params.extend_free {
                let here = [st.player(me).vertex()];
                let base = best.as_ref().map_or(&here[..], |b| b.vertices());
                if let Some(way) = planner.best_free_way(&mut sim, base) {
                    best = Some(way);
                }
            }
        }
        match best.or_else(|| closing_path(st, me)) {
            Some(c) if c.len() >= 2 => (self.follow(trail, &c), Intent::BailOut),
            _ => {
                self.plan = Path::default();
                (self.fallback(st, me), Intent::Idle)
            }
        }
    }

    /// Makes the plan `trail` and then `way` (which starts at the trail's
    /// end, `me`'s vertex); the first move along `way`.
    fn follow(&mut self, trail: &[u8], way: &Path) -> Command {
        let mut plan = Path::default();
        for &v in trail.iter().chain(&way.vertices()[1..]) {
            plan.push(v);
        }
        self.plan = plan;
        let w = way.vertices();
        command_to(w[0], w[1], Pen::Keep)
    }

    /// Whether, after `me` plays `go`, the shortest way to close still
    /// keeps ahead of every opponent (each one move nearer by then).
    fn can_bail_after(&self, st: &State, me: usize, go: Command, planner: &Planner) -> bool {
        if st.kills_itself(me, go) {
            return false;
        }
        let mut sim = st.clone();
        let mut joint = [Command::STAY; PLAYERS];
        joint[me] = go;
        sim.apply_unchecked(&joint);
        let pl = sim.player(me);
        if !pl.is_alive() {
            return false;
        }
        if pl.state() != PenState::Down {
            // The move closes the loop.
            return true;
        }
        let Some(c) = closing_path(&sim, me) else {
            return false;
        };
        let rest = (c.len() - 1) as i32;
        let t1 = i32::from(planner.loop_threat(sim.trail(me)));
        let t2 = i32::from(planner.loop_threat(c.vertices()));
        t1.min(t2) > rest - self.params.bail_slack
    }

    fn pen_up(&mut self, planner: &Planner) -> (Command, Intent) {
        self.plan = Path::default();
        let duel = if self.params.duel_hunt {
            planner.last_opponent()
        } else {
            None
        };
        let reach = if duel.is_some() {
            FAR - 1
        } else {
            self.params.cut_reach
        };
        if reach > 0 {
            if let Some(v) = planner.cut_target_within(reach) {
                if let Some(d) = planner.step_towards(v) {
                    return (Command::new(d, Pen::Keep), Intent::Cut);
                }
            }
        }
        let give_up = self.params.chase_give_up;
        let chase = self.params.duel_chase && (give_up == 0 || self.failed_chases < give_up);
        if let Some(p) = duel.filter(|_| chase) {
            if let Some(v) = planner.nearest_trail_vertex(p) {
                if let Some(d) = planner.step_towards(v) {
                    let go = Command::new(d, Pen::Keep);
                    if !planner.enclosed_if_closed(go, p) {
                        self.chased = Some(p);
                        return (go, Intent::Chase);
                    }
                }
            }
        }
        let Some(r) = planner.best_rectangle() else {
            if let Some(p) = duel {
                return (Self::shadow_step(planner, p), Intent::Hunt);
            }
            return (self.idle_step(planner), Intent::Idle);
        };
        if r.walk == 0 {
            let path = r.loop_path.vertices();
            let c = command_to(path[0], path[1], Pen::Down);
            self.plan = r.loop_path;
            return (c, Intent::Start);
        }
        match planner.step_towards(r.entry) {
            Some(d) => (Command::new(d, Pen::Keep), Intent::Walk),
            None => (Command::STAY, Intent::Idle),
        }
    }

    /// Pen up with no loop to draw and one opponent `p` left: the first
    /// step of the pen-up walk towards it, or stay once within a move of
    /// it (so that any trail it starts is near).
    fn shadow_step(planner: &Planner, p: usize) -> Command {
        let target = planner.st.player(p).vertex();
        if planner.dist(planner.me)[usize::from(target)] <= 1 {
            return Command::STAY;
        }
        planner
            .step_towards(target)
            .map_or(Command::STAY, |d| Command::new(d, Pen::Keep))
    }

    /// Pen up with no loop to draw: the step (or stay) that gets farthest
    /// from the nearest opponent, onto no trap.
    fn idle_step(&self, planner: &Planner) -> Command {
        if self.params.idle_territory {
            return Self::territory_step(planner);
        }
        let st = planner.st;
        let me = planner.me;
        let here = st.player(me).vertex();
        let mut best = (planner.threat(&[here]), Command::STAY);
        if self.params.idle_moves {
            for (c, n) in safe_pen_up_moves(st, me, here) {
                let t = planner.threat(&[n]);
                if t > best.0 {
                    best = (t, c);
                }
            }
        }
        best.1
    }

    /// The pen-up step (or stay) after which `me` reaches first the most
    /// vertices that touch an unowned cell; ties to the one farther from
    /// the nearest opponent.
    fn territory_step(planner: &Planner) -> Command {
        let st = planner.st;
        let me = planner.me;
        let here = st.player(me).vertex();
        // Vertices touching an unowned cell.
        let mut open = [false; VERTICES];
        for j in 0..CELL_SIDE as u8 {
            for i in 0..CELL_SIDE as u8 {
                if st.owner(i, j).is_none() {
                    for (x, y) in [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)] {
                        open[usize::from(super::vertex(x, y))] = true;
                    }
                }
            }
        }
        let mut nearest_other = [FAR; VERTICES];
        for p in (0..PLAYERS).filter(|&p| p != me && st.player(p).is_alive()) {
            for (v, d) in nearest_other.iter_mut().enumerate() {
                *d = (*d).min(planner.dist[p][v]);
            }
        }
        let mut best = (0u32, 0u8, Command::STAY);
        let mut dist = [FAR; VERTICES];
        let mut parent = [FAR; VERTICES];
        let options = std::iter::once((Command::STAY, here)).chain(safe_pen_up_moves(st, me, here));
        for (c, start) in options {
            dist.fill(FAR);
            // One move to get there (or to stay).
            pen_up_walk(st, me, start, 1, &mut dist, &mut parent);
            let count = (0..VERTICES)
                .filter(|&v| open[v] && dist[v] < nearest_other[v])
                .count() as u32;
            let threat = planner.threat(&[start]);
            if (count, threat) > (best.0, best.1) {
                best = (count, threat, c);
            }
        }
        best.2
    }

    /// A command that does not kill `me` by itself: stay when allowed,
    /// else the first legal move.
    fn fallback(&self, st: &State, me: usize) -> Command {
        let mut legal = super::Commands::new();
        st.legal_commands(me, &mut legal);
        if legal.contains(&Command::STAY) {
            return Command::STAY;
        }
        legal
            .iter()
            .copied()
            .find(|c| c.pen != Pen::Skill)
            .unwrap_or(Command::STAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` for player `p`, everybody else staying.
    fn walk(st: &mut State, p: usize, moves: &[Command]) {
        for &c in moves {
            let mut joint = [Command::STAY; PLAYERS];
            joint[p] = c;
            st.apply_unchecked(&joint);
        }
    }

    /// Player `p` puts its pen down and walks `runs` (each a direction
    /// and how many moves), everybody else staying.
    fn draw(st: &mut State, p: usize, runs: &[(Dir, usize)]) {
        let mut pen = Pen::Down;
        for &(dir, n) in runs {
            for _ in 0..n {
                walk(st, p, &[Command::new(dir, pen)]);
                pen = Pen::Keep;
            }
        }
    }

    /// Player 0 pen down from (0, 0): right to (4, 0), down to (4, 1),
    /// left to (3, 1); player 1 at `opponent`, 2 and 3 dead.
    fn hook_trail(opponent: (u8, u8)) -> State {
        let mut st = State::with_dead(
            [(0, 0), opponent, (0, 10), (10, 0)],
            [false, false, true, true],
        );
        let moves = [
            Command::new(Dir::Right, Pen::Down),
            Command::new(Dir::Right, Pen::Keep),
            Command::new(Dir::Right, Pen::Keep),
            Command::new(Dir::Right, Pen::Keep),
            Command::new(Dir::Down, Pen::Keep),
            Command::new(Dir::Left, Pen::Keep),
        ];
        walk(&mut st, 0, &moves);
        assert_eq!(st.player(0).state(), PenState::Down);
        assert_eq!(st.player(0).vertex(), super::super::vertex(3, 1));
        st
    }

    /// Player 1 draws the 3x3 cells from (6, 0), walks into them to (7, 1)
    /// and puts its pen down there, walled in by its own land; player 0
    /// stands at (0, 10), 2 and 3 are dead.
    fn walled_in() -> State {
        let mut st = State::with_dead(
            [(0, 10), (6, 0), (0, 0), (10, 10)],
            [false, false, true, true],
        );
        let (r, d, l, u) = (Dir::Right, Dir::Down, Dir::Left, Dir::Up);
        draw(&mut st, 1, &[(r, 3), (d, 3), (l, 3), (u, 3)]);
        assert_eq!(st.player(1).state(), PenState::Up, "the loop closed");
        walk(
            &mut st,
            1,
            &[
                Command::new(r, Pen::Keep),
                Command::new(d, Pen::Keep),
                Command::new(Dir::Stay, Pen::Down),
            ],
        );
        assert!(st.player(1).is_alive());
        assert_eq!(st.player(1).state(), PenState::Down);
        assert_eq!(st.player(1).position(), (7, 1));
        st
    }

    /// The cells `(i, j)` as a set.
    fn cells(list: &[(u8, u8)]) -> CellSet {
        list.iter().fold(0, |m, &(i, j)| m | cell_bit(i, j))
    }

    /// Whether `vs` is a cycle of distinct vertices, each adjacent to the
    /// next (and the last to the first).
    fn is_simple_cycle(vs: &[u8]) -> bool {
        let distinct = (0..vs.len()).all(|a| (a + 1..vs.len()).all(|b| vs[a] != vs[b]));
        let adjacent = (0..vs.len()).all(|k| dir_between(vs[k], vs[(k + 1) % vs.len()]).is_some());
        distinct && adjacent
    }

    #[test]
    fn the_outline_of_a_piece_walks_its_boundary_once() {
        use super::super::vertex;
        let mut out = Path::default();
        // An L of three cells: 8 edges round it.
        let l = cells(&[(4, 4), (5, 4), (4, 5)]);
        assert_eq!(outline(l, &mut out), Some(l));
        assert_eq!(out.len(), 8);
        assert!(is_simple_cycle(out.vertices()));
        assert!(out.vertices().contains(&vertex(5, 5)), "the inner corner");
        assert!(!out.vertices().contains(&vertex(6, 6)));
        // A ring of eight cells round (1, 1) at the board's corner: the hole
        // is filled, and the outline is the 3x3 square's border.
        let ring = cells(&[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ]);
        assert_eq!(outline(ring, &mut out), Some(ring | cell_bit(1, 1)));
        assert_eq!(out.len(), 12);
        assert!(is_simple_cycle(out.vertices()));
        assert!(strictly_inside(ring | cell_bit(1, 1), 1, 1));
        assert!(
            !strictly_inside(ring | cell_bit(1, 1), 0, 1),
            "on the border"
        );
        assert!(!strictly_inside(l, 5, 5), "a corner of the outline");
        assert!(is_rectangle(ring | cell_bit(1, 1)));
        assert!(!is_rectangle(l));
    }

    #[test]
    fn unowned_pieces_split_a_rectangle_where_land_divides_it() {
        // Player 1 owns the column of cells x = 2, y = 0..=2 (and x = 3).
        let mut st = State::with_dead(
            [(0, 10), (2, 0), (0, 0), (10, 10)],
            [false, false, true, true],
        );
        let (r, d, l, u) = (Dir::Right, Dir::Down, Dir::Left, Dir::Up);
        draw(&mut st, 1, &[(r, 2), (d, 3), (l, 2), (u, 3)]);
        assert_eq!(st.owner(2, 1), Some(1));
        let mut pieces = [0; CELL_SIDE * CELL_SIDE];
        // Cells [0, 6) x [0, 4): the land cuts off nothing (row 3 joins).
        assert_eq!(unowned_pieces(&st, (0, 0, 6, 4), &mut pieces), 1);
        assert_eq!(pieces[0].count_ones(), 24 - 6);
        // Cells [0, 6) x [0, 3): split in two by the land.
        assert_eq!(unowned_pieces(&st, (0, 0, 6, 3), &mut pieces), 2);
        assert_eq!(
            pieces[0] | pieces[1],
            cells(&[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)])
                | cells(&[(4, 0), (5, 0), (4, 1), (5, 1), (4, 2), (5, 2)])
        );
        assert_eq!(gain_in(&st, ALL_CELLS & !cells(&[(9, 9)])), 93 * 93);
    }

    #[test]
    fn a_pocket_takes_an_l_of_free_land_that_no_rectangle_fits() {
        // Player 1 takes every cell but the L of cells x < 6, y < 3 and
        // x < 3, y < 6 (27 cells), then walks into its land and puts the
        // pen down there, where it can reach nothing; 2 and 3 are dead,
        // player 0 stands at (0, 0). No rectangle but the board's border
        // fits round the L without walking inside player 1's region.
        let mut st = State::with_dead(
            [(0, 0), (6, 0), (0, 0), (10, 10)],
            [false, false, true, true],
        );
        let (r, d, l, u) = (Dir::Right, Dir::Down, Dir::Left, Dir::Up);
        let runs = [
            (r, 4),
            (d, 10),
            (l, 10),
            (u, 4),
            (r, 3),
            (u, 3),
            (r, 3),
            (u, 3),
        ];
        draw(&mut st, 1, &runs);
        assert_eq!(st.player(1).state(), PenState::Up, "the loop closed");
        assert_eq!(st.owner(6, 3), Some(1));
        assert_eq!(st.owner(5, 2), None);
        let mut moves = vec![Command::new(r, Pen::Keep)];
        moves.extend([Command::new(d, Pen::Keep); 8]);
        moves.extend([
            Command::new(r, Pen::Keep),
            Command::new(Dir::Stay, Pen::Down),
        ]);
        walk(&mut st, 1, &moves);
        assert!(st.player(1).is_alive());
        assert_eq!(st.player(1).position(), (8, 8));
        // Too few turns are left for a loop round the board's border (40
        // moves), which would close round player 1 too.
        walk(&mut st, 0, &[Command::STAY; 10]);
        assert!(MAX_TURNS - st.turn() < 40);
        let best = |pockets| {
            Planner::new(
                &st,
                0,
                Params {
                    pockets,
                    ..Params::STRONG
                },
            )
            .best_rectangle()
            .expect("a loop")
        };
        assert_eq!(best(false).gain, 18 * 18, "a 6x3 rectangle at most");
        let pocket = best(true);
        assert_eq!(pocket.gain, 27 * 27, "the whole L");
        let vs = &pocket.loop_path.vertices()[1..];
        assert_eq!(vs.len(), 24);
        assert!(is_simple_cycle(vs));
        for k in 0..vs.len() {
            assert_eq!(st.interior_owner(vs[k], vs[(k + 1) % vs.len()]), None);
        }
        // Drawn on the simulator, it takes the L in one region.
        let before = st.score(0);
        let mut sim = st.clone();
        for w in pocket.loop_path.vertices().windows(2) {
            let pen = if sim.player(0).state() == PenState::Down {
                Pen::Keep
            } else {
                Pen::Down
            };
            walk(&mut sim, 0, &[command_to(w[0], w[1], pen)]);
        }
        assert!(sim.player(0).is_alive());
        assert_eq!(sim.score(0) - before, 10 * 27 * 27);
    }

    #[test]
    fn with_no_loop_to_draw_the_territory_step_contests_the_middle() {
        // Player 0 in the middle, player 1 on the left border: stepping
        // away goes up, right or down, but a step left makes player 0
        // first to one more column of vertices next to unowned land.
        let st = State::with_dead(
            [(5, 5), (0, 5), (0, 0), (10, 10)],
            [false, false, true, true],
        );
        let planner = Planner::new(&st, 0, Params::STRONG);
        assert_eq!(
            Pilot::territory_step(&planner),
            Command::new(Dir::Left, Pen::Keep)
        );
        let away = Pilot::new(Params {
            idle_territory: false,
            ..Params::STRONG
        });
        let step = away.idle_step(&planner);
        assert_ne!(step.dir, Dir::Left);
        assert_ne!(step.dir, Dir::Stay);
    }

    #[test]
    fn a_pen_down_player_walled_in_by_land_reaches_nothing() {
        let st = walled_in();
        let mut out = [0; VERTICES];
        pen_down_distance_map(&st, 1, &mut out);
        let here = usize::from(super::super::vertex(7, 1));
        assert_eq!(out[here], 0);
        assert!((0..VERTICES).all(|v| v == here || out[v] == FAR));
        // With the pen up it could walk its own land.
        let mut parent = [0; VERTICES];
        distance_map(&st, 1, &mut out, &mut parent);
        assert_eq!(out[usize::from(super::super::vertex(9, 3))], 4);
        // A pen-down player in the open moves, and after closing (stepping
        // back onto its trail) walks its own land with the pen up.
        let mut st = State::with_dead(
            [(0, 10), (6, 0), (0, 0), (10, 10)],
            [false, false, true, true],
        );
        walk(&mut st, 1, &[Command::new(Dir::Right, Pen::Down)]);
        pen_down_distance_map(&st, 1, &mut out);
        assert_eq!(out[usize::from(super::super::vertex(7, 2))], 2);
        assert_eq!(out[usize::from(super::super::vertex(6, 0))], 1);
    }

    #[test]
    fn a_loop_round_an_opponent_that_cannot_move_kills_it() {
        for (params, kills) in [
            (Params::STRONG, true),
            (
                Params {
                    kill_value: 0,
                    pen_down_reach: false,
                    ..Params::STRONG
                },
                false,
            ),
        ] {
            let mut st = walled_in();
            let mut pilot = Pilot::new(params);
            while !st.is_over() && st.player(0).is_alive() {
                let mut joint = [Command::STAY; PLAYERS];
                joint[0] = pilot.command(&st, 0).0;
                st.apply_unchecked(&joint);
            }
            assert!(st.player(0).is_alive());
            assert_eq!(!st.player(1).is_alive(), kills, "{params:?}");
            if kills {
                // The sole survivor took every cell nobody owned.
                assert!(st.score(0) > 10 * 80 * 80, "{}", st.score(0));
            }
        }
    }

    #[test]
    fn the_best_closing_takes_the_most_land_no_opponent_can_cut_in_time() {
        let v = |x, y| super::super::vertex(x, y);
        // Nobody near: the whole hook, four cells, by the way round to
        // the trail's start (the shortest way closes one cell).
        let st = hook_trail((10, 10));
        assert_eq!(closing_path(&st, 0).map(|p| p.len()), Some(2));
        let planner = Planner::new(&st, 0, Params::STRONG);
        let best = planner.best_closing(&mut st.clone()).expect("a safe way");
        assert_eq!(
            best.vertices(),
            [v(3, 1), v(2, 1), v(1, 1), v(0, 1), v(0, 0)]
        );
        // An opponent at (0, 3) reaches (0, 1) in two moves and the trail's
        // start in three: the longest safe way closes at (1, 0), three
        // cells.
        let st = hook_trail((0, 3));
        let planner = Planner::new(&st, 0, Params::STRONG);
        let best = planner.best_closing(&mut st.clone()).expect("a safe way");
        assert_eq!(best.vertices(), [v(3, 1), v(2, 1), v(1, 1), v(1, 0)]);
        assert_eq!(gain_of(&planner, &st, best.vertices()), 90);
        // A move from the trail's end: only the one-move way is safe (the
        // loop closes in the turn the opponent arrives, and a player that
        // closes a loop is safe that turn).
        let st = hook_trail((3, 2));
        let planner = Planner::new(&st, 0, Params::STRONG);
        let best = planner.best_closing(&mut st.clone()).expect("a safe way");
        assert_eq!(best.vertices(), [v(3, 1), v(3, 0)]);
    }

    #[test]
    fn an_extension_grows_the_loop_while_no_opponent_can_reach_it() {
        let v = |x, y| super::super::vertex(x, y);
        // Player 0 pen down from (0, 0) to (2, 0), drawing the 2x2 square.
        let square = [
            v(2, 0),
            v(2, 1),
            v(2, 2),
            v(1, 2),
            v(0, 2),
            v(0, 1),
            v(0, 0),
        ];
        let with_opponent = |at| {
            let mut st =
                State::with_dead([(0, 0), at, (0, 10), (10, 0)], [false, false, true, true]);
            draw(&mut st, 0, &[(Dir::Right, 2)]);
            st
        };
        // The opponent at (10, 10) is 13 moves from (4, 3) and (3, 4), the
        // far corners of the largest rectangles that close in time (12
        // moves from (2, 0)): 12 cells instead of 4.
        let st = with_opponent((10, 10));
        let planner = Planner::new(&st, 0, Params::STRONG);
        let way = planner
            .best_extension(&mut st.clone(), &square)
            .expect("a bigger loop");
        let w = way.vertices();
        assert_eq!((w[0], w[w.len() - 1], w.len()), (v(2, 0), v(0, 0), 13));
        assert_eq!(gain_of(&planner, &st, w), 10 * 12 * 12);
        // At (4, 4) it reaches the square's far corner before the square
        // closes, and every bigger rectangle sooner still.
        let st = with_opponent((4, 4));
        let planner = Planner::new(&st, 0, Params::STRONG);
        assert!(planner.best_extension(&mut st.clone(), &square).is_none());
    }

    #[test]
    fn an_extension_may_close_on_any_vertex_of_the_trail() {
        let v = |x, y| super::super::vertex(x, y);
        // A staircase (0, 0) → (2, 0) → (2, 2) → (4, 2) lies on no
        // rectangle's border; its part from (2, 0) on does: (2, 0)-(x, 2).
        let mut st = duel_after(0);
        draw(
            &mut st,
            0,
            &[(Dir::Right, 2), (Dir::Down, 2), (Dir::Right, 2)],
        );
        let shortest = closing_path(&st, 0).expect("a way to close");
        let whole_trail_only = Params {
            extend_suffix: false,
            ..Params::STRONG
        };
        let planner = Planner::new(&st, 0, whole_trail_only);
        assert!(planner
            .best_extension(&mut st.clone(), shortest.vertices())
            .is_none());
        let planner = Planner::new(&st, 0, Params::STRONG);
        let way = planner
            .best_extension(&mut st.clone(), shortest.vertices())
            .expect("a bigger loop");
        let w = way.vertices();
        // The opponent at (10, 10) is 11 moves from (7, 2): the loop to
        // x = 7 closes in 10 more moves, 10 cells in one region.
        assert_eq!((w[0], w[w.len() - 1], w.len()), (v(4, 2), v(2, 0), 11));
        assert_eq!(gain_of(&planner, &st, w), 10 * 10 * 10);
    }

    #[test]
    fn a_free_way_takes_more_than_any_rectangle_where_a_staircase_keeps_away_from_an_opponent() {
        // Trail (0, 0) → (3, 0), the opponent at (10, 10): the vertices an
        // opponent cannot reach in time form a triangle round (0, 0), which
        // a staircase fills better than a rectangle.
        let mut st = duel_after(0);
        draw(&mut st, 0, &[(Dir::Right, 3)]);
        let shortest = closing_path(&st, 0).expect("a way to close");
        let planner = Planner::new(&st, 0, Params::STRONG);
        let rect = planner
            .best_extension(&mut st.clone(), shortest.vertices())
            .expect("a rectangle");
        let rect_gain = gain_of(&planner, &st, rect.vertices());
        assert_eq!(rect_gain, 10 * 12 * 12);
        let free = planner
            .best_free_way(&mut st.clone(), rect.vertices())
            .expect("a bigger loop");
        let w = free.vertices();
        assert_eq!(gain_of(&planner, &st, w), 10 * 15 * 15);
        // Every vertex of the trail and of the way is at least as far from
        // the opponent as the moves left until the loop closes.
        let moves = w.len() - 1;
        for &v in st.trail(0).iter().chain(w) {
            assert!(manhattan(v, super::super::vertex(10, 10)) >= moves as i32);
        }
        // A way round the whole triangle is no safer than the rectangle:
        // with the plan as the base, nothing takes less.
        assert!(planner.best_free_way(&mut st.clone(), w).is_none());
    }

    #[test]
    fn the_pilot_draws_the_staircase_when_no_rectangle_takes_as_much() {
        let mut st = duel_after(0);
        draw(&mut st, 0, &[(Dir::Right, 3)]);
        let mut pilot = Pilot::new(Params::STRONG);
        let (go, _) = pilot.command(&st, 0);
        assert_eq!(go, Command::new(Dir::Right, Pen::Keep));
        let plan = pilot.plan().to_vec();
        // The plan is the trail, then the way back to (0, 0).
        assert_eq!(plan[..4], *st.trail(0));
        assert_eq!(plan.last(), Some(&super::super::vertex(0, 0)));
        let way = &plan[3..];
        assert_eq!(
            gain_of(&Planner::new(&st, 0, Params::STRONG), &st, way),
            10 * 15 * 15
        );
        // Without the ways of any shape, the best rectangle.
        let rectangles_only = Params {
            extend_free: false,
            ..Params::STRONG
        };
        let mut pilot = Pilot::new(rectangles_only);
        pilot.command(&st, 0);
        let way = &pilot.plan()[3..];
        assert_eq!(
            gain_of(&Planner::new(&st, 0, rectangles_only), &st, way),
            10 * 12 * 12
        );
    }

    /// What player 0 (the planner's player) gains by walking `path` with
    /// the pen down, everybody else standing still.
    fn gain_of(planner: &Planner, st: &State, path: &[u8]) -> i32 {
        planner.closing_gain(&mut st.clone(), path) - st.score(0)
    }

    /// Players started at `starts` (the `dead` ones dead), then `turns`
    /// turns of everybody staying played.
    fn after_stays(starts: [(u8, u8); PLAYERS], dead: [bool; PLAYERS], turns: u32) -> State {
        let mut st = State::with_dead(starts, dead);
        for _ in 0..turns {
            st.apply_unchecked(&[Command::STAY; PLAYERS]);
        }
        st
    }

    /// Players 0 and 1 alive at opposite corners, 2 and 3 dead, `turns`
    /// turns of everybody staying played.
    fn duel_after(turns: u32) -> State {
        after_stays(
            [(0, 0), (10, 10), (0, 10), (10, 0)],
            [false, false, true, true],
            turns,
        )
    }

    /// Player 0 at (0, 0) and `opponents` (1 to 3) live opponents: player
    /// 1 at (3, 3), then player 2 at (10, 10), then player 3 at (10, 0)
    /// (the others dead), `turns` turns of everybody staying played.
    fn neighbour_after(turns: u32, opponents: usize) -> State {
        after_stays(
            [(0, 0), (3, 3), (10, 10), (10, 0)],
            [false, false, opponents < 2, opponents < 3],
            turns,
        )
    }

    #[test]
    fn the_first_forty_turns_draw_no_loop_under_eight_cells() {
        // Player 0 at (0, 0), an opponent at (2, 4): a loop of six cells at
        // hand (ΣS² 36) is the best one worth 36 or more, and a bigger one
        // is safe only farther away.
        let best = |turns: u32, params: Params| {
            let st = after_stays([(0, 0), (2, 4), (10, 10), (10, 0)], [false; PLAYERS], turns);
            Planner::new(&st, 0, params)
                .best_rectangle()
                .map_or(0, |r| r.gain)
        };
        let no_early = Params {
            early_gain: Params::STRONG.min_gain,
            ..Params::STRONG
        };
        for turns in [0, 39] {
            assert_eq!(best(turns, no_early), 36, "turn {turns}");
            let early = best(turns, Params::STRONG);
            assert!(early >= 64, "turn {turns}: {early}");
        }
        // With 60 turns left or fewer, the smallest loop is six cells again.
        assert_eq!(MAX_TURNS - 40, u32::from(Params::STRONG.early_left));
        for turns in [40, 70] {
            assert_eq!(best(turns, Params::STRONG), 36, "turn {turns}");
        }
    }

    #[test]
    fn late_risk_ignores_opponents_in_the_last_turns_while_three_are_alive() {
        let risky = Params {
            late_risk: 10,
            ..Params::STRONG
        };
        let calm = Params {
            late_risk: 0,
            ..Params::STRONG
        };
        let gain = |st: &State, params: Params| {
            Planner::new(st, 0, params)
                .best_rectangle()
                .map_or(0, |r| r.gain)
        };
        // Eight turns left, an opponent three moves from the square of four
        // cells at hand: only the risky planner draws it (ΣS² 16).
        let st = neighbour_after(MAX_TURNS - 8, 3);
        assert_eq!(gain(&st, risky), 16);
        assert!(gain(&st, calm) < 16, "{}", gain(&st, calm));
        // Not before the last ten turns, nor with two opponents left or one
        // (a death, and one more, would leave a sole survivor) unless asked.
        let st = neighbour_after(MAX_TURNS - 11, 3);
        assert_eq!(gain(&st, risky), gain(&st, calm));
        for opponents in [1, 2] {
            let st = neighbour_after(MAX_TURNS - 8, opponents);
            assert_eq!(gain(&st, risky), gain(&st, calm), "{opponents} left");
        }
        let two = Params {
            late_risk_opponents: 2,
            ..risky
        };
        assert_eq!(gain(&neighbour_after(MAX_TURNS - 8, 2), two), 16);
    }

    #[test]
    fn the_last_opponent_is_found_only_when_one_is_left() {
        let st = duel_after(0);
        assert_eq!(
            Planner::new(&st, 0, Params::STRONG).last_opponent(),
            Some(1)
        );
        let st = State::with_dead(
            [(0, 0), (10, 10), (0, 10), (10, 0)],
            [false, false, false, true],
        );
        assert_eq!(Planner::new(&st, 0, Params::STRONG).last_opponent(), None);
    }

    #[test]
    fn with_no_loop_to_draw_a_duel_hunter_walks_to_the_last_opponent() {
        // Three turns left: no loop of perimeter 4 fits any more.
        let st = duel_after(MAX_TURNS - 3);
        assert!(!st.is_over());
        let here = st.player(0).vertex();
        let there = st.player(1).vertex();
        let theirs = Planner::new(&st, 1, Params::STRONG);
        let dist = |v: u8| theirs.dist(1)[usize::from(v)];

        let (c, intent) = Pilot::new(Params::STRONG).command(&st, 0);
        assert_eq!(intent, Intent::Hunt);
        let next = State::neighbour(here, c.dir).expect("a move on the board");
        assert_eq!(
            dist(next) + 1,
            dist(here),
            "{c:?} is not a step towards {there}"
        );

        let calm = Params {
            duel_hunt: false,
            ..Params::STRONG
        };
        let (c, intent) = Pilot::new(calm).command(&st, 0);
        assert_eq!(intent, Intent::Idle);
        assert!(c == Command::STAY || dist(State::neighbour(here, c.dir).unwrap()) > dist(here));
    }

    #[test]
    fn a_duel_chaser_walks_to_a_trail_its_owner_can_close_before() {
        // Player 1 puts its pen down in the far corner and walks left
        // twice: it closes in three moves, player 0 is 18 from its trail.
        let mut st = duel_after(0);
        walk(
            &mut st,
            1,
            &[
                Command::new(Dir::Left, Pen::Down),
                Command::new(Dir::Left, Pen::Keep),
            ],
        );
        let planner = Planner::new(&st, 0, Params::STRONG);
        assert_eq!(planner.cut_target_within(FAR - 1), None);
        let target = planner.nearest_trail_vertex(1).expect("a trail");
        assert_eq!(planner.dist(0)[usize::from(target)], 18);

        let (c, intent) = Pilot::new(Params::STRONG).command(&st, 0);
        assert_eq!(intent, Intent::Chase);
        let here = st.player(0).vertex();
        let next = State::neighbour(here, c.dir).expect("a move on the board");
        let to_trail = |v: u8| st.trail(1).iter().map(|&t| manhattan(v, t)).min().unwrap();
        assert_eq!(to_trail(next) + 1, to_trail(here));

        let calm = Params {
            duel_chase: false,
            ..Params::STRONG
        };
        let (_, intent) = Pilot::new(calm).command(&st, 0);
        assert_ne!(intent, Intent::Chase);
    }

    #[test]
    fn a_duel_chaser_gives_up_on_an_opponent_that_keeps_closing_in_time() {
        // The position of the test above (player 1's pen down, closing in
        // three moves), and the one before it, with player 1's pen up: as
        // if player 1 put its pen down, was chased and closed, again and
        // again.
        let open = duel_after(0);
        let mut drawing = open.clone();
        walk(
            &mut drawing,
            1,
            &[
                Command::new(Dir::Left, Pen::Down),
                Command::new(Dir::Left, Pen::Keep),
            ],
        );
        let limit = Params::STRONG.chase_give_up;
        assert!(limit > 0);
        let mut pilot = Pilot::new(Params::STRONG);
        for _ in 0..limit {
            assert_eq!(pilot.command(&drawing, 0).1, Intent::Chase);
            // Chased again while the trail is still down: one episode.
            assert_eq!(pilot.command(&drawing, 0).1, Intent::Chase);
            assert_ne!(pilot.command(&open, 0).1, Intent::Chase);
        }
        assert_ne!(pilot.command(&drawing, 0).1, Intent::Chase);

        let stubborn = Params {
            chase_give_up: 0,
            ..Params::STRONG
        };
        let mut pilot = Pilot::new(stubborn);
        for _ in 0..=limit {
            assert_eq!(pilot.command(&drawing, 0).1, Intent::Chase);
            assert_ne!(pilot.command(&open, 0).1, Intent::Chase);
        }
        assert_eq!(pilot.command(&drawing, 0).1, Intent::Chase);
    }

    #[test]
    fn an_opponent_that_comes_no_nearer_is_left_out_of_the_risk_weight() {
        // Player 1 stands pen up at (3, 3), three moves from player 0's
        // corner on each axis: near enough to weigh down big loops there.
        let st = neighbour_after(0, 1);
        let perimeter = |r: &Rect| {
            let (x0, y0, x1, y1) = r.corners;
            2 * (u32::from(x1 - x0) + u32::from(y1 - y0))
        };
        let wary = Planner::new(&st, 0, Params::STRONG)
            .best_rectangle()
            .expect("a loop");
        let mut calm = [false; PLAYERS];
        calm[1] = true;
        let bold = Planner::new(&st, 0, Params::STRONG)
            .with_calm(calm)
            .best_rectangle()
            .expect("a loop");
        assert!(
            perimeter(&bold) > perimeter(&wary),
            "{bold:?} is no bigger than {wary:?}"
        );
        assert!(bold.gain > wary.gain);

        // Played out with player 1 standing still: a pilot marks it calm
        // once it has seen it come no nearer for `calm_after` turns, and
        // starts the bigger loop; one that never does starts the smaller.
        let after = Params::STRONG.calm_after;
        assert!(after > 0);
        let started = |params: Params| {
            let mut pilot = Pilot::new(params);
            let mut st = st.clone();
            for _ in 0..30 {
                let (c, intent) = pilot.command(&st, 0);
                if intent == Intent::Start {
                    return pilot.plan().to_vec();
                }
                walk(&mut st, 0, &[c]);
            }
            panic!("no loop started in 30 turns");
        };
        assert_eq!(started(Params::STRONG), bold.loop_path.vertices());
        let wary_params = Params {
            calm_after: 0,
            ..Params::STRONG
        };
        assert_eq!(started(wary_params), wary.loop_path.vertices());

        // Player 1 stepping towards player 0's corner is never calm; once
        // it steps back, it is counted from there.
        let mut pilot = Pilot::new(Params::STRONG);
        let mut st = st.clone();
        pilot.command(&st, 0);
        for d in [Dir::Left, Dir::Up, Dir::Left, Dir::Up] {
            walk(&mut st, 1, &[Command::new(d, Pen::Keep)]);
            pilot.command(&st, 0);
            assert_eq!(pilot.quiet[1], 0);
        }
        for (k, d) in [Dir::Right, Dir::Down, Dir::Right].into_iter().enumerate() {
            walk(&mut st, 1, &[Command::new(d, Pen::Keep)]);
            pilot.command(&st, 0);
            assert_eq!(usize::from(pilot.quiet[1]), k + 1);
        }
    }

    #[test]
    fn a_chaser_does_not_step_into_a_loop_that_closes_around_it() {
        // Player 1 draws three sides of the square (4, 4)-(6, 6) and closes
        // it through (4, 5), where player 0 stands.
        let mut st = State::with_dead(
            [(4, 5), (4, 4), (0, 10), (10, 0)],
            [false, false, true, true],
        );
        let moves = [
            Command::new(Dir::Right, Pen::Down),
            Command::new(Dir::Right, Pen::Keep),
            Command::new(Dir::Down, Pen::Keep),
            Command::new(Dir::Down, Pen::Keep),
            Command::new(Dir::Left, Pen::Keep),
            Command::new(Dir::Left, Pen::Keep),
        ];
        walk(&mut st, 1, &moves);
        assert_eq!(st.player(1).state(), PenState::Down);
        let planner = Planner::new(&st, 0, Params::STRONG);
        // Into the square's centre (5, 5): enclosed when it closes.
        assert!(planner.enclosed_if_closed(Command::new(Dir::Right, Pen::Keep), 1));
        // Out of it, or onto its closing way: not.
        assert!(!planner.enclosed_if_closed(Command::new(Dir::Left, Pen::Keep), 1));
        assert!(!planner.enclosed_if_closed(Command::STAY, 1));
    }
}
