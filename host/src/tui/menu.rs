//! The start screen: game (with gomoku's rule, EinStein's dice and seed, Chinese
//! checkers' players and pieces), opponent (host engine, serial board, simulated
//! board or a second person), serial port, who moves first or who plays each seat,
//! and the engine level.

use crossterm::event::KeyCode;

use sente_firmware::games::gomoku::Rule;

use super::app::{Opponent, Seat, Settings};
use super::clock::TimeControl;
use super::view::{Dice, GameKind};

/// A line of the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Which game.
    Game,
    /// Gomoku's rule set (only for gomoku).
    Rule,
    /// Where EinStein's dice come from.
    Dice,
    /// The seed of EinStein's seeded dice.
    Seed,
    /// How many play Chinese checkers.
    Players,
    /// Chinese checkers' pieces per player (only for up to three players).
    Pieces,
    /// Who plays against you.
    Opponent,
    /// Serial port path (only for a serial board).
    Port,
    /// Who moves first (two-player games).
    First,
    /// Who plays this seat (games with a seat per player).
    Seat(u8),
    /// Engine level.
    Level,
    /// The players' clocks.
    Clock,
    /// The start button.
    Start,
}

/// The opponent choices, in menu order.
pub const OPPONENTS: [&str; 4] = [
    "host engine",
    "board on a serial port",
    "simulated board (QEMU)",
    "second person",
];

/// Gomoku's rule sets, in menu order.
pub const RULES: [Rule; 3] = [Rule::Free, Rule::Standard, Rule::Renju];

/// Chinese checkers' player counts, in menu order.
pub const PLAYER_COUNTS: [u8; 4] = [2, 3, 4, 6];

/// The fourth opponent choice of a game with a seat per player: no engine.
pub const NO_ENGINE: &str = "none: people at every seat";

/// The largest seed the menu takes (it stays readable).
pub const MAX_SEED: u64 = 999_999_999;

/// What a key did on the start screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuAction {
    /// Nothing to do outside the menu.
    None,
    /// Start a game.
    Start(Settings),
    /// Open a saved game or a position.
    Open,
    /// The next colour theme.
    Theme,
    /// Leave.
    Quit,
}

/// Start-screen state.
#[derive(Clone, Debug)]
pub struct Menu {
    /// Index into [`GameKind::ALL`].
    pub game: usize,
    /// Index into [`RULES`] (gomoku).
    pub rule: usize,
    /// Index into [`OPPONENTS`].
    pub opponent: usize,
    /// The serial port path being typed.
    pub port: String,
    /// Ports found by `serialport::available_ports()`.
    pub ports: Vec<String>,
    /// The engine moves first.
    pub engine_first: bool,
    /// The engine plays both sides (two-player games).
    pub engines_only: bool,
    /// The time controls (empty: no clocks).
    pub clocks: Vec<TimeControl>,
    /// Engine level.
    pub level: u8,
    /// EinStein's dice.
    pub dice: Dice,
    /// The seed of the TUI's dice and of the engine's requests.
    pub seed: u64,
    /// Chinese checkers' players (2, 3, 4 or 6).
    pub players: u8,
    /// Chinese checkers' pieces per player (10 or 15).
    pub pieces: u8,
    /// Who plays each seat of a game with a seat per player (six kept while editing).
    pub seats: Vec<Seat>,
    /// The selected row.
    pub row: Row,
    /// Why the last start attempt was refused.
    pub error: Option<String>,
}

