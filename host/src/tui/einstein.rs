//! The EinStein würfelt nicht! view: a 5×5 board with red and blue numbered cubes,
//! the die (seeded by the TUI or typed from a real die), the setup phase, the
//! choice between two cubes when the rolled one is gone, the selected cube's
//! targets, keys and clicks. Rules come from `sente_firmware::games::einstein`.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use sente_firmware::game::{Game, Notation, Outcome};
use sente_firmware::games::einstein::board::{GOAL, Move, Square, write_square};
use sente_firmware::games::einstein::{Arrangement, Einstein, RED, SplitMix64, TRIANGLE};

use super::view::{Chance, Dice, GameView, History, ViewKey, cycle, fits, outcome_words, text_of};

/// Columns before the grid (row digit and a space).
const LEFT: u16 = 2;
/// Rows before the grid (column letters).
const TOP: u16 = 1;
/// Width of the die panel.
const PANEL_W: u16 = 24;
/// Rows the die panel needs.
const PANEL_H: u16 = 11;
/// The sizes of a square's inside (columns, rows), smallest first: the board is
/// drawn at the largest that fits.
const SQUARES: [(u16, u16); 4] = [(5, 1), (9, 3), (13, 5), (17, 7)];

/// Where the die panel starts, from the widget's left, with squares of `w` columns:
/// after the grid (five squares and six borders).
fn panel_x(w: u16) -> u16 {
    LEFT + 5 * (w + 1) + 1 + 2
}

/// Board width and height with squares of `square`: the grid with labels and the
/// die panel beside it.
fn board_size(square: (u16, u16)) -> (u16, u16) {
    (
        panel_x(square.0) + PANEL_W,
        (TOP + 5 * (square.1 + 1) + 1).max(TOP + PANEL_H),
    )
}

/// The square size of a board drawn in a space of `room`.
fn square_size(room: (u16, u16)) -> (u16, u16) {
    super::view::pick_scale(&SQUARES, room, board_size)
}

/// Colours of the two sides.
const SIDE_COLOR: [Color; 2] = [Color::Red, Color::Blue];

/// Pip rows of the die faces 1–6 on a 3×3 grid (bit 2 left, 1 middle, 0 right).
const PIPS: [[u8; 3]; 6] = [
    [0b000, 0b010, 0b000],
    [0b100, 0b000, 0b001],
    [0b100, 0b010, 0b001],
    [0b101, 0b000, 0b101],
    [0b101, 0b010, 0b101],
    [0b101, 0b101, 0b101],
];

/// The die roll number `index` (0-based, in the order of the game's rolls) of the
/// stream seeded with `seed`: the same seed gives the same rolls, whatever was
/// undone and played again.
pub fn seeded_roll(seed: u64, index: usize) -> u8 {
    let mut rng = SplitMix64::new(seed);
    let mut roll = rng.die();
    for _ in 0..index {
        roll = rng.die();
    }
    roll
}

/// Reads a setup order: six digits, each cube 1–6 once (`615243`).
pub fn parse_setup(text: &str) -> Result<Arrangement, String> {
    let digits: Vec<u8> = text
        .trim()
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if digits.len() != 6 || !digits.iter().all(|d| (b'1'..=b'6').contains(d)) {
        return Err("a setup is six digits 1-6, e.g. 615243".into());
    }
    let mut order = [0u8; 6];
    for (slot, d) in order.iter_mut().zip(&digits) {
        *slot = d - b'0';
    }
    let arrangement = Arrangement(order);
    if arrangement.is_valid() {
        Ok(arrangement)
    } else {
        Err("a setup uses each cube 1-6 once".into())
    }
}

/// Puts cube `cube` on place `at` of an order, swapping it with the cube there:
/// the order stays a permutation, and typing a whole order from place 0 gives it.
pub fn place_cube(order: &mut [u8; 6], at: usize, cube: u8) {
    if let (Some(from), true) = (order.iter().position(|&c| c == cube), at < 6) {
        order.swap(from, at);
    }
}

fn square_name(sq: Square) -> String {
    text_of(|s| write_square(sq, s))
}

/// Writes the die panel's lines one under the other.
struct Pen {
    x: u16,
    y: u16,
}

impl Pen {
    fn line(&mut self, buf: &mut Buffer, text: String, style: Style) {
        if !text.is_empty() {
            buf.set_stringn(self.x, self.y, text, usize::from(PANEL_W), style);
        }
        self.y += 1;
    }
}

/// EinStein on screen.
pub struct EinsteinView {
    game: History<Einstein>,
    dice: Dice,
    seed: u64,
    cursor: Square,
    /// The cube (of the side to move) picked to move.
    selected: Option<u8>,
    /// The setup being arranged by the side setting up, in setup order.
    order: [u8; 6],
    /// A setup square picked for a swap (Space or a click).
    swap_from: Option<Square>,
    /// How many random setups were asked for (each `r` gives the next one).
    shuffles: u64,
    /// A hint's move, if one is shown: a step (cube, from, to) or a setup.
    hint: Option<String>,
}

