//! Players: anything `sente match` (and the TUI) can ask for a move. One trait over
//! every kind of engine: a Sente board on the [`EngineLink`] (the host engine in either
//! profile, the simulated board, a board on a serial port) and **external engines**
//! started by path: UCI and UCCI xiangqi engines ([`uci`]) and Gomocup brains ([`pbrain`]).
//!
//! Specs, as `--white`/`--black` take them: `host`, `host-board`, `sim`, a serial port
//! path, `uci:CMD`, `ucci:CMD`, `pbrain:CMD` (CMD is a program path, optionally followed
//! by its arguments separated by spaces).

pub mod pbrain;
pub mod process;
pub mod uci;

use std::time::Duration;

use anyhow::{Context, bail};

use crate::engine::{EngineError, EngineLink, GoRequest, Watch};
use crate::reply::BestMove;
use crate::timeman::{self, Clock};
use sente_firmware::engine::RootMoves;

/// How much time a turn has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TurnTime {
    /// No time limit (depth and node limits bound the search).
    #[default]
    Unlimited,
    /// A fixed time for this move.
    MoveTime(Duration),
    /// Both clocks: the mover's and its opponent's.
    Clocks {
        /// The mover's clock.
        own: Clock,
        /// The opponent's time left.
        opponent: Duration,
    },
}

/// One request for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<'a> {
    /// The game's wire name (`xiangqi`, `gomoku`, …).
    pub game: &'a str,
    /// The position in Sente's text form (what a Sente board is sent).
    pub position: &'a str,
    /// Every move from the game's start in Sente's notation (what UCI and Gomocup
    /// engines are sent).
    pub history: &'a [String],
    /// Gomoku's rule (`free`, `standard`, `renju`, `caro`), for external brains.
    pub rule: Option<&'a str>,
    /// Engine level (Sente engines only).
    pub level: u8,
    /// Depth limit (0 = none).
    pub depth: u8,
    /// Node limit (0 = none).
    pub nodes: u64,
    /// Time for this move.
    pub time: TurnTime,
    /// Seed for engines that use chance.
    pub seed: u64,
}

impl Turn<'_> {
    /// The move time a Sente engine gets: the fixed time, or the time manager's share
    /// of the clock (with `overhead` kept back for the link).
    pub fn move_time(&self, overhead: Duration) -> Option<Duration> {
        match self.time {
            TurnTime::Unlimited => None,
            TurnTime::MoveTime(d) => Some(d),
            TurnTime::Clocks { own, .. } => Some(timeman::move_time(&own, overhead)),
        }
    }
}

/// Something that plays moves when asked.
pub trait Player: Send {
    /// What it is, for reports.
    fn describe(&self) -> String;
    /// A new game starts.
    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }
    /// The move for `turn`; `watch` sees the engine's iterations and may stop it.
    fn go(&mut self, turn: &Turn<'_>, watch: &mut dyn Watch) -> Result<BestMove, EngineError>;
}

/// Time a Sente link keeps back from its clock share (serial latency, QEMU start-up).
const LINK_OVERHEAD: Duration = Duration::from_millis(20);

impl Player for EngineLink {
    fn describe(&self) -> String {
        EngineLink::describe(self)
    }

    fn go(&mut self, turn: &Turn<'_>, watch: &mut dyn Watch) -> Result<BestMove, EngineError> {
        let request = GoRequest {
            game: turn.game.to_string(),
            position: turn.position.to_string(),
            depth: turn.depth,
            nodes: turn.nodes,
            // At least 1 ms: 0 would mean "no limit".
            movetime_ms: turn
                .move_time(LINK_OVERHEAD)
                .map_or(0, |d| timeman::wire_ms(d).max(1)),
            level: turn.level,
            seed: turn.seed,
            info: false,
            roots: RootMoves::All,
        };
        EngineLink::go(self, &request, watch)
    }
}

