//! The xiangqi view: a 9×10 board with river and palace lines, pieces as Chinese
//! characters (or letters), the last move, the selected piece's legal targets, a
//! check warning, flipping, keys and clicks. Rules come from
//! `sente_firmware::games::xiangqi`; move lists show Chinese notation and ICCS.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use sente_firmware::game::{Game, Notation, Outcome};
use sente_firmware::games::xiangqi::Xiangqi;
use sente_firmware::games::xiangqi::board::{Kind, Move, RED, Square, slot_color, slot_kind};
use sente_firmware::games::xiangqi::notation::{parse_iccs, write_chinese, write_square};

use super::view::{GameView, History, ViewKey, outcome_words, text_of};

/// Columns before the grid (rank digit and a space, one more for markers).
const LEFT: u16 = 3;
/// Rows before the grid (file letters).
const TOP: u16 = 1;
/// The board's scales, smallest first: columns between two files (a piece is two
/// columns wide) and rows between two ranks. One row is the compact board of 80×24
/// terminals: one row per rank plus the river, palace centres marked instead of
/// lines. The board is drawn at the largest that fits.
const SCALES: [Scale; 5] = [
    Scale { dx: 4, dy: 1 },
    Scale { dx: 4, dy: 2 },
    Scale { dx: 6, dy: 3 },
    Scale { dx: 8, dy: 4 },
    Scale { dx: 10, dy: 5 },
];

/// Columns between files and rows between ranks of a board on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scale {
    dx: u16,
    dy: u16,
}

impl Scale {
    /// The scale of a board drawn in a space of `room`.
    fn of(room: (u16, u16)) -> Self {
        super::view::pick_scale(&SCALES, room, Self::size)
    }

    /// Whether this is the compact board (no rows between ranks but the river).
    fn compact(self) -> bool {
        self.dy == 1
    }

    /// Board width and height: labels, 9 files and room for markers; letters, 10
    /// ranks with the rows between, numerals, the check line.
    fn size(self) -> (u16, u16) {
        let height = if self.compact() {
            TOP + 11 + 2
        } else {
            TOP + 9 * self.dy + 1 + 2
        };
        (LEFT + 8 * self.dx + 3, height)
    }

    /// Rows below the file letters of screen row `row` (0 = top rank).
    fn row_offset(self, row: u16) -> u16 {
        match row {
            r if !self.compact() => r * self.dy,
            r if r >= 5 => r + 1,
            r => r,
        }
    }
}

const RED_PIECES: [&str; 7] = ["帥", "仕", "相", "傌", "俥", "炮", "兵"];
const BLACK_PIECES: [&str; 7] = ["將", "士", "象", "馬", "車", "砲", "卒"];
const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
/// Red's king square e0, where the cursor starts.
const START_CURSOR: Square = 4;
/// Engine time per move.
pub const MOVETIME_MS: u32 = 2000;
/// The board's wood colour.
const BOARD: Color = Color::Indexed(179);

/// Xiangqi on screen.
pub struct XiangqiView {
    game: History<Xiangqi>,
    /// The first position as a search request names it: `startpos` or a FEN.
    root: String,
    /// A hint's from and to squares, if one is shown.
    hint: Option<(Square, Square)>,
    /// The moves as shown: Chinese notation and ICCS (`炮二平五 h2e2`).
    shown: Vec<String>,
    cursor: Square,
    selected: Option<Square>,
    flipped: bool,
    ascii: bool,
}

impl Default for XiangqiView {
    fn default() -> Self {
        Self::new()
    }
}

impl XiangqiView {
    /// A new game from the opening position.
    pub fn new() -> Self {
        Self {
            game: History::default(),
            root: "startpos".into(),
            hint: None,
            shown: Vec::new(),
            cursor: START_CURSOR,
            selected: None,
            flipped: false,
            ascii: false,
        }
    }

    /// The square under the cursor (rank × 9 + file, a0 = 0).
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The selected piece's square.
    pub fn selected(&self) -> Option<Square> {
        self.selected
    }

