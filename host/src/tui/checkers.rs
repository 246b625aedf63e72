//! The Chinese checkers view: the 121-hole star drawn as a hex star in six colours
//! (one per point of the star, the colour of the player who starts there), the
//! pieces of 2, 3, 4 or 6 players, the selected piece's reachable holes (steps and
//! jump chains; picking a hole plays the whole chain), the chain to the hole under
//! the cursor, keys (the cursor moves on the hex grid) and clicks. Rules come from
//! `sente_firmware::games::checkers`.

use std::collections::VecDeque;

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use sente_firmware::game::{Game, Notation, Outcome};
use sente_firmware::games::checkers::board::{
    HOLE_ROW, HOLE_X, HOLES, NEIGHBOURS, NONE, ROWS, SEATS, hole_at, triangle_of,
};
#[cfg(test)]
use sente_firmware::games::checkers::notation::parse_hole;
use sente_firmware::games::checkers::notation::write_hole;
use sente_firmware::games::checkers::rules::MOVE_LIMIT;
use sente_firmware::games::checkers::{Checkers, Move};

use super::view::{GameView, History, ViewKey, cycle, fits, text_of};

/// Columns before the star (row letter and a space).
const LEFT: u16 = 3;
/// Rows of the star.
const STAR_H: u16 = ROWS as u16;
/// The star's scales, smallest first: screen columns per column of the doubled grid
/// (neighbours in a row are two grid columns apart) and screen rows per row of the
/// star. The board is drawn at the largest that fits.
const SCALES: [(u16, u16); 4] = [(1, 1), (2, 1), (4, 2), (6, 3)];

/// The star's height (without the line under it) at scale `(dx, dy)`.
fn star_height((_, dy): (u16, u16)) -> u16 {
    (STAR_H - 1) * dy + 1
}

/// Board width and height at scale `(dx, dy)`: the row letters and 25 grid columns
/// with room for markers; the star and a line about the selection.
fn board_size((dx, dy): (u16, u16)) -> (u16, u16) {
    (LEFT + 24 * dx + 2, star_height((dx, dy)) + 1)
}

/// The scale of a board drawn in a space of `room`.
fn scale(room: (u16, u16)) -> (u16, u16) {
    super::view::pick_scale(&SCALES, room, board_size)
}

/// Colour of each point of the star (triangle 0 bottom, then clockwise).
const TRIANGLE_COLOR: [Color; 6] = [
    Color::Red,
    Color::Yellow,
    Color::Green,
    Color::Cyan,
    Color::Blue,
    Color::Magenta,
];
/// Names of those colours: a player is named for the point it starts in.
const TRIANGLE_NAME: [&str; 6] = ["red", "yellow", "green", "cyan", "blue", "magenta"];
/// The letter a player's pieces show (the colour's initial): seats are told apart
/// without colour too.
const TRIANGLE_LETTER: [&str; 6] = ["R", "Y", "G", "C", "B", "M"];
/// Where each point of the star is.
const TRIANGLE_PLACE: [&str; 6] = [
    "bottom",
    "lower left",
    "upper left",
    "top",
    "upper right",
    "lower right",
];

/// The name and the home point of seat `seat` in a game of `players` (for the menu).
pub fn seat_names(players: u8, seat: u8) -> (&'static str, &'static str) {
    let home = SEATS
        .get(usize::from(players))
        .and_then(|s| s.get(usize::from(seat)))
        .map_or(0, |&t| usize::from(t));
    (TRIANGLE_NAME[home], TRIANGLE_PLACE[home])
}

fn hole_name(h: u8) -> String {
    text_of(|s| write_hole(h, s))
}

