//! Drawing: the start screen, the game screen (board, status, engine panel, moves)
//! and the help overlay. Pure functions of the [`App`]; no terminal access.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use sente_firmware::game::{MATE, MATE_BOUND, Outcome};
use sente_firmware::games::gomoku::Rule;

use std::time::Instant;

use super::app::{
    App, Ask, EngineSide, EngineState, InputKind, Play, Popup, Purpose, Screen, Seat, Then,
};
use super::clock::{TimeControl, clock_text};
use super::menu::{Menu, NO_ENGINE, OPPONENTS, RULES, Row};
use super::saved;
use super::view::GameView;

/// Where the parts of the game screen go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayLayout {
    /// Title bar.
    pub title: Rect,
    /// The board's frame.
    pub board_frame: Rect,
    /// Where the board widget itself is drawn (also used for mouse hits).
    pub board: Rect,
    /// Engine panel.
    pub engine: Rect,
    /// Move list.
    pub moves: Rect,
    /// Status lines (the state of play, the last message; long ones wrap).
    pub status: Rect,
    /// Key hints.
    pub keys: Rect,
}

/// The right-hand panels need this many columns; with fewer the board takes the
/// whole width (and the panels are left out).
pub const MIN_PANEL: u16 = 24;

/// The right-hand panels never grow wider than this: in a wide terminal the board
/// grows instead, centred in its frame.
pub const MAX_PANEL: u16 = 64;

/// Lays out the game screen around `view`'s board, drawn as large as the room left
/// by the panels allows.
pub fn play_layout(screen: Rect, view: &dyn GameView) -> PlayLayout {
    let [title, main, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(screen);
    let room = (
        main.width.saturating_sub(4 + MIN_PANEL + 20),
        main.height.saturating_sub(2),
    );
    let board = view.size(room);
    let mut left = board.0 + 4;
    if main.width.saturating_sub(left) < MIN_PANEL {
        left = main.width;
    } else if main.width - left > MAX_PANEL {
        // A wide terminal: the panels stop growing, the board's frame takes the rest.
        left = main.width - MAX_PANEL;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Length(left), Constraint::Min(0)]).areas(main);
    let [board_frame, _] =
        Layout::vertical([Constraint::Length(board.1 + 2), Constraint::Min(0)]).areas(left);
    // Inside the frame's border, never on it; centred when the frame is wider.
    let inside = board_frame.inner(ratatui::layout::Margin::new(1, 1));
    let spare = inside.width.saturating_sub(board.0 + 1) / 2;
    let inner = Rect::new(inside.x + 1 + spare, inside.y, board.0, board.1).intersection(inside);
    // Games for more than two keep room under the engine for every seat and a
    // few moves: the engine panel gives up rows (down to its first five lines).
    let players = u16::from(view.player_count());
    let engine_rows = if players > 2 {
        right.height.saturating_sub(players + 2 + 3).clamp(7, 12)
    } else {
        12
    };
    let [engine, moves] =
        Layout::vertical([Constraint::Length(engine_rows), Constraint::Min(0)]).areas(right);
    PlayLayout {
        title,
        board_frame,
        board: inner,
        engine,
        moves,
        status,
        keys,
    }
}

/// Draws the whole app, in the app's theme.
pub fn draw(frame: &mut Frame, app: &App) {
    match &app.screen {
        Screen::Menu(menu) => draw_menu(frame, menu),
        Screen::Play(play) => draw_play(frame, play),
    }
    if app.help {
        draw_help(frame, app.play());
    }
    if let Some(popup) = &app.popup {
        draw_popup(frame, popup, app.play());
    }
    app.theme.apply(frame.buffer_mut());
}

