//! The gomoku / renju view: a 15×15 board with coordinates, stones, the last move,
//! the winning line and (renju) black's forbidden points, a cursor and mouse clicks.
//! Rules come from `sente_firmware::games::gomoku`.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use sente_firmware::game::{Game, Outcome};
use sente_firmware::games::gomoku::{BLACK, Gomoku, PointSet, Rule, parse_point, write_point};

use super::view::{GameView, History, ViewKey, outcome_words};

/// Points per side.
const N: u8 = 15;
/// Columns before the grid (row label `15` and a space).
const LEFT: u16 = 3;
/// Rows before the grid (column letters).
const TOP: u16 = 1;
/// Spacings of the points (columns, rows), smallest first: the board is drawn at
/// the largest that fits.
const SPACINGS: [(u16, u16); 3] = [(2, 1), (4, 2), (6, 3)];

/// Board width and height with points `dx` columns and `dy` rows apart: labels on
/// both sides and 15 points each way.
fn board_size((dx, dy): (u16, u16)) -> (u16, u16) {
    let n = u16::from(N) - 1;
    (LEFT + dx * n + 1 + 3, TOP + dy * n + 1 + 1)
}

/// The spacing of a board drawn in a space of `room`.
fn spacing(room: (u16, u16)) -> (u16, u16) {
    super::view::pick_scale(&SPACINGS, room, board_size)
}

/// The centre point `h8`, where the cursor starts.
const CENTRE: u8 = 7 * N + 7;
/// The star points (d4, l4, h8, d12, l12), drawn heavier.
const STARS: [u8; 5] = [3 * N + 3, 3 * N + 11, CENTRE, 11 * N + 3, 11 * N + 11];

/// Gomoku or renju on screen.
pub struct GomokuView {
    game: History<Gomoku>,
    rule: Rule,
    cursor: u8,
    /// Black's forbidden points in the current position (renju), kept up to date
    /// on every change so drawing does not recompute them.
    forbidden: PointSet,
    /// Stones as `X` / `O` instead of `●` / `○`.
    ascii: bool,
    /// The point of a hint, if one is shown.
    hint: Option<u8>,
}

impl GomokuView {
    /// A new game under `rule`, the cursor on the centre point.
    pub fn new(rule: Rule) -> Self {
        let mut v = Self {
            game: History::new(Gomoku::new(rule)),
            rule,
            cursor: CENTRE,
            forbidden: PointSet::new(),
            ascii: false,
            hint: None,
        };
        v.refresh();
        v
    }

    /// The point under the cursor (row × 15 + column, a1 = 0).
    pub fn cursor(&self) -> u8 {
        self.cursor
    }