    /// Whether black is at the bottom.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    fn square_name(sq: Square) -> String {
        let mut s = String::new();
        let _ = write_square(sq, &mut s);
        s
    }

    /// The library's legal moves.
    fn legal(&self) -> Vec<Move> {
        let mut moves = Default::default();
        self.game.current().generate(&mut moves);
        moves.into_iter().collect()
    }

    /// Legal destinations of the piece on `from`.
    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal()
            .into_iter()
            .filter(|m| m.from == from)
            .map(|m| m.to)
            .collect()
    }

    fn last_move(&self) -> Option<(Square, Square)> {
        parse_iccs(self.game.shown_moves().last()?).ok()
    }

    /// Reads a typed move: ICCS (`h2e2`, `H2-E2`), Chinese (`炮二平五`, `马８进７`,
    /// `前车进一`) or WXF (`C2.5`, `H8+7`, `+R+1`), checked against the legal moves.
    pub fn read_move(&self, text: &str) -> Result<String, String> {
        let text = text.trim();
        let iccs: String = text.chars().filter(|c| *c != '-').collect();
        if parse_iccs(&iccs).is_ok() {
            return Ok(iccs.to_ascii_lowercase());
        }
        let Some(want) = Written::read(text) else {
            return Err(format!(
                "{text} is not a move: write it in ICCS (h2e2), Chinese (炮二平五) or WXF (C2.5)"
            ));
        };
        let pos = self.game.current().position().clone();
        let mut found: Vec<Move> = Vec::new();
        for mv in self.legal() {
            let chinese = text_of(|s| write_chinese(&pos, mv, s));
            let Some(written) = Written::read(&chinese) else {
                continue;
            };
            // A piece named by its file also does when another like it shares the file,
            // as long as the move itself is then unique.
            let by_file = Written {
                which: Which::File(file_number(mv.from, slot_color(mv.piece) == RED)),
                ..written
            };
            if (want == written || want == by_file) && !found.contains(&mv) {
                found.push(mv);
            }
        }
        match found.as_slice() {
            [mv] => Ok(format!(
                "{}{}",
                Self::square_name(mv.from),
                Self::square_name(mv.to)
            )),
            [] => Err(format!("{text} is not a legal move here")),
            _ => Err(format!(
                "{text} fits {} moves: say which piece (前 front / 后 rear, or + / -)",
                found.len()
            )),
        }
    }

    /// Screen column and row (0-based, in files and ranks) of a square.
    fn screen_of(&self, sq: Square) -> (u16, u16) {
        let (rank, file) = (u16::from(sq / 9), u16::from(sq % 9));
        if self.flipped {
            (8 - file, rank)
        } else {
            (file, 9 - rank)
        }
    }

    fn square_at(&self, col: u16, row: u16) -> Square {
        let (file, rank) = if self.flipped {
            (8 - col, row)
        } else {
            (col, 9 - row)
        };
        (rank * 9 + file) as Square
    }

    fn cell(&self, area: Rect, sq: Square) -> (u16, u16) {
        let scale = Scale::of((area.width, area.height));
        let (c, r) = self.screen_of(sq);
        (
            area.x + LEFT + c * scale.dx,
            area.y + TOP + scale.row_offset(r),
        )
    }

    /// The square nearest to a terminal cell of the board drawn at `area`.
    fn hit(&self, area: Rect, x: u16, y: u16) -> Option<Square> {
        let scale = Scale::of((area.width, area.height));
        let (width, height) = scale.size();
        if area.width < width || area.height < height {
            return None; // not drawn
        }
        // A piece is two columns wide: each file takes the columns nearest to it.
        let dx = x
            .saturating_add(scale.dx / 2 - 1)
            .checked_sub(area.x + LEFT)?;
        let dy = y.checked_sub(area.y + TOP)?;
        let row = if scale.compact() {
            match dy {
                0..=4 => dy,
                5 => return None, // the river
                _ => dy - 1,
            }
        } else {
            (dy + scale.dy / 2) / scale.dy
        };
        let col = dx / scale.dx;
        if col > 8 || row > 9 || dy > scale.row_offset(9) {
            return None;
        }
        Some(self.square_at(col, row))
    }

    /// Enter or a click on `sq`: select a piece, move it, or drop the selection.
    fn choose(&mut self, sq: Square) -> Option<String> {
        self.cursor = sq;
        let pos = self.game.current().position();
        let own = pos.at(sq) != 0 && slot_color(pos.at(sq)) == pos.side();
        match self.selected {
            Some(from) if from == sq => {
                self.selected = None;
                None
            }
            Some(from) if self.targets(from).contains(&sq) => {
                self.selected = None;
                Some(format!(
                    "{}{}",
                    Self::square_name(from),
                    Self::square_name(sq)
                ))
            }
            _ if own => {
                self.selected = Some(sq);
                None
            }
            _ => {
                self.selected = None;
                None
            }
        }
    }

    fn piece_text(&self, slot: u8) -> &'static str {
        let kind = slot_kind(slot) as usize;
        let red = slot_color(slot) == RED;
        if self.ascii {
            const RED_ASCII: [&str; 7] = ["K ", "A ", "B ", "N ", "R ", "C ", "P "];
            const BLACK_ASCII: [&str; 7] = ["k ", "a ", "b ", "n ", "r ", "c ", "p "];
            if red {
                RED_ASCII[kind]
            } else {
                BLACK_ASCII[kind]
            }
        } else if red {
            RED_PIECES[kind]
        } else {
            BLACK_PIECES[kind]
        }
    }

    /// Whether the side to move is in check (the library's test).
    pub fn in_check(&self) -> bool {
        self.game.current().position().in_check()
    }
}