/// Clears `area` for a popup, and the wide characters (Chinese pieces) that stick
/// into it from the left: a terminal would draw their second half over the border.
fn clear_for_popup(frame: &mut Frame, area: Rect) {
    frame.render_widget(Clear, area);
    let buf = frame.buffer_mut();
    if area.x > buf.area.x {
        for y in area.top()..area.bottom() {
            if let Some(cell) = buf.cell_mut((area.x - 1, y))
                && unicode_width::UnicodeWidthStr::width(cell.symbol()) > 1
            {
                cell.set_symbol(" ");
            }
        }
    }
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

fn draw_menu(frame: &mut Frame, menu: &Menu) {
    let rows = menu.rows();
    // Title, blank, the rows, blank + Start, blank, hint: 16 with the two-player rows.
    let height = (rows.len() as u16 + 8).max(16);
    let area = centered(frame.area(), 72, height);
    let block = Block::bordered().title(" Sente ".bold()).title_bottom(
        Line::from(" ↑↓ choose · ←→ change · Enter start · o open · t theme · q quit ").centered(),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let dim = Style::new().fg(Color::DarkGray);
    let mut lines = vec![
        Line::from("Play a board game against a micro:bit engine.").italic(),
        Line::from(""),
    ];
    let choice = |selected: bool, text: String| -> Vec<Span<'static>> {
        if selected {
            vec![
                Span::raw("◀ "),
                Span::styled(text, Style::new().fg(Color::Yellow).bold()),
                Span::raw(" ▶"),
            ]
        } else {
            vec![Span::raw("  "), Span::raw(text)]
        }
    };
    let game = menu.game();
    for row in rows {
        let selected = menu.row == row;
        let marker = if selected { "› " } else { "  " };
        let (name, mut value): (&str, Vec<Span>) = match row {
            Row::Game => ("Game", choice(selected, menu.game().title().to_string())),
            Row::Rule => {
                let rule = RULES[menu.rule % RULES.len()];
                let mut spans = choice(selected, rule.name().to_string());
                let what = match rule {
                    Rule::Free => "  five or more in a row wins",
                    Rule::Standard => "  exactly five wins",
                    Rule::Renju => "  black: exact five, forbidden points",
                };
                spans.push(Span::styled(what, dim));
                ("Rule", spans)
            }
            Row::Dice => {
                let mut spans = choice(selected, menu.dice.name().to_string());
                let what = match menu.dice {
                    super::view::Dice::Seeded => "  the TUI rolls (seeded, reproducible)",
                    super::view::Dice::Typed => "  type each roll of a real die",
                };
                spans.push(Span::styled(what, dim));
                ("Dice", spans)
            }
            Row::Seed => {
                let mut spans = choice(selected, menu.seed.to_string());
                spans.push(Span::styled("  digits type it, ←→ step", dim));
                ("Seed", spans)
            }
            Row::Players => ("Players", choice(selected, menu.players.to_string())),
            Row::Pieces => ("Pieces", choice(selected, format!("{} each", menu.pieces))),
            Row::Opponent if game.per_seat() => {
                let text = OPPONENTS
                    .get(menu.opponent)
                    .filter(|_| menu.opponent < 3)
                    .copied()
                    .unwrap_or(NO_ENGINE);
                ("Engines", choice(selected, text.into()))
            }
            Row::Opponent => (
                "Opponent",
                choice(
                    selected,
                    OPPONENTS[menu.opponent.min(OPPONENTS.len() - 1)].into(),
                ),
            ),
            Row::Seat(i) => {
                let who = match menu.seat(i) {
                    Seat::Person => "person",
                    Seat::Engine => "engine",
                };
                let mut spans = choice(selected, who.into());
                let (name, home) = super::checkers::seat_names(game.players(), i);
                spans.push(Span::styled(format!("  {name}, {home}"), dim));
                (SEAT_LABELS[usize::from(i).min(5)], spans)
            }
            Row::Port => {
                let cursor = if selected { "▏" } else { "" };
                let mut spans = vec![
                    Span::raw("  "),
                    Span::styled(format!("{}{cursor}", menu.port), Style::new().underlined()),
                ];
                let found = match menu.ports.len() {
                    0 => "  (none found: type a path)".to_string(),
                    n => format!("  (←→: {n} found, Del clears)"),
                };
                spans.push(Span::styled(found, dim));
                ("Port", spans)
            }
            Row::First => (
                "First move",
                choice(
                    selected,
                    if menu.engines_only {
                        "engine vs engine (you watch)"
                    } else if menu.engine_first {
                        "engine"
                    } else {
                        "you"
                    }
                    .into(),
                ),
            ),
            Row::Clock => {
                let text = if menu.clocks.is_empty() {
                    "none".to_string()
                } else {
                    TimeControl::sides_label(&menu.clocks)
                };
                let mut spans = choice(selected, text);
                spans.push(Span::styled("  minutes + seconds a move", dim));
                ("Clock", spans)
            }
            Row::Level => {
                let text = match menu.game().level_name(menu.level) {
                    Some(name) => format!("{} ({name})", menu.level),
                    None if menu.level == 0 => "0 (engine default)".to_string(),
                    None => menu.level.to_string(),
                };
                ("Level", choice(selected, text))
            }
            Row::Start => {
                lines.push(Line::from(""));
                let style = if selected {
                    Style::new().black().on_yellow().bold()
                } else {
                    Style::new().bold()
                };
                lines.push(Line::from(vec![
                    Span::raw(marker),
                    Span::raw("            "),
                    Span::styled("[ Start ]", style),
                ]));
                continue;
            }
        };
        let label_style = if selected {
            Style::new().bold()
        } else {
            Style::new()
        };
        let mut spans = vec![
            Span::raw(marker),
            Span::styled(format!("{name:<12}"), label_style),
        ];
        spans.append(&mut value);
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(""));
    if let Some(e) = &menu.error {
        lines.push(Line::from(Span::styled(
            e.clone(),
            Style::new().fg(Color::Red),
        )));
    } else {
        let hint = match menu.opponent {
            0 => "The firmware's own engine, running in this process.",
            1 => "A micro:bit running Sente firmware, over USB serial.",
            2 => "The firmware in QEMU, started for you (takes a few seconds).",
            _ if game.per_seat() => "People take turns at this keyboard.",
            _ => "Two people take turns at this keyboard.",
        };
        lines.push(Line::from(Span::styled(hint, dim)));
    }
    // A short terminal: the blank lines and the introduction go first, then the
    // hint; [ Start ] (and an error) stay pinned under the rows, which scroll so
    // that the selected one stays on screen.
    let room = usize::from(inner.height);
    if lines.len() > room {
        lines.retain(|l| l.width() > 0);
        if lines.len() > room {
            lines.remove(0);
        }
    }
    let is_start = |l: &Line| l.spans.iter().any(|s| s.content == "[ Start ]");
    if lines.len() > room && menu.error.is_none() && lines.last().is_some_and(|l| !is_start(l)) {
        lines.pop(); // the hint
    }
    let start = lines.iter().position(is_start).unwrap_or(lines.len());
    let pinned: Vec<Line> = lines.split_off(start);
    let rows_room = room.saturating_sub(pinned.len());
    let selected = lines
        .iter()
        .position(|l| l.spans.first().is_some_and(|s| s.content == "› "))
        .unwrap_or(0);
    let skip = if lines.len() > rows_room {
        (selected + 1)
            .saturating_sub(rows_room)
            .min(lines.len() - rows_room)
    } else {
        0
    };
    let lines: Vec<Line> = lines
        .into_iter()
        .skip(skip)
        .take(rows_room)
        .chain(pinned)
        .collect();
    frame.render_widget(
        Paragraph::new(lines),
        inner.inner(ratatui::layout::Margin::new(1, 0)),
    );
}

/// Menu labels of the seats.
const SEAT_LABELS: [&str; 6] = ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5", "Seat 6"];

fn draw_play(frame: &mut Frame, play: &Play) {
    let layout = play_layout(frame.area(), play.view.as_ref());
    let view = &play.view;
    let players = view.player_count();
    let title = if players == 2 {
        format!(
            " Sente · {} · {} vs {}",
            view.title(),
            play.player_label(0),
            play.player_label(1)
        )
    } else {
        let engines = play.seats.len() - play.people();
        let mut t = format!(" Sente · {} · {players} players", view.title());
        if play.against_engine() {
            let who = match play.people() {
                0 => "no people".to_string(),
                1 => "you".to_string(),
                n => format!("{n} people"),
            };
            let link = play.settings.opponent.label();
            t.push_str(&format!(": {who} and {engines} × {link}"));
        }
        t
    };
    frame.render_widget(
        Paragraph::new(title).style(Style::new().bold().reversed()),
        layout.title,
    );
    let n = view.moves().len();
    let board_title = match play.browse {
        Some(p) => format!(" Board · move {p} of {n} "),
        None => " Board ".to_string(),
    };
    let frame_style = if play.browse.is_some() {
        Style::new().fg(Color::Yellow)
    } else {
        Style::new()
    };
    frame.render_widget(
        Block::bordered()
            .title(board_title)
            .border_style(frame_style),
        layout.board_frame,
    );
    // A terminal too small for any of the board leaves nothing to draw it in.
    let board = layout.board.intersection(frame.area());
    if !board.is_empty() {
        let cursor = play.human_to_move() && play.browse.is_none();
        view.render(board, frame.buffer_mut(), cursor);
    }
    if !layout.engine.is_empty() {
        draw_engine(frame, play, layout.engine);
    }
    let mut moves = layout.moves;
    if players > 2 {
        let [seats, rest] = Layout::vertical([
            Constraint::Length(u16::from(players) + 2),
            Constraint::Min(0),
        ])
        .areas(moves);
        draw_seats(frame, play, seats);
        moves = rest;
    } else if play.clocks.is_some() {
        let [clocks, rest] =
            Layout::vertical([Constraint::Length(4), Constraint::Min(0)]).areas(moves);
        draw_clocks(frame, play, clocks);
        moves = rest;
    }
    if !moves.is_empty() {
        draw_moves(frame, play, moves);
    }
    frame.render_widget(
        Paragraph::new(status_lines(play)).wrap(Wrap { trim: true }),
        layout.status,
    );
    frame.render_widget(
        Paragraph::new(key_bar(play)).style(Style::new().fg(Color::DarkGray)),
        layout.keys,
    );
}

/// The keys that matter now, most useful first (the bar is cut at the right).
fn key_bar(play: &Play) -> String {
    let lost = matches!(
        play.engine.as_ref().map(|e| &e.state),
        Some(EngineState::Lost(_))
    );
    if lost {
        return " r reconnect · h host engine · u undo · s save · m menu · ? help · q quit".into();
    }
    if play.browse.is_some() {
        return " [ ] step · Home/End first/last · Esc back to the game · ? help · q quit".into();
    }
    if play.engines_playing() {
        let pause = if play.pace.paused {
            "p go on · . one move"
        } else {
            "p pause"
        };
        return format!(" {pause} · +/- speed · [ ] moves · s save · ? help · q quit");
    }
    " h hint · u undo · U redo · [ ] moves · s save · o open · ? help · q quit".into()
}

/// A clock for each player: time left, the running one marked.
fn clock_span(play: &Play, player: u8, now: Instant) -> Option<Span<'static>> {
    let clocks = play.clocks.as_ref()?;
    let left = clocks.left(player, now);
    let running = clocks.running() == Some(player);
    let mut style = Style::new().bold();
    if play.flag == Some(player) {
        style = style.fg(Color::Red);
    } else if running {
        style = style.fg(Color::Yellow);
    }
    let mark = if running { "⏵" } else { " " };
    Some(Span::styled(
        format!("{mark}{:>8}", clock_text(left)),
        style,
    ))
}