    /// The rule played.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    fn refresh(&mut self) {
        let pos = self.game.view();
        self.forbidden = if pos.outcome().is_none() {
            pos.forbidden_points()
        } else {
            PointSet::new()
        };
    }

    fn point_name(p: u8) -> String {
        let mut s = String::new();
        let _ = write_point(p, &mut s);
        s
    }

    /// The points of the winning row, from one end to the other.
    fn winning_points(&self) -> Vec<u8> {
        let Some((a, b)) = self.game.view().winning_line() else {
            return Vec::new();
        };
        let (r0, c0) = (i16::from(a / N), i16::from(a % N));
        let (r1, c1) = (i16::from(b / N), i16::from(b % N));
        let (dr, dc) = ((r1 - r0).signum(), (c1 - c0).signum());
        let len = (r1 - r0).abs().max((c1 - c0).abs());
        (0..=len)
            .map(|i| ((r0 + i * dr) * i16::from(N) + c0 + i * dc) as u8)
            .collect()
    }

    /// Terminal cell of point `p` on a board drawn at `area`.
    fn cell(area: Rect, p: u8) -> (u16, u16) {
        let (dx, dy) = spacing((area.width, area.height));
        let (row, col) = (u16::from(p / N), u16::from(p % N));
        (
            area.x + LEFT + dx * col,
            area.y + TOP + dy * (u16::from(N) - 1 - row),
        )
    }

    /// The point nearest to a terminal cell of the board drawn at `area`.
    fn hit(area: Rect, x: u16, y: u16) -> Option<u8> {
        let (sx, sy) = spacing((area.width, area.height));
        let (width, height) = board_size((sx, sy));
        if area.width < width || area.height < height {
            return None; // not drawn
        }
        let dx = x.saturating_add(sx / 2).checked_sub(area.x + LEFT)?;
        let dy = y.saturating_add(sy / 2).checked_sub(area.y + TOP)?;
        let (col, row) = (dx / sx, dy / sy);
        if col >= u16::from(N) || row >= u16::from(N) {
            return None;
        }
        Some(((u16::from(N) - 1 - row) * u16::from(N) + col) as u8)
    }

    fn stone_style(player: u8) -> Style {
        let fg = if player == BLACK {
            Color::Black
        } else {
            Color::White
        };
        Style::new().fg(fg).bg(BOARD).add_modifier(Modifier::BOLD)
    }

    /// The empty intersection's glyph at (row, col).
    fn grid_glyph(p: u8) -> &'static str {
        let (row, col) = (p / N, p % N);
        let top = row == N - 1;
        let bottom = row == 0;
        match (top, bottom, col) {
            (true, _, 0) => "┌",
            (true, _, c) if c == N - 1 => "┐",
            (true, _, _) => "┬",
            (_, true, 0) => "└",
            (_, true, c) if c == N - 1 => "┘",
            (_, true, _) => "┴",
            (_, _, 0) => "├",
            (_, _, c) if c == N - 1 => "┤",
            _ if STARS.contains(&p) => "╋",
            _ => "┼",
        }
    }
}

/// The board's wood colour.
const BOARD: Color = Color::Indexed(179);

impl GameView for GomokuView {
    fn kind(&self) -> super::view::GameKind {
        super::view::GameKind::Gomoku(self.rule)
    }

    /// `gomoku (free)`, `gomoku (standard)`, `renju`: the game list's name with the rule's.
    fn title(&self) -> String {
        match self.rule {
            Rule::Renju => self.rule.name().to_string(),
            rule => format!("{} ({})", self.kind().info().name, rule.name()),
        }
    }

