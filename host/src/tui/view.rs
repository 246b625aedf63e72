//! What the TUI needs from a game: rules (through the firmware library's game types,
//! never re-implemented here), a board widget, and input mapping. One module per game
//! implements [`GameView`]; [`GameKind`] lists the games the start screen offers.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use sente_firmware::game::{Notation, Outcome};
use sente_firmware::games::gomoku::Rule;
use sente_firmware::games::registry::{self, GameInfo};

/// Where EinStein's dice come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dice {
    /// The TUI rolls a seeded generator (the seed is shown; same seed, same rolls).
    Seeded,
    /// A person rolls a physical die and types what it shows, for every side.
    Typed,
}

impl Dice {
    /// Name shown in the menu.
    pub fn name(self) -> &'static str {
        match self {
            Self::Seeded => "seeded",
            Self::Typed => "typed",
        }
    }
}

/// The games the start screen lists, each with a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Tic-tac-toe (`ttt`).
    TicTacToe,
    /// Gomoku or renju (`gomoku`) under a rule set.
    Gomoku(Rule),
    /// Xiangqi, Chinese chess (`xiangqi`).
    Xiangqi,
    /// EinStein würfelt nicht! (`einstein`) with its dice.
    Einstein(Dice),
    /// Chinese checkers (`checkers`): 2, 3, 4 or 6 players with 10 pieces each (15
    /// for up to three players).
    Checkers {
        /// Number of players: 2, 3, 4 or 6.
        players: u8,
        /// Pieces per player: 10, or 15 for up to three players.
        pieces: u8,
    },
}

impl GameKind {
    /// Every game, in menu order (gomoku's rule, EinStein's dice and Chinese checkers'
    /// players are chosen on their own rows).
    pub const ALL: [GameKind; 5] = [
        GameKind::TicTacToe,
        GameKind::Gomoku(Rule::Free),
        GameKind::Xiangqi,
        GameKind::Einstein(Dice::Seeded),
        GameKind::Checkers {
            players: 2,
            pieces: 10,
        },
    ];

    /// The names `--game` takes (the game list's names and aliases), for messages.
    pub fn names() -> String {
        registry::GAMES
            .iter()
            .map(|g| {
                if g.aliases.is_empty() {
                    g.name.to_string()
                } else {
                    format!("{} ({})", g.name, g.aliases.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Looks a game up by a name of the game list (its wire name or an alias); gomoku's
    /// rule names (`standard`, `renju`; `free`, `freestyle`) pick the rule.
    pub fn from_name(name: &str) -> Option<Self> {
        let info = registry::find(name)?;
        Some(match info.name {
            "ttt" => Self::TicTacToe,
            "gomoku" => Self::Gomoku(
                Rule::parse(&name.to_ascii_lowercase())
                    .ok()
                    .unwrap_or(Rule::Free),
            ),
            "xiangqi" => Self::Xiangqi,
            "einstein" => Self::Einstein(Dice::Seeded),
            _ => Self::Checkers {
                players: 2,
                pieces: 10,
            },
        })
    }

    /// Whether `other` is the same game (whatever its rule).
    pub fn same_game(self, other: GameKind) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }

    /// Name shown to people (from the game list).
    pub fn title(self) -> &'static str {
        self.info().title
    }

    /// The game in words, with gomoku's rule (`renju`, `standard gomoku`): what a
    /// person asked for on the command line.
    pub fn words(self) -> String {
        match self {
            Self::Gomoku(Rule::Free) => "gomoku".into(),
            Self::Gomoku(Rule::Standard) => "standard gomoku".into(),
            Self::Gomoku(rule) => rule.name().into(),
            other => other.title().into(),
        }
    }

    /// Whether the start screen asks who plays each seat (Chinese checkers) rather
    /// than who moves first.
    pub fn per_seat(self) -> bool {
        matches!(self, Self::Checkers { .. })
    }

    /// How many players sit at the table.
    pub fn players(self) -> u8 {
        match self {
            Self::Checkers { players, .. } => players,
            _ => 2,
        }
    }

    /// The game's entry in the one game list.
    pub fn info(self) -> &'static GameInfo {
        let name = match self {
            Self::TicTacToe => "ttt",
            Self::Gomoku(_) => "gomoku",
            Self::Xiangqi => "xiangqi",
            Self::Einstein(_) => "einstein",
            Self::Checkers { .. } => "checkers",
        };
        registry::by_wire_name(name).expect("every TUI game is in the game list")
    }

    /// What an engine level means for this game (from the game list), if the game has
    /// more than one.
    pub fn level_name(self, level: u8) -> Option<&'static str> {
        let info = self.info();
        (info.levels.len() > 1)
            .then(|| info.level(level).map(|l| l.summary))
            .flatten()
    }

    /// The highest level the game's engine takes.
    pub fn max_level(self) -> u8 {
        self.info().max_level()
    }

    /// A fresh view of a new game; `seed` drives anything random the TUI does
    /// itself (EinStein's seeded dice).
    pub fn new_view(self, seed: u64) -> Box<dyn GameView> {
        match self {
            Self::TicTacToe => Box::new(super::ttt::TttView::new()),
            Self::Gomoku(rule) => Box::new(super::gomoku::GomokuView::new(rule)),
            Self::Xiangqi => Box::new(super::xiangqi::XiangqiView::new()),
            Self::Einstein(dice) => Box::new(super::einstein::EinsteinView::new(dice, seed)),
            Self::Checkers { players, pieces } => {
                Box::new(super::checkers::CheckersView::new(players, pieces))
            }
        }
    }
}

/// A move the TUI must see to before anyone plays (a die roll).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chance {
    /// Play this move now (a seeded roll, e.g. `roll 4`).
    Auto(String),
    /// A person must type it (a physical die), whoever's turn it is.
    Typed,
}