fn draw_clocks(frame: &mut Frame, play: &Play, area: Rect) {
    let now = Instant::now();
    let lines: Vec<Line> = (0..play.view.player_count())
        .filter_map(|p| {
            let clock = clock_span(play, p, now)?;
            Some(Line::from(vec![
                Span::raw(format!(" {:<22}", play.player_label(p))),
                clock,
            ]))
        })
        .collect();
    let controls = TimeControl::sides_label(&play.settings.clocks);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(format!(" Clocks {controls} "))),
        area,
    );
}

/// The two status lines: state of play (or the lost board) and the last message.
fn status_lines(play: &Play) -> Vec<Line<'static>> {
    let view = &play.view;
    let red = Style::new().fg(Color::Red).bold();
    let mut lines = Vec::new();
    if let Some(engine) = &play.engine
        && let EngineState::Lost(failure) = &engine.state
    {
        let what = play.settings.opponent.label();
        let why = failure.message().trim_start_matches("board gone: ");
        let head = if engine.describe.is_empty() {
            format!("Could not connect to the {what} ({why}).")
        } else if failure.board_lost() {
            format!("The {what} is gone ({why}).")
        } else {
            format!("The {what} failed ({why}).")
        };
        lines.push(Line::from(Span::styled(head, red)));
        lines.push(Line::from(
            " The game is kept. r reconnects, h switches to the host engine.",
        ));
        return lines;
    }
    let winner = match (play.flag, view.outcome()) {
        (Some(p), _) if view.player_count() == 2 => Some(1 - p.min(1)),
        (Some(_), _) => None,
        (None, Some(Outcome::Win(p))) => Some(p),
        (None, _) => None,
    };
    let main = if let Some(result) = play.result_words() {
        let who = match winner {
            Some(p) if play.engine_plays(p) && play.people() == 0 => ".",
            Some(p) if play.engine_plays(p) => {
                if play.seats.len() > 2 {
                    " — an engine wins."
                } else {
                    " — the engine wins."
                }
            }
            Some(_) if play.against_engine() && play.people() == 1 => " — you win!",
            _ => ".",
        };
        Line::from(vec![
            Span::styled(
                format!("Game over: {result}"),
                Style::new().fg(Color::Green).bold(),
            ),
            Span::raw(who),
        ])
    } else if play.human_to_move() {
        let to_move = view.to_move();
        let side = view.side_name(to_move);
        let who = if play.engine_plays(to_move) {
            format!("The die for {}", play.player_label(to_move))
        } else if play.against_engine() && play.people() == 1 {
            format!("Your turn ({side})")
        } else if play.against_engine() {
            format!("{side} (person) to move")
        } else {
            format!("{side} to move")
        };
        Line::from(vec![
            Span::styled(who, Style::new().bold()),
            Span::raw(format!(": {}.", view.move_hint())),
        ])
    } else {
        let side = play.player_label(view.to_move());
        let text = match play.engine.as_ref().map(|e| (&e.state, e)) {
            Some((EngineState::Starting, e)) => starting_text(play, e),
            _ if play.pace.paused => format!("Paused before {side}'s move."),
            _ => format!("{side} is thinking…"),
        };
        Line::from(Span::styled(text, Style::new().fg(Color::Yellow)))
    };
    lines.push(main);
    if let Some(text) = &play.prompt {
        lines.push(Line::from(vec![
            Span::styled("Move: ", Style::new().bold()),
            Span::styled(format!("{text}▏"), Style::new().fg(Color::Yellow)),
            Span::styled(
                "  (Enter plays, Esc cancels)",
                Style::new().fg(Color::DarkGray),
            ),
        ]));
    } else if let Some(note) = &play.note {
        let style = if note.error {
            Style::new().fg(Color::Red)
        } else {
            Style::new().fg(Color::Gray)
        };
        lines.push(Line::from(Span::styled(note.text.clone(), style)));
    } else if view.outcome().is_some() {
        lines.push(Line::from("n starts a new game, u takes back."));
    } else if let (true, Some(e)) = (play.human_to_move(), play.engine.as_ref())
        && e.state == EngineState::Starting
    {
        lines.push(Line::from(Span::styled(
            starting_text(play, e),
            Style::new().fg(Color::Yellow),
        )));
    }
    lines
}