/// A file's number as the mover counts it (from the mover's own right, 1–9).
fn file_number(sq: Square, red: bool) -> u8 {
    let file = sq % 9;
    if red { 9 - file } else { file + 1 }
}

/// Which of the mover's pieces a written move names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    /// The piece on this file (1–9, from the mover's right).
    File(u8),
    /// The front one of two or three on a file (前, WXF `+`).
    Front,
    /// The middle one of three (中, WXF `=`).
    Middle,
    /// The rear one (后, WXF `-`).
    Rear,
    /// The n-th of four or five pawns on a file, from the front (一兵…五兵).
    Nth(u8),
}

/// A move written the traditional way, in Chinese characters or WXF letters, read
/// into its parts: which piece, its kind, the direction (进 `+`, 退 `-`, 平 `.`) and
/// the number after it (a file or a count of ranks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Written {
    which: Which,
    kind: Kind,
    op: char,
    number: u8,
}

/// One symbol of a written move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Piece(Kind),
    Digit(u8),
    /// `+`, `-` or `.`: a direction, or (before the number) front / rear / middle.
    Sign(char),
    Front,
    Middle,
    Rear,
}

impl Written {
    /// Reads `炮二平五`, `马８进７`, `前车进一`, `C2.5`, `H8+7`, `+R+1`, `R+.4`, `c2=5`.
    fn read(text: &str) -> Option<Self> {
        let mut tokens = Vec::new();
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let digit = "一二三四五六七八九"
                .chars()
                .position(|d| d == c)
                .or_else(|| "１２３４５６７８９".chars().position(|d| d == c));
            let token = match c {
                _ if digit.is_some() => Token::Digit(digit.map_or(0, |d| d as u8 + 1)),
                '1'..='9' => Token::Digit(c as u8 - b'0'),
                '帅' | '帥' | '将' | '將' | 'K' | 'k' => Token::Piece(Kind::King),
                '仕' | '士' | 'A' | 'a' => Token::Piece(Kind::Advisor),
                '相' | '象' | 'B' | 'b' | 'E' | 'e' => Token::Piece(Kind::Elephant),
                '马' | '馬' | '傌' | 'H' | 'h' | 'N' | 'n' => Token::Piece(Kind::Horse),
                '车' | '車' | '俥' | 'R' | 'r' => Token::Piece(Kind::Rook),
                '炮' | '砲' | '包' | 'C' | 'c' => Token::Piece(Kind::Cannon),
                '兵' | '卒' | 'P' | 'p' => Token::Piece(Kind::Pawn),
                '进' | '進' | '+' => Token::Sign('+'),
                '退' | '-' => Token::Sign('-'),
                '平' | '.' | '=' => Token::Sign('.'),
                '前' => Token::Front,
                '中' => Token::Middle,
                '后' | '後' => Token::Rear,
                _ => return None,
            };
            tokens.push(token);
        }
        let marker = |t: Token| match t {
            Token::Front | Token::Sign('+') => Some(Which::Front),
            Token::Rear | Token::Sign('-') => Some(Which::Rear),
            Token::Middle | Token::Sign('.') => Some(Which::Middle),
            _ => None,
        };
        let [a, b, Token::Sign(op), Token::Digit(number)] = tokens[..] else {
            return None;
        };
        let (which, kind) = match (a, b) {
            (Token::Piece(kind), Token::Digit(f)) => (Which::File(f), kind),
            (Token::Digit(n), Token::Piece(kind)) => (Which::Nth(n), kind),
            (Token::Piece(kind), m) => (marker(m)?, kind),
            (m, Token::Piece(kind)) => (marker(m)?, kind),
            _ => return None,
        };
        Some(Self {
            which,
            kind,
            op,
            number,
        })
    }
}