/// What a key meant to the board view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewKey {
    /// The key was used (e.g. the cursor moved).
    Handled,
    /// The player chose this move (in the game's notation, not yet checked).
    Play(String),
    /// The key means something, but not now: the message says why.
    Refused(String),
    /// The view does not use this key.
    Unhandled,
}

/// One game on screen: its rules, its board widget and its input mapping.
pub trait GameView {
    /// The game with its variant (gomoku's rule, EinStein's dice, Chinese checkers'
    /// players and pieces), as the start screen would choose it.
    fn kind(&self) -> GameKind;
    /// Name shown to people (the game list's title, with the rule where it matters).
    fn title(&self) -> String;
    /// Name on the wire.
    fn wire_name(&self) -> &'static str;
    /// A player's name (`X`, `O`, `red`, …).
    fn side_name(&self, player: u8) -> &'static str;
    /// The current position in the form a search request takes.
    fn position(&self) -> String;
    /// The player to move.
    fn to_move(&self) -> u8;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Moves played so far, as shown.
    fn moves(&self) -> &[String];
    /// Moves played so far as the rules read them back (what a record keeps).
    fn record_moves(&self) -> Vec<String> {
        self.moves().to_vec()
    }
    /// A comment for each move in a record (xiangqi: the Chinese move text), if any.
    fn record_comments(&self) -> Vec<String> {
        Vec::new()
    }
    /// The game's first position in the game's text form.
    fn start_position(&self) -> String;
    /// Starts over from `position` (the game's text form), with no moves.
    fn set_start(&mut self, position: &str) -> Result<(), String>;
    /// Checks and plays a move; the error says why it is not legal.
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// Takes back the last move; `false` if there is none.
    fn undo(&mut self) -> bool;
    /// Back to the first position, for a game seeded with `seed` (the views
    /// that roll dice take it; the others ignore it).
    fn reset(&mut self, seed: u64);
    /// Shows the position after `ply` moves instead of the current one (`None`: the
    /// current one). Only the picture changes: the game is the same.
    fn show(&mut self, ply: Option<usize>);
    /// Marks `mv` (a move in the game's notation, legal now) on the board as a hint;
    /// `None` takes the mark away.
    fn set_hint(&mut self, mv: Option<&str>);
    /// Turns the board so that `player` sits at the bottom (games whose sides face
    /// each other); the others ignore it.
    fn face(&mut self, _player: u8) {}
    /// Drops a selection (Esc); `false` if nothing was selected.
    fn deselect(&mut self) -> bool {
        false
    }
    /// Maps a key on the board (cursor, digits, Enter…).
    fn on_key(&mut self, key: KeyCode) -> ViewKey;
    /// Maps a click at terminal cell (`x`, `y`) when the board was drawn in `area`;
    /// moves the cursor there and returns the move.
    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String>;
    /// Width and height of the board drawn in a space of `room` (width, height): the
    /// largest scale that fits, or the smallest if none does.
    fn size(&self, room: (u16, u16)) -> (u16, u16);
    /// Draws the board; `cursor` shows the cursor.
    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool);
    /// How the game ended, in words (`X wins: a3 b2 c1`).
    fn result_text(&self) -> Option<String>;
    /// Short key hint for moving now (`arrows + Enter, 1-9 or click`).
    fn move_hint(&self) -> &'static str;
    /// The view's own keys for the help overlay: (key, what it does).
    fn help(&self) -> &'static [(&'static str, &'static str)];
    /// A move (legal now, in the game's notation) as people read it (xiangqi adds
    /// the Chinese text: `炮二平五 h2e2`).
    fn describe_move(&self, mv: &str) -> String {
        mv.to_string()
    }
    /// Time limit sent with each search when no clock runs, in ms of engine time (0 =
    /// none: for games whose engine stops on its own).
    fn movetime_ms(&self) -> u32 {
        0
    }
    /// How many players the game has (turns go 0, 1, …, n − 1 unless the game says
    /// otherwise through [`GameView::to_move`]).
    fn player_count(&self) -> u8 {
        2
    }
    /// A colour for the player's name in the seat list, if the game has one.
    fn side_color(&self, _player: u8) -> Option<Color> {
        None
    }
    /// The letter or symbol the player's pieces show on the board, if it is not the
    /// name's look (Chinese checkers' seat letters, EinStein's cube arrows).
    fn side_symbol(&self, _player: u8) -> Option<&'static str> {
        None
    }
    /// A short progress note for the seat list (`4/10 home`).
    fn side_detail(&self, _player: u8) -> Option<String> {
        None
    }
    /// A chance move due now (a die roll), if any: the app plays [`Chance::Auto`]
    /// moves itself and waits for a person to type a [`Chance::Typed`] one.
    fn chance(&self) -> Option<Chance> {
        None
    }
    /// The move list as shown, one line per row (default: move pairs `1. b2  a3`).
    fn move_rows(&self) -> Vec<String> {
        pair_rows(self.moves())
    }
    /// The row of [`GameView::move_rows`] that shows move `ply` (0-based), for
    /// highlighting the move on screen (default: move pairs).
    fn row_of_ply(&self, ply: usize) -> usize {
        ply / 2
    }
}