impl Menu {
    /// A menu showing `defaults`, offering `ports` for a serial board.
    pub fn new(defaults: Settings, ports: Vec<String>) -> Self {
        let opponent = match &defaults.opponent {
            Opponent::Host => 0,
            Opponent::Serial(_) => 1,
            Opponent::Sim => 2,
            Opponent::Human => 3,
        };
        let port = match &defaults.opponent {
            Opponent::Serial(p) => p.clone(),
            _ => ports.first().cloned().unwrap_or_default(),
        };
        let game = GameKind::ALL
            .iter()
            .position(|g| g.same_game(defaults.game))
            .unwrap_or(0);
        let rule = match defaults.game {
            GameKind::Gomoku(r) => RULES.iter().position(|x| *x == r).unwrap_or(0),
            _ => 0,
        };
        let dice = match defaults.game {
            GameKind::Einstein(d) => d,
            _ => Dice::Seeded,
        };
        let (players, pieces) = match defaults.game {
            GameKind::Checkers { players, pieces } => (players, pieces),
            _ => (2, 10),
        };
        let mut seats = defaults.seats.clone();
        seats.resize(6, Seat::Engine);
        Self {
            game,
            rule,
            opponent,
            port,
            ports,
            engine_first: defaults.engine_first,
            engines_only: defaults.engines_only,
            clocks: defaults.clocks.clone(),
            level: defaults.level,
            dice,
            seed: defaults.seed.min(MAX_SEED),
            players,
            pieces,
            seats,
            row: Row::Start,
            error: None,
        }
    }

    /// The serial ports the system lists.
    pub fn available_ports() -> Vec<String> {
        serialport::available_ports()
            .map(|ports| ports.into_iter().map(|p| p.port_name).collect())
            .unwrap_or_default()
    }

    /// The game chosen, with its rule.
    pub fn game(&self) -> GameKind {
        match GameKind::ALL.get(self.game).copied() {
            Some(GameKind::Gomoku(_)) => GameKind::Gomoku(RULES[self.rule % RULES.len()]),
            Some(GameKind::Einstein(_)) => GameKind::Einstein(self.dice),
            Some(GameKind::Checkers { .. }) => GameKind::Checkers {
                players: self.players,
                pieces: if self.players <= 3 { self.pieces } else { 10 },
            },
            Some(g) => g,
            None => GameKind::TicTacToe,
        }
    }

    /// The rows shown, in order: the game's own rows (rule; dice and seed; players
    /// and pieces), the opponent, the port only for a serial board, who moves first
    /// or who plays each seat, the level.
    pub fn rows(&self) -> Vec<Row> {
        let game = self.game();
        let mut rows = vec![Row::Game];
        match game {
            GameKind::Gomoku(_) => rows.push(Row::Rule),
            GameKind::Einstein(dice) => {
                rows.push(Row::Dice);
                if dice == Dice::Seeded {
                    rows.push(Row::Seed);
                }
            }
            GameKind::Checkers { players, .. } => {
                rows.push(Row::Players);
                if players <= 3 {
                    rows.push(Row::Pieces);
                }
            }
            _ => {}
        }
        rows.push(Row::Opponent);
        if self.opponent == 1 {
            rows.push(Row::Port);
        }
        if !game.per_seat() {
            rows.push(Row::First);
        } else if self.opponent != 3 {
            rows.extend((0..game.players()).map(Row::Seat));
        }
        rows.extend([Row::Level, Row::Clock, Row::Start]);
        rows
    }

    /// Who plays seat `i` as chosen.
    pub fn seat(&self, i: u8) -> Seat {
        self.seats
            .get(usize::from(i))
            .copied()
            .unwrap_or(Seat::Engine)
    }

    /// The settings as chosen, or why they cannot be used.
    pub fn settings(&self) -> Result<Settings, String> {
        let opponent = match self.opponent {
            0 => Opponent::Host,
            1 if self.port.trim().is_empty() => {
                return Err("type the serial port of the board".into());
            }
            1 => Opponent::Serial(self.port.trim().to_string()),
            2 => Opponent::Sim,
            _ => Opponent::Human,
        };
        Ok(Settings {
            game: self.game(),
            opponent,
            engine_first: self.engine_first,
            level: self.level.min(self.game().max_level()),
            seats: self.seats.clone(),
            seed: self.seed,
            engines_only: self.engines_only,
            clocks: self.clocks.clone(),
        })
    }

