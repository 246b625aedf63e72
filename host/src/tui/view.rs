//! What the TUI needs from a game: rules (through the firmware library's game types,
//! never re-implemented here), a board widget, and input mapping. One module per game
//! implements [`GameView`]; [`GameKind`] lists the games the start screen offers.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use sente_firmware::game::{Notation, Outcome};
use sente_firmware::games::gomoku::Rule;

/// The games the start screen lists; those the firmware plays without a TUI view
/// yet are in [`GameKind::COMING`] (shown greyed out, not selectable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Tic-tac-toe (`ttt`).
    TicTacToe,
    /// Gomoku or renju (`gomoku`) under a rule set.
    Gomoku(Rule),
    /// Xiangqi, Chinese chess (`xiangqi`).
    Xiangqi,
}

impl GameKind {
    /// Every game with a view, in menu order (gomoku's rule is chosen on its own row).
    pub const ALL: [GameKind; 3] = [
        GameKind::TicTacToe,
        GameKind::Gomoku(Rule::Free),
        GameKind::Xiangqi,
    ];

    /// Games the firmware plays that have no TUI view yet (shown greyed out).
    pub const COMING: [&'static str; 2] = ["EinStein", "Chinese checkers"];

    /// The names `--game` takes, for messages.
    pub const NAMES: &'static str = "ttt, gomoku (= free), standard, renju, xiangqi";

    /// Looks a game up by its wire name or a friendly alias (`gomoku`, `renju`,
    /// `gomoku-standard`, …).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "ttt" | "tictactoe" | "tic-tac-toe" => Some(Self::TicTacToe),
            "gomoku" | "free" | "freestyle" | "gomoku-free" => Some(Self::Gomoku(Rule::Free)),
            "standard" | "gomoku-standard" => Some(Self::Gomoku(Rule::Standard)),
            "renju" | "gomoku-renju" => Some(Self::Gomoku(Rule::Renju)),
            "xiangqi" | "chinese-chess" | "cchess" => Some(Self::Xiangqi),
            _ => None,
        }
    }

    /// Whether `other` is the same game (whatever its rule).
    pub fn same_game(self, other: GameKind) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }

    /// Name shown to people.
    pub fn title(self) -> &'static str {
        match self {
            Self::TicTacToe => "tic-tac-toe",
            Self::Gomoku(_) => "gomoku / renju",
            Self::Xiangqi => "xiangqi",
        }
    }

    /// What an engine level means for this game, if the game has levels.
    pub fn level_name(self, level: u8) -> Option<&'static str> {
        match (self, level) {
            (Self::TicTacToe, _) => None,
            (Self::Gomoku(_), 0) => Some("strong, 32 nodes a move"),
            (Self::Gomoku(_), 1) => Some("pattern: one-ply scorer"),
            (Self::Gomoku(_), _) => Some("strong, no node cap"),
            (Self::Xiangqi, 0) => Some("book, then full search"),
            (Self::Xiangqi, 1) => Some("book, depth 3"),
            (Self::Xiangqi, _) => Some("search only, no book"),
        }
    }

    /// The highest level the game's engine takes.
    pub fn max_level(self) -> u8 {
        match self {
            Self::TicTacToe => 9,
            Self::Gomoku(_) | Self::Xiangqi => 2,
        }
    }

    /// A fresh view of a new game.
    pub fn new_view(self) -> Box<dyn GameView> {
        match self {
            Self::TicTacToe => Box::new(super::ttt::TttView::new()),
            Self::Gomoku(rule) => Box::new(super::gomoku::GomokuView::new(rule)),
            Self::Xiangqi => Box::new(super::xiangqi::XiangqiView::new()),
        }
    }
}

/// What a key meant to the board view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewKey {
    /// The key was used (e.g. the cursor moved).
    Handled,
    /// The player chose this move (in the game's notation, not yet checked).
    Play(String),
    /// The view does not use this key.
    Unhandled,
}

/// One game on screen: its rules, its board widget and its input mapping.
pub trait GameView {
    /// Name shown to people.
    fn title(&self) -> &'static str;
    /// Name on the wire.
    fn wire_name(&self) -> &'static str;
    /// A player's name (`X`, `O`, `red`, …).
    fn side_name(&self, player: u8) -> &'static str;
    /// The current position in wire form.
    fn position(&self) -> String;
    /// The player to move.
    fn to_move(&self) -> u8;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Moves played so far, in notation.
    fn moves(&self) -> &[String];
    /// Checks and plays a move; the error says why it is not legal.
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// Takes back the last move; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// Back to the start position.
    fn reset(&mut self);
    /// Maps a key on the board (cursor, digits, Enter…).
    fn on_key(&mut self, key: KeyCode) -> ViewKey;
    /// Maps a click at terminal cell (`x`, `y`) when the board was drawn in `area`;
    /// moves the cursor there and returns the move.
    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String>;
    /// Width and height the board widget wants.
    fn size(&self) -> (u16, u16);
    /// Draws the board; `cursor` shows the cursor.
    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool);
    /// How the game ended, in words (`X wins: a3 b2 c1`).
    fn result_text(&self) -> Option<String>;
    /// Short key hint for moving (`arrows + Enter, 1-9 or click`).
    fn move_hint(&self) -> &'static str;
    /// The view's own keys for the help overlay: (key, what it does).
    fn help(&self) -> &'static [(&'static str, &'static str)];
    /// Time limit sent with each search, in ms of engine time (0 = none: for games
    /// whose engine stops on its own).
    fn movetime_ms(&self) -> u32 {
        0
    }
}

/// The moves of a game, replayed with the library's rules; positions are kept so any
/// move can be taken back without an `Undo` value.
#[derive(Clone, Debug)]
pub struct History<G: Notation> {
    positions: Vec<G>,
    moves: Vec<String>,
}

impl<G: Notation + Default> Default for History<G> {
    fn default() -> Self {
        Self::new(G::default())
    }
}

impl<G: Notation> History<G> {
    /// A game from `start`.
    pub fn new(start: G) -> Self {
        Self {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn current(&self) -> &G {
        // Never empty: `new` pushes the start and `undo` keeps it.
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// Moves so far, in the game's notation (as `write_move` writes them).
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// Checks `text` with the game's `parse_move` and plays it.
    pub fn play(&mut self, text: &str) -> Result<G::Move, String> {
        let pos = self.current();
        if pos.outcome().is_some() {
            return Err("the game is over".into());
        }
        let mv = pos.parse_move(text.trim()).map_err(|e| e.to_string())?;
        let mut name = String::new();
        pos.write_move(mv, &mut name)
            .map_err(|_| "cannot write the move".to_string())?;
        let mut next = pos.clone();
        next.make(mv);
        self.positions.push(next);
        self.moves.push(name);
        Ok(mv)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        if self.positions.len() > 1 {
            self.positions.pop();
            self.moves.pop();
            true
        } else {
            false
        }
    }

    /// Back to the first position.
    pub fn reset(&mut self) {
        self.positions.truncate(1);
        self.moves.clear();
    }

    /// The position in wire form.
    pub fn position_text(&self) -> String {
        let mut s = String::new();
        let _ = self.current().write_position(&mut s);
        s
    }
}

/// Plain-words outcome for two-player games with named sides.
pub fn outcome_words(outcome: Outcome, side_name: impl Fn(u8) -> &'static str) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} wins", side_name(p)),
        Outcome::Draw => "draw".to_string(),
    }
}
