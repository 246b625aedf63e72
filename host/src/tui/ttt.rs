//! The tic-tac-toe view: a 3×3 board drawn with box characters, a cursor, digits 1–9
//! and mouse clicks. Rules come from `sente_firmware::games::tictactoe`.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use sente_firmware::game::{Game, Outcome};
use sente_firmware::games::tictactoe::TicTacToe;

use super::view::{GameView, History, ViewKey, outcome_words};

/// Columns before the grid (row label and a space).
const LEFT: u16 = 2;
/// Rows before the grid (column labels).
const TOP: u16 = 1;
/// The sizes of a cell's inside (columns, rows), smallest first: the board is drawn
/// at the largest that fits.
const CELLS: [(u16, u16); 5] = [(3, 1), (7, 3), (11, 5), (15, 7), (19, 9)];

/// Board width and height with cells of `cell`: labels plus 3 cells and 4 borders.
fn board_size((w, h): (u16, u16)) -> (u16, u16) {
    (LEFT + 3 * (w + 1) + 1, TOP + 3 * (h + 1) + 1)
}

/// The cell size of a board drawn in a space of `room`.
fn cell_size(room: (u16, u16)) -> (u16, u16) {
    super::view::pick_scale(&CELLS, room, board_size)
}

/// Draws player `player`'s mark in a cell of `w` × `h` at (`x`, `y`): a letter in a
/// one-row cell, else a cross or a ring as large as the cell.
fn draw_mark(buf: &mut Buffer, (x, y): (u16, u16), (w, h): (u16, u16), player: u8, style: Style) {
    if h < 3 || w < 5 {
        let letter = if player == 0 { "X" } else { "O" };
        buf.set_string(x + w / 2, y + h / 2, letter, style);
        return;
    }
    if player == 0 {
        for i in 0..h {
            let step = i * (w - 3) / (h - 1);
            let (l, r) = (1 + step, w - 2 - step);
            if l == r {
                buf.set_string(x + l, y + i, "╳", style);
            } else {
                buf.set_string(x + l, y + i, "╲", style);
                buf.set_string(x + r, y + i, "╱", style);
            }
        }
    } else {
        let bar = "─".repeat(usize::from(w - 4));
        buf.set_string(x + 1, y, format!("╭{bar}╮"), style);
        for i in 1..h - 1 {
            buf.set_string(x + 1, y + i, "│", style);
            buf.set_string(x + w - 2, y + i, "│", style);
        }
        buf.set_string(x + 1, y + h - 1, format!("╰{bar}╯"), style);
    }
}

/// Tic-tac-toe on screen.
pub struct TttView {
    game: History<TicTacToe>,
    cursor: u8,
    /// The cell of a hint, if one is shown.
    hint: Option<u8>,
}

impl Default for TttView {
    fn default() -> Self {
        Self::new()
    }
}

impl TttView {
    /// A new game with the cursor in the centre.
    pub fn new() -> Self {
        Self {
            game: History::default(),
            cursor: 4,
            hint: None,
        }
    }

    /// The cell under the cursor (0–8 in reading order).
    pub fn cursor(&self) -> u8 {
        self.cursor
    }

    fn cell_name(cell: u8) -> String {
        let mut s = String::new();
        let _ = TicTacToe::write_cell(cell, &mut s);
        s
    }

    fn winning_cells(&self) -> u16 {
        self.game.view().winning_line().unwrap_or(0)
    }

    /// The cell at a point of the board drawn at `area`, borders included.
    fn hit(area: Rect, x: u16, y: u16) -> Option<u8> {
        let (cw, ch) = cell_size((area.width, area.height));
        let dx = x.checked_sub(area.x + LEFT)?;
        let dy = y.checked_sub(area.y + TOP)?;
        let span_w = 3 * (cw + 1);
        let span_h = 3 * (ch + 1);
        if dx == 0 || dy == 0 || dx >= span_w || dy >= span_h {
            return None;
        }
        let col = ((dx - 1) / (cw + 1)).min(2);
        let row = ((dy - 1) / (ch + 1)).min(2);
        Some((row * 3 + col) as u8)
    }

    fn mark_style(player: u8) -> Style {
        let color = if player == 0 {
            Color::Cyan
        } else {
            Color::Magenta
        };
        Style::new().fg(color).add_modifier(Modifier::BOLD)
    }
}

impl GameView for TttView {
    fn kind(&self) -> super::view::GameKind {
        super::view::GameKind::TicTacToe
    }

    fn title(&self) -> String {
        super::view::GameKind::TicTacToe.title().to_string()
    }

