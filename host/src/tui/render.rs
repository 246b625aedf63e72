//! Drawing: the start screen, the game screen (board, status, engine panel, moves)
//! and the help overlay. Pure functions of the [`App`]; no terminal access.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use sente_firmware::game::{MATE, MATE_BOUND, Outcome};
use sente_firmware::games::gomoku::Rule;

use super::app::{App, EngineSide, EngineState, Opponent, Play, Screen, Seat};
use super::menu::{Menu, NO_ENGINE, OPPONENTS, RULES, Row};

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

/// Lays out the game screen for a board widget of `board` (width, height).
pub fn play_layout(screen: Rect, board: (u16, u16)) -> PlayLayout {
    let [title, main, status, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(screen);
    let [left, right] =
        Layout::horizontal([Constraint::Length(board.0 + 4), Constraint::Min(0)]).areas(main);
    let [board_frame, _] =
        Layout::vertical([Constraint::Length(board.1 + 2), Constraint::Min(0)]).areas(left);
    let inner =
        Rect::new(board_frame.x + 2, board_frame.y + 1, board.0, board.1).intersection(board_frame);
    let [engine, moves] =
        Layout::vertical([Constraint::Length(12), Constraint::Min(0)]).areas(right);
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

/// Draws the whole app.
pub fn draw(frame: &mut Frame, app: &App) {
    match &app.screen {
        Screen::Menu(menu) => draw_menu(frame, menu),
        Screen::Play(play) => draw_play(frame, play),
    }
    if app.help {
        draw_help(frame, app.play());
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
    let block = Block::bordered()
        .title(" Sente ".bold())
        .title_bottom(Line::from(" ↑↓ choose · ←→ change · Enter start · q quit ").centered());
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
                    Rule::Caro => "  exactly five, not blocked at both ends",
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
                    if menu.engine_first { "engine" } else { "you" }.into(),
                ),
            ),
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
    frame.render_widget(
        Paragraph::new(lines),
        inner.inner(ratatui::layout::Margin::new(1, 0)),
    );
}

/// Menu labels of the seats.
const SEAT_LABELS: [&str; 6] = ["Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5", "Seat 6"];

fn draw_play(frame: &mut Frame, play: &Play) {
    let layout = play_layout(frame.area(), play.view.size());
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
        if play.engine.is_some() {
            let who = match play.people() {
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
    frame.render_widget(Block::bordered().title(" Board "), layout.board_frame);
    // A terminal too small for any of the board leaves nothing to draw it in.
    let board = layout.board.intersection(frame.area());
    if !board.is_empty() {
        view.render(board, frame.buffer_mut(), play.human_to_move());
    }
    draw_engine(frame, play, layout.engine);
    if players > 2 {
        let [seats, moves] = Layout::vertical([
            Constraint::Length(u16::from(players) + 2),
            Constraint::Min(0),
        ])
        .areas(layout.moves);
        draw_seats(frame, play, seats);
        draw_moves(frame, play, moves);
    } else {
        draw_moves(frame, play, layout.moves);
    }
    frame.render_widget(
        Paragraph::new(status_lines(play)).wrap(Wrap { trim: true }),
        layout.status,
    );
    let lost = matches!(
        play.engine.as_ref().map(|e| &e.state),
        Some(EngineState::Lost(_))
    );
    let keys = if lost {
        " r reconnect · h host engine · u undo · n new game · m menu · ? help · q quit"
    } else {
        " u undo · n new game · m menu · ? help · q quit"
    };
    frame.render_widget(
        Paragraph::new(keys).style(Style::new().fg(Color::DarkGray)),
        layout.keys,
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
    let main = if let Some(result) = view.result_text() {
        let who = match (view.outcome(), &play.engine) {
            (Some(Outcome::Win(p)), Some(_)) if play.engine_plays(p) => {
                if play.seats.len() > 2 {
                    " — an engine wins."
                } else {
                    " — the engine wins."
                }
            }
            (Some(Outcome::Win(_)), Some(_)) if play.people() == 1 => " — you win!",
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
        } else if play.engine.is_some() && play.people() == 1 {
            format!("Your turn ({side})")
        } else if play.engine.is_some() {
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
        let text = match play.engine.as_ref().map(|e| &e.state) {
            Some(EngineState::Starting) if play.settings.opponent == Opponent::Sim => {
                "starting simulated board…".to_string()
            }
            Some(EngineState::Starting) => {
                format!("connecting to {}…", play.settings.opponent.label())
            }
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
    } else if let (true, Some(EngineState::Starting)) =
        (play.human_to_move(), play.engine.as_ref().map(|e| &e.state))
    {
        let text = if play.settings.opponent == Opponent::Sim {
            "starting simulated board… (QEMU)".to_string()
        } else {
            format!("connecting to {}…", play.settings.opponent.label())
        };
        lines.push(Line::from(Span::styled(
            text,
            Style::new().fg(Color::Yellow),
        )));
    }
    lines
}

/// A score in words, from the engine's point of view.
pub fn score_words(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("{score} (engine wins in {})", plies(MATE - score))
    } else if score <= -MATE_BOUND {
        format!("{score} (engine loses in {})", plies(MATE + score))
    } else if score == 0 {
        "0 (even)".to_string()
    } else {
        format!("{score:+}")
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

fn engine_lines(engine: &EngineSide) -> Vec<Line<'static>> {
    let label = |k: &str| Span::styled(format!(" {k:<8}"), Style::new().fg(Color::DarkGray));
    let row = |k: &str, v: String| Line::from(vec![label(k), Span::raw(v)]);
    let mut lines = Vec::new();
    let describe = if engine.describe.is_empty() {
        engine.spec.clone()
    } else {
        engine.describe.clone()
    };
    lines.push(row("link", describe));
    let (state, shown, wall) = match &engine.state {
        EngineState::Starting => ("starting…".to_string(), None, None),
        EngineState::Ready => (
            "ready".to_string(),
            engine.last.as_ref().map(|(b, _)| b),
            engine.last.as_ref().map(|(_, d)| *d),
        ),
        EngineState::Thinking { since, live, .. } => (
            match since.elapsed().as_secs_f64() {
                // Whole seconds only once it takes a while (keeps snapshots stable).
                s if s >= 1.0 => format!("thinking… {s:.0} s"),
                _ => "thinking…".to_string(),
            },
            live.as_ref(),
            None,
        ),
        EngineState::Lost(f) if f.board_lost() => (
            "GONE".to_string(),
            engine.last.as_ref().map(|(b, _)| b),
            None,
        ),
        EngineState::Lost(_) => (
            "FAILED".to_string(),
            engine.last.as_ref().map(|(b, _)| b),
            None,
        ),
    };
    lines.push(row("state", state));
    let Some(best) = shown else {
        lines.push(row("", "no search yet".to_string()));
        return lines;
    };
    lines.push(row("best", best.best.clone()));
    lines.push(row("score", score_words(best.score)));
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
        Some(engine) => engine_lines(engine),
        None => vec![Line::from(" Two people play: no engine.")],
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
            let who = if !play.engine_plays(p) {
                if play.engine.is_some() && play.people() == 1 {
                    "you".to_string()
                } else {
                    "person".to_string()
                }
            } else {
                "engine".to_string()
            };
            let won = matches!(view.outcome(), Some(Outcome::Win(w)) if w == p);
            let detail = view.side_detail(p).unwrap_or_default();
            Line::from(vec![
                Span::raw(format!(" {marker} ")),
                Span::styled(
                    format!("{:<8}", view.side_name(p)),
                    Style::new().fg(color).bold(),
                ),
                Span::raw(format!("{who:<7} {detail}")),
                Span::styled(
                    if won { "  winner" } else { "" },
                    Style::new().fg(Color::Green).bold(),
                ),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Seats ")),
        area,
    );
}

fn draw_moves(frame: &mut Frame, play: &Play, area: Rect) {
    let block = Block::bordered().title(" Moves ");
    let rows: Vec<Line> = play.view.move_rows().into_iter().map(Line::from).collect();
    let visible = usize::from(area.height.saturating_sub(2));
    let skip = rows.len().saturating_sub(visible);
    let lines: Vec<Line> = if rows.is_empty() {
        vec![Line::from(" (no moves yet)").dark_gray()]
    } else {
        rows.into_iter().skip(skip).collect()
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
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
    let mut lines = vec![Line::from("")];
    if let Some(play) = play {
        lines.extend(play.view.help().iter().map(|(k, what)| key(k, what)));
    }
    lines.extend([
        key(":", "type a move in the game's notation"),
        key("u", "undo: your move and the engine's reply"),
        key("n", "new game, with the next seed"),
        key("m", "back to the start screen"),
        key("? / h", "this help"),
        key("q / Esc", "quit"),
        Line::from(""),
        Line::from("  When a board is lost:").bold(),
        key("r", "reconnect to the same board"),
        key("h", "switch to the host engine"),
        Line::from(""),
        Line::from("  Any key closes this help.").dark_gray(),
    ]);
    let area = centered(frame.area(), 60, lines.len() as u16 + 2);
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Keys ")),
        area,
    );
}