impl EinsteinView {
    /// A new game (nobody has set up) with dice from `dice`; `seed` seeds the dice.
    pub fn new(dice: Dice, seed: u64) -> Self {
        Self {
            game: History::default(),
            dice,
            seed,
            cursor: TRIANGLE[0][0],
            selected: None,
            order: [1, 2, 3, 4, 5, 6],
            swap_from: None,
            shuffles: 0,
            hint: None,
        }
    }

    fn pos(&self) -> &Einstein {
        self.game.current()
    }

    /// Whether an earlier position is on screen (stepping through the game).
    fn browsing(&self) -> bool {
        self.game.shown_ply() < self.game.moves().len()
    }

    /// The hint's from and to squares, if it is a step.
    fn hint_step(&self) -> Option<(Square, Square)> {
        let pos = self.pos();
        match pos.parse_move(self.hint.as_deref()?).ok()? {
            Move::Step { cube, to } => Some((pos.square_of(pos.side_to_move(), cube)?, to)),
            _ => None,
        }
    }

    /// The square under the cursor (0 = a5, reading order).
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The setup being arranged, in setup order.
    pub fn order(&self) -> [u8; 6] {
        self.order
    }

    /// The cubes the roll lets move (one, or two when the rolled cube is gone).
    pub fn movable(&self) -> Vec<u8> {
        let pos = self.pos();
        match pos.roll() {
            Some(r) if pos.outcome().is_none() => pos.movable_cubes(r).to_vec(),
            _ => Vec::new(),
        }
    }

    /// The cube whose targets are shown: the one picked, or the only one that may move.
    pub fn selected_cube(&self) -> Option<u8> {
        let movable = self.movable();
        match (self.selected, movable.as_slice()) {
            (Some(c), m) if m.contains(&c) => Some(c),
            (_, [only]) => Some(*only),
            _ => None,
        }
    }

    /// Squares the shown cube may step to.
    pub fn targets(&self) -> Vec<Square> {
        self.selected_cube()
            .map(|c| self.pos().targets(c).to_vec())
            .unwrap_or_default()
    }

    /// How many rolls the game has had (the next seeded roll's index).
    fn rolls(&self) -> usize {
        self.game
            .moves()
            .iter()
            .filter(|m| m.starts_with("roll"))
            .count()
    }

    /// Fresh setup state for whoever sets up next.
    fn after_change(&mut self) {
        self.selected = None;
        self.swap_from = None;
        self.order = [1, 2, 3, 4, 5, 6];
        let pos = *self.pos();
        if pos.in_setup() {
            self.cursor = TRIANGLE[usize::from(pos.side_to_move())][0];
        } else if let Some(sq) = self
            .selected_cube()
            .or_else(|| self.movable().first().copied())
            .and_then(|c| pos.square_of(pos.side_to_move(), c))
        {
            self.cursor = sq;
        }
    }

    /// Place (0–5) of a setup square of the side setting up.
    fn setup_place(&self, sq: Square) -> Option<usize> {
        let side = usize::from(self.pos().side_to_move());
        TRIANGLE[side].iter().position(|&t| t == sq)
    }

    /// The cube the setup being arranged puts on `sq`.
    fn preview(&self, sq: Square) -> Option<u8> {
        if !self.pos().in_setup() {
            return None;
        }
        self.setup_place(sq).map(|i| self.order[i])
    }

    /// Space or a click on `sq` during setup: pick a setup square, or swap the cubes
    /// of the picked one and this one.
    fn swap_at(&mut self, sq: Square) -> ViewKey {
        self.cursor = sq;
        let Some(at) = self.setup_place(sq) else {
            self.swap_from = None;
            return ViewKey::Refused("Set up on your start triangle (shaded).".into());
        };
        match self.swap_from.take() {
            Some(from) if from != sq => {
                if let Some(i) = self.setup_place(from) {
                    self.order.swap(i, at);
                }
            }
            Some(_) => {}
            None => self.swap_from = Some(sq),
        }
        ViewKey::Handled
    }

    /// A digit during setup: that cube goes under the cursor, the cursor to the next place.
    fn place_digit(&mut self, cube: u8) -> ViewKey {
        let side = usize::from(self.pos().side_to_move());
        let at = self.setup_place(self.cursor).unwrap_or(0);
        place_cube(&mut self.order, at, cube);
        self.swap_from = None;
        self.cursor = TRIANGLE[side][(at + 1) % 6];
        ViewKey::Handled
    }

    /// Enter or a click on `sq` while playing: pick a movable cube, or step the shown
    /// cube there.
    fn choose(&mut self, sq: Square) -> ViewKey {
        self.cursor = sq;
        let pos = *self.pos();
        if pos.outcome().is_some() {
            return ViewKey::Refused("The game is over: n starts a new one.".into());
        }
        if pos.roll().is_none() {
            return ViewKey::Refused(self.roll_hint().into());
        }
        let movable = self.movable();
        if let Some((side, cube)) = pos.cube_at(sq)
            && side == pos.side_to_move()
            && movable.contains(&cube)
        {
            self.selected = Some(cube);
            return ViewKey::Handled;
        }
        match self.selected_cube() {
            Some(cube) if self.targets().contains(&sq) => {
                ViewKey::Play(format!("{cube}:{}", square_name(sq)))
            }
            Some(_) => ViewKey::Refused("Not a target of the cube: pick a green square.".into()),
            None => ViewKey::Refused(self.choice_words()),
        }
    }