    fn wire_name(&self) -> &'static str {
        "ttt"
    }

    fn side_name(&self, player: u8) -> &'static str {
        if player == 0 { "X" } else { "O" }
    }

    fn position(&self) -> String {
        self.game.position_text()
    }

    fn to_move(&self) -> u8 {
        self.game.current().player_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.current().outcome()
    }

    fn moves(&self) -> &[String] {
        self.game.moves()
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        self.game.play(text)?;
        self.hint = None;
        Ok(())
    }

    fn undo(&mut self) -> bool {
        self.hint = None;
        self.game.undo()
    }

    fn reset(&mut self, _seed: u64) {
        self.game.reset();
        self.cursor = 4;
        self.hint = None;
    }

    fn start_position(&self) -> String {
        self.game.start_text()
    }

    fn set_start(&mut self, position: &str) -> Result<(), String> {
        self.game = History::parse(position)?;
        self.hint = None;
        Ok(())
    }

    fn show(&mut self, ply: Option<usize>) {
        self.game.show(ply);
    }

    fn set_hint(&mut self, mv: Option<&str>) {
        self.hint = mv.and_then(|m| {
            let pos = self.game.current();
            sente_firmware::game::Notation::parse_move(pos, m).ok()
        });
    }

    fn on_key(&mut self, key: KeyCode) -> ViewKey {
        let (row, col) = (self.cursor / 3, self.cursor % 3);
        let moved = match key {
            KeyCode::Up => Some((row.saturating_sub(1), col)),
            KeyCode::Down => Some(((row + 1).min(2), col)),
            KeyCode::Left => Some((row, col.saturating_sub(1))),
            KeyCode::Right => Some((row, (col + 1).min(2))),
            KeyCode::Enter | KeyCode::Char(' ') => {
                return ViewKey::Play(Self::cell_name(self.cursor));
            }
            KeyCode::Char(d @ '1'..='9') => {
                self.cursor = d as u8 - b'1';
                return ViewKey::Play(d.to_string());
            }
            _ => None,
        };
        match moved {
            Some((r, c)) => {
                self.cursor = r * 3 + c;
                ViewKey::Handled
            }
            None => ViewKey::Unhandled,
        }
    }

    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String> {
        let cell = Self::hit(area, x, y)?;
        self.cursor = cell;
        Some(Self::cell_name(cell))
    }

    fn size(&self, room: (u16, u16)) -> (u16, u16) {
        board_size(cell_size(room))
    }

    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let area = area.intersection(buf.area);
        let (cw, ch) = cell_size((area.width, area.height));
        let (width, height) = board_size((cw, ch));
        if !super::view::fits(area, buf, width, height) {
            return;
        }
        let grid = Style::new().fg(Color::Gray);
        let label = Style::new().fg(Color::DarkGray);
        let (x0, y0) = (area.x + LEFT, area.y + TOP);
        for col in 0..3u16 {
            let name = (b'a' + col as u8) as char;
            buf.set_string(
                x0 + 1 + col * (cw + 1) + cw / 2,
                area.y,
                name.to_string(),
                label,
            );
        }
        let bar = "─".repeat(usize::from(cw));
        for line in 0..=3u16 {
            let (l, m, r) = match line {
                0 => ("┌", "┬", "┐"),
                3 => ("└", "┴", "┘"),
                _ => ("├", "┼", "┤"),
            };
            let text = format!("{l}{bar}{m}{bar}{m}{bar}{r}");
            buf.set_string(x0, y0 + line * (ch + 1), text, grid);
        }
        let win = self.winning_cells();
        let board = self.game.view();
        for cell in 0..9u8 {
            let (row, col) = (u16::from(cell / 3), u16::from(cell % 3));
            let cx = x0 + 1 + col * (cw + 1);
            let cy = y0 + 1 + row * (ch + 1);
            let in_line = win & (1 << cell) != 0;
            let mark = board.at(cell);
            let style = match (in_line, mark) {
                (true, _) => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
                (false, Some(p)) => Self::mark_style(p),
                (false, None) => Style::new(),
            };
            let fill = if in_line { "░" } else { " " }.repeat(usize::from(cw));
            for y in cy..cy + ch {
                buf.set_string(x0 + col * (cw + 1), y, "│", grid);
                buf.set_string(cx, y, &fill, style);
                buf.set_string(x0 + 3 * (cw + 1), y, "│", grid);
            }
            if let Some(p) = mark {
                draw_mark(buf, (cx, cy), (cw, ch), p, style);
            }
            if col == 0 {
                let rank = (b'3' - cell / 3) as char;
                buf.set_string(area.x, cy + ch / 2, rank.to_string(), label);
            }
            if mark.is_none() && !in_line {
                buf.set_string(cx, cy, ((b'1' + cell) as char).to_string(), label);
            }
            if self.hint == Some(cell) && mark.is_none() {
                let style = Style::new()
                    .fg(Color::LightGreen)
                    .add_modifier(Modifier::DIM);
                draw_mark(buf, (cx, cy), (cw, ch), board.player_to_move(), style);
                if cw >= 4 {
                    buf.set_string(cx, cy + ch - 1, "hint", Style::new().fg(Color::LightGreen));
                }
            }
            if cursor && cell == self.cursor {
                let cur = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
                buf.set_string(cx, cy + ch / 2, "▶", cur);
                buf.set_string(cx + cw - 1, cy + ch / 2, "◀", cur);
            }
        }
    }

    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let mut text = outcome_words(outcome, |p| self.side_name(p));
        if let Some(line) = self.game.current().winning_line() {
            let cells: Vec<String> = (0..9u8)
                .filter(|c| line & (1 << c) != 0)
                .map(Self::cell_name)
                .collect();
            text.push_str(": ");
            text.push_str(&cells.join(" "));
        }
        Some(text)
    }

    fn move_hint(&self) -> &'static str {
        "arrows + Enter/Space, 1-9 or click a cell"
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("arrows", "move the cursor"),
            ("Enter / Space", "play the cell under the cursor"),
            ("1-9", "play that cell (1 = a3 … 9 = c1)"),
            ("mouse", "click a cell to play it"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_moves_and_clamps() {
        let mut v = TttView::new();
        assert_eq!(v.on_key(KeyCode::Up), ViewKey::Handled);
        assert_eq!(v.on_key(KeyCode::Up), ViewKey::Handled);
        assert_eq!(v.cursor(), 1);
        v.on_key(KeyCode::Left);
        v.on_key(KeyCode::Left);
        assert_eq!(v.cursor(), 0);
        assert_eq!(v.on_key(KeyCode::Enter), ViewKey::Play("a3".into()));
        assert_eq!(v.on_key(KeyCode::Char('9')), ViewKey::Play("9".into()));
        assert_eq!(v.cursor(), 8);
        assert_eq!(v.on_key(KeyCode::Char('z')), ViewKey::Unhandled);
    }

    #[test]
    fn clicks_map_to_cells() {
        let (width, height) = board_size((7, 3));
        let area = Rect::new(10, 5, width, height);
        let mut v = TttView::new();
        // Inside the top-left cell.
        assert_eq!(
            v.on_click(area, 10 + LEFT + 3, 5 + TOP + 2),
            Some("a3".into())
        );
        // Bottom-right cell.
        assert_eq!(
            v.on_click(area, 10 + width - 2, 5 + height - 2),
            Some("c1".into())
        );
        assert_eq!(v.cursor(), 8);
        // Labels and outside.
        assert_eq!(v.on_click(area, 10, 5), None);
        assert_eq!(v.on_click(area, 200, 200), None);
    }

    #[test]
    fn the_board_grows_with_the_room_and_clicks_follow_it() {
        let mut v = TttView::new();
        let mut last = (0, 0);
        for cell in CELLS {
            let (width, height) = board_size(cell);
            // The room for exactly this size picks this scale, one column less the one below.
            assert_eq!(v.size((width, height)), (width, height));
            assert!(v.size((width - 1, height)).0 < width || cell == CELLS[0]);
            assert!(width > last.0 && height > last.1);
            last = (width, height);
            let area = Rect::new(3, 2, width, height);
            let mut buf = Buffer::empty(Rect::new(0, 0, 3 + width, 2 + height));
            v.render(area, &mut buf, true);
            for c in 0..9u8 {
                let (row, col) = (u16::from(c / 3), u16::from(c % 3));
                // Every cell of the cell's inside, corners included, plays that cell.
                for (dx, dy) in [(0, 0), (cell.0 - 1, cell.1 - 1), (cell.0 / 2, cell.1 / 2)] {
                    let x = 3 + LEFT + 1 + col * (cell.0 + 1) + dx;
                    let y = 2 + TOP + 1 + row * (cell.1 + 1) + dy;
                    assert_eq!(
                        v.on_click(area, x, y),
                        Some(TttView::cell_name(c)),
                        "cell {c} at scale {cell:?}"
                    );
                }
            }
        }
        // The largest board in a 200×60 terminal's room; the smallest when nothing fits.
        assert_eq!(v.size((152, 53)), board_size((19, 9)));
        assert_eq!(v.size((5, 5)), board_size((3, 1)));
    }

    #[test]
    fn plays_undoes_and_reports_the_winning_line() {
        let mut v = TttView::new();
        for m in ["a3", "a1", "b2", "c1"] {
            v.play(m).unwrap();
        }
        assert!(v.play("b2").unwrap_err().contains("taken"));
        assert!(v.play("zz").is_err());
        v.play("c3").unwrap();
        assert_eq!(v.result_text().as_deref(), None);
        v.play("b1").unwrap();
        assert_eq!(v.result_text().as_deref(), Some("O wins: a1 b1 c1"));
        assert!(v.play("c2").is_err());
        assert!(v.undo());
        assert_eq!(v.moves().len(), 5);
        assert_eq!(v.position(), "x.x/.x./o.o");
    }
}