/// The kinds of player a spec names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A Sente board (see [`crate::engine::Spec`]).
    Board(String),
    /// An external UCI engine (xiangqi).
    Uci(String),
    /// An external UCCI engine (xiangqi).
    Ucci(String),
    /// An external Gomocup brain (gomoku).
    Pbrain(String),
}

impl PlayerSpec {
    /// Reads a spec (see the module documentation).
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let external = |cmd: &str, kind: &str| -> anyhow::Result<String> {
            if cmd.trim().is_empty() {
                bail!("{kind}: needs a program, e.g. {kind}:/path/to/engine");
            }
            Ok(cmd.trim().to_string())
        };
        Ok(if let Some(cmd) = text.strip_prefix("uci:") {
            Self::Uci(external(cmd, "uci")?)
        } else if let Some(cmd) = text.strip_prefix("ucci:") {
            Self::Ucci(external(cmd, "ucci")?)
        } else if let Some(cmd) = text.strip_prefix("pbrain:") {
            Self::Pbrain(external(cmd, "pbrain")?)
        } else if text.is_empty() {
            bail!("an empty engine spec");
        } else {
            Self::Board(text.to_string())
        })
    }

    /// Whether this player can play `game` (external engines speak one game's protocol).
    pub fn plays(&self, game: &str) -> bool {
        match self {
            Self::Board(_) => true,
            Self::Uci(_) | Self::Ucci(_) => game == "xiangqi",
            Self::Pbrain(_) => game == "gomoku",
        }
    }

    /// Whether two of these can run at once (a serial board cannot play two games).
    pub fn shareable(&self) -> bool {
        !matches!(self, Self::Board(spec) if !matches!(spec.as_str(), "host" | "host-board" | "sim") && !spec.starts_with("sim:"))
    }

    /// Starts the player.
    pub fn open(&self) -> anyhow::Result<Box<dyn Player>> {
        Ok(match self {
            Self::Board(spec) => Box::new(
                EngineLink::open(spec)
                    .with_context(|| format!("cannot open the board {spec:?}"))?,
            ),
            Self::Uci(cmd) => Box::new(uci::UciPlayer::start(cmd, uci::Dialect::Uci)?),
            Self::Ucci(cmd) => Box::new(uci::UciPlayer::start(cmd, uci::Dialect::Ucci)?),
            Self::Pbrain(cmd) => Box::new(pbrain::PbrainPlayer::start(cmd)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_and_checked_against_the_game() {
        assert_eq!(
            PlayerSpec::parse("uci:/opt/pikafish").unwrap(),
            PlayerSpec::Uci("/opt/pikafish".into())
        );
        assert_eq!(
            PlayerSpec::parse("pbrain:./pbrain-x --fast").unwrap(),
            PlayerSpec::Pbrain("./pbrain-x --fast".into())
        );
        assert!(PlayerSpec::parse("uci:").is_err());
        assert!(PlayerSpec::parse("ucci:/e").unwrap().plays("xiangqi"));
        assert!(!PlayerSpec::parse("ucci:/e").unwrap().plays("gomoku"));
        assert!(PlayerSpec::parse("host").unwrap().plays("einstein"));
        assert!(PlayerSpec::parse("host").unwrap().shareable());
        assert!(!PlayerSpec::parse("/dev/ttyACM0").unwrap().shareable());
    }

    #[test]
    fn clocks_become_a_move_time() {
        let turn = Turn {
            game: "ttt",
            position: ".........",
            history: &[],
            rule: None,
            level: 0,
            depth: 0,
            nodes: 0,
            time: TurnTime::Clocks {
                own: Clock {
                    left: Duration::from_secs(10),
                    increment: Duration::from_millis(100),
                    moves_to_go: None,
                    per_move_cap: None,
                },
                opponent: Duration::from_secs(10),
            },
            seed: 0,
        };
        let t = turn.move_time(Duration::ZERO).unwrap();
        assert!(
            t > Duration::from_millis(300) && t < Duration::from_millis(500),
            "{t:?}"
        );
    }
}
