//! The start screen: game, opponent (host engine, serial board, simulated board or a
//! second person), serial port, who moves first and the engine level.

use crossterm::event::KeyCode;

use sente_firmware::games::gomoku::Rule;

use super::app::{Opponent, Settings};
use super::view::GameKind;

/// A line of the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Which game.
    Game,
    /// Gomoku's rule set (only for gomoku).
    Rule,
    /// Who plays against you.
    Opponent,
    /// Serial port path (only for a serial board).
    Port,
    /// Who moves first.
    First,
    /// Engine level.
    Level,
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

/// What a key did on the start screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuAction {
    /// Nothing to do outside the menu.
    None,
    /// Start a game.
    Start(Settings),
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
    /// Engine level.
    pub level: u8,
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
        Self {
            game,
            rule,
            opponent,
            port,
            ports,
            engine_first: defaults.engine_first,
            level: defaults.level,
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
            Some(g) => g,
            None => GameKind::TicTacToe,
        }
    }

    /// The rows shown, in order (the rule row only for gomoku, the port row only
    /// for a serial board).
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::Game];
        if matches!(self.game(), GameKind::Gomoku(_)) {
            rows.push(Row::Rule);
        }
        rows.push(Row::Opponent);
        if self.opponent == 1 {
            rows.push(Row::Port);
        }
        rows.extend([Row::First, Row::Level, Row::Start]);
        rows
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
            Row::First => self.engine_first = !self.engine_first,
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
            KeyCode::Esc | KeyCode::Char('q') => return MenuAction::Quit,
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
        assert_eq!(m.on_key(KeyCode::Esc), MenuAction::Quit);
    }
}