/// Moves in numbered pairs: ` 1. b2     a3`.
pub fn pair_rows(moves: &[String]) -> Vec<String> {
    moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let second = pair.get(1).cloned().unwrap_or_default();
            format!(" {:>2}. {:<6} {}", i + 1, pair[0], second)
        })
        .collect()
}

/// Writes something with a `fmt::Write` writer into a new string (square and hole
/// names of the firmware's notation modules).
pub fn text_of(write: impl FnOnce(&mut String) -> std::fmt::Result) -> String {
    let mut s = String::new();
    let _ = write(&mut s);
    s
}

/// Moves a cursor one step along a list of points (`Tab` through pieces or targets):
/// the point after `current` (or the first), wrapping around.
pub fn cycle<T: Copy + PartialEq>(points: &[T], current: T, backwards: bool) -> Option<T> {
    let n = points.len();
    if n == 0 {
        return None;
    }
    let next = match points.iter().position(|&p| p == current) {
        Some(i) if backwards => (i + n - 1) % n,
        Some(i) => (i + 1) % n,
        None if backwards => n - 1,
        None => 0,
    };
    Some(points[next])
}

/// The largest of `scales` (smallest first) whose board, of `size(scale)`, fits in
/// `room` (width, height); the smallest when none does. Views draw and map clicks
/// at the scale their drawing area picks, so clicks land where the points are drawn
/// at every size.
pub fn pick_scale<T: Copy>(scales: &[T], room: (u16, u16), size: impl Fn(T) -> (u16, u16)) -> T {
    scales
        .iter()
        .rev()
        .copied()
        .find(|&s| {
            let (w, h) = size(s);
            w <= room.0 && h <= room.1
        })
        .unwrap_or(scales[0])
}