    fn roll_hint(&self) -> &'static str {
        match self.dice {
            Dice::Typed => "Roll the die first: type what it shows (1-6).",
            Dice::Seeded => "The die is not rolled yet.",
        }
    }

    /// `Cube 3 is gone: move 2 or 4.` when the roll leaves a choice.
    fn choice_words(&self) -> String {
        let pos = self.pos();
        match (pos.roll(), self.movable().as_slice()) {
            (Some(r), [a, b]) => format!("Cube {r} is gone: move cube {a} or cube {b}."),
            (Some(r), [only]) if *only != r => format!("Cube {r} is gone: cube {only} moves."),
            _ => "Pick the cube to move.".into(),
        }
    }

    /// The left column of `sq`'s inside and its middle row, on the board drawn at `area`.
    fn cell(area: Rect, sq: Square) -> (u16, u16) {
        let (w, h) = square_size((area.width, area.height));
        let (row, col) = (u16::from(sq / 5), u16::from(sq % 5));
        (
            area.x + LEFT + 1 + col * (w + 1),
            area.y + TOP + 1 + row * (h + 1) + h / 2,
        )
    }

    fn hit(area: Rect, x: u16, y: u16) -> Option<Square> {
        let (w, h) = square_size((area.width, area.height));
        let dx = x.checked_sub(area.x + LEFT + 1)?;
        let dy = y.checked_sub(area.y + TOP + 1)?;
        let (col, row) = (dx / (w + 1), dy / (h + 1));
        if col > 4 || row > 4 || dx % (w + 1) == w || dy % (h + 1) == h {
            return None;
        }
        Some((row * 5 + col) as Square)
    }

    /// The arrow on each side's cubes, pointing the way it moves (red down to e1,
    /// blue up to a5): the sides are told apart without colour too.
    const SYMBOL: [&'static str; 2] = ["▼", "▲"];

    /// A cube as drawn: its side's arrow and its number (`▼3 `).
    fn cube_text(side: u8, cube: u8) -> String {
        format!("{}{cube} ", Self::SYMBOL[usize::from(side & 1)])
    }

    /// The style of a side's cubes.
    fn cube_style(side: u8) -> Style {
        Style::new()
            .fg(Color::White)
            .bg(SIDE_COLOR[usize::from(side & 1)])
            .add_modifier(Modifier::BOLD)
    }

    fn draw_grid(&self, area: Rect, buf: &mut Buffer) {
        let (w, h) = square_size((area.width, area.height));
        let grid = Style::new().fg(Color::Gray);
        let label = Style::new().fg(Color::DarkGray);
        let x0 = area.x + LEFT;
        let y0 = area.y + TOP;
        for col in 0..5u16 {
            let name = ((b'a' + col as u8) as char).to_string();
            buf.set_string(x0 + 1 + col * (w + 1) + w / 2, area.y, name, label);
        }
        let bar = "─".repeat(usize::from(w));
        for line in 0..=5u16 {
            let (l, m, r) = match line {
                0 => ("┌", "┬", "┐"),
                5 => ("└", "┴", "┘"),
                _ => ("├", "┼", "┤"),
            };
            let mut text = l.to_string();
            for c in 0..5 {
                text.push_str(&bar);
                text.push_str(if c == 4 { r } else { m });
            }
            buf.set_string(x0, y0 + line * (h + 1), text, grid);
            if line < 5 {
                for k in 1..=h {
                    let y = y0 + line * (h + 1) + k;
                    for c in 0..=5u16 {
                        buf.set_string(x0 + c * (w + 1), y, "│", grid);
                    }
                }
                let rank = ((b'5' - line as u8) as char).to_string();
                buf.set_string(area.x, y0 + line * (h + 1) + 1 + h / 2, rank, label);
            }
        }
    }

    fn draw_squares(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let pos = self.game.view();
        let browsing = self.browsing();
        let setup = pos.in_setup() && pos.outcome().is_none();
        let side = pos.side_to_move();
        let movable = if browsing { Vec::new() } else { self.movable() };
        let choice = movable.len() > 1;
        let shown = self.selected_cube().filter(|_| !browsing);
        let targets = if browsing { Vec::new() } else { self.targets() };
        let last = self.last_step();
        let hint = self.hint_step().filter(|_| !browsing);
        let (w, h) = square_size((area.width, area.height));
        // The whole inside of a square, in `style` (a cube is a block of its colour).
        let fill = |buf: &mut Buffer, (x, y): (u16, u16), width: u16, style: Style| {
            for k in 0..h {
                buf.set_string(x, y - h / 2 + k, " ".repeat(usize::from(width)), style);
            }
        };
        // The cube's arrow and number, in the square's middle.
        let cube_x = |x: u16| x + (w - 3) / 2;
        for sq in 0..25u8 {
            let (x, y) = Self::cell(area, sq);
            let on_triangle = setup && !browsing && self.setup_place(sq).is_some();
            if on_triangle {
                fill(buf, (x, y), w, Style::new().bg(Color::Indexed(236)));
            }
            let is_target = targets.contains(&sq);
            let preview = self.preview(sq).filter(|_| cursor && !browsing);
            match (pos.cube_at(sq), preview) {
                (Some((s, cube)), _) => {
                    let mut style = Self::cube_style(s);
                    if s == side && shown == Some(cube) && !movable.is_empty() {
                        style = style.bg(Color::Yellow).fg(Color::Black);
                    }
                    if h > 1 {
                        // Inside the marker columns.
                        fill(buf, (x + 1, y), w - 2, style);
                    }
                    buf.set_string(cube_x(x), y, Self::cube_text(s, cube), style);
                }
                (None, Some(cube)) => {
                    let style = Self::cube_style(side).add_modifier(Modifier::DIM);
                    buf.set_string(cube_x(x), y, Self::cube_text(side, cube), style);
                }
                (None, None) if is_target => {
                    let style = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
                    buf.set_string(x + w / 2, y, "•", style);
                }
                (None, None) => {
                    if let Some(g) = GOAL.iter().position(|&c| c == sq) {
                        let style = Style::new().fg(SIDE_COLOR[g]).add_modifier(Modifier::DIM);
                        buf.set_string(x + w / 2, y, "◎", style);
                    }
                }
            }
            let mark = |l: &str, r: &str, style: Style, buf: &mut Buffer| {
                buf.set_string(x, y, l, style);
                buf.set_string(x + w - 1, y, r, style);
            };
            let bold = |c: Color| Style::new().fg(c).add_modifier(Modifier::BOLD);
            if last.is_some_and(|(from, to)| from == sq || to == sq) {
                mark("(", ")", bold(Color::Cyan), buf);
            }
            if hint.is_some_and(|(from, to)| from == sq || to == sq) {
                if pos.cube_at(sq).is_none() {
                    buf.set_string(x + w / 2, y, "+", bold(Color::LightGreen));
                }
                mark("«", "»", bold(Color::LightGreen), buf);
            }
            if is_target && pos.cube_at(sq).is_some() {
                mark("{", "}", bold(Color::Green), buf);
            }
            if choice
                && pos
                    .cube_at(sq)
                    .is_some_and(|(s, c)| s == side && movable.contains(&c))
            {
                mark("▸", "◂", bold(Color::Yellow), buf);
            }
            if self.swap_from == Some(sq) && setup {
                mark("<", ">", bold(Color::Yellow), buf);
            }
            if cursor && sq == self.cursor {
                mark("[", "]", bold(Color::Magenta), buf);
            }
        }
    }

    /// From and to of the last step played (up to the position on screen), for the
    /// last-move marks.
    fn last_step(&self) -> Option<(Square, Square)> {
        let n = self.game.shown_ply();
        let before = self.game.before(n.checked_sub(1)?)?;
        let mv = before.parse_move(self.game.shown_moves().last()?).ok()?;
        match mv {
            Move::Step { cube, to } => Some((before.square_of(before.side_to_move(), cube)?, to)),
            _ => None,
        }
    }

    fn draw_die(buf: &mut Buffer, x: u16, y: u16, face: Option<u8>, color: Color) {
        let edge = Style::new().fg(color).add_modifier(Modifier::BOLD);
        buf.set_string(x, y, "╭─────────╮", edge);
        for row in 0..3u16 {
            let mut line = String::from("│");
            for col in 0..3 {
                let pip = match face {
                    Some(f @ 1..=6) => PIPS[usize::from(f - 1)][usize::from(row)] & (4 >> col) != 0,
                    _ => false,
                };
                line.push_str(if pip { " ● " } else { "   " });
            }
            line.push('│');
            buf.set_string(x, y + 1 + row, line, edge);
        }
        if face.is_none() {
            buf.set_string(x + 5, y + 2, "?", edge);
        }
        buf.set_string(x, y + 4, "╰─────────╯", edge);
    }

    fn draw_panel(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let pos = self.game.view();
        let browsing = self.browsing();
        let x = area.x + panel_x(square_size((area.width, area.height)).0);
        let mut pen = Pen { x, y: area.y };
        let side = pos.side_to_move();
        let color = SIDE_COLOR[usize::from(side)];
        let name = Style::new().fg(color).add_modifier(Modifier::BOLD);
        let text = Style::new();
        let dim = Style::new().fg(Color::DarkGray);
        let mut line = |buf: &mut Buffer, s: String, style: Style| pen.line(buf, s, style);
        if let Some(result) = self.result_text().filter(|_| !browsing) {
            line(buf, "Game over".into(), text.add_modifier(Modifier::BOLD));
            let won = Style::new().fg(Color::Green).add_modifier(Modifier::BOLD);
            for part in result.split(": ") {
                line(buf, part.to_string(), won);
            }
            return;
        }
        if pos.in_setup() {
            line(buf, format!("{} sets up", self.side_name(side)), name);
            let squares: Vec<String> = TRIANGLE[usize::from(side)]
                .iter()
                .map(|&s| square_name(s))
                .collect();
            line(buf, format!("on {}", squares.join(" ")), dim);
            if cursor && !browsing {
                let order: String = self.order.iter().map(|c| c.to_string()).collect();
                line(
                    buf,
                    format!("order  {order}"),
                    text.add_modifier(Modifier::BOLD),
                );
                line(buf, String::new(), text);
                for help in [
                    "1-6  that cube at [ ]",
                    "Space/click  swap two",
                    "r  random setup",
                    "Enter  set up",
                ] {
                    line(buf, help.into(), dim);
                }
            }
            return;
        }
        let symbol = Self::SYMBOL[usize::from(side & 1)];
        line(
            buf,
            format!("{} {symbol} to move", self.side_name(side)),
            name,
        );
        Self::draw_die(buf, x, area.y + 1, pos.roll(), color);
        for _ in 0..5 {
            line(buf, String::new(), text);
        }
        let source = match self.dice {
            Dice::Seeded => format!("seed {} · roll #{}", self.seed, self.rolls()),
            Dice::Typed => "typed die".to_string(),
        };
        match pos.roll() {
            Some(r) => {
                line(
                    buf,
                    format!("rolled {r}"),
                    text.add_modifier(Modifier::BOLD),
                );
                line(buf, source, dim);
                let movable = if browsing { Vec::new() } else { self.movable() };
                match movable.as_slice() {
                    [a, b] => {
                        line(buf, format!("cube {r} is gone:"), name);
                        line(buf, format!("pick {a} or {b} (key/click)"), name);
                    }
                    [only] if *only != r => {
                        line(buf, format!("cube {r} is gone: {only} moves"), name);
                    }
                    _ => {}
                }
            }
            None => line(
                buf,
                match self.dice {
                    Dice::Typed => "type the die: 1-6".to_string(),
                    Dice::Seeded => "rolling…".to_string(),
                },
                text,
            ),
        }
    }
}