    fn step(&mut self, forward: bool) {
        let turn = |i: usize, n: usize| {
            if forward {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            }
        };
        match self.row {
            Row::Game => {
                self.game = turn(self.game, GameKind::ALL.len());
                self.level = self.level.min(self.game().max_level());
            }
            Row::Rule => self.rule = turn(self.rule, RULES.len()),
            Row::Dice => {
                self.dice = match self.dice {
                    Dice::Seeded => Dice::Typed,
                    Dice::Typed => Dice::Seeded,
                }
            }
            Row::Seed => {
                self.seed = if forward {
                    (self.seed + 1).min(MAX_SEED)
                } else {
                    self.seed.saturating_sub(1)
                }
            }
            Row::Players => {
                let at = PLAYER_COUNTS.iter().position(|&n| n == self.players);
                self.players = PLAYER_COUNTS[turn(at.unwrap_or(0), PLAYER_COUNTS.len())];
            }
            Row::Pieces => self.pieces = if self.pieces == 15 { 10 } else { 15 },
            Row::Seat(i) => {
                if let Some(seat) = self.seats.get_mut(usize::from(i)) {
                    *seat = match seat {
                        Seat::Person => Seat::Engine,
                        Seat::Engine => Seat::Person,
                    };
                }
            }
            Row::Opponent => self.opponent = turn(self.opponent, OPPONENTS.len()),
            Row::Port if !self.ports.is_empty() => {
                let at = self.ports.iter().position(|p| *p == self.port);
                let next = match at {
                    Some(i) => turn(i, self.ports.len()),
                    None => 0,
                };
                self.port = self.ports[next].clone();
            }
            Row::Port => self.error = Some("no serial ports found: type the path".into()),
            Row::First => {
                // you → engine → engine vs engine → you
                let at = usize::from(self.engine_first) + 2 * usize::from(self.engines_only);
                let next = turn(at.min(2), 3);
                self.engine_first = next == 1;
                self.engines_only = next == 2;
            }
            Row::Clock => {
                let choices = TimeControl::MENU.len() + 1;
                let at = match self.clocks.as_slice() {
                    [] => 0,
                    [one] => TimeControl::MENU
                        .iter()
                        .position(|c| c == one)
                        .map_or(0, |i| i + 1),
                    _ => 0,
                };
                let next = turn(at, choices);
                self.clocks = match next {
                    0 => Vec::new(),
                    i => vec![TimeControl::MENU[i - 1]],
                };
            }
            Row::Level => {
                self.level = if forward {
                    self.level.saturating_add(1).min(self.game().max_level())
                } else {
                    self.level.saturating_sub(1)
                }
            }
            Row::Start => {}
        }
    }

