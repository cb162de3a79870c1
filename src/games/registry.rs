//! The one list of games: [`GameKind`], and the one place that turns a
//! game's name into its type ([`GameKind::visit`]).
//!
//! Adding a game is its folder (`games/<game>/`, with its [`Rules`], its
//! protocol trait and its [`Render`]), one variant here, its place in
//! [`GameKind::ALL`] and one line in [`GameKind::visit_render`]. Tools are generic over the traits and
//! name no game. (No game refers to this module, so that a bundled bot
//! carries only the game it plays.)
//!
//! ```
//! use botzone::games::registry::{GameKind, Protocol, Visitor};
//! use botzone::games::botzone::BotzoneGame;
//! use botzone::games::line::LineGame;
//! use botzone::games::Rules;
//!
//! let kind: GameKind = "tank".parse().unwrap();
//! assert_eq!((kind.name(), kind.seats(), kind.protocol()), ("tank", 2, Protocol::Botzone));
//! assert!("chess".parse::<GameKind>().is_err());
//!
//! // Generic code for every game: how long a game lasts at most.
//! struct MaxTurns;
//! impl Visitor for MaxTurns {
//!     type Output = u32;
//!     fn botzone<G: BotzoneGame>(self) -> u32 { G::MAX_TURNS }
//!     fn line<G: LineGame>(self) -> u32 { G::MAX_TURNS }
//! }
//! assert!(GameKind::ALL.iter().all(|k| k.visit(MaxTurns) == 100));
//! ```

use std::fmt;
use std::str::FromStr;

use super::botzone::BotzoneGame;
use super::line::LineGame;
use super::render::Render;
use super::{enclosure, pacman2, tank, Rules, Scoring};

/// Every game of the SDK.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Pacman2 (Botzone), 4 players: [`pacman2::Pacman2`].
    Pacman2,
    /// Tank (Botzone, 2018 rules), 2 players: [`tank::Field`].
    Tank,
    /// Enclosure (NOI 2013), 4 players: [`enclosure::State`].
    Enclosure,
}

/// How a game talks to its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Botzone's JSON requests and answers, with a judge
    /// ([`BotzoneGame`]).
    Botzone,
    /// A line protocol refereed by the game itself ([`LineGame`]).
    Line,
}

/// Generic code run for one game's type ([`GameKind::visit`]): one method
/// per protocol, since each gives its games different powers.
pub trait Visitor {
    /// What the code returns.
    type Output;
    /// Runs for a Botzone game.
    fn botzone<G: BotzoneGame>(self) -> Self::Output;
    /// Runs for a line-protocol game.
    fn line<G: LineGame>(self) -> Self::Output;
}

/// A [`Visitor`] that also draws the game ([`Render`]: replay pages). Kept
/// apart from [`Visitor`] so that code that only plays never asks for the
/// renderers.
pub trait RenderVisitor {
    /// What the code returns.
    type Output;
    /// Runs for a Botzone game.
    fn botzone<G: BotzoneGame + Render>(self) -> Self::Output;
    /// Runs for a line-protocol game.
    fn line<G: LineGame + Render>(self) -> Self::Output;
}

/// A [`Visitor`] run through [`GameKind::visit_render`], so that the games'
/// types are named in one place.
struct Plain<V>(V);

impl<V: Visitor> RenderVisitor for Plain<V> {
    type Output = V::Output;
    fn botzone<G: BotzoneGame + Render>(self) -> V::Output {
        self.0.botzone::<G>()
    }
    fn line<G: LineGame + Render>(self) -> V::Output {
        self.0.line::<G>()
    }
}

impl GameKind {
    /// Every game, in the order the SDK lists them.
    pub const ALL: [GameKind; 3] = [GameKind::Pacman2, GameKind::Tank, GameKind::Enclosure];
    /// The number of games.
    pub const COUNT: usize = GameKind::ALL.len();

    /// Runs `visitor` with this game's type: the one place a game's kind
    /// becomes its type.
    pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
        self.visit_render(Plain(visitor))
    }

    /// Runs `visitor` with this game's type, which can also draw itself
    /// ([`Render`]).
    pub fn visit_render<V: RenderVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameKind::Pacman2 => visitor.botzone::<pacman2::Pacman2>(),
            GameKind::Tank => visitor.botzone::<tank::Field>(),
            GameKind::Enclosure => visitor.line::<enclosure::State>(),
        }
    }

    /// A dense index, 0..COUNT (the place in [`GameKind::ALL`]).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The game's name in commands, logs and files ([`Rules::NAME`]).
    pub fn name(self) -> &'static str {
        self.visit(Facts).name
    }

    /// Seats in a game ([`Rules::SEATS`]).
    pub fn seats(self) -> usize {
        self.visit(Facts).seats
    }

    /// How the game talks to its players.
    pub fn protocol(self) -> Protocol {
        self.visit(Facts).protocol
    }

    /// How its scores rank the players ([`Rules::SCORING`]).
    pub fn scoring(self) -> Scoring {
        self.visit(Facts).scoring
    }
}

/// What the registry tells of a game without running it.
struct Facts;

struct GameFacts {
    name: &'static str,
    seats: usize,
    protocol: Protocol,
    scoring: Scoring,
}

impl Facts {
    fn of<G: Rules>(protocol: Protocol) -> GameFacts {
        GameFacts {
            name: G::NAME,
            seats: G::SEATS,
            protocol,
            scoring: G::SCORING,
        }
    }
}

impl Visitor for Facts {
    type Output = GameFacts;
    fn botzone<G: BotzoneGame>(self) -> GameFacts {
        Facts::of::<G>(Protocol::Botzone)
    }
    fn line<G: LineGame>(self) -> GameFacts {
        Facts::of::<G>(Protocol::Line)
    }
}

impl fmt::Display for GameKind {
    /// The game's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no game is named {:?} (the games: ", self.0)?;
        for (i, kind) in GameKind::ALL.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{kind}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameKind {
    type Err = UnknownGame;
    /// The game of a name ([`GameKind::name`]).
    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| UnknownGame(name.to_string()))
    }
}

impl TryFrom<usize> for GameKind {
    type Error = UnknownGame;
    /// The game at this [`GameKind::index`].
    fn try_from(index: usize) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .get(index)
            .copied()
            .ok_or_else(|| UnknownGame(format!("#{index}")))
    }
}