    fn wire_name(&self) -> &'static str {
        "gomoku"
    }

    fn side_name(&self, player: u8) -> &'static str {
        if player == BLACK { "black" } else { "white" }
    }

    fn position(&self) -> String {
        self.game.position_text()
    }

    fn to_move(&self) -> u8 {
        self.game.current().player_to_move()
    }

    /// The rules' outcome, or a draw when renju's black has only forbidden points
    /// left (see [`Gomoku::has_legal_move`]).
    fn outcome(&self) -> Option<Outcome> {
        let pos = self.game.current();
        pos.outcome()
            .or_else(|| (!pos.has_legal_move()).then_some(Outcome::Draw))
    }

    fn moves(&self) -> &[String] {
        self.game.moves()
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        self.game.play(text)?;
        self.hint = None;
        self.refresh();
        Ok(())
    }

    fn undo(&mut self) -> bool {
        let undone = self.game.undo();
        self.hint = None;
        self.refresh();
        undone
    }

    fn reset(&mut self, _seed: u64) {
        self.game.reset();
        self.cursor = CENTRE;
        self.hint = None;
        self.refresh();
    }

    fn start_position(&self) -> String {
        self.game.start_text()
    }

    fn set_start(&mut self, position: &str) -> Result<(), String> {
        let game: History<Gomoku> = History::parse(position)?;
        self.rule = game.start().rule();
        self.game = game;
        self.hint = None;
        self.refresh();
        Ok(())
    }

    fn show(&mut self, ply: Option<usize>) {
        self.game.show(ply);
        self.refresh();
    }

    fn set_hint(&mut self, mv: Option<&str>) {
        self.hint = mv.and_then(|m| parse_point(m).ok());
    }

    fn on_key(&mut self, key: KeyCode) -> ViewKey {
        let (row, col) = (self.cursor / N, self.cursor % N);
        let moved = match key {
            KeyCode::Up => ((row + 1).min(N - 1), col),
            KeyCode::Down => (row.saturating_sub(1), col),
            KeyCode::Left => (row, col.saturating_sub(1)),
            KeyCode::Right => (row, (col + 1).min(N - 1)),
            KeyCode::Char('c') => (CENTRE / N, CENTRE % N),
            KeyCode::Char('l') => match self.game.current().last_move() {
                Some(p) => (p / N, p % N),
                None => (row, col),
            },
            KeyCode::Enter | KeyCode::Char(' ') => {
                return ViewKey::Play(Self::point_name(self.cursor));
            }
            KeyCode::Char('a') => {
                self.ascii = !self.ascii;
                (row, col)
            }
            _ => return ViewKey::Unhandled,
        };
        self.cursor = moved.0 * N + moved.1;
        ViewKey::Handled
    }

    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String> {
        let p = Self::hit(area, x, y)?;
        self.cursor = p;
        Some(Self::point_name(p))
    }

    fn size(&self, room: (u16, u16)) -> (u16, u16) {
        board_size(spacing(room))
    }

    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let area = area.intersection(buf.area);
        let (sx, sy) = spacing((area.width, area.height));
        let (width, height) = board_size((sx, sy));
        if !super::view::fits(area, buf, width, height) {
            return;
        }
        let label = Style::new().fg(Color::DarkGray);
        let grid = Style::new().fg(Color::Black).bg(BOARD);
        let n = u16::from(N);
        let (x0, y0) = (area.x + LEFT, area.y + TOP);
        let bottom = y0 + sy * (n - 1);
        // Column letters above and below, row numbers left and right.
        for col in 0..n {
            let name = ((b'A' + col as u8) as char).to_string();
            let x = x0 + sx * col;
            buf.set_string(x, area.y, &name, label);
            buf.set_string(x, bottom + 1, &name, label);
        }
        // The wood, one column wider than the grid on each side, with the lines
        // between the points' rows.
        for y in y0..=bottom {
            buf.set_string(x0 - 1, y, " ".repeat(usize::from(sx * (n - 1) + 3)), grid);
            if (y - y0) % sy != 0 {
                for col in 0..n {
                    buf.set_string(x0 + sx * col, y, "│", grid);
                }
            }
        }
        for row in 0..n {
            let y = y0 + sy * (n - 1 - row);
            buf.set_string(area.x, y, format!("{:>2}", row + 1), label);
            buf.set_string(x0 + sx * (n - 1) + 2, y, (row + 1).to_string(), label);
        }
        let line = "─".repeat(usize::from(sx - 1));
        let pos = self.game.view();
        let win = self.winning_points();
        for p in 0..N * N {
            let (x, y) = Self::cell(area, p);
            if p % N != N - 1 {
                buf.set_string(x + 1, y, &line, grid);
            }
            let in_line = win.contains(&p);
            match pos.at(p) {
                Some(side) => {
                    let glyph = match (side == BLACK, in_line, self.ascii) {
                        (true, _, true) => "X",
                        (false, _, true) => "O",
                        (true, false, false) => "●",
                        (false, false, false) => "○",
                        (true, true, false) => "◉",
                        (false, true, false) => "◎",
                    };
                    let style = if in_line {
                        Self::stone_style(side).fg(Color::LightGreen)
                    } else {
                        Self::stone_style(side)
                    };
                    buf.set_string(x, y, glyph, style);
                }
                None if self.forbidden.contains(p) => {
                    let style = Style::new()
                        .fg(Color::Red)
                        .bg(BOARD)
                        .add_modifier(Modifier::BOLD);
                    buf.set_string(x, y, "×", style);
                }
                None => {
                    buf.set_string(x, y, Self::grid_glyph(p), grid);
                }
            }
        }
        let mark = |p: u8, l: &str, r: &str, style: Style, buf: &mut Buffer| {
            let (x, y) = Self::cell(area, p);
            buf.set_string(x - 1, y, l, style);
            buf.set_string(x + 1, y, r, style);
        };
        if let Some(p) = pos.last_move() {
            let style = Style::new()
                .fg(Color::Red)
                .bg(BOARD)
                .add_modifier(Modifier::BOLD);
            mark(p, "(", ")", style, buf);
        }
        if let Some(p) = self.hint.filter(|&p| pos.at(p).is_none()) {
            let style = Style::new()
                .fg(Color::Green)
                .bg(BOARD)
                .add_modifier(Modifier::BOLD);
            let (x, y) = Self::cell(area, p);
            buf.set_string(x, y, "+", style);
            mark(p, "«", "»", style, buf);
        }
        if cursor {
            let style = Style::new()
                .fg(Color::Blue)
                .bg(BOARD)
                .add_modifier(Modifier::BOLD);
            mark(self.cursor, "[", "]", style, buf);
        }
    }

    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let mut text = outcome_words(outcome, |p| self.side_name(p));
        if let Some((a, b)) = self.game.current().winning_line() {
            text.push_str(&format!(
                ": {}–{}",
                Self::point_name(a),
                Self::point_name(b)
            ));
        } else if outcome == Outcome::Draw && self.game.current().outcome().is_some() {
            text.push_str(": the board is full");
        } else if outcome == Outcome::Draw {
            text.push_str(": black has no legal move (every empty point is forbidden)");
        }
        Some(text)
    }

    fn move_hint(&self) -> &'static str {
        "arrows + Enter/Space or click a point"
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("arrows", "move the cursor [ ]"),
            ("Enter / Space", "put a stone under the cursor"),
            ("mouse", "click a point to play it"),
            ("c", "cursor to the centre (h8)"),
            ("l", "cursor to the last move ( )"),
            ("a", "stones as X / O instead of ● / ○"),
            ("×", "renju: black may not play there"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::games::gomoku::parse_point;

    fn p(name: &str) -> u8 {
        parse_point(name).unwrap()
    }

    #[test]
    fn renju_black_without_a_legal_move_ends_the_game_drawn() {
        let mut v = GomokuView::new(Rule::Renju);
        for m in
            include_str!("../matches/testdata/renju-one-forbidden-point.txt").split_whitespace()
        {
            assert_eq!(v.outcome(), None, "{m}");
            v.play(m).unwrap();
        }
        assert_eq!(v.outcome(), Some(Outcome::Draw));
        let text = v.result_text().unwrap();
        assert!(text.contains("black has no legal move"), "{text}");
    }

    #[test]
    fn cursor_moves_clamps_and_plays() {
        let mut v = GomokuView::new(Rule::Free);
        assert_eq!(v.on_key(KeyCode::Enter), ViewKey::Play("h8".into()));
        assert_eq!(v.on_key(KeyCode::Up), ViewKey::Handled);
        assert_eq!(v.on_key(KeyCode::Right), ViewKey::Handled);
        assert_eq!(v.cursor(), p("i9"));
        for _ in 0..20 {
            v.on_key(KeyCode::Down);
            v.on_key(KeyCode::Left);
        }
        assert_eq!(v.cursor(), p("a1"));
        assert_eq!(v.on_key(KeyCode::Char(' ')), ViewKey::Play("a1".into()));
        v.on_key(KeyCode::Char('c'));
        assert_eq!(v.cursor(), CENTRE);
        v.play("o15").unwrap();
        v.on_key(KeyCode::Char('l'));
        assert_eq!(v.cursor(), p("o15"));
        assert_eq!(v.on_key(KeyCode::Char('z')), ViewKey::Unhandled);
        assert_eq!(v.on_key(KeyCode::Char('a')), ViewKey::Handled);
        assert!(v.ascii);
    }

    #[test]
    fn clicks_map_to_the_nearest_point() {
        let (width, height) = board_size((2, 1));
        let area = Rect::new(10, 5, width, height);
        let mut v = GomokuView::new(Rule::Free);
        // Top-left point a15, and the separator right of it rounds to b15.
        assert_eq!(v.on_click(area, 10 + LEFT, 5 + TOP), Some("a15".into()));
        assert_eq!(v.on_click(area, 10 + LEFT + 1, 5 + TOP), Some("b15".into()));
        // Bottom-right o1.
        assert_eq!(
            v.on_click(area, 10 + LEFT + 28, 5 + TOP + 14),
            Some("o1".into())
        );
        assert_eq!(v.cursor(), p("o1"));
        // h8 in the middle.
        assert_eq!(
            v.on_click(area, 10 + LEFT + 14, 5 + TOP + 7),
            Some("h8".into())
        );
        // Labels and outside.
        assert_eq!(v.on_click(area, 10, 5), None);
        assert_eq!(v.on_click(area, 10 + LEFT, 5 + TOP + 15), None);
        assert_eq!(v.on_click(area, 10 + LEFT + 30, 5 + TOP), None);
        assert_eq!(v.on_click(area, 200, 200), None);
    }

    #[test]
    fn plays_wins_and_undoes_with_the_library_rules() {
        let mut v = GomokuView::new(Rule::Standard);
        for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
            v.play(m).unwrap();
        }
        assert!(v.play("h8").unwrap_err().contains("taken"));
        assert!(v.play("p1").is_err());
        assert_eq!(v.result_text(), None);
        v.play("l8").unwrap();
        assert_eq!(v.result_text().as_deref(), Some("black wins: h8–l8"));
        assert_eq!(v.winning_points().len(), 5);
        assert!(v.play("b1").is_err());
        assert!(v.undo());
        assert_eq!(v.outcome(), None);
        assert_eq!(v.position(), "standard h8a1i8a2j8a3k8a4");
    }

    #[test]
    fn renju_forbidden_points_are_refused_for_black() {
        let mut v = GomokuView::new(Rule::Renju);
        // Black threes through h8 both ways once h9/h10 and i8/j8 stand: h8 is a
        // double three.
        for m in ["h9", "a1", "h10", "a3", "i8", "a5", "j8", "a7"] {
            v.play(m).unwrap();
        }
        assert!(v.forbidden.contains(p("h8")), "h8 is a double three");
        let why = v.play("h8").unwrap_err();
        assert!(why.contains("forbidden"), "{why}");
        v.reset(1);
        assert!(v.forbidden.is_empty());
        assert!(v.moves().is_empty());
    }

    #[test]
    fn the_board_grows_with_the_room_and_clicks_follow_it() {
        let mut v = GomokuView::new(Rule::Free);
        let mut last = (0, 0);
        for sp in SPACINGS {
            let (width, height) = board_size(sp);
            assert_eq!(v.size((width, height)), (width, height));
            assert!(width > last.0 && height > last.1);
            last = (width, height);
            let area = Rect::new(4, 3, width, height);
            let mut buf = Buffer::empty(Rect::new(0, 0, 4 + width, 3 + height));
            v.render(area, &mut buf, true);
            for p in 0..N * N {
                let (x, y) = GomokuView::cell(area, p);
                assert_ne!(buf[(x, y)].symbol(), " ", "point {p} drawn at {sp:?}");
                // The point itself and the cells up to halfway to its neighbours.
                for (ox, oy) in [(0, 0), (-1, 0), (0, -1), (sp.0 as i32 / 2 - 1, 0)] {
                    let (cx, cy) = (
                        (x as i32 + ox) as u16,
                        (y as i32 + oy * (sp.1 as i32 / 2)) as u16,
                    );
                    if (ox < 0 && p % N == 0) || (oy < 0 && p / N == N - 1) {
                        continue;
                    }
                    if ox < 0 && sp.0 < 4 {
                        continue; // two columns apart: the cell to the left is the neighbour's
                    }
                    assert_eq!(
                        v.on_click(area, cx, cy),
                        Some(GomokuView::point_name(p)),
                        "point {p} at {sp:?}, offset ({ox}, {oy})"
                    );
                }
            }
        }
        assert_eq!(v.size((152, 53)), board_size((6, 3)));
        assert_eq!(v.size((10, 10)), board_size((2, 1)));
    }
}