    /// Handles a key.
    pub fn on_key(&mut self, key: KeyCode) -> MenuAction {
        let rows = self.rows();
        let at = rows.iter().position(|r| *r == self.row).unwrap_or(0);
        if self.row == Row::Seed {
            match key {
                KeyCode::Char(d @ '0'..='9') => {
                    let typed = self.seed * 10 + u64::from(d as u8 - b'0');
                    self.seed = if typed > MAX_SEED { self.seed } else { typed };
                    return MenuAction::None;
                }
                KeyCode::Backspace => {
                    self.seed /= 10;
                    return MenuAction::None;
                }
                _ => {}
            }
        }
        if self.row == Row::Port {
            match key {
                KeyCode::Char(c) if !c.is_control() => {
                    self.port.push(c);
                    return MenuAction::None;
                }
                KeyCode::Backspace => {
                    self.port.pop();
                    return MenuAction::None;
                }
                KeyCode::Delete => {
                    self.port.clear();
                    return MenuAction::None;
                }
                _ => {}
            }
        }
        match key {
            KeyCode::Char('q') => return MenuAction::Quit,
            KeyCode::Esc => self.error = None,
            KeyCode::Char('o') => return MenuAction::Open,
            KeyCode::Char('t') => return MenuAction::Theme,
            KeyCode::Up | KeyCode::BackTab => self.row = rows[(at + rows.len() - 1) % rows.len()],
            KeyCode::Down | KeyCode::Tab => self.row = rows[(at + 1) % rows.len()],
            KeyCode::Left => self.step(false),
            KeyCode::Right | KeyCode::Char(' ') => self.step(true),
            KeyCode::Enter => {
                return match self.settings() {
                    Ok(s) => MenuAction::Start(s),
                    Err(e) => {
                        self.error = Some(e);
                        self.row = Row::Port;
                        MenuAction::None
                    }
                };
            }
            _ => {}
        }
        if !self.rows().contains(&self.row) {
            self.row = Row::Opponent;
        }
        MenuAction::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_starts_with_the_defaults() {
        let mut m = Menu::new(Settings::default(), vec![]);
        assert_eq!(
            m.on_key(KeyCode::Enter),
            MenuAction::Start(Settings::default())
        );
    }

    #[test]
    fn choosing_a_serial_board_and_typing_its_port() {
        let mut m = Menu::new(
            Settings::default(),
            vec!["/dev/ttyACM0".into(), "/dev/ttyACM1".into()],
        );
        m.row = Row::Opponent;
        m.on_key(KeyCode::Right);
        assert_eq!(
            m.rows(),
            [
                Row::Game,
                Row::Opponent,
                Row::Port,
                Row::First,
                Row::Level,
                Row::Clock,
                Row::Start
            ]
        );
        m.on_key(KeyCode::Down);
        assert_eq!(m.row, Row::Port);
        m.on_key(KeyCode::Right);
        assert_eq!(m.port, "/dev/ttyACM1");
        m.on_key(KeyCode::Backspace);
        assert_eq!(m.port, "/dev/ttyACM");
        m.on_key(KeyCode::Delete);
        assert_eq!(
            m.on_key(KeyCode::Enter),
            MenuAction::None,
            "empty port is refused"
        );
        assert!(m.error.is_some());
        for c in "/dev/q".chars() {
            m.on_key(KeyCode::Char(c));
        }
        m.on_key(KeyCode::Down);
        m.on_key(KeyCode::Right);
        let MenuAction::Start(s) = m.on_key(KeyCode::Enter) else {
            panic!("should start")
        };
        assert_eq!(s.opponent, Opponent::Serial("/dev/q".into()));
        assert!(s.engine_first);
    }

    #[test]
    fn first_move_and_clock_rows_cycle_their_choices() {
        let mut m = Menu::new(Settings::default(), vec![]);
        m.row = Row::First;
        m.on_key(KeyCode::Right);
        assert!(m.engine_first && !m.engines_only);
        m.on_key(KeyCode::Right);
        assert!(m.engines_only);
        assert_eq!(
            m.settings().unwrap().seat_plan(),
            [Seat::Engine, Seat::Engine]
        );
        m.on_key(KeyCode::Right);
        assert!(!m.engine_first && !m.engines_only);
        m.row = Row::Clock;
        m.on_key(KeyCode::Right);
        assert_eq!(m.clocks, [TimeControl::MENU[0]]);
        m.on_key(KeyCode::Left);
        m.on_key(KeyCode::Left);
        assert_eq!(m.clocks, [TimeControl::MENU[TimeControl::MENU.len() - 1]]);
        assert_eq!(m.settings().unwrap().clocks, m.clocks);
    }

    #[test]
    fn q_quits_except_while_typing_a_port() {
        let mut m = Menu::new(
            Settings {
                opponent: Opponent::Serial("/dev/x".into()),
                ..Settings::default()
            },
            vec![],
        );
        m.row = Row::Port;
        assert_eq!(m.on_key(KeyCode::Char('q')), MenuAction::None);
        assert_eq!(m.port, "/dev/xq");
        assert_eq!(m.on_key(KeyCode::Esc), MenuAction::None, "Esc never quits");
        m.row = Row::Level;
        assert_eq!(m.on_key(KeyCode::Char('q')), MenuAction::Quit);
    }
}