/// The holes a piece passes through from `from` to `to` in one move, both ends
/// included: `[from, to]` for a step, else the shortest chain of jumps (over a
/// piece of any colour into the empty hole behind, never a hole twice, `from`
/// counted empty). Empty if `to` cannot be reached. The library's
/// [`Checkers::reachable`] decides what is legal; this only finds the way.
pub fn jump_path(pos: &Checkers, from: u8, to: u8) -> Vec<u8> {
    let occupied = pos.occupied();
    if !occupied.has(from) || usize::from(to) >= HOLES || !pos.reachable(from).has(to) {
        return Vec::new();
    }
    let full = |h: u8| h != from && occupied.has(h);
    if NEIGHBOURS[usize::from(from)].contains(&to) && !full(to) {
        return vec![from, to];
    }
    let mut parent = [NONE; HOLES];
    parent[usize::from(from)] = from;
    let mut queue = VecDeque::from([from]);
    while let Some(h) = queue.pop_front() {
        if h == to {
            let mut path = vec![to];
            let mut at = to;
            while at != from {
                at = parent[usize::from(at)];
                path.push(at);
            }
            path.reverse();
            return path;
        }
        for (d, &over) in NEIGHBOURS[usize::from(h)].iter().enumerate() {
            if over == NONE || !full(over) {
                continue;
            }
            let land = NEIGHBOURS[usize::from(over)][d];
            if land != NONE && !full(land) && parent[usize::from(land)] == NONE {
                parent[usize::from(land)] = h;
                queue.push_back(land);
            }
        }
    }
    Vec::new()
}

/// Chinese checkers on screen.
pub struct CheckersView {
    game: History<Checkers>,
    cursor: u8,
    selected: Option<u8>,
    /// A hint's from and to holes, if one is shown.
    hint: Option<(u8, u8)>,
}

impl CheckersView {
    /// A new game of `players` (2, 3, 4 or 6) with `pieces` each (10, or 15 for up to
    /// three players; anything else falls back to two players with ten).
    pub fn new(players: u8, pieces: u8) -> Self {
        let mut start = Checkers::EMPTY;
        let _ = start.reset_to_start(players, pieces)
            || start.reset_to_start(players, 10)
            || start.reset_to_start(2, 10);
        let mut v = Self {
            game: History::new(start),
            cursor: 0,
            selected: None,
            hint: None,
        };
        v.cursor_home();
        v
    }

    fn pos(&self) -> &Checkers {
        self.game.current()
    }

    /// The hole under the cursor (0–120).
    pub fn cursor(&self) -> u8 {
        self.cursor
    }

    /// The selected piece's hole.
    pub fn selected(&self) -> Option<u8> {
        self.selected
    }

    /// Holes the selected piece can reach in one move, in hole order.
    pub fn targets(&self) -> Vec<u8> {
        self.selected
            .map(|s| self.pos().reachable(s).iter().collect())
            .unwrap_or_default()
    }

    /// Pieces of the side to move that can move, in hole order.
    fn movable_pieces(&self) -> Vec<u8> {
        let pos = self.pos();
        pos.pieces_of(pos.turn())
            .iter()
            .copied()
            .filter(|&h| !pos.reachable(h).is_empty())
            .collect()
    }

    /// The cursor on the side to move's piece nearest the centre.
    fn cursor_home(&mut self) {
        let pos = self.pos();
        let centre = (8i32, 12i32);
        let far = |h: &u8| {
            let (r, x) = (
                i32::from(HOLE_ROW[usize::from(*h)]),
                i32::from(HOLE_X[usize::from(*h)]),
            );
            (r - centre.0).abs() * 2 + (x - centre.1).abs()
        };
        if let Some(&h) = pos.pieces_of(pos.turn()).iter().min_by_key(|h| far(h)) {
            self.cursor = h;
        }
    }

    /// The hole one step from the cursor: left/right in its row, up/down to the
    /// nearest hole of the next row (down-left / up-left first).
    fn step(&self, key: KeyCode) -> Option<u8> {
        let (r, x) = (
            i32::from(HOLE_ROW[usize::from(self.cursor)]),
            i32::from(HOLE_X[usize::from(self.cursor)]),
        );
        let found = |h: u8| (h != NONE).then_some(h);
        match key {
            KeyCode::Left => found(hole_at(r, x - 2)),
            KeyCode::Right => found(hole_at(r, x + 2)),
            KeyCode::Up | KeyCode::Down => {
                let row = if key == KeyCode::Up { r - 1 } else { r + 1 };
                found(hole_at(row, x - 1))
                    .or_else(|| found(hole_at(row, x + 1)))
                    .or_else(|| {
                        (0..25)
                            .filter_map(|c| found(hole_at(row, c)))
                            .min_by_key(|&h| (i32::from(HOLE_X[usize::from(h)]) - x).abs())
                    })
            }
            _ => None,
        }
    }