/// What an engine that is not ready yet is doing: building the simulated board's
/// firmware (with its progress), starting QEMU, or connecting.
fn starting_text(play: &Play, engine: &EngineSide) -> String {
    let secs = engine.opening_since.elapsed().as_secs();
    let time = if secs >= 1 {
        format!(" · {secs} s")
    } else {
        String::new()
    };
    match &engine.progress {
        Some(progress) => format!("{progress}{time}"),
        None if engine.spec == "sim" => format!("starting simulated board…{time}"),
        None => format!("connecting to {}…", play.settings.opponent.label()),
    }
}

/// A score in words: the engine's number (from `player`'s side, the side it
/// searched for) and whose advantage it means: `+35 (red ahead)`,
/// `-1492 (black ahead)`, `29993 (red mates in 7 plies)`.
pub fn score_words(score: i32, player: u8, view: &dyn GameView) -> String {
    let side = view.side_name(player);
    let two = view.player_count() == 2;
    let other = if two {
        view.side_name(1 - player.min(1))
    } else {
        side
    };
    if score >= MATE_BOUND {
        format!("{score}: {side} wins in {}", plies(MATE - score))
    } else if score <= -MATE_BOUND && two {
        format!("{score}: {other} wins in {}", plies(MATE + score))
    } else if score <= -MATE_BOUND {
        format!("{score}: {side} loses in {}", plies(MATE + score))
    } else if score == 0 {
        "0 (even)".to_string()
    } else if score > 0 {
        format!("{score:+} ({side} ahead)")
    } else if two {
        format!("{score:+} ({other} ahead)")
    } else {
        format!("{score:+} ({side} behind)")
    }
}

fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// A duration in seconds, in ms below one second.
fn seconds(secs: f64) -> String {
    if secs < 1.0 {
        format!("{:.1} ms", secs * 1000.0)
    } else {
        format!("{secs:.2} s")
    }
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn engine_lines(engine: &EngineSide, view: &dyn GameView) -> Vec<Line<'static>> {
    let label = |k: &str| Span::styled(format!(" {k:<8}"), Style::new().fg(Color::DarkGray));
    let row = |k: &str, v: String| Line::from(vec![label(k), Span::raw(v)]);
    let mut lines = Vec::new();
    let describe = if engine.describe.is_empty() {
        engine.spec.clone()
    } else {
        engine.describe.clone()
    };
    lines.push(row("link", describe));
    let last = engine.last.as_ref();
    let last_best = last.map(|l| (&l.best, l.player));
    let (state, shown, wall) = match &engine.state {
        EngineState::Starting => ("starting…".to_string(), None, None),
        EngineState::Ready => (
            match last.map(|l| l.purpose) {
                Some(Purpose::Hint) => "ready (last: a hint)".to_string(),
                _ => "ready".to_string(),
            },
            last_best,
            last.map(|l| l.wall),
        ),
        EngineState::Thinking {
            since,
            live,
            purpose,
            player,
            ..
        } => (
            match (since.elapsed().as_secs_f64(), purpose) {
                // Whole seconds only once it takes a while (keeps snapshots stable).
                (s, Purpose::Hint) if s >= 1.0 => format!("finding a hint… {s:.0} s"),
                (_, Purpose::Hint) => "finding a hint…".to_string(),
                (s, _) if s >= 1.0 => format!("thinking… {s:.0} s"),
                _ => "thinking…".to_string(),
            },
            live.as_ref().map(|b| (b, *player)),
            None,
        ),
        EngineState::Lost(f) if f.board_lost() => ("GONE".to_string(), last_best, None),
        EngineState::Lost(_) => ("FAILED".to_string(), last_best, None),
    };
    lines.push(row("state", state));
    let Some((best, player)) = shown else {
        lines.push(row("", "no search yet".to_string()));
        return lines;
    };
    lines.push(row("best", best.best.clone()));
    lines.push(row("score", score_words(best.score, player, view)));
    lines.push(row("depth", best.depth.to_string()));
    lines.push(row("nodes", thousands(best.nodes)));
    let time = if engine.hz > 0 {
        let secs = best.ticks as f64 / f64::from(engine.hz);
        let clock = if engine.is_board() {
            "board clock"
        } else {
            "host clock"
        };
        format!("{} ({clock})", seconds(secs))
    } else {
        wall.map_or("—".to_string(), |d| seconds(d.as_secs_f64()))
    };
    lines.push(row("time", time));
    if engine.is_board() {
        lines.push(row(
            "ticks",
            format!(
                "{} @ {} Hz",
                thousands(best.ticks),
                thousands(u64::from(engine.hz))
            ),
        ));
        lines.push(row(
            "stack",
            format!("{} bytes peak", thousands(u64::from(best.stack))),
        ));
    }
    lines.push(row("pv", best.pv.join(" ")));
    lines
}