/// Draws a "window too small" note when `area` cannot hold a board of `width` ×
/// `height`, saying how much more room it needs, wrapped inside `area` (never over
/// the frame around it); `true` when the board fits.
pub fn fits(area: Rect, buf: &mut Buffer, width: u16, height: u16) -> bool {
    if area.width >= width && area.height >= height {
        return true;
    }
    let mut more = Vec::new();
    if area.width < width {
        more.push(format!("{} more columns", width - area.width));
    }
    if area.height < height {
        more.push(format!("{} more rows", height - area.height));
    }
    let note = format!(
        "(window too small for the board: it needs {})",
        more.join(" and ")
    );
    ratatui::widgets::Widget::render(
        ratatui::widgets::Paragraph::new(note).wrap(ratatui::widgets::Wrap { trim: true }),
        area.intersection(buf.area),
        buf,
    );
    false
}

/// The moves of a game, replayed with the library's rules; positions are kept so any
/// move can be taken back without an `Undo` value, and any earlier position shown.
#[derive(Clone, Debug)]
pub struct History<G: Notation> {
    positions: Vec<G>,
    moves: Vec<String>,
    /// The position shown while stepping through the game (plies from the start);
    /// `None`: the current one.
    shown: Option<usize>,
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
            shown: None,
        }
    }

    /// A game from a position in the game's text form.
    pub fn parse(text: &str) -> Result<Self, String> {
        G::parse_position(text.trim())
            .map(Self::new)
            .map_err(|e| e.to_string())
    }

    /// The current position.
    pub fn current(&self) -> &G {
        // Never empty: `new` pushes the start and `undo` keeps it.
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The position on screen: the one chosen with [`History::show`], else the current one.
    pub fn view(&self) -> &G {
        self.shown
            .and_then(|ply| self.positions.get(ply))
            .unwrap_or_else(|| self.current())
    }

    /// Plies played before the position on screen.
    pub fn shown_ply(&self) -> usize {
        self.shown.unwrap_or(self.moves.len())
    }

    /// The moves that led to the position on screen.
    pub fn shown_moves(&self) -> &[String] {
        &self.moves[..self.shown_ply().min(self.moves.len())]
    }

    /// Shows the position after `ply` moves (`None` or the last ply: the current one).
    pub fn show(&mut self, ply: Option<usize>) {
        self.shown = ply.filter(|&p| p < self.moves.len());
    }

    /// The first position.
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The position before move `ply` (0 = the start), or the current one after it.
    pub fn before(&self, ply: usize) -> Option<&G> {
        self.positions.get(ply)
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
        self.shown = None;
        Ok(mv)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        self.shown = None;
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
        self.shown = None;
    }

    /// The position in wire form.
    pub fn position_text(&self) -> String {
        text_of(|s| self.current().write_position(s))
    }

    /// The first position in wire form.
    pub fn start_text(&self) -> String {
        text_of(|s| self.start().write_position(s))
    }
}

/// Plain-words outcome for two-player games with named sides.
pub fn outcome_words(outcome: Outcome, side_name: impl Fn(u8) -> &'static str) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} wins", side_name(p)),
        Outcome::Draw => "draw".to_string(),
    }
}