impl GameView for XiangqiView {
    fn kind(&self) -> super::view::GameKind {
        super::view::GameKind::Xiangqi
    }

    fn title(&self) -> String {
        super::view::GameKind::Xiangqi.title().to_string()
    }

    fn wire_name(&self) -> &'static str {
        "xiangqi"
    }

    fn side_name(&self, player: u8) -> &'static str {
        if player == RED { "red" } else { "black" }
    }

    /// The start position and every move while they fit the board's request line;
    /// in long games the FEN reached earlier plus the most recent moves (what the
    /// board's repetition detection needs), as `sente engine xiangqi` sends them.
    fn position(&self) -> String {
        let game = crate::uci::GamePosition {
            root: self.root.clone(),
            moves: self.game.moves().to_vec(),
        };
        game.wire().unwrap_or_else(|_| self.game.position_text())
    }

    fn to_move(&self) -> u8 {
        self.game.current().player_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.current().outcome()
    }

    fn moves(&self) -> &[String] {
        &self.shown
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let before = self.game.current().position().clone();
        let text = self.read_move(text)?;
        let mv = self.game.play(&text)?;
        self.hint = None;
        let mut chinese = String::new();
        let _ = write_chinese(&before, mv, &mut chinese);
        let iccs = self.game.moves().last().cloned().unwrap_or_default();
        self.shown.push(format!("{chinese} {iccs}"));
        self.selected = None;
        Ok(())
    }

    fn undo(&mut self) -> bool {
        self.selected = None;
        self.hint = None;
        let undone = self.game.undo();
        if undone {
            self.shown.pop();
        }
        undone
    }

    fn reset(&mut self, _seed: u64) {
        self.game.reset();
        self.shown.clear();
        self.selected = None;
        self.hint = None;
        self.cursor = START_CURSOR;
    }

    fn record_moves(&self) -> Vec<String> {
        self.game.moves().to_vec()
    }

    fn record_comments(&self) -> Vec<String> {
        self.shown
            .iter()
            .map(|m| m.split(' ').next().unwrap_or_default().to_string())
            .collect()
    }

    fn start_position(&self) -> String {
        self.game.start_text()
    }

    /// A FEN (or `startpos`), optionally followed by `moves` and ICCS moves, which
    /// are played so that they can be stepped through and taken back.
    fn set_start(&mut self, position: &str) -> Result<(), String> {
        let (root, moves) = match position.find("moves") {
            Some(i) => (position[..i].trim(), position[i + 5..].trim()),
            None => (position.trim(), ""),
        };
        let game: History<Xiangqi> = History::parse(root)?;
        let start = game.start_text();
        let standard = text_of(|s| Xiangqi::default().write_position(s));
        self.root = if start == standard {
            "startpos".into()
        } else {
            start
        };
        self.game = game;
        self.shown.clear();
        self.selected = None;
        self.hint = None;
        for mv in moves.split_whitespace() {
            self.play(mv).map_err(|e| format!("move {mv}: {e}"))?;
        }
        Ok(())
    }

    fn show(&mut self, ply: Option<usize>) {
        self.selected = None;
        self.game.show(ply);
    }

    fn set_hint(&mut self, mv: Option<&str>) {
        self.hint = mv.and_then(|m| parse_iccs(m).ok());
    }

    fn face(&mut self, player: u8) {
        self.flipped = player != RED;
    }

    fn deselect(&mut self) -> bool {
        self.selected.take().is_some()
    }

    fn on_key(&mut self, key: KeyCode) -> ViewKey {
        let (col, row) = self.screen_of(self.cursor);
        let moved = match key {
            KeyCode::Up => (col, row.saturating_sub(1)),
            KeyCode::Down => (col, (row + 1).min(9)),
            KeyCode::Left => (col.saturating_sub(1), row),
            KeyCode::Right => ((col + 1).min(8), row),
            KeyCode::Enter | KeyCode::Char(' ') => {
                return match self.choose(self.cursor) {
                    Some(mv) => ViewKey::Play(mv),
                    None => ViewKey::Handled,
                };
            }
            KeyCode::Backspace | KeyCode::Char('x') => {
                self.selected = None;
                return ViewKey::Handled;
            }
            KeyCode::Char('f') => {
                self.flipped = !self.flipped;
                return ViewKey::Handled;
            }
            KeyCode::Char('a') => {
                self.ascii = !self.ascii;
                return ViewKey::Handled;
            }
            _ => return ViewKey::Unhandled,
        };
        self.cursor = self.square_at(moved.0, moved.1);
        ViewKey::Handled
    }

    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String> {
        let sq = self.hit(area, x, y)?;
        self.choose(sq)
    }

    fn size(&self, room: (u16, u16)) -> (u16, u16) {
        Scale::of(room).size()
    }

    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let area = area.intersection(buf.area);
        let scale = Scale::of((area.width, area.height));
        let (width, height) = scale.size();
        if !super::view::fits(area, buf, width, height) {
            return;
        }
        let (dx, dy) = (scale.dx, scale.dy);
        let compact = scale.compact();
        let label = Style::new().fg(Color::DarkGray);
        let grid = Style::new().fg(Color::Black).bg(BOARD);
        let (x0, y0) = (area.x + LEFT, area.y + TOP);
        let row_y = |row: u16| y0 + scale.row_offset(row);
        let bottom = row_y(9);
        // Labels: ICCS files above, red's file numerals below, ranks on the left.
        for col in 0..9u16 {
            let file = self.square_at(col, 0) % 9;
            let x = x0 + col * dx;
            buf.set_string(x, area.y, ((b'a' + file) as char).to_string(), label);
            buf.set_string(x, bottom + 1, RED_FILES[usize::from(file)], label);
        }
        // The wood.
        for y in y0..=bottom {
            buf.set_string(x0 - 1, y, " ".repeat(usize::from(8 * dx + 4)), grid);
        }
        let line = "─".repeat(usize::from(dx - 1));
        // The ranks.
        for row in 0..10u16 {
            let y = row_y(row);
            let rank = self.square_at(0, row) / 9;
            buf.set_string(area.x, y, rank.to_string(), label);
            for col in 0..9u16 {
                let palace_centre = compact && col == 4 && (row == 1 || row == 8);
                let glyph = match (row, col) {
                    _ if palace_centre => "╳",
                    (0, 0) => "┌",
                    (0, 8) => "┐",
                    (0, _) | (5, _) if col != 0 && col != 8 => "┬",
                    (9, 0) => "└",
                    (9, 8) => "┘",
                    (9, _) | (4, _) if col != 0 && col != 8 => "┴",
                    (_, 0) => "├",
                    (_, 8) => "┤",
                    _ => "┼",
                };
                let x = x0 + col * dx;
                buf.set_string(x, y, glyph, grid);
                if col < 8 {
                    buf.set_string(x + 1, y, &line, grid);
                }
            }
        }
        // The rows between ranks: files, the river, the palace diagonals.
        for between in 0..9u16 {
            let river = between == 4;
            if compact && !river {
                continue;
            }
            for k in 1..dy.max(2) {
                let y = row_y(between) + k;
                for col in 0..9u16 {
                    if !river || col == 0 || col == 8 {
                        buf.set_string(x0 + col * dx, y, "│", grid);
                    }
                }
                if river && k == dy.max(2) / 2 {
                    let (left, right) = if self.flipped {
                        ("漢 界", "楚 河")
                    } else {
                        ("楚 河", "漢 界")
                    };
                    buf.set_string(x0 + 2 * dx - 1, y, left, grid);
                    buf.set_string(x0 + 6 * dx - 4, y, right, grid);
                }
                if !compact && matches!(between, 0 | 1 | 7 | 8) {
                    // From the palace's corners to its centre and on.
                    let step = k * dx / dy;
                    let down = between == 0 || between == 7;
                    let (l, lx, rx) = if down {
                        ("╲", 3 * dx + step, 5 * dx - step)
                    } else {
                        ("╱", 4 * dx - step, 4 * dx + step)
                    };
                    let r = if down { "╱" } else { "╲" };
                    buf.set_string(x0 + lx, y, l, grid);
                    buf.set_string(x0 + rx, y, r, grid);
                }
            }
        }
        let state = self.game.view();
        let pos = state.position();
        let targets = self.selected.map(|s| self.targets(s)).unwrap_or_default();
        let last = self.last_move();
        for sq in 0..90u8 {
            let (x, y) = self.cell(area, sq);
            let slot = pos.at(sq);
            let is_target = targets.contains(&sq);
            if slot != 0 {
                let color = if slot_color(slot) == RED {
                    Color::Red
                } else {
                    Color::Black
                };
                let mut style = Style::new()
                    .fg(color)
                    .bg(BOARD)
                    .add_modifier(Modifier::BOLD);
                let checked = slot_kind(slot) == Kind::King
                    && slot_color(slot) == pos.side()
                    && pos.in_check();
                if self.selected == Some(sq) {
                    style = style.bg(Color::Yellow);
                } else if is_target {
                    style = style.bg(Color::LightGreen);
                } else if checked {
                    style = style.bg(Color::LightRed);
                }
                buf.set_string(x, y, self.piece_text(slot), style);
            } else if is_target {
                let style = Style::new().fg(Color::Green).bg(BOARD);
                buf.set_string(x, y, "•", style);
            }
            let mark = |l: &str, r: &str, style: Style, buf: &mut Buffer| {
                buf.set_string(x - 1, y, l, style);
                buf.set_string(x + 2, y, r, style);
            };
            if is_target && slot != 0 {
                let style = Style::new()
                    .fg(Color::Green)
                    .bg(BOARD)
                    .add_modifier(Modifier::BOLD);
                mark("{", "}", style, buf);
            }
            if self.hint.is_some_and(|(from, to)| from == sq || to == sq) {
                let style = Style::new()
                    .fg(Color::Green)
                    .bg(BOARD)
                    .add_modifier(Modifier::BOLD);
                if slot == 0 {
                    buf.set_string(x, y, "+", style);
                }
                mark("«", "»", style, buf);
            }
            if last.is_some_and(|(from, to)| from == sq || to == sq) {
                let style = Style::new()
                    .fg(Color::Blue)
                    .bg(BOARD)
                    .add_modifier(Modifier::BOLD);
                mark("(", ")", style, buf);
            }
            if cursor && sq == self.cursor {
                let style = Style::new()
                    .fg(Color::Magenta)
                    .bg(BOARD)
                    .add_modifier(Modifier::BOLD);
                mark("[", "]", style, buf);
            }
        }
        // The check warning under the board.
        let y = bottom + 2;
        if state.outcome().is_none() && pos.in_check() {
            let side = self.side_name(pos.side());
            let text = format!("將軍! {side} is in check");
            let style = Style::new().fg(Color::Red).add_modifier(Modifier::BOLD);
            buf.set_string(area.x, y, text, style);
        } else if let Some(from) = self.selected {
            let text = format!(
                "{} selected: {} move{}",
                Self::square_name(from),
                targets.len(),
                if targets.len() == 1 { "" } else { "s" }
            );
            buf.set_string(area.x, y, text, label);
        }
    }

    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let mut text = outcome_words(outcome, |p| self.side_name(p));
        let state = self.game.current();
        if let Outcome::Win(w) = outcome
            && w != state.player_to_move()
            && self.legal().is_empty()
        {
            text.push_str(if state.position().clone().in_check() {
                " by checkmate"
            } else {
                ": the other side cannot move"
            });
        }
        Some(text)
    }

    /// The xiangqi engine searches to depth 16 unless limited: two seconds a move.
    fn movetime_ms(&self) -> u32 {
        MOVETIME_MS
    }

    fn describe_move(&self, mv: &str) -> String {
        let pos = self.game.current();
        match pos.parse_move(mv) {
            Ok(m) => format!("{} {mv}", text_of(|s| write_chinese(pos.position(), m, s))),
            Err(_) => mv.to_string(),
        }
    }

    fn move_hint(&self) -> &'static str {
        "Enter/click a piece, then its target (f flips, a letters)"
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("arrows", "move the cursor [ ]"),
            ("Enter / Space", "select the piece, then play its target"),
            ("mouse", "click a piece, then a target"),
            ("x / Backspace", "drop the selection"),
            ("f", "flip the board"),
            ("a", "letters (RNBAKCP) instead of characters"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        (b[1] - b'0') * 9 + (b[0] - b'a')
    }

    #[test]
    fn select_then_move_with_keys() {
        let mut v = XiangqiView::new();
        assert_eq!(v.cursor(), sq("e0"));
        // Cursor to the cannon on h2: up 2, right 3.
        for k in [KeyCode::Up, KeyCode::Up] {
            v.on_key(k);
        }
        for _ in 0..3 {
            v.on_key(KeyCode::Right);
        }
        assert_eq!(v.cursor(), sq("h2"));
        assert_eq!(v.on_key(KeyCode::Enter), ViewKey::Handled);
        assert_eq!(v.selected(), Some(sq("h2")));
        assert!(v.targets(sq("h2")).contains(&sq("e2")));
        for _ in 0..3 {
            v.on_key(KeyCode::Left);
        }
        assert_eq!(v.on_key(KeyCode::Enter), ViewKey::Play("h2e2".into()));
        v.play("h2e2").unwrap();
        assert_eq!(v.moves(), ["炮二平五 h2e2"]);
        v.play("h9g7").unwrap();
        assert_eq!(v.moves()[1], "马８进７ h9g7");
        assert!(v.play("e2e9").is_err(), "blocked: no screen");
        assert!(v.undo());
        assert_eq!(v.moves().len(), 1);
        assert_eq!(v.on_key(KeyCode::Char('z')), ViewKey::Unhandled);
    }

    #[test]
    fn clicks_select_and_move_and_flip_mirrors_them() {
        let full = Scale { dx: 4, dy: 2 };
        let (width, height) = full.size();
        let area = Rect::new(0, 0, width, height);
        let mut v = XiangqiView::new();
        let at = |v: &XiangqiView, s: Square| v.cell(area, s);
        let (x, y) = at(&v, sq("b0"));
        assert_eq!(v.on_click(area, x + 1, y), None);
        assert_eq!(v.selected(), Some(sq("b0")));
        let (x, y) = at(&v, sq("c2"));
        assert_eq!(v.on_click(area, x, y), Some("b0c2".into()));
        assert_eq!(v.selected(), None);
        // Clicking an empty, unreachable point selects nothing.
        let (x, y) = at(&v, sq("e5"));
        assert_eq!(v.on_click(area, x, y), None);
        assert_eq!(v.selected(), None);
        assert_eq!(v.on_click(area, 200, 200), None);
        v.on_key(KeyCode::Char('f'));
        assert!(v.flipped());
        // Flipped, the top-left point is i0 (red's right corner).
        assert_eq!(v.hit(area, LEFT, TOP), Some(sq("i0")));
        assert_eq!(v.hit(area, LEFT + 8 * 4, TOP + 9 * 2), Some(sq("a9")));
        v.on_key(KeyCode::Char('f'));
        assert_eq!(v.hit(area, LEFT, TOP), Some(sq("a9")));
        // Up moves towards black unflipped.
        v.cursor = sq("e0");
        v.on_key(KeyCode::Up);
        assert_eq!(v.cursor(), sq("e1"));
    }

    #[test]
    fn check_and_checkmate_come_from_the_library() {
        let mut v = XiangqiView::new();
        // Central cannon; the e-pawn marches and takes e6, the only screen left.
        for m in ["h2e2", "h9g7", "e3e4", "b9c7", "e4e5", "i9h9"] {
            v.play(m).unwrap();
            assert!(!v.in_check());
        }
        v.play("e5e6").unwrap();
        assert!(v.in_check(), "the cannon checks over the pawn on e6");
        assert!(v.result_text().is_none());
        // Every black answer must meet the check (the library's legal moves).
        assert!(v.play("a9a8").is_err());
    }

    #[test]
    fn the_board_grows_with_the_room_and_clicks_follow_it() {
        let mut v = XiangqiView::new();
        let mut last = (0, 0);
        for scale in SCALES {
            let (width, height) = scale.size();
            assert_eq!(Scale::of((width, height)), scale);
            assert_eq!(v.size((width, height)), (width, height));
            assert!(width >= last.0 && height > last.1);
            last = (width, height);
            let area = Rect::new(5, 2, width, height);
            let mut buf = Buffer::empty(Rect::new(0, 0, 5 + width, 2 + height));
            v.render(area, &mut buf, true);
            for flipped in [false, true] {
                v.flipped = flipped;
                for s in 0..90u8 {
                    let (x, y) = v.cell(area, s);
                    // Both columns of a piece, the marker columns beside it (for the
                    // larger boards) and the row above half way (not the compact board).
                    let mut spots = vec![(x, y), (x + 1, y)];
                    if scale.dx > 4 {
                        spots.extend([(x - 1, y), (x + 2, y)]);
                    }
                    if !scale.compact() && y > area.y + TOP {
                        spots.push((x, y - scale.dy / 2 + 1));
                    }
                    for (cx, cy) in spots {
                        assert_eq!(v.hit(area, cx, cy), Some(s), "{scale:?} flipped {flipped}");
                    }
                }
            }
            v.flipped = false;
            // A click on a piece at this scale selects it.
            let (x, y) = v.cell(area, sq("b0"));
            assert_eq!(v.on_click(area, x, y), None);
            assert_eq!(v.selected(), Some(sq("b0")));
            let (x, y) = v.cell(area, sq("c2"));
            assert_eq!(v.on_click(area, x, y), Some("b0c2".into()));
        }
        // 200×60 terminals get the largest board; 80×24 the compact one.
        assert_eq!(Scale::of((152, 53)), Scale { dx: 10, dy: 5 });
        assert_eq!(Scale::of((32, 17)), Scale { dx: 4, dy: 1 });
    }
}