impl GameView for EinsteinView {
    fn kind(&self) -> super::view::GameKind {
        super::view::GameKind::Einstein(self.dice)
    }

    fn title(&self) -> String {
        super::view::GameKind::Einstein(self.dice)
            .title()
            .to_string()
    }

    fn wire_name(&self) -> &'static str {
        "einstein"
    }

    fn side_name(&self, player: u8) -> &'static str {
        if player == RED { "red" } else { "blue" }
    }

    fn position(&self) -> String {
        self.game.position_text()
    }

    fn to_move(&self) -> u8 {
        self.pos().player_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos().outcome()
    }

    fn moves(&self) -> &[String] {
        self.game.moves()
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let text = text.trim();
        // Six bare digits are a setup order.
        let text = if self.pos().in_setup() && !text.starts_with("setup") {
            format!("setup {}", text)
        } else {
            text.to_string()
        };
        if let Some(order) = text.strip_prefix("setup ") {
            parse_setup(order)?;
        }
        self.game.play(&text)?;
        self.hint = None;
        self.after_change();
        Ok(())
    }

    fn undo(&mut self) -> bool {
        let undone = self.game.undo();
        self.hint = None;
        self.after_change();
        undone
    }

    fn reset(&mut self, seed: u64) {
        self.seed = seed;
        self.game.reset();
        self.shuffles = 0;
        self.hint = None;
        self.after_change();
    }

    fn start_position(&self) -> String {
        self.game.start_text()
    }

    fn set_start(&mut self, position: &str) -> Result<(), String> {
        self.game = History::parse(position)?;
        self.hint = None;
        self.after_change();
        Ok(())
    }

    fn show(&mut self, ply: Option<usize>) {
        self.selected = None;
        self.swap_from = None;
        self.game.show(ply);
    }

    fn set_hint(&mut self, mv: Option<&str>) {
        self.hint = mv.map(str::to_string);
    }

    fn deselect(&mut self) -> bool {
        let had = self.selected.is_some() || self.swap_from.is_some();
        self.selected = None;
        self.swap_from = None;
        had
    }

    fn side_symbol(&self, player: u8) -> Option<&'static str> {
        Self::SYMBOL.get(usize::from(player)).copied()
    }

    fn on_key(&mut self, key: KeyCode) -> ViewKey {
        let pos = *self.pos();
        let (row, col) = (self.cursor / 5, self.cursor % 5);
        let step = |r: u8, c: u8| Some(r * 5 + c);
        let moved = match key {
            KeyCode::Up => step(row.saturating_sub(1), col),
            KeyCode::Down => step((row + 1).min(4), col),
            KeyCode::Left => step(row, col.saturating_sub(1)),
            KeyCode::Right => step(row, (col + 1).min(4)),
            _ => None,
        };
        if let Some(sq) = moved {
            self.cursor = sq;
            return ViewKey::Handled;
        }
        if pos.outcome().is_some() {
            return ViewKey::Unhandled;
        }
        if pos.in_setup() {
            return match key {
                KeyCode::Char(d @ '1'..='6') => self.place_digit(d as u8 - b'0'),
                KeyCode::Char(' ') => self.swap_at(self.cursor),
                KeyCode::Char('r') => {
                    self.shuffles += 1;
                    let mut rng = SplitMix64::new(self.seed ^ self.shuffles.rotate_left(32));
                    self.order = Arrangement::nth(rng.below(720) as u16).0;
                    self.swap_from = None;
                    ViewKey::Handled
                }
                KeyCode::Enter => {
                    let order: String = self.order.iter().map(|c| c.to_string()).collect();
                    ViewKey::Play(format!("setup {order}"))
                }
                KeyCode::Char('0' | '7' | '8' | '9') => {
                    ViewKey::Refused("The cubes are numbered 1 to 6.".into())
                }
                _ => ViewKey::Unhandled,
            };
        }
        if pos.roll().is_none() {
            return match (key, self.dice) {
                (KeyCode::Char(d @ '1'..='6'), Dice::Typed) => ViewKey::Play(format!("roll {d}")),
                (KeyCode::Char('0' | '7' | '8' | '9'), Dice::Typed) => {
                    ViewKey::Refused("A die shows 1 to 6.".into())
                }
                _ => ViewKey::Refused(self.roll_hint().into()),
            };
        }
        match key {
            KeyCode::Enter | KeyCode::Char(' ') => self.choose(self.cursor),
            KeyCode::Char(d @ '1'..='6') => {
                let cube = d as u8 - b'0';
                if self.movable().contains(&cube) {
                    self.selected = Some(cube);
                    if let Some(sq) = pos.square_of(pos.side_to_move(), cube) {
                        self.cursor = sq;
                    }
                    ViewKey::Handled
                } else {
                    ViewKey::Refused(format!("Cube {d} cannot move. {}", self.choice_words()))
                }
            }
            KeyCode::Tab | KeyCode::BackTab => {
                let targets = self.targets();
                let back = key == KeyCode::BackTab;
                if let Some(sq) = cycle(&targets, self.cursor, back) {
                    self.cursor = sq;
                    ViewKey::Handled
                } else {
                    ViewKey::Refused(self.choice_words())
                }
            }
            _ => ViewKey::Unhandled,
        }
    }

    fn on_click(&mut self, area: Rect, x: u16, y: u16) -> Option<String> {
        let (width, height) = board_size(square_size((area.width, area.height)));
        if area.width < width || area.height < height {
            return None;
        }
        let sq = Self::hit(area, x, y)?;
        let pos = *self.pos();
        let key = if pos.outcome().is_some() {
            self.cursor = sq;
            return None;
        } else if pos.in_setup() {
            self.swap_at(sq)
        } else {
            self.choose(sq)
        };
        match key {
            ViewKey::Play(mv) => Some(mv),
            _ => None,
        }
    }

    fn size(&self, room: (u16, u16)) -> (u16, u16) {
        board_size(square_size(room))
    }

    fn render(&self, area: Rect, buf: &mut Buffer, cursor: bool) {
        let area = area.intersection(buf.area);
        let (width, height) = board_size(square_size((area.width, area.height)));
        if !fits(area, buf, width, height) {
            return;
        }
        self.draw_grid(area, buf);
        self.draw_squares(area, buf, cursor);
        self.draw_panel(area, buf, cursor);
    }

    fn result_text(&self) -> Option<String> {
        let outcome = self.outcome()?;
        let mut text = outcome_words(outcome, |p| self.side_name(p));
        if let Outcome::Win(w) = outcome {
            let pos = self.pos();
            let corner = GOAL[usize::from(w)];
            if pos.cube_at(corner).is_some_and(|(s, _)| s == w) {
                text.push_str(&format!(": a cube reached {}", square_name(corner)));
            } else {
                text.push_str(&format!(": {} has no cubes left", self.side_name(1 - w)));
            }
        }
        Some(text)
    }

    fn move_hint(&self) -> &'static str {
        let pos = self.pos();
        if pos.in_setup() {
            "digits 1-6 place cubes (Space swaps, r random), Enter sets up"
        } else if pos.roll().is_none() {
            match self.dice {
                Dice::Typed => "roll a die and type what it shows (1-6)",
                Dice::Seeded => "the die is being rolled",
            }
        } else if self.movable().len() > 1 && self.selected_cube().is_none() {
            "two cubes may move: pick one (its digit or a click)"
        } else {
            "Enter/click a green target (Tab cycles, arrows move)"
        }
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("setup: 1-6", "put that cube under the cursor [ ]"),
            ("setup: Space", "pick a square, Space again swaps"),
            ("setup: r", "a random setup (Enter sets it up)"),
            ("1-6", "typed dice: the roll; else pick cube"),
            ("arrows / Tab", "move the cursor / to the targets"),
            ("Enter / click", "pick a cube, then its target"),
        ]
    }

    fn chance(&self) -> Option<Chance> {
        let pos = self.pos();
        if pos.in_setup() || pos.outcome().is_some() || pos.roll().is_some() {
            return None;
        }
        Some(match self.dice {
            Dice::Seeded => Chance::Auto(format!("roll {}", seeded_roll(self.seed, self.rolls()))),
            Dice::Typed => Chance::Typed,
        })
    }

    fn side_color(&self, player: u8) -> Option<Color> {
        SIDE_COLOR.get(usize::from(player)).copied()
    }

    fn row_of_ply(&self, ply: usize) -> usize {
        // Setups and steps have a row each; a roll shares its step's row.
        self.game
            .moves()
            .iter()
            .take(ply)
            .filter(|m| !m.starts_with("roll "))
            .count()
    }

    /// Setups on their own rows, then one row per turn: the roll and the step
    /// (`×blue 5` when it takes blue's cube 5).
    fn move_rows(&self) -> Vec<String> {
        let mut rows = Vec::new();
        let mut turn = 0;
        let mut pending: Option<String> = None;
        for (ply, mv) in self.game.moves().iter().enumerate() {
            let Some(before) = self.game.before(ply) else {
                break;
            };
            let side = self.side_name(before.side_to_move());
            if let Some(order) = mv.strip_prefix("setup ") {
                rows.push(format!("     {side:<4} setup {order}"));
            } else if let Some(r) = mv.strip_prefix("roll ") {
                pending = Some(r.to_string());
            } else {
                let roll = pending.take().unwrap_or_else(|| "?".into());
                let capture = before
                    .parse_move(mv)
                    .ok()
                    .and_then(|m| match m {
                        Move::Step { to, .. } => before.cube_at(to),
                        _ => None,
                    })
                    .map(|(s, c)| format!(" ×{} {c}", self.side_name(s)))
                    .unwrap_or_default();
                if before.side_to_move() == RED || turn == 0 {
                    turn += 1;
                }
                rows.push(format!(" {turn:>3}. {side:<4} [{roll}] {mv}{capture}"));
            }
        }
        if let Some(r) = pending {
            let side = self.side_name(self.pos().side_to_move());
            rows.push(format!("      {side:<4} [{r}] …"));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::games::einstein::board::parse_square;

    fn sq(name: &str) -> Square {
        parse_square(name).unwrap()
    }

    fn set_up(v: &mut EinsteinView, red: &str, blue: &str) {
        v.play(&format!("setup {red}")).unwrap();
        v.play(&format!("setup {blue}")).unwrap();
    }

    #[test]
    fn setup_orders_parse_or_say_why() {
        assert_eq!(parse_setup("615243"), Ok(Arrangement([6, 1, 5, 2, 4, 3])));
        assert_eq!(
            parse_setup(" 6 1 5 2 4 3 "),
            Ok(Arrangement([6, 1, 5, 2, 4, 3]))
        );
        for bad in [
            "", "61524", "6152433", "615244", "61524x", "012345", "é15243",
        ] {
            assert!(parse_setup(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn typing_digits_arranges_the_triangle_from_the_cursor() {
        let mut v = EinsteinView::new(Dice::Seeded, 7);
        assert_eq!(v.cursor(), sq("a5"));
        for d in "615243".chars() {
            assert_eq!(v.on_key(KeyCode::Char(d)), ViewKey::Handled);
        }
        assert_eq!(v.order(), [6, 1, 5, 2, 4, 3]);
        assert_eq!(v.cursor(), sq("a5"), "wrapped round to the first place");
        // A digit elsewhere swaps: 3 onto b5 (where 1 was), 1 goes to a3.
        v.on_key(KeyCode::Right);
        v.on_key(KeyCode::Char('3'));
        assert_eq!(v.order(), [6, 3, 5, 2, 4, 1]);
        // Space twice swaps two squares: b5 and c5.
        v.cursor = sq("b5");
        v.on_key(KeyCode::Char(' '));
        v.on_key(KeyCode::Right);
        v.on_key(KeyCode::Char(' '));
        assert_eq!(v.order(), [6, 5, 3, 2, 4, 1]);
        assert!(matches!(v.on_key(KeyCode::Char('8')), ViewKey::Refused(_)));
        assert_eq!(
            v.on_key(KeyCode::Enter),
            ViewKey::Play("setup 653241".into())
        );
        v.play("setup 653241").unwrap();
        assert_eq!(v.cursor(), sq("e1"), "blue sets up from its corner");
        assert_eq!(v.order(), [1, 2, 3, 4, 5, 6]);
        // Bare digits are read as a setup too; bad ones keep the game.
        assert!(v.play("123").is_err());
        v.play("123456").unwrap();
        assert_eq!(v.moves(), ["setup 653241", "setup 123456"]);
    }

    #[test]
    fn random_setups_are_seeded_and_valid() {
        let mut a = EinsteinView::new(Dice::Seeded, 3);
        let mut b = EinsteinView::new(Dice::Seeded, 3);
        for _ in 0..5 {
            a.on_key(KeyCode::Char('r'));
            b.on_key(KeyCode::Char('r'));
            assert!(Arrangement(a.order()).is_valid());
            assert_eq!(a.order(), b.order());
        }
    }

    #[test]
    fn seeded_rolls_are_reproducible_and_typed_rolls_wait() {
        let rolls: Vec<u8> = (0..20).map(|i| seeded_roll(42, i)).collect();
        assert_eq!(
            rolls,
            (0..20).map(|i| seeded_roll(42, i)).collect::<Vec<_>>()
        );
        assert!(rolls.iter().all(|r| (1..=6).contains(r)));
        assert_ne!(
            rolls,
            (0..20).map(|i| seeded_roll(43, i)).collect::<Vec<_>>()
        );
        let mut v = EinsteinView::new(Dice::Seeded, 42);
        assert_eq!(v.chance(), None, "no dice during setup");
        set_up(&mut v, "123456", "123456");
        assert_eq!(v.chance(), Some(Chance::Auto(format!("roll {}", rolls[0]))));
        let mut t = EinsteinView::new(Dice::Typed, 42);
        set_up(&mut t, "123456", "123456");
        assert_eq!(t.chance(), Some(Chance::Typed));
        assert_eq!(t.on_key(KeyCode::Char('4')), ViewKey::Play("roll 4".into()));
        assert!(matches!(t.on_key(KeyCode::Char('9')), ViewKey::Refused(_)));
        assert!(matches!(t.on_key(KeyCode::Enter), ViewKey::Refused(_)));
    }

    #[test]
    fn a_missing_cube_offers_the_next_higher_and_lower() {
        let mut v = EinsteinView::new(Dice::Typed, 1);
        // Red's cube 3 (c5) is taken by blue, then red rolls 3: cube 2 or 4.
        v.game = History::new(
            sente_firmware::game::Notation::parse_position(
                "r:a5=1,b5=2,a4=4,b4=5,a3=6 b:c5=3,d1=2,c1=1,e2=4,d2=5,e3=6 turn=r",
            )
            .unwrap(),
        );
        v.play("roll 3").unwrap();
        assert_eq!(v.movable(), [2, 4]);
        assert_eq!(v.selected_cube(), None, "the person picks");
        assert!(v.targets().is_empty());
        assert!(
            matches!(v.on_key(KeyCode::Char('1')), ViewKey::Refused(m) if m.contains("cube 2 or cube 4"))
        );
        assert_eq!(v.on_key(KeyCode::Char('4')), ViewKey::Handled);
        assert_eq!(v.cursor(), sq("a4"));
        assert_eq!(v.targets(), [sq("b3"), sq("b4"), sq("a3")]);
        // Tab goes to the targets; Enter steps there.
        v.on_key(KeyCode::Tab);
        assert_eq!(v.on_key(KeyCode::Enter), ViewKey::Play("4:b3".into()));
        // Clicking cube 2 instead picks it; a click on its target plays.
        let (width, height) = board_size((5, 1));
        let area = Rect::new(0, 0, width, height);
        let (x, y) = EinsteinView::cell(area, sq("b5"));
        assert_eq!(v.on_click(area, x + 2, y), None);
        assert_eq!(v.selected_cube(), Some(2));
        let (x, y) = EinsteinView::cell(area, sq("c5"));
        assert_eq!(
            v.on_click(area, x, y),
            Some("2:c5".into()),
            "captures blue 3"
        );
        v.play("2:c5").unwrap();
        assert_eq!(v.move_rows().last().unwrap(), "   1. red  [3] 2:c5 ×blue 3");
    }

    #[test]
    fn clicks_outside_the_squares_do_nothing() {
        let (width, height) = board_size((5, 1));
        let area = Rect::new(3, 2, width, height);
        assert_eq!(EinsteinView::hit(area, 3, 2), None);
        assert_eq!(
            EinsteinView::hit(area, 3 + LEFT, 2 + TOP + 1),
            None,
            "border"
        );
        let (x, y) = EinsteinView::cell(area, sq("e1"));
        assert_eq!(EinsteinView::hit(area, x + 4, y), Some(sq("e1")));
        assert_eq!(EinsteinView::hit(area, x + 5, y), None);
        assert_eq!(EinsteinView::hit(area, 500, 500), None);
    }

    #[test]
    fn the_winner_is_named_with_how() {
        let mut v = EinsteinView::new(Dice::Typed, 1);
        v.game = History::new(
            sente_firmware::game::Notation::parse_position("r:d2=3 b:b4=1,a4=2 turn=r roll=3")
                .unwrap(),
        );
        v.play("3:e1").unwrap();
        assert_eq!(
            v.result_text().as_deref(),
            Some("red wins: a cube reached e1")
        );
        assert_eq!(v.chance(), None);
        assert!(v.undo());
        v.play("3:e2").unwrap();
        assert_eq!(v.result_text(), None);
    }

    #[test]
    fn the_board_grows_with_the_room_and_clicks_follow_it() {
        let v = EinsteinView::new(Dice::Seeded, 7);
        let mut last = (0, 0);
        for square in SQUARES {
            let (width, height) = board_size(square);
            assert_eq!(v.size((width, height)), (width, height));
            assert!(width > last.0 && height >= last.1);
            last = (width, height);
            let area = Rect::new(1, 4, width, height);
            let mut buf = Buffer::empty(Rect::new(0, 0, 1 + width, 4 + height));
            v.render(area, &mut buf, true);
            for s in 0..25u8 {
                let (x, y) = EinsteinView::cell(area, s);
                // The whole inside of the square: its corners and its middle.
                let top = y - square.1 / 2;
                for (cx, cy) in [
                    (x, top),
                    (x + square.0 - 1, top + square.1 - 1),
                    (x + square.0 / 2, y),
                ] {
                    assert_eq!(EinsteinView::hit(area, cx, cy), Some(s), "{square:?}");
                }
                // The borders around it are no square.
                assert_eq!(EinsteinView::hit(area, x - 1, y), None);
                assert_eq!(EinsteinView::hit(area, x, top - 1), None);
            }
        }
        assert_eq!(v.size((152, 53)), board_size((17, 7)));
        assert_eq!(v.size((20, 5)), board_size((5, 1)));
    }
}