    /// Enter or a click on `hole`: select a piece of the side to move, move the
    /// selected one there (the whole jump chain), or drop the selection.
    fn choose(&mut self, hole: u8) -> ViewKey {
        self.cursor = hole;
        let pos = self.pos();
        if pos.outcome().is_some() {
            return ViewKey::Refused("The game is over: n starts a new one.".into());
        }
        let own = pos.pieces_of(pos.turn()).contains(&hole);
        match self.selected {
            Some(from) if from == hole => {
                self.selected = None;
                ViewKey::Handled
            }
            Some(from) if pos.reachable(from).has(hole) => {
                ViewKey::Play(format!("{}-{}", hole_name(from), hole_name(hole)))
            }
            _ if own && pos.reachable(hole).is_empty() => {
                ViewKey::Refused(format!("The piece on {} cannot move.", hole_name(hole)))
            }
            _ if own => {
                self.selected = Some(hole);
                ViewKey::Handled
            }
            Some(_) => {
                self.selected = None;
                ViewKey::Refused("That hole is out of reach: the selection is dropped.".into())
            }
            None => ViewKey::Refused(format!(
                "Pick a piece of {} (the side to move).",
                self.side_name(pos.turn())
            )),
        }
    }

    /// Terminal cell of `hole` on the star drawn at `area`.
    pub fn cell(area: Rect, hole: u8) -> (u16, u16) {
        let (dx, dy) = scale((area.width, area.height));
        let h = usize::from(hole);
        (
            area.x + LEFT + u16::from(HOLE_X[h]) * dx,
            area.y + u16::from(HOLE_ROW[h]) * dy,
        )
    }

    /// The hole at or next to terminal cell (`x`, `y`) of the star drawn at `area`.
    fn hit(area: Rect, x: u16, y: u16) -> Option<u8> {
        let (sx, sy) = scale((area.width, area.height));
        let row = i32::from(y.saturating_add(sy / 2).checked_sub(area.y)?) / i32::from(sy);
        let dx = i32::from(x.checked_sub(area.x + LEFT - 1)?) - 1;
        let (sx, reach) = (i32::from(sx), i32::from(sx.saturating_sub(1).max(1)));
        (-1..=1)
            .map(|d| dx.div_euclid(sx) + d)
            .filter_map(|c| {
                let h = hole_at(row, c);
                let off = (c * sx - dx).abs();
                (h != NONE && off <= reach).then_some((off, h))
            })
            .min()
            .map(|(_, h)| h)
    }

    fn player_color(&self, p: u8) -> Color {
        TRIANGLE_COLOR[usize::from(self.pos().home(p) % 6)]
    }