fn draw_engine(frame: &mut Frame, play: &Play, area: Rect) {
    let block = Block::bordered().title(" Engine ");
    let lines = match &play.engine {
        Some(engine) => engine_lines(engine, play.view.as_ref()),
        None => vec![
            Line::from(" Two people play: no engine."),
            Line::from(" h asks the host engine for a hint.").dark_gray(),
        ],
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The seat list of a game for more than two: colour, who plays, progress; the
/// player to move marked.
fn draw_seats(frame: &mut Frame, play: &Play, area: Rect) {
    let view = &play.view;
    let over = view.outcome().is_some();
    let lines: Vec<Line> = (0..view.player_count())
        .map(|p| {
            let marker = if !over && p == view.to_move() {
                "▶"
            } else {
                " "
            };
            let color = view.side_color(p).unwrap_or(Color::White);
            let symbol = view.side_symbol(p).unwrap_or(" ");
            let who = if !play.engine_plays(p) {
                if play.against_engine() && play.people() == 1 {
                    "you".to_string()
                } else {
                    "person".to_string()
                }
            } else {
                "engine".to_string()
            };
            let won = matches!(view.outcome(), Some(Outcome::Win(w)) if w == p);
            let detail = view.side_detail(p).unwrap_or_default();
            let mut spans = vec![
                Span::raw(format!(" {marker} ")),
                Span::styled(
                    format!("{symbol} {:<8}", view.side_name(p)),
                    Style::new().fg(color).bold(),
                ),
                Span::raw(format!("{who:<7} {detail}")),
            ];
            if let Some(clock) = clock_span(play, p, Instant::now()) {
                spans.push(clock);
            }
            spans.push(Span::styled(
                if won { "  winner" } else { "" },
                Style::new().fg(Color::Green).bold(),
            ));
            Line::from(spans)
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Seats ")),
        area,
    );
}

/// The first row of the move list on screen in `area`: where the player scrolled
/// it, else so that the move on screen (or the last) shows.
fn moves_top(play: &Play, area: Rect, rows: usize) -> usize {
    let visible = usize::from(area.height.saturating_sub(2)).max(1);
    let end = rows.saturating_sub(visible);
    match (play.list_top, play.browse) {
        (Some(top), _) => top.min(end),
        (None, Some(ply)) if ply > 0 => {
            let row = play.view.row_of_ply(ply - 1);
            row.saturating_sub(visible / 2).min(end)
        }
        (None, Some(_)) => 0,
        (None, None) => end,
    }
}

/// The ply a click on row `y` of the move list in `area` goes to (the position
/// after the last move of that row).
pub fn ply_at(play: &Play, area: Rect, y: u16) -> Option<usize> {
    let rows = play.view.move_rows().len();
    let first = area.y + 1;
    if y < first || y + 1 >= area.bottom() {
        return None;
    }
    let row = moves_top(play, area, rows) + usize::from(y - first);
    let n = play.view.moves().len();
    (0..n)
        .filter(|&ply| play.view.row_of_ply(ply) == row)
        .max()
        .map(|ply| ply + 1)
}

fn draw_moves(frame: &mut Frame, play: &Play, area: Rect) {
    let rows = play.view.move_rows();
    let total = rows.len();
    let top = moves_top(play, area, total);
    let visible = usize::from(area.height.saturating_sub(2));
    let mut title = " Moves ".to_string();
    if total > visible && visible > 0 {
        title = format!(
            " Moves {}–{} of {total} ",
            top + 1,
            (top + visible).min(total)
        );
    }
    let shown_row = play
        .browse
        .and_then(|p| p.checked_sub(1))
        .map(|ply| play.view.row_of_ply(ply));
    let lines: Vec<Line> = if rows.is_empty() {
        vec![Line::from(" (no moves yet)").dark_gray()]
    } else {
        rows.into_iter()
            .enumerate()
            .skip(top)
            .map(|(i, r)| {
                if shown_row == Some(i) {
                    Line::from(r).style(Style::new().reversed())
                } else {
                    Line::from(r)
                }
            })
            .collect()
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

fn draw_help(frame: &mut Frame, play: Option<&Play>) {
    let key = |k: &str, what: &str| {
        Line::from(vec![
            Span::styled(
                format!("  {k:<14}"),
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            ),
            Span::raw(what.to_string()),
        ])
    };
    let mut lines = Vec::new();
    if let Some(play) = play {
        lines.extend(play.view.help().iter().map(|(k, what)| key(k, what)));
    }
    lines.extend([
        key(":", "type a move in the game's notation"),
        key("Esc", "drop a selection, close, cancel"),
        key("u / U", "undo (with the engine's reply) / redo"),
        key("h", "hint: the engine's move for you"),
        key("[ / ]", "step back / on through the game"),
        key("Home / End", "the first position / back to the game"),
        key("PgUp / PgDn", "scroll the move list (the wheel too)"),
        key("s / o", "save / open a game or position (or paste)"),
        key("n / m", "new game (next seed) / start screen"),
        key("t", "colour theme: dark, light, mono"),
        key("p . + -", "engines: pause, one move, faster, slower"),
        key("r / h", "board lost: reconnect / host engine"),
        key("? / F1", "this help"),
        key("q", "quit (the game is kept for next time)"),
        Line::from("  Any key closes this help.").dark_gray(),
    ]);
    let area = centered(frame.area(), 60, lines.len() as u16 + 2);
    clear_for_popup(frame, area);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Keys ")),
        area,
    );
}

fn draw_popup(frame: &mut Frame, popup: &Popup, play: Option<&Play>) {
    let key = Style::new().fg(Color::Yellow).bold();
    let dim = Style::new().fg(Color::DarkGray);
    let (title, lines): (&str, Vec<Line>) = match popup {
        Popup::Confirm(Ask::Quit) => (
            " Quit? ",
            vec![
                Line::from(" The game in progress is kept: Sente offers it"),
                Line::from(" again when it starts next time."),
                Line::from(""),
                Line::from(vec![
                    Span::styled(" y", key),
                    Span::raw(" quit   "),
                    Span::styled("n / Esc", key),
                    Span::raw(" go on playing"),
                ]),
            ],
        ),
        Popup::Confirm(Ask::Leave(then)) => {
            let what = match then {
                Then::Menu => "go to the start screen",
                Then::NewGame => "start a new game",
                Then::Open => "open another game",
            };
            let name = play
                .map(|p| saved::default_file_name(p, std::time::SystemTime::now()))
                .unwrap_or_default();
            (
                " Leave this game? ",
                vec![
                    Line::from(format!(" The game is not saved. To {what}:")),
                    Line::from(""),
                    Line::from(vec![
                        Span::styled(" s", key),
                        Span::raw(format!(" save it first ({name})")),
                    ]),
                    Line::from(vec![
                        Span::styled(" y", key),
                        Span::raw(" leave it unsaved"),
                    ]),
                    Line::from(vec![
                        Span::styled(" n / Esc", key),
                        Span::raw(" go on playing"),
                    ]),
                ],
            )
        }
        Popup::Input { kind, text, error } => {
            let (title, help) = match kind {
                InputKind::Save => (
                    " Save the game ",
                    " .pgn xiangqi · .psq gomoku · else Sente's record form",
                ),
                InputKind::Open => (
                    " Open a game or a position ",
                    " a file's path, or paste a position, PGN or record",
                ),
            };
            let shown: Vec<&str> = text.lines().collect();
            let mut lines = vec![Line::from(Span::styled(help, dim)), Line::from("")];
            let last = shown.len().saturating_sub(3);
            if shown.len() > 3 {
                lines.push(Line::from(format!(" … {} lines", shown.len())).dark_gray());
            }
            for (i, l) in shown.iter().enumerate().skip(last) {
                let cursor = if i + 1 == shown.len() && !text.ends_with('\n') {
                    "▏"
                } else {
                    ""
                };
                lines.push(Line::from(vec![
                    Span::raw(" "),
                    Span::styled(format!("{l}{cursor}"), Style::new().fg(Color::Yellow)),
                ]));
            }
            if shown.is_empty() || text.ends_with('\n') {
                lines.push(Line::from(" ▏").fg(Color::Yellow));
            }
            lines.push(Line::from(""));
            if let Some(e) = error {
                lines.push(Line::from(Span::styled(
                    format!(" {e}"),
                    Style::new().fg(Color::Red),
                )));
            }
            lines.push(Line::from(vec![
                Span::styled(" Enter", key),
                Span::raw(if *kind == InputKind::Save {
                    " saves   "
                } else {
                    " opens   "
                }),
                Span::styled("Esc", key),
                Span::raw(" cancels   "),
                Span::styled("Ctrl-U", key),
                Span::raw(" clears"),
            ]));
            (title, lines)
        }
        Popup::Resume {
            summary,
            kind,
            instead,
            ..
        } => {
            let words = kind.words();
            let mut lines = vec![
                Line::from(match instead {
                    Some(named) => format!(
                        " You asked for {}; a {words} game was left unfinished:",
                        named.words()
                    ),
                    None => format!(" The last time, a {words} game was left unfinished:"),
                }),
                Line::from(Span::styled(format!(" {summary}"), Style::new().bold())),
                Line::from(""),
            ];
            let row = |k: &str, what: String| {
                Line::from(vec![Span::styled(format!(" {k:<7}"), key), Span::raw(what)])
            };
            match instead {
                Some(named) => {
                    let named = named.words();
                    lines.extend([
                        row("Enter", format!("play the {words} game on")),
                        row(
                            "Esc",
                            format!("start {named} (the {words} game is set aside: o opens it)"),
                        ),
                        row("d", format!("forget the {words} game, start {named}")),
                    ]);
                }
                None => lines.extend([
                    row("Enter", format!("play the {words} game on")),
                    row("Esc", "not now (offered again next time)".into()),
                    row("d", format!("forget the {words} game")),
                ]),
            }
            (" An unfinished game ", lines)
        }
    };
    let width = lines
        .iter()
        .map(Line::width)
        .max()
        .unwrap_or(20)
        .max(title.len()) as u16
        + 4;
    // Long lines wrap in a narrow terminal: the popup is as tall as its wrapped
    // lines, and leaves its blank lines out when the terminal is short.
    let inner_width = usize::from(width.max(44).min(frame.area().width).saturating_sub(2)).max(1);
    let rows = |lines: &[Line]| -> u16 {
        lines
            .iter()
            .map(|l| l.width().max(1).div_ceil(inner_width) as u16)
            .sum()
    };
    let mut lines = lines;
    if rows(&lines) + 2 > frame.area().height {
        lines.retain(|l| l.width() > 0);
    }
    let area = centered(frame.area(), width.max(44), rows(&lines) + 2);
    clear_for_popup(frame, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title.bold()).border_style(key)),
        area,
    );
}