    fn player_letter(&self, p: u8) -> &'static str {
        TRIANGLE_LETTER[usize::from(self.pos().home(p) % 6)]
    }

    /// The holes of the last move's chain (up to the position on screen).
    fn last_path(&self) -> Vec<u8> {
        let n = self.game.shown_ply();
        let Some(before) = n.checked_sub(1).and_then(|i| self.game.before(i)) else {
            return Vec::new();
        };
        match self.game.shown_moves().last().map(|m| before.parse_move(m)) {
            Some(Ok(mv)) if mv != Move::PASS => jump_path(before, mv.from, mv.to),
            _ => Vec::new(),
        }
    }

    fn draw_holes(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let pos = self.game.view();
        let label = Style::new().fg(Color::DarkGray);
        let (_, dy) = scale((area.width, area.height));
        for row in 0..STAR_H {
            let name = ((b'a' + row as u8) as char).to_string();
            buf.set_string(area.x, area.y + row * dy, name, label);
        }
        let targets = self.targets();
        let path = match self.selected {
            Some(from) if targets.contains(&self.cursor) => jump_path(pos, from, self.cursor),
            _ => Vec::new(),
        };
        let last = self.last_path();
        let hint = match self.hint {
            Some((from, to)) => jump_path(self.pos(), from, to),
            None => Vec::new(),
        };
        let bold = |c: Color| Style::new().fg(c).add_modifier(Modifier::BOLD);
        for hole in 0..HOLES as u8 {
            let (x, y) = Self::cell(area, hole);
            let point = triangle_of(usize::from(hole)).map(|t| TRIANGLE_COLOR[usize::from(t)]);
            let is_target = targets.contains(&hole);
            let (glyph, style) = match pos.owner(hole) {
                Some(p) if self.selected == Some(hole) => (
                    self.player_letter(p),
                    bold(Color::Black).bg(self.player_color(p)),
                ),
                Some(p) => (self.player_letter(p), bold(self.player_color(p))),
                None if is_target => ("○", bold(Color::LightGreen)),
                None if hint.last() == Some(&hole) => ("+", bold(Color::LightGreen)),
                None => match point {
                    Some(c) => ("·", Style::new().fg(c)),
                    None => ("·", Style::new().fg(Color::Gray)),
                },
            };
            buf.set_string(x, y, glyph, style);
            let mark = |l: &str, r: &str, style: Style, buf: &mut Buffer| {
                buf.set_string(x - 1, y, l, style);
                buf.set_string(x + 1, y, r, style);
            };
            if last.first() == Some(&hole) || last.last() == Some(&hole) {
                mark("(", ")", bold(Color::DarkGray), buf);
            }
            if hint.first() == Some(&hole) || hint.last() == Some(&hole) {
                mark("«", "»", bold(Color::LightGreen), buf);
            } else if hint.len() > 2 && hint[1..hint.len() - 1].contains(&hole) {
                mark("›", "‹", bold(Color::LightGreen), buf);
            }
            if path.len() > 2 && path[1..path.len() - 1].contains(&hole) {
                mark("›", "‹", bold(Color::LightGreen), buf);
            }
            if self.selected == Some(hole) {
                mark("<", ">", bold(Color::Yellow), buf);
            }
            if cursor && hole == self.cursor {
                mark("[", "]", bold(Color::White), buf);
            }
        }
        let star = star_height((0, dy));
        if area.height > star {
            let text = self.info_line(&targets, &path);
            buf.set_stringn(area.x, area.y + star, text, usize::from(area.width), label);
        }
    }

    /// The line under the star: the selection and the chain to the cursor.
    fn info_line(&self, targets: &[u8], path: &[u8]) -> String {
        let Some(from) = self.selected else {
            return String::new();
        };
        let jumps = targets
            .iter()
            .filter(|&&t| !NEIGHBOURS[usize::from(from)].contains(&t))
            .count();
        if path.len() > 2 {
            let chain: Vec<String> = path.iter().map(|&h| hole_name(h)).collect();
            return format!("{} jumps: {}", path.len() - 1, chain.join(" → "));
        }
        format!(
            "{} selected: {} holes ({} by jumps)",
            hole_name(from),
            targets.len(),
            jumps
        )
    }
}

impl GameView for CheckersView {
    fn kind(&self) -> super::view::GameKind {
        super::view::GameKind::Checkers {
            players: self.player_count(),
            pieces: self.pos().pieces_per_player(),
        }
    }

    fn title(&self) -> String {
        self.kind().title().to_string()
    }

    fn wire_name(&self) -> &'static str {
        "checkers"
    }

    fn side_name(&self, player: u8) -> &'static str {
        TRIANGLE_NAME[usize::from(self.pos().home(player) % 6)]
    }

    fn position(&self) -> String {
        self.game.position_text()
    }

    fn to_move(&self) -> u8 {
        self.pos().turn()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos().outcome()
    }

    fn moves(&self) -> &[String] {
        self.game.moves()
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = self.game.play(text)?;
        self.selected = None;
        self.hint = None;
        if mv == Move::PASS {
            self.cursor_home();
        } else {
            self.cursor = mv.to;
        }
        Ok(())
    }

    fn undo(&mut self) -> bool {
        self.selected = None;
        self.hint = None;
        let undone = self.game.undo();
        self.cursor_home();
        undone
    }

    fn reset(&mut self, _seed: u64) {
        self.game.reset();
        self.selected = None;
        self.hint = None;
        self.cursor_home();
    }

    fn start_position(&self) -> String {
        self.game.start_text()
    }

    fn set_start(&mut self, position: &str) -> Result<(), String> {
        self.game = History::parse(position)?;
        self.selected = None;
        self.hint = None;
        self.cursor_home();
        Ok(())
    }

    fn show(&mut self, ply: Option<usize>) {
        self.selected = None;
        self.game.show(ply);
    }

    fn set_hint(&mut self, mv: Option<&str>) {
        let pos = self.pos();
        self.hint = mv
            .and_then(|m| pos.parse_move(m).ok())
            .filter(|m| *m != Move::PASS)
            .map(|m| (m.from, m.to));
    }

    fn deselect(&mut self) -> bool {
        self.selected.take().is_some()
    }

    fn side_symbol(&self, player: u8) -> Option<&'static str> {
        Some(self.player_letter(player))
    }

    fn row_of_ply(&self, ply: usize) -> usize {
        ply
    }

    fn on_key(&mut self, key: KeyCode) -> ViewKey {
        match key {
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                if let Some(h) = self.step(key) {
                    self.cursor = h;
                }
                ViewKey::Handled
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.choose(self.cursor),
            KeyCode::Tab | KeyCode::BackTab => {
                let points = match self.selected {
                    Some(_) => self.targets(),
                    None => self.movable_pieces(),
                };
                if let Some(h) = cycle(&points, self.cursor, key == KeyCode::BackTab) {
                    self.cursor = h;
                }
                ViewKey::Handled
            }
            KeyCode::Backspace | KeyCode::Char('x') => {
                self.selected = None;
                ViewKey::Handled
            }
            KeyCode::Char('p') => ViewKey::Play("pass".into()),
            _ => ViewKey::Unhandled,
        }
    }

    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String> {
        let sc = scale((area.width, area.height));
        if area.width < board_size(sc).0 || area.height < star_height(sc) {
            return None;
        }
        match self.choose(Self::hit(area, x, y)?) {
            ViewKey::Play(mv) => Some(mv),
            _ => None,
        }
    }

    fn size(&self, room: (u16, u16)) -> (u16, u16) {
        board_size(scale(room))
    }

    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let area = area.intersection(buf.area);
        let sc = scale((area.width, area.height));
        if fits(area, buf, board_size(sc).0, star_height(sc)) {
            self.draw_holes(area, buf, cursor);
        }
    }

    fn result_text(&self) -> Option<String> {
        Some(match self.outcome()? {
            Outcome::Win(p) => format!(
                "{} wins: its goal is full, {} of its own pieces in it",
                self.side_name(p),
                self.pos().in_goal(p)
            ),
            Outcome::Draw => format!("draw: {MOVE_LIMIT} moves each without a winner"),
        })
    }

    fn move_hint(&self) -> &'static str {
        if self.selected.is_some() {
            "Enter/click a green hole (Tab cycles them), x drops"
        } else {
            "Enter/click a piece (Tab cycles your pieces), then a hole"
        }
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("arrows", "move the cursor on the hex grid"),
            ("Tab", "to your next piece / the next target"),
            ("Enter / Space", "select the piece, then play a hole"),
            ("mouse", "click a piece, then a hole"),
            ("x / Backspace", "drop the selection"),
            ("p", "pass (only when no piece can move)"),
        ]
    }

    fn player_count(&self) -> u8 {
        self.pos().players()
    }

    fn side_color(&self, player: u8) -> Option<Color> {
        Some(self.player_color(player))
    }

    fn side_detail(&self, player: u8) -> Option<String> {
        let pos = self.pos();
        Some(format!(
            "{:>2}/{} home",
            pos.in_goal(player),
            pos.pieces_per_player()
        ))
    }

    /// One row per move: the round, the player and the move (with its jumps).
    fn move_rows(&self) -> Vec<String> {
        let players = usize::from(self.pos().players().max(1));
        self.game
            .moves()
            .iter()
            .enumerate()
            .map(|(ply, mv)| {
                let Some(before) = self.game.before(ply) else {
                    return mv.clone();
                };
                let side = self.side_name(before.turn());
                let jumps = match before.parse_move(mv) {
                    Ok(m)
                        if m != Move::PASS && !NEIGHBOURS[usize::from(m.from)].contains(&m.to) =>
                    {
                        jump_path(before, m.from, m.to).len().saturating_sub(1)
                    }
                    _ => 0,
                };
                let jumps = match jumps {
                    0 => String::new(),
                    1 => "  1 jump".to_string(),
                    n => format!("  {n} jumps"),
                };
                format!(" {:>3}. {side:<7} {mv}{jumps}", ply / players + 1)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str) -> u8 {
        parse_hole(name).unwrap()
    }

    /// Two players: red on `red` and cyan on `cyan`, filled up from their home points.
    fn custom(red: &[u8], cyan: &[u8]) -> CheckersView {
        let mut holes = [[0u8; 15]; 6];
        let homes = [(111..121).collect::<Vec<u8>>(), (0..10).collect()];
        for (p, mine) in [red, cyan].into_iter().enumerate() {
            let fill = homes[p]
                .iter()
                .filter(|h| !red.contains(h) && !cyan.contains(h));
            for (slot, &h) in holes[p].iter_mut().zip(mine.iter().chain(fill)).take(10) {
                *slot = h;
            }
        }
        let pos = Checkers::from_holes(2, 10, 0, 0, &holes).expect("a valid position");
        let mut v = CheckersView::new(2, 10);
        v.game = History::new(pos);
        v
    }

    #[test]
    fn reachable_holes_include_jump_chains_and_their_paths() {
        // Red on i5 jumps cyan's i6 to i7, then its own i8 to i9.
        let (from, over1, land1, over2, land2) = (h("i5"), h("i6"), h("i7"), h("i8"), h("i9"));
        let mut v = custom(&[from, over2], &[over1]);
        assert_eq!(v.choose(from), ViewKey::Handled);
        let targets = v.targets();
        assert!(
            targets.contains(&land1) && targets.contains(&land2),
            "{targets:?}"
        );
        let pos = v.pos().clone();
        assert_eq!(jump_path(&pos, from, land2), [from, land1, land2]);
        assert_eq!(jump_path(&pos, from, land1), [from, land1]);
        assert_eq!(jump_path(&pos, from, h("h5")), [from, h("h5")], "a step");
        assert!(jump_path(&pos, from, h("a1")).is_empty(), "out of reach");
        for &t in &targets {
            let path = jump_path(&pos, from, t);
            assert_eq!((path.first(), path.last()), (Some(&from), Some(&t)));
        }
        // The line under the star shows the chain to the hole under the cursor.
        v.cursor = land2;
        let path = jump_path(&pos, from, v.cursor());
        assert_eq!(v.info_line(&targets, &path), "2 jumps: i5 → i7 → i9");
        // Choosing that hole plays the whole chain as one move.
        assert_eq!(v.choose(land2), ViewKey::Play("i5-i9".into()));
        v.play("i5-i9").unwrap();
        assert!(v.pos().pieces_of(0).contains(&land2));
        assert_eq!(v.move_rows(), ["   1. red     i5-i9  2 jumps"]);
    }

    #[test]
    fn cursor_moves_on_the_hex_grid_and_tab_cycles() {
        let mut v = CheckersView::new(2, 10);
        v.cursor = h("i5");
        v.on_key(KeyCode::Up);
        assert_eq!(v.cursor(), hole_at(7, 11), "up-left first");
        v.on_key(KeyCode::Down);
        assert_eq!(v.cursor(), hole_at(8, 10));
        v.on_key(KeyCode::Right);
        assert_eq!(v.cursor(), h("i5"));
        v.cursor = h("a1");
        v.on_key(KeyCode::Up);
        assert_eq!(v.cursor(), h("a1"), "nothing above the tip");
        v.on_key(KeyCode::Down);
        assert_eq!(v.cursor(), h("b1"));
        v.cursor = h("e1");
        v.on_key(KeyCode::Up);
        assert_eq!(v.cursor(), h("d1"), "nearest hole of the shorter row");
        // Tab visits the movable red pieces, then a selected piece's targets.
        v.on_key(KeyCode::Tab);
        let first = v.cursor();
        assert!(v.pos().pieces_of(0).contains(&first));
        assert_eq!(v.on_key(KeyCode::Enter), ViewKey::Handled);
        assert_eq!(v.selected(), Some(first));
        v.on_key(KeyCode::Tab);
        assert!(v.targets().contains(&v.cursor()));
        assert!(matches!(v.on_key(KeyCode::Enter), ViewKey::Play(_)));
    }

    #[test]
    fn refusals_explain_and_keep_the_game() {
        let mut v = CheckersView::new(3, 15);
        assert!(matches!(v.choose(h("i5")), ViewKey::Refused(m) if m.contains("Pick a piece")));
        let blocked = h("q1");
        assert!(matches!(v.choose(blocked), ViewKey::Refused(m) if m.contains("cannot move")));
        assert!(v.play("pass").is_err());
        assert!(v.play("q1-i5").is_err());
        assert!(v.moves().is_empty());
        assert_eq!(v.player_count(), 3);
        assert_eq!(v.side_detail(0).as_deref(), Some(" 0/15 home"));
    }

    #[test]
    fn clicks_find_the_nearest_hole() {
        let (width, height) = board_size((2, 1));
        let area = Rect::new(4, 2, width, height);
        for hole in 0..HOLES as u8 {
            let (x, y) = CheckersView::cell(area, hole);
            assert_eq!(CheckersView::hit(area, x, y), Some(hole));
            assert_eq!(CheckersView::hit(area, x + 1, y), Some(hole));
        }
        assert_eq!(CheckersView::hit(area, 4, 2), None, "row letter");
        assert_eq!(CheckersView::hit(area, 400, 2), None);
    }

    #[test]
    fn the_star_grows_with_the_room_and_clicks_follow_it() {
        let v = CheckersView::new(6, 10);
        let mut last = (0, 0);
        for sc in SCALES {
            let (width, height) = board_size(sc);
            assert_eq!(v.size((width, height)), (width, height));
            assert!(width > last.0 && height >= last.1);
            last = (width, height);
            let area = Rect::new(4, 2, width, height);
            let mut buf = Buffer::empty(Rect::new(0, 0, 4 + width, 2 + height));
            v.render(area, &mut buf, true);
            for hole in 0..HOLES as u8 {
                let (x, y) = CheckersView::cell(area, hole);
                assert_ne!(buf[(x, y)].symbol(), " ", "hole {hole} drawn at {sc:?}");
                let mut spots = vec![(x, y), (x + 1, y)];
                if sc.0 > 2 {
                    // Half way to the next hole of the row, and the row above.
                    spots.extend([(x - sc.0 + 1, y), (x + sc.0 - 1, y)]);
                    // Left of the grid is the row letter's column: no hole.
                    spots.retain(|&(cx, _)| cx >= area.x + LEFT - 1);
                }
                if sc.1 > 1 {
                    spots.push((x, y - sc.1 / 2));
                }
                for (cx, cy) in spots {
                    assert_eq!(
                        CheckersView::hit(area, cx, cy),
                        Some(hole),
                        "{sc:?} at ({cx}, {cy}) of ({x}, {y})"
                    );
                }
            }
        }
        assert_eq!(v.size((152, 53)), board_size((6, 3)));
        assert_eq!(v.size((40, 10)), board_size((1, 1)));
    }

    #[test]
    fn seats_are_named_for_their_points() {
        assert_eq!(seat_names(2, 0), ("red", "bottom"));
        assert_eq!(seat_names(2, 1), ("cyan", "top"));
        assert_eq!(seat_names(4, 0), ("yellow", "lower left"));
        assert_eq!(seat_names(6, 5), ("magenta", "lower right"));
        assert_eq!(seat_names(9, 9), ("red", "bottom"));
        let v = CheckersView::new(6, 10);
        let names: Vec<_> = (0..6).map(|p| v.side_name(p)).collect();
        assert_eq!(names, TRIANGLE_NAME);
    }
}
