//! App logic tests (keys → state, no terminal) and rendering snapshots (TestBackend).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use sente_firmware::games::gomoku::Rule;

use super::app::{App, Ask, Effect, EngineState, Opponent, Popup, Screen, Settings, Then};
use super::menu::{Menu, Row};
use super::render;
use super::view::GameKind;
use super::worker::{EngineEvent, Failure, Job};
use crate::reply::BestMove;

const W: u16 = 80;
const H: u16 = 24;

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn screen(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(W, H)).unwrap();
    t.draw(|f| render::draw(f, app)).unwrap();
    t
}

fn settings(opponent: Opponent) -> Settings {
    Settings {
        opponent,
        ..Settings::default()
    }
}

fn best(
    mv: &str,
    score: i32,
    depth: u32,
    nodes: u64,
    ticks: u64,
    stack: u32,
    pv: &[&str],
) -> BestMove {
    BestMove {
        best: mv.into(),
        score,
        depth,
        nodes,
        ticks,
        stack,
        arena: 0,
        pv: pv.iter().map(|s| s.to_string()).collect(),
    }
}

/// A game against `opponent` whose engine has just connected.
fn connected(opponent: Opponent, describe: &str, hz: u32) -> App {
    let mut app = App::with_game(settings(opponent));
    let spawned = app.take_effects();
    assert!(matches!(&spawned[..], [Effect::Spawn(_)]), "{spawned:?}");
    app.on_engine(EngineEvent::Opened {
        describe: describe.into(),
        hz,
    });
    app
}

/// The search the app just asked for.
fn asked(app: &mut App) -> Job {
    match app.take_effects().as_slice() {
        [Effect::Go(job)] => job.clone(),
        other => panic!("expected one search, got {other:?}"),
    }
}

fn moves(app: &App) -> Vec<String> {
    app.play().unwrap().view.moves().to_vec()
}

#[test]
fn a_move_asks_the_engine_with_info_and_its_answer_is_played() {
    let mut app = connected(Opponent::Host, "host", 1_000_000);
    assert!(app.take_effects().is_empty(), "you move first");
    key(&mut app, KeyCode::Enter); // cursor starts in the centre
    let job = asked(&mut app);
    assert!(job.request.info);
    let seed = Settings::default().request_seed(1);
    assert_eq!(
        job.request.line(),
        format!("go ttt seed={seed} info=1 pos .../.x./...")
    );
    app.on_engine(EngineEvent::Info {
        id: job.id,
        best: best("a3", 0, 3, 100, 5, 0, &["a3"]),
    });
    assert!(matches!(
        &app.play().unwrap().engine.as_ref().unwrap().state,
        EngineState::Thinking { live: Some(_), .. }
    ));
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Ok(best("a3", 0, 8, 2000, 50, 0, &["a3", "c1"])),
    });
    assert_eq!(moves(&app), ["b2", "a3"]);
    assert!(app.play().unwrap().human_to_move());
}

#[test]
fn engine_first_asks_as_soon_as_it_connects() {
    let mut app = App::with_game(Settings {
        engine_first: true,
        level: 3,
        ..Settings::default()
    });
    app.take_effects();
    app.on_engine(EngineEvent::Opened {
        describe: "host".into(),
        hz: 1_000_000,
    });
    let job = asked(&mut app);
    assert_eq!(job.request.level, 3);
    assert_eq!(job.request.position, ".../.../...");
    key(&mut app, KeyCode::Char('5'));
    assert!(
        app.play()
            .unwrap()
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("thinking")
    );
    assert!(moves(&app).is_empty());
}

#[test]
fn illegal_input_keeps_the_game_and_says_why() {
    let mut app = App::with_game(settings(Opponent::Human));
    keys(&mut app, "55");
    let play = app.play().unwrap();
    assert_eq!(play.view.moves(), ["b2"]);
    let note = play.note.as_ref().unwrap();
    assert!(note.error && note.text.contains("taken"), "{note:?}");
    keys(&mut app, "x");
    assert!(
        app.play()
            .unwrap()
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("Unknown key")
    );
    assert_eq!(moves(&app), ["b2"]);
}

#[test]
fn undo_takes_back_the_move_pair_and_ignores_a_stale_answer() {
    let mut app = connected(Opponent::Host, "host", 1_000_000);
    key(&mut app, KeyCode::Char('5'));
    let first = asked(&mut app);
    app.on_engine(EngineEvent::Done {
        id: first.id,
        result: Ok(best("a3", 0, 8, 1, 1, 0, &[])),
    });
    key(&mut app, KeyCode::Char('9'));
    let second = asked(&mut app);
    // Undo while the engine thinks: only your move goes, the late answer is ignored.
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(moves(&app), ["b2", "a3"]);
    app.on_engine(EngineEvent::Done {
        id: second.id,
        result: Ok(best("a1", 0, 8, 1, 1, 0, &[])),
    });
    assert_eq!(moves(&app), ["b2", "a3"]);
    // Undo on your turn: your move and the engine's reply.
    key(&mut app, KeyCode::Char('u'));
    assert!(moves(&app).is_empty());
    key(&mut app, KeyCode::Char('u'));
    assert!(
        app.play()
            .unwrap()
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("Nothing")
    );
}

#[test]
fn a_lost_board_keeps_the_game_and_offers_reconnect_or_host() {
    let mut app = connected(
        Opponent::Serial("/dev/ttyACM0".into()),
        "/dev/ttyACM0",
        15_625_000,
    );
    key(&mut app, KeyCode::Char('1'));
    let job = asked(&mut app);
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Err(Failure::Gone("board gone: /dev/ttyACM0".into())),
    });
    assert_eq!(moves(&app), ["a3"]);
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(app.take_effects(), [Effect::Spawn("/dev/ttyACM0".into())]);
    app.on_engine(EngineEvent::OpenFailed(
        "cannot open serial port /dev/ttyACM0".into(),
    ));
    key(&mut app, KeyCode::Char('h'));
    assert_eq!(app.take_effects(), [Effect::Spawn("host".into())]);
    assert!(
        !app.help,
        "h switches to the host engine instead of showing help"
    );
    app.on_engine(EngineEvent::Opened {
        describe: "host".into(),
        hz: 1_000_000,
    });
    let again = asked(&mut app);
    assert_eq!(again.request.position, "x../.../...");
    assert_eq!(app.play().unwrap().settings.opponent, Opponent::Host);
}

#[test]
fn help_quit_new_game_and_mouse() {
    let mut app = App::with_game(settings(Opponent::Human));
    key(&mut app, KeyCode::Char('?'));
    assert!(app.help);
    key(&mut app, KeyCode::Char('5'));
    assert!(
        !app.help && moves(&app).is_empty(),
        "a key closes the help and does nothing else"
    );
    let screen = Rect::new(0, 0, W, H);
    let board = render::play_layout(screen, app.play().unwrap().view.as_ref()).board;
    let click = |x, y| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    app.on_mouse(click(board.x + board.width - 3, board.y + 3), screen);
    assert_eq!(moves(&app), ["c3"]);
    app.on_mouse(click(0, 0), screen);
    assert_eq!(moves(&app), ["c3"]);
    // A game in progress: n asks first (Esc stays), and so does q.
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.popup, Some(Popup::Confirm(Ask::Leave(Then::NewGame))));
    key(&mut app, KeyCode::Esc);
    assert_eq!(moves(&app), ["c3"], "Esc keeps the game");
    key(&mut app, KeyCode::Char('n'));
    key(&mut app, KeyCode::Char('y'));
    assert!(moves(&app).is_empty());
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit, "nothing to lose: q quits at once");
}

#[test]
fn the_menu_starts_the_chosen_game() {
    let mut app = App::with_menu(Menu::new(Settings::default(), vec![]));
    key(&mut app, KeyCode::Up); // Clock
    key(&mut app, KeyCode::Up); // Level
    key(&mut app, KeyCode::Up); // First move
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Up); // Opponent
    key(&mut app, KeyCode::Left); // second person
    key(&mut app, KeyCode::Enter);
    let play = app.play().expect("a game");
    assert_eq!(play.settings.opponent, Opponent::Human);
    assert!(play.settings.engine_first);
    assert!(app.take_effects().is_empty(), "no engine for two people");
}

// ---- snapshots ----

#[test]
fn snapshot_start_menu() {
    let app = App::with_menu(Menu::new(Settings::default(), vec!["/dev/ttyACM0".into()]));
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_menu_serial_port() {
    let mut app = App::with_menu(Menu::new(Settings::default(), vec!["/dev/ttyACM0".into()]));
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Down);
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_starting_simulated_board() {
    let app = App::with_game(settings(Opponent::Sim));
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_mid_game_with_cursor() {
    let mut app = App::with_game(settings(Opponent::Human));
    keys(&mut app, "517");
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Up);
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_finished_game_with_winning_line() {
    let mut app = App::with_game(settings(Opponent::Human));
    keys(&mut app, "14253");
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_engine_panel_after_a_board_search() {
    let mut app = connected(Opponent::Sim, "sim (/dev/pts/3)", 15_625_000);
    key(&mut app, KeyCode::Char('5'));
    let job = asked(&mut app);
    app.on_engine(EngineEvent::Info {
        id: job.id,
        best: best("a3", 0, 4, 900, 80_000, 2100, &["a3", "c1"]),
    });
    let answer = best(
        "a3",
        0,
        8,
        22_724,
        3_412_500,
        2_608,
        &["a3", "c1", "b1", "b3", "c2", "a2", "a1", "c3"],
    );
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Ok(answer),
    });
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_engine_wins_reported_as_mate() {
    let mut app = connected(Opponent::Host, "host", 1_000_000);
    key(&mut app, KeyCode::Char('2'));
    let job = asked(&mut app);
    let answer = best(
        "b2",
        29_993,
        7,
        5_120,
        1_834,
        0,
        &["b2", "a1", "c3", "a2", "a3"],
    );
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Ok(answer),
    });
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_board_gone() {
    let mut app = connected(
        Opponent::Serial("/dev/ttyACM0".into()),
        "/dev/ttyACM0",
        15_625_000,
    );
    key(&mut app, KeyCode::Char('5'));
    let job = asked(&mut app);
    let failure = Failure::Gone("board gone: /dev/ttyACM0: Input/output error".into());
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Err(failure),
    });
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_help_overlay() {
    let mut app = App::with_game(settings(Opponent::Human));
    keys(&mut app, "5?");
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn tiny_terminals_do_not_panic() {
    let mut menu = App::with_menu(Menu::new(Settings::default(), vec![]));
    let mut game = connected(Opponent::Sim, "sim", 16_000_000);
    keys(&mut game, "5");
    let mut help = App::with_game(settings(Opponent::Human));
    keys(&mut help, "?");
    let mut renju = gomoku_game(Rule::Renju, &["h8", "h9", "o15"]);
    let mut xiangqi = xiangqi_game(&["h2e2"]);
    keys(&mut xiangqi, "f");
    let mut einstein = App::with_game(Settings {
        game: GameKind::Einstein(super::view::Dice::Typed),
        ..settings(Opponent::Human)
    });
    keys(&mut einstein, "123456");
    let mut checkers = App::with_game(Settings {
        game: GameKind::Checkers {
            players: 6,
            pieces: 10,
        },
        ..settings(Opponent::Human)
    });
    keys(&mut checkers, "\t ");
    for app in [
        &mut menu,
        &mut game,
        &mut help,
        &mut renju,
        &mut xiangqi,
        &mut einstein,
        &mut checkers,
    ] {
        for (w, h) in [
            (1, 1),
            (3, 1),
            (62, 1),
            (10, 3),
            (30, 10),
            (40, 20),
            (200, 60),
        ] {
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| render::draw(f, app)).unwrap();
            let click = MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: w - 1,
                row: h - 1,
                modifiers: KeyModifiers::NONE,
            };
            app.on_mouse(click, Rect::new(0, 0, w, h));
        }
    }
}

#[test]
fn m_goes_back_to_the_start_screen_and_stops_the_engine() {
    let mut app = connected(Opponent::Sim, "sim", 16_000_000);
    keys(&mut app, "5my");
    assert!(app.play().is_none());
    assert_eq!(app.take_effects().last(), Some(&Effect::Stop));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.play().unwrap().settings.opponent, Opponent::Sim);
    assert!(moves(&app).is_empty());
}

#[test]
fn snapshot_engine_thinking_with_live_info() {
    let mut app = connected(Opponent::Sim, "sim (/dev/pts/3)", 16_000_000);
    key(&mut app, KeyCode::Char('1'));
    let job = asked(&mut app);
    let live = best(
        "b2",
        0,
        5,
        1_210,
        160_000,
        2_300,
        &["b2", "c1", "c3", "b3", "a1"],
    );
    app.on_engine(EngineEvent::Info {
        id: job.id,
        best: live,
    });
    insta::assert_snapshot!(screen(&app).backend());
}

// ---- gomoku / renju ----

fn gomoku(rule: Rule, opponent: Opponent) -> Settings {
    Settings {
        game: GameKind::Gomoku(rule),
        opponent,
        ..Settings::default()
    }
}

/// Plays `moves` (point names) in a two-person game under `rule`.
fn gomoku_game(rule: Rule, moves: &[&str]) -> App {
    let mut app = App::with_game(gomoku(rule, Opponent::Human));
    for m in moves {
        app.try_human_move(m);
    }
    assert_eq!(app.play().unwrap().view.moves().len(), moves.len());
    app
}

#[test]
fn the_menu_offers_gomoku_with_a_rule_row() {
    let mut app = App::with_menu(Menu::new(Settings::default(), vec![]));
    // Start → up to Game (Clock, Level, First, Opponent, Game).
    for _ in 0..5 {
        key(&mut app, KeyCode::Up);
    }
    key(&mut app, KeyCode::Right);
    let Screen::Menu(menu) = &app.screen else {
        panic!("menu")
    };
    assert_eq!(menu.game(), GameKind::Gomoku(Rule::Free));
    assert_eq!(
        menu.rows(),
        [
            Row::Game,
            Row::Rule,
            Row::Opponent,
            Row::First,
            Row::Level,
            Row::Clock,
            Row::Start
        ]
    );
    key(&mut app, KeyCode::Down); // Rule
    key(&mut app, KeyCode::Left); // renju
    for _ in 0..3 {
        key(&mut app, KeyCode::Down); // Opponent, First, Level
    }
    for _ in 0..5 {
        key(&mut app, KeyCode::Right);
    }
    let Screen::Menu(menu) = &app.screen else {
        panic!("menu")
    };
    assert_eq!(menu.level, 2, "gomoku levels stop at 2");
    key(&mut app, KeyCode::Enter);
    let play = app.play().expect("a game");
    assert_eq!(play.settings.game, GameKind::Gomoku(Rule::Renju));
    assert_eq!(play.view.title(), "renju");
    assert_eq!(play.view.position(), "renju");
    // Back in the menu the rule is kept.
    key(&mut app, KeyCode::Char('m'));
    let Screen::Menu(menu) = &app.screen else {
        panic!("menu")
    };
    assert_eq!(menu.game(), GameKind::Gomoku(Rule::Renju));
}

#[test]
fn gomoku_asks_the_engine_with_the_rule_and_stones() {
    let mut app = App::with_game(Settings {
        level: 1,
        ..gomoku(Rule::Standard, Opponent::Host)
    });
    app.take_effects();
    app.on_engine(EngineEvent::Opened {
        describe: "host".into(),
        hz: 1_000_000,
    });
    key(&mut app, KeyCode::Enter); // h8
    let job = asked(&mut app);
    let seed = Settings::default().request_seed(1);
    assert_eq!(
        job.request.line(),
        format!("go gomoku level=1 seed={seed} info=1 pos standard h8")
    );
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Ok(best("i9", 0, 2, 30, 5, 0, &["i9"])),
    });
    assert_eq!(moves(&app), ["h8", "i9"]);
    // A click on g7 plays it.
    let screen = Rect::new(0, 0, W, H);
    let board = render::play_layout(screen, app.play().unwrap().view.as_ref()).board;
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: board.x + 3 + 2 * 6,
        row: board.y + 1 + (15 - 7),
        modifiers: KeyModifiers::NONE,
    };
    app.on_mouse(click, screen);
    assert_eq!(moves(&app), ["h8", "i9", "g7"]);
    assert_eq!(asked(&mut app).request.position, "standard h8i9g7");
}

#[test]
fn snapshot_start_menu_gomoku_rule() {
    let mut app = App::with_menu(Menu::new(
        gomoku(Rule::Renju, Opponent::Host),
        vec!["/dev/ttyACM0".into()],
    ));
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_gomoku_start() {
    let app = App::with_game(gomoku(Rule::Free, Opponent::Human));
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_gomoku_mid_game_with_last_move_and_cursor() {
    let mut app = gomoku_game(Rule::Free, &["h8", "i9", "g9", "i7", "i8"]);
    for code in [KeyCode::Up, KeyCode::Up, KeyCode::Left, KeyCode::Left] {
        key(&mut app, code);
    }
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_gomoku_in_letters() {
    let mut app = gomoku_game(Rule::Standard, &["h8", "i9", "g9"]);
    keys(&mut app, "a");
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_renju_forbidden_points() {
    // Black to move: h8 is a double three (h9 h10 / i8 j8), shown as ×.
    let app = gomoku_game(
        Rule::Renju,
        &["h9", "a1", "h10", "a3", "i8", "a5", "j8", "a7"],
    );
    insta::assert_snapshot!(screen(&app).backend());
}

#[test]
fn snapshot_gomoku_won_with_the_winning_line() {
    let app = gomoku_game(
        Rule::Free,
        &[
            "d4", "h8", "e5", "h9", "f6", "h10", "g7", "h11", "o1", "h12",
        ],
    );
    let play = app.play().unwrap();
    assert_eq!(
        play.view.result_text().as_deref(),
        Some("white wins: h8–h12")
    );
    insta::assert_snapshot!(screen(&app).backend());
}

// ---- xiangqi ----

/// The xiangqi board needs a taller terminal than 80×24.
fn tall_screen(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(96, 30)).unwrap();
    t.draw(|f| render::draw(f, app)).unwrap();
    t
}

fn xiangqi_game(moves: &[&str]) -> App {
    let mut app = App::with_game(Settings {
        game: GameKind::Xiangqi,
        ..settings(Opponent::Human)
    });
    for m in moves {
        app.try_human_move(m);
    }
    assert_eq!(moves_len(&app), moves.len());
    app
}

fn moves_len(app: &App) -> usize {
    app.play().unwrap().view.moves().len()
}

#[test]
fn xiangqi_asks_the_engine_with_fen_and_moves() {
    let mut app = App::with_game(Settings {
        game: GameKind::Xiangqi,
        ..settings(Opponent::Host)
    });
    app.take_effects();
    app.on_engine(EngineEvent::Opened {
        describe: "host".into(),
        hz: 1_000_000,
    });
    // Cursor starts on e0; the cannon h2 is up 2, right 3; then left 3 to e2.
    for code in [
        KeyCode::Up,
        KeyCode::Up,
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Left,
        KeyCode::Left,
        KeyCode::Left,
        KeyCode::Enter,
    ] {
        key(&mut app, code);
    }
    let job = asked(&mut app);
    assert_eq!(job.request.movetime_ms, 2000, "xiangqi needs a limit");
    assert_eq!(job.request.position, "startpos moves h2e2");
    app.on_engine(EngineEvent::Done {
        id: job.id,
        result: Ok(best("h9g7", 0, 5, 900, 10, 0, &["h9g7"])),
    });
    assert_eq!(moves(&app), ["炮二平五 h2e2", "马８进７ h9g7"]);
}

#[test]
fn snapshot_xiangqi_start() {
    let app = xiangqi_game(&[]);
    insta::assert_snapshot!(tall_screen(&app).backend());
}

#[test]
fn snapshot_xiangqi_selected_piece_shows_its_targets() {
    let mut app = xiangqi_game(&["h2e2", "h9g7"]);
    // Select the horse on b0 (cursor from e0: left 3), whose targets are a2 and c2,
    // then the cannon on e2 instead (a capture on e6 among its targets).
    for _ in 0..3 {
        key(&mut app, KeyCode::Left);
    }
    key(&mut app, KeyCode::Enter);
    for code in [
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Up,
        KeyCode::Enter,
    ] {
        key(&mut app, code);
    }
    insta::assert_snapshot!(tall_screen(&app).backend());
}

#[test]
fn snapshot_xiangqi_check_warning() {
    let app = xiangqi_game(&["h2e2", "h9g7", "e3e4", "b9c7", "e4e5", "i9h9", "e5e6"]);
    insta::assert_snapshot!(tall_screen(&app).backend());
}

#[test]
fn snapshot_xiangqi_flipped_in_letters() {
    let mut app = xiangqi_game(&["h2e2", "h9g7"]);
    keys(&mut app, "fa");
    insta::assert_snapshot!(tall_screen(&app).backend());
}

#[test]
fn snapshot_xiangqi_compact_in_80x24_with_clicks() {
    let mut app = xiangqi_game(&["h2e2"]);
    // Clicks on the compact board: black's horse b9 to c7.
    let screen_area = Rect::new(0, 0, W, H);
    let board = render::play_layout(screen_area, app.play().unwrap().view.as_ref()).board;
    let click = |x, y| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    // b9 is file 1 of the top row; c7 is file 2, two rows down.
    app.on_mouse(click(board.x + 3 + 4, board.y + 1), screen_area);
    app.on_mouse(click(board.x + 3 + 8 + 1, board.y + 1 + 2), screen_area);
    assert_eq!(moves(&app), ["炮二平五 h2e2", "马２进３ b9c7"]);
    insta::assert_snapshot!(screen(&app).backend());
}

// ---- seats, EinStein and Chinese checkers ----

use super::app::Seat;
use super::checkers::CheckersView;
use super::view::Dice;
use crate::engine::{EngineLink, GoRequest};

fn checkers(players: u8, seats: &str) -> Settings {
    Settings {
        game: GameKind::Checkers {
            players,
            pieces: 10,
        },
        seats: seats
            .chars()
            .map(|c| if c == 'p' { Seat::Person } else { Seat::Engine })
            .collect(),
        ..settings(Opponent::Host)
    }
}

fn einstein(dice: Dice, opponent: Opponent) -> Settings {
    Settings {
        game: GameKind::Einstein(dice),
        seed: 42,
        ..settings(opponent)
    }
}

/// Answers every search the app asks for with the host engine until a person is to
/// move or the game ends (or `limit` searches); returns the request lines.
fn let_engines_play(app: &mut App, link: &mut EngineLink, limit: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for _ in 0..limit {
        let mut effects = app.take_effects();
        if effects.is_empty() {
            // Engine moves wait a little between them (the pace): let the time pass.
            app.tick(std::time::Instant::now() + std::time::Duration::from_secs(10));
            effects = app.take_effects();
        }
        let Some(Effect::Go(job)) = effects.last() else {
            break;
        };
        assert_eq!(effects.len(), 1, "one search at a time: {effects:?}");
        lines.push(job.request.line());
        let mut best = link
            .go(&job.request, &mut crate::engine::Quiet)
            .expect("the engine answers");
        best.ticks = 1_500; // host time varies; snapshots show 1.5 ms

        app.on_engine(EngineEvent::Done {
            id: job.id,
            result: Ok(best),
        });
    }
    lines
}

fn opened(mut app: App) -> App {
    app.take_effects();
    app.on_engine(EngineEvent::Opened {
        describe: "host".into(),
        hz: 1_000_000,
    });
    app
}

#[test]
fn seat_plans_for_two_player_and_per_seat_games() {
    use Seat::{Engine as E, Person as P};
    assert_eq!(Settings::default().seat_plan(), [P, E]);
    let first = Settings {
        engine_first: true,
        ..Settings::default()
    };
    assert_eq!(first.seat_plan(), [E, P]);
    assert_eq!(settings(Opponent::Human).seat_plan(), [P, P]);
    assert_eq!(checkers(6, "peeeee").seat_plan(), [P, E, E, E, E, E]);
    assert_eq!(checkers(2, "ep").seat_plan(), [E, P]);
    // A short list is filled up with engines; a long one is cut.
    assert_eq!(checkers(4, "pp").seat_plan(), [P, P, E, E]);
    assert_eq!(checkers(3, "eeeeee").seat_plan(), [E, E, E]);
    // People only: no engine link is opened.
    let mut app = App::with_game(checkers(3, "ppp"));
    assert!(app.take_effects().is_empty());
    assert_eq!(app.play().unwrap().player_label(1), "green");
    let app = App::with_game(checkers(6, "ppeeee"));
    let play = app.play().unwrap();
    assert_eq!(play.player_label(0), "red (person)");
    assert_eq!(play.player_label(2), "green (host engine)");
}

#[test]
fn one_person_and_five_engines_share_one_link() {
    let mut app = opened(App::with_game(checkers(6, "peeeee")));
    assert!(app.take_effects().is_empty(), "the person moves first");
    // Tab to a piece, Enter, Tab to a hole, Enter.
    for code in [KeyCode::Tab, KeyCode::Enter, KeyCode::Tab, KeyCode::Enter] {
        key(&mut app, code);
    }
    assert_eq!(moves(&app).len(), 1);
    let mut link = EngineLink::open("host").unwrap();
    let lines = let_engines_play(&mut app, &mut link, 10);
    assert_eq!(lines.len(), 5, "one search per engine seat: {lines:#?}");
    for (k, line) in lines.iter().enumerate() {
        assert!(line.contains(&format!("turn={} ", k + 1)), "{line}");
    }
    assert_eq!(moves(&app).len(), 6);
    let play = app.play().unwrap();
    assert!(play.human_to_move());
    assert_eq!(play.view.to_move(), 0);
    key(&mut app, KeyCode::Char('u'));
    assert!(moves(&app).is_empty());
    let note = app.play().unwrap().note.clone().unwrap();
    assert_eq!(
        note.text,
        "Took back your move and 5 engine moves (U: again)."
    );
}

#[test]
fn einstein_engine_gets_the_seeded_roll_and_the_same_request_every_time() {
    let run = || {
        let mut app = opened(App::with_game(einstein(Dice::Seeded, Opponent::Host)));
        key(&mut app, KeyCode::Enter); // red sets up 123456
        let mut link = EngineLink::open("host").unwrap();
        let setup = let_engines_play(&mut app, &mut link, 1);
        assert!(setup[0].ends_with("pos r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:? turn=b"));
        // Red's roll came from the seeded die; the only cube is picked: Tab, Enter.
        let first = super::einstein::seeded_roll(42, 0);
        assert_eq!(moves(&app)[2], format!("roll {first}"));
        key(&mut app, KeyCode::Tab);
        key(&mut app, KeyCode::Enter);
        // Your step, then blue's seeded roll at once: the engine gets it with the position.
        assert_eq!(moves(&app).len(), 5, "{:?}", moves(&app));
        let reply = let_engines_play(&mut app, &mut link, 1);
        let second = super::einstein::seeded_roll(42, 1);
        assert!(
            reply[0].ends_with(&format!("turn=b roll={second}")),
            "{reply:?}"
        );
        (reply, moves(&app))
    };
    assert_eq!(
        run(),
        run(),
        "same seed, same dice, same requests and replies"
    );
}

#[test]
fn a_new_game_takes_the_next_seed() {
    let mut app = opened(App::with_game(einstein(Dice::Seeded, Opponent::Human)));
    key(&mut app, KeyCode::Enter); // red sets up
    key(&mut app, KeyCode::Enter); // blue sets up; red's seeded roll follows
    assert_eq!(
        moves(&app)[2],
        format!("roll {}", super::einstein::seeded_roll(42, 0))
    );
    keys(&mut app, "ny");
    let play = app.play().unwrap();
    assert_eq!(play.settings.seed, 43);
    assert_eq!(play.note.as_ref().unwrap().text, "New game (seed 43).");
    assert!(moves(&app).is_empty());
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        moves(&app)[2],
        format!("roll {}", super::einstein::seeded_roll(43, 0))
    );
    // Back to the menu: it shows the seed of the game just left.
    keys(&mut app, "my");
    let Screen::Menu(menu) = &app.screen else {
        panic!("the start screen")
    };
    assert_eq!(menu.seed, 43);
}

#[test]
fn typed_dice_wait_for_the_person_for_both_sides() {
    let mut app = opened(App::with_game(Settings {
        engine_first: true,
        ..einstein(Dice::Typed, Opponent::Host)
    }));
    let mut link = EngineLink::open("host").unwrap();
    let_engines_play(&mut app, &mut link, 1); // the engine (red) sets up
    keys(&mut app, "654321");
    key(&mut app, KeyCode::Enter);
    assert_eq!(moves(&app)[1], "setup 654321");
    // Red is the engine, but its die is typed here: no search until then.
    assert!(app.take_effects().is_empty());
    let play = app.play().unwrap();
    assert!(play.human_to_move() && play.typed_chance());
    keys(&mut app, "9");
    assert!(
        app.play()
            .unwrap()
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("1 to 6")
    );
    keys(&mut app, "5");
    let asked = let_engines_play(&mut app, &mut link, 1);
    assert!(asked[0].ends_with("turn=r roll=5"), "{asked:?}");
    // Blue (you) types its roll, then picks the cube's target.
    keys(&mut app, "2");
    assert_eq!(moves(&app).last().unwrap(), "roll 2");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Enter);
    assert_eq!(moves(&app).len(), 6);
    // Undo: your step and the typed roll stay typed by you: the step goes.
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(moves(&app).last().unwrap(), "roll 2");
}

/// Six moves that leave red's cube 5 captured and red to roll a 5: cube 4 or 6.
const EINSTEIN_CHOICE: [&str; 7] = [
    "setup 123456",
    "setup 123456",
    "roll 5",
    "5:c3",
    "roll 5",
    "5:c3",
    "roll 5",
];

#[test]
fn snapshot_einstein_setup_phase() {
    let mut app = opened(App::with_game(einstein(Dice::Seeded, Opponent::Host)));
    keys(&mut app, "615");
    key(&mut app, KeyCode::Char(' '));
    insta::assert_snapshot!(tall_screen(&app).backend());
}

#[test]
fn snapshot_einstein_roll_with_a_two_cube_choice() {
    let mut app = App::with_game(einstein(Dice::Typed, Opponent::Human));
    for m in EINSTEIN_CHOICE {
        app.try_human_move(m);
    }
    assert_eq!(moves(&app).len(), 7);
    insta::assert_snapshot!(tall_screen(&app).backend());
    // Picking cube 6 shows its targets.
    keys(&mut app, "6");
    let play = app.play().unwrap();
    assert!(play.note.is_none(), "{:?}", play.note);
}

#[test]
fn snapshot_einstein_seeded_game_won_by_the_engine() {
    let mut app = opened(App::with_game(Settings {
        level: 2,
        ..einstein(Dice::Seeded, Opponent::Host)
    }));
    let mut link = EngineLink::open("host").unwrap();
    key(&mut app, KeyCode::Enter);
    for _ in 0..200 {
        let_engines_play(&mut app, &mut link, 2);
        let play = app.play().unwrap();
        if play.view.outcome().is_some() {
            break;
        }
        // You play the first target of the first movable cube.
        if let Some(c) = play
            .view
            .moves()
            .last()
            .and_then(|m| m.strip_prefix("roll "))
            .map(str::to_string)
        {
            let _ = c;
        }
        key(&mut app, KeyCode::Tab);
        let before = moves(&app).len();
        key(&mut app, KeyCode::Enter);
        if moves(&app).len() == before {
            // Two cubes may move: pick the first, then its first target.
            let cube = (1..=6)
                .find(|d| {
                    keys(&mut app, &d.to_string());
                    app.play().unwrap().note.as_ref().is_none_or(|n| !n.error)
                })
                .unwrap();
            let _ = cube;
            key(&mut app, KeyCode::Tab);
            key(&mut app, KeyCode::Enter);
        }
    }
    let play = app.play().unwrap();
    assert!(play.view.outcome().is_some(), "{:?}", play.view.moves());
    insta::assert_snapshot!(tall_screen(&app).backend());
}

/// A terminal as big as the tmux runs use.
fn big_screen(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    t.draw(|f| render::draw(f, app)).unwrap();
    t
}

/// Plays `plies` moves of a Chinese checkers game: engine seats through the app,
/// the person's moves chosen by the host engine at level 1 and played by clicks.
fn checkers_plies(app: &mut App, link: &mut EngineLink, plies: usize) {
    use sente_firmware::games::checkers::notation::parse_hole;
    let screen_area = Rect::new(0, 0, 120, 40);
    while moves(app).len() < plies && app.play().unwrap().view.outcome().is_none() {
        let_engines_play(app, link, 1);
        let play = app.play().unwrap();
        if !play.human_to_move() || moves(app).len() >= plies {
            continue;
        }
        let request = GoRequest {
            game: "checkers".into(),
            position: play.view.position(),
            level: 1,
            ..GoRequest::default()
        };
        let best = link.go(&request, &mut crate::engine::Quiet).unwrap().best;
        let (from, to) = best.split_once('-').unwrap();
        let board = render::play_layout(screen_area, play.view.as_ref()).board;
        for hole in [from, to] {
            let (x, y) = CheckersView::cell(board, parse_hole(hole).unwrap());
            app.on_mouse(click(x, y), screen_area);
        }
    }
}

fn click(x: u16, y: u16) -> MouseEvent {
    MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    }
}

/// Selects (by a click) the side to move's piece with the longest jump chain and
/// Tabs the cursor to that chain's end; returns the chain.
fn select_longest_chain(app: &mut App) -> Vec<u8> {
    use sente_firmware::game::Notation;
    use sente_firmware::games::checkers::Checkers;
    let play = app.play().unwrap();
    let pos = Checkers::parse_position(&play.view.position()).unwrap();
    let (chain, index) = pos
        .pieces_of(pos.turn())
        .iter()
        .flat_map(|&from| {
            let targets: Vec<u8> = pos.reachable(from).iter().collect();
            let pos = &pos;
            targets
                .into_iter()
                .enumerate()
                .map(move |(i, to)| (super::checkers::jump_path(pos, from, to), i))
        })
        // The longest chain that goes forward (rows up the star for red).
        .max_by_key(|(path, _)| {
            let row = |h: u8| sente_firmware::games::checkers::board::HOLE_ROW[usize::from(h)];
            (row(path[path.len() - 1]) < row(path[0]), path.len())
        })
        .unwrap();
    let screen_area = Rect::new(0, 0, 120, 40);
    let board = render::play_layout(screen_area, play.view.as_ref()).board;
    let (x, y) = CheckersView::cell(board, chain[0]);
    app.on_mouse(click(x, y), screen_area);
    for _ in 0..=index {
        key(app, KeyCode::Tab);
    }
    chain
}

#[test]
fn snapshot_checkers_two_players_with_a_jump_chain() {
    let mut app = opened(App::with_game(checkers(2, "pe")));
    let mut link = EngineLink::open("host").unwrap();
    checkers_plies(&mut app, &mut link, 12);
    let chain = select_longest_chain(&mut app);
    assert!(chain.len() >= 3, "a chain of jumps: {chain:?}");
    insta::assert_snapshot!(big_screen(&app).backend());
}

#[test]
fn snapshot_checkers_six_players_with_a_jump_chain() {
    let mut app = opened(App::with_game(Settings {
        level: 1,
        ..checkers(6, "peeeee")
    }));
    let mut link = EngineLink::open("host").unwrap();
    checkers_plies(&mut app, &mut link, 24);
    let chain = select_longest_chain(&mut app);
    assert!(chain.len() >= 3, "a chain of jumps: {chain:?}");
    insta::assert_snapshot!(big_screen(&app).backend());
}

#[test]
fn snapshot_checkers_finished_game() {
    let mut app = opened(App::with_game(checkers(2, "pe")));
    let mut link = EngineLink::open("host").unwrap();
    checkers_plies(&mut app, &mut link, 400);
    let play = app.play().unwrap();
    assert!(play.view.outcome().is_some(), "{} moves", moves(&app).len());
    insta::assert_snapshot!(big_screen(&app).backend());
}

/// One thing a user does: a key, a click, a terminal of another size, or (when
/// an engine plays) its answer to the pending search.
#[derive(Clone, Debug)]
enum UserEvent {
    Key(KeyCode),
    Click(u16, u16),
    Resize(u16, u16),
    EngineAnswers,
}

fn user_event() -> impl proptest::strategy::Strategy<Value = UserEvent> {
    use proptest::prelude::*;
    let special = prop_oneof![
        Just(KeyCode::Up),
        Just(KeyCode::Down),
        Just(KeyCode::Left),
        Just(KeyCode::Right),
        Just(KeyCode::Enter),
        Just(KeyCode::Tab),
        Just(KeyCode::BackTab),
        Just(KeyCode::Backspace),
        Just(KeyCode::Home),
        Just(KeyCode::F(1)),
    ];
    // Every printable key but `q` (quit); Esc quits too.
    let chars = proptest::char::range(' ', '~')
        .prop_filter("not quit", |c| *c != 'q')
        .prop_map(KeyCode::Char);
    prop_oneof![
        4 => special.prop_map(UserEvent::Key),
        4 => chars.prop_map(UserEvent::Key),
        2 => (0u16..160, 0u16..60).prop_map(|(x, y)| UserEvent::Click(x, y)),
        1 => (1u16..160, 1u16..60).prop_map(|(w, h)| UserEvent::Resize(w, h)),
        2 => Just(UserEvent::EngineAnswers),
    ]
}

/// The games the fuzz test plays, menu variants included.
fn fuzz_games() -> Vec<GameKind> {
    use super::view::Dice;
    vec![
        GameKind::TicTacToe,
        GameKind::Gomoku(Rule::Free),
        GameKind::Gomoku(Rule::Renju),
        GameKind::Xiangqi,
        GameKind::Einstein(Dice::Seeded),
        GameKind::Einstein(Dice::Typed),
        GameKind::Checkers {
            players: 2,
            pieces: 10,
        },
        GameKind::Checkers {
            players: 3,
            pieces: 15,
        },
        GameKind::Checkers {
            players: 6,
            pieces: 10,
        },
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// Random keys, clicks and terminal sizes, in every game, against a person
    /// or the host engine (answering with small node limits), on the board and
    /// through the menu and help screens: the TUI never panics and always draws.
    #[test]
    fn random_input_never_breaks_the_tui(
        game in 0usize..9,
        engine in proptest::bool::ANY,
        events in proptest::collection::vec(user_event(), 1..80),
    ) {
        let opponent = if engine { Opponent::Host } else { Opponent::Human };
        let mut app = App::with_game(Settings {
            game: fuzz_games()[game],
            ..settings(opponent)
        });
        let mut link = EngineLink::open("host").unwrap();
        let mut pending: Option<Job> = None;
        let (mut w, mut h) = (W, H);
        for event in events {
            for effect in app.take_effects() {
                match effect {
                    Effect::Spawn(_) => app.on_engine(EngineEvent::Opened {
                        describe: "host".into(),
                        hz: 1_000_000,
                    }),
                    Effect::Go(job) => pending = Some(job),
                    Effect::Stop => pending = None,
                }
            }
            match event {
                UserEvent::Key(code) => key(&mut app, code),
                UserEvent::Click(x, y) => app.on_mouse(
                    MouseEvent {
                        kind: MouseEventKind::Down(MouseButton::Left),
                        column: x.min(w - 1),
                        row: y.min(h - 1),
                        modifiers: KeyModifiers::NONE,
                    },
                    Rect::new(0, 0, w, h),
                ),
                UserEvent::Resize(nw, nh) => (w, h) = (nw, nh),
                UserEvent::EngineAnswers => {
                    if let Some(mut job) = pending.take() {
                        job.request.nodes = 200;
                        job.request.depth = job.request.depth.clamp(1, 2);
                        job.request.movetime_ms = 0;
                        let result = link
                            .go(&job.request, &mut crate::engine::Quiet)
                            .map_err(|e| Failure::Refused(e.to_string()));
                        app.on_engine(EngineEvent::Done { id: job.id, result });
                    }
                }
            }
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| render::draw(f, &app)).unwrap();
            proptest::prop_assert!(!app.quit);
        }
    }
}

/// A game is saved into the store's files folder (a bare name) and opened from
/// it again; a store without folders writes nothing, whatever is typed.
#[test]
fn games_are_saved_only_where_the_store_says() {
    use super::config::Store;
    use super::config::tests::temp_dir;
    let dir = temp_dir("saves");
    let mut app = App::with_game(settings(Opponent::Human)).with_store(Store::at(&dir));
    key(&mut app, KeyCode::Char('5'));
    assert_eq!(moves(&app), ["b2"]);
    key(&mut app, KeyCode::Char('s'));
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    keys(&mut app, "one.sente");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.popup, None, "saved");
    let file = dir.join("files").join("one.sente");
    assert!(file.is_file(), "{} written", file.display());
    let mut again = App::with_game(settings(Opponent::Human)).with_store(Store::at(&dir));
    again.open("one.sente").unwrap();
    assert_eq!(moves(&again), ["b2"]);
    let mut nowhere = App::with_game(settings(Opponent::Human));
    key(&mut nowhere, KeyCode::Char('5'));
    let err = nowhere
        .save_to(std::path::Path::new("two.sente"))
        .unwrap_err();
    assert!(err.contains("no files"), "{err}");
    assert!(!std::path::Path::new("two.sente").exists());
    let _ = std::fs::remove_dir_all(dir);
}

// ---- boards in large terminals ----

/// A large terminal: every board at its largest scale.
const HUGE: Rect = Rect::new(0, 0, 200, 60);

fn huge_screen(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(HUGE.width, HUGE.height)).unwrap();
    t.draw(|f| render::draw(f, app)).unwrap();
    t
}

/// Where the board is drawn in the large terminal.
fn huge_board(app: &App) -> Rect {
    render::play_layout(HUGE, app.play().unwrap().view.as_ref()).board
}

#[test]
fn boards_fill_a_large_terminal_and_the_panels_stay_readable() {
    let games = [
        GameKind::TicTacToe,
        GameKind::Gomoku(Rule::Free),
        GameKind::Xiangqi,
        GameKind::Einstein(Dice::Seeded),
        GameKind::Checkers {
            players: 2,
            pieces: 10,
        },
    ];
    for game in games {
        let app = App::with_game(Settings {
            game,
            ..settings(Opponent::Human)
        });
        let layout = render::play_layout(HUGE, app.play().unwrap().view.as_ref());
        let small = render::play_layout(Rect::new(0, 0, W, H), app.play().unwrap().view.as_ref());
        assert!(
            layout.board.width >= 2 * small.board.width.min(60)
                || layout.board.height >= 2 * small.board.height,
            "{game:?}: {:?} at 200×60 against {:?} at 80×24",
            layout.board,
            small.board
        );
        assert!(
            (render::MIN_PANEL..=render::MAX_PANEL).contains(&layout.engine.width),
            "{game:?}: engine panel {:?}",
            layout.engine
        );
        assert!(layout.board.right() <= layout.engine.x, "{game:?}");
        assert!(layout.board.bottom() <= layout.status.y, "{game:?}");
    }
}

#[test]
fn snapshot_xiangqi_at_200x60_with_clicks() {
    let mut app = xiangqi_game(&["h2e2"]);
    let board = huge_board(&app);
    // Files ten columns apart, ranks five rows apart: b9 is file 1 of the top rank,
    // c7 file 2 two ranks down; a click on either column of a piece counts.
    app.on_mouse(click(board.x + 3 + 10 + 1, board.y + 1), HUGE);
    app.on_mouse(click(board.x + 3 + 20, board.y + 1 + 10), HUGE);
    assert_eq!(moves(&app), ["炮二平五 h2e2", "马２进３ b9c7"]);
    // Red's cannon e2 (file 4, rank 2 = row 7): selected, its targets shown.
    app.on_mouse(click(board.x + 3 + 40, board.y + 1 + 35), HUGE);
    insta::assert_snapshot!(huge_screen(&app).backend());
}

#[test]
fn snapshot_tic_tac_toe_at_200x60_with_clicks() {
    let mut app = App::with_game(settings(Opponent::Human));
    let board = huge_board(&app);
    // Cells 19 columns by 9 rows inside their borders: a click anywhere in a cell
    // plays it (X b2 by its corner, O a3 by its middle, X c1 by its far corner).
    app.on_mouse(click(board.x + 2 + 21, board.y + 1 + 11), HUGE);
    app.on_mouse(click(board.x + 2 + 1 + 9, board.y + 1 + 1 + 4), HUGE);
    app.on_mouse(click(board.x + 2 + 40 + 19, board.y + 1 + 20 + 9), HUGE);
    assert_eq!(moves(&app), ["b2", "a3", "c1"]);
    insta::assert_snapshot!(huge_screen(&app).backend());
}

#[test]
fn snapshot_gomoku_at_200x60_with_clicks() {
    let mut app = gomoku_game(Rule::Renju, &[]);
    let board = huge_board(&app);
    // Points six columns and three rows apart: h8 is column 7, row 7 from the top;
    // a click two columns right of a point or a row above still hits it.
    app.on_mouse(click(board.x + 3 + 42, board.y + 1 + 21), HUGE);
    app.on_mouse(click(board.x + 3 + 48 + 2, board.y + 1 + 21), HUGE);
    app.on_mouse(click(board.x + 3 + 42, board.y + 1 + 18 - 1), HUGE);
    assert_eq!(moves(&app), ["h8", "i8", "h9"]);
    insta::assert_snapshot!(huge_screen(&app).backend());
}

#[test]
fn snapshot_einstein_at_200x60_with_clicks() {
    use sente_firmware::game::{Game, Notation};
    use sente_firmware::games::einstein::Einstein;
    use sente_firmware::games::einstein::board::Move;
    let mut app = App::with_game(einstein(Dice::Typed, Opponent::Human));
    for m in EINSTEIN_CHOICE {
        app.try_human_move(m);
    }
    let pos = Einstein::parse_position(&app.play().unwrap().view.position()).unwrap();
    let mut legal = Default::default();
    pos.generate(&mut legal);
    let (cube, to) = legal
        .iter()
        .find_map(|&m| match m {
            Move::Step { cube, to } => Some((cube, to)),
            _ => None,
        })
        .unwrap();
    let from = pos.square_of(pos.side_to_move(), cube).unwrap();
    let board = huge_board(&app);
    // Squares 17 columns by 7 rows inside their borders (a5 top left): a click on a
    // cube's corner picks it, a click on the middle of its target moves it.
    let corner = |sq: u8| {
        let (col, row) = (u16::from(sq % 5), u16::from(sq / 5));
        (board.x + 2 + 1 + col * 18, board.y + 1 + 1 + row * 8)
    };
    let (x, y) = corner(from);
    app.on_mouse(click(x + 16, y + 6), HUGE);
    let (x, y) = corner(to);
    app.on_mouse(click(x + 8, y + 3), HUGE);
    assert_eq!(
        moves(&app).len(),
        EINSTEIN_CHOICE.len() + 1,
        "{:?}",
        moves(&app)
    );
    insta::assert_snapshot!(huge_screen(&app).backend());
}

#[test]
fn snapshot_checkers_at_200x60_with_clicks() {
    use sente_firmware::game::Notation;
    use sente_firmware::games::checkers::Checkers;
    use sente_firmware::games::checkers::board::{HOLE_ROW, HOLE_X, NEIGHBOURS};
    let mut app = App::with_game(checkers(2, "pp"));
    let pos = Checkers::parse_position(&app.play().unwrap().view.position()).unwrap();
    // A red piece's step to a neighbouring hole.
    let (from, to) = pos
        .pieces_of(pos.turn())
        .iter()
        .find_map(|&f| {
            pos.reachable(f)
                .iter()
                .find(|t| NEIGHBOURS[usize::from(f)].contains(t))
                .map(|t| (f, t))
        })
        .unwrap();
    let board = huge_board(&app);
    // Six columns per grid column, three rows per star row.
    let at = |h: u8| {
        let h = usize::from(h);
        (
            board.x + 3 + u16::from(HOLE_X[h]) * 6,
            board.y + u16::from(HOLE_ROW[h]) * 3,
        )
    };
    let (x, y) = at(from);
    app.on_mouse(click(x + 1, y), HUGE);
    let (x, y) = at(to);
    app.on_mouse(click(x - 2, y - 1), HUGE);
    assert_eq!(moves(&app).len(), 1, "{from} to {to}");
    insta::assert_snapshot!(huge_screen(&app).backend());
}

// ---- an unfinished game of another game ----

/// A store in a fresh folder holding an unfinished xiangqi game (one move).
fn kept_xiangqi(name: &str) -> (std::path::PathBuf, super::config::Store) {
    use super::config::Store;
    use super::config::tests::temp_dir;
    let dir = temp_dir(name);
    let mut app = xiangqi_game(&["h2e2"]).with_store(Store::at(&dir));
    app.quit_now();
    assert!(Store::at(&dir).read_unfinished().is_some(), "kept");
    (dir.clone(), Store::at(&dir))
}

fn renju_named(app: App, store: super::config::Store) -> App {
    let mut app = app.with_store(store);
    app.named_game = Some(GameKind::Gomoku(Rule::Renju));
    app.offer_unfinished();
    app
}

#[test]
fn snapshot_a_kept_game_of_another_game_names_both() {
    let (dir, store) = kept_xiangqi("kept-other");
    let app = renju_named(
        App::with_menu(Menu::new(gomoku(Rule::Renju, Opponent::Host), Vec::new())),
        store,
    );
    assert!(
        matches!(
            &app.popup,
            Some(Popup::Resume {
                kind: GameKind::Xiangqi,
                instead: Some(GameKind::Gomoku(Rule::Renju)),
                ..
            })
        ),
        "{:?}",
        app.popup
    );
    // In a 40×12 terminal the lines wrap and every key still shows.
    let mut small = Terminal::new(TestBackend::new(40, 12)).unwrap();
    small.draw(|f| render::draw(f, &app)).unwrap();
    let rows = rows_of(&small);
    for k in ["│ Enter  play", "│ Esc    start renju", "│ d      forget"] {
        assert!(rows.iter().any(|r| r.contains(k)), "{k}: {rows:#?}");
    }
    // The date in the summary changes from run to run: blank it for the snapshot.
    let mut t = screen(&app);
    let text = format!("{}", t.backend_mut());
    let _ = std::fs::remove_dir_all(dir);
    let text = regex_lite_date(&text);
    assert!(
        text.contains("You asked for renju; a xiangqi game"),
        "{text}"
    );
    assert!(
        text.contains("a xiangqi game was left unfinished"),
        "{text}"
    );
    assert!(text.contains("start renju"), "{text}");
    insta::assert_snapshot!(text);
}

/// `(2026-11-24 1448)` → `(DATE)`.
fn regex_lite_date(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("(20") {
        let end = rest[i..].find(')').map_or(rest.len(), |e| i + e + 1);
        let width = end - i;
        out.push_str(&rest[..i]);
        out.push_str(&format!("{:<width$}", "(DATE)"));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn declining_a_kept_game_of_another_game_starts_the_named_game_and_sets_it_aside() {
    use super::config::Store;
    let (dir, store) = kept_xiangqi("decline-other");
    // From the start screen (`sente --game renju`): Esc starts renju.
    let mut app = renju_named(
        App::with_menu(Menu::new(gomoku(Rule::Renju, Opponent::Human), Vec::new())),
        store,
    );
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.popup, None);
    let play = app.play().expect("renju started");
    assert_eq!(play.view.kind(), GameKind::Gomoku(Rule::Renju));
    assert!(play.view.moves().is_empty());
    let note = play.note.as_ref().unwrap().text.clone();
    assert!(note.contains("set aside in"), "{note}");
    // Nothing is lost: the kept game is a file `o` opens, no longer offered.
    assert!(Store::at(&dir).read_unfinished().is_none());
    let files: Vec<_> = std::fs::read_dir(dir.join("files"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        matches!(files.as_slice(), [f] if f.starts_with("sente-xiangqi-") && f.ends_with(".sente")),
        "{files:?}"
    );
    app.open(&files[0]).unwrap();
    assert_eq!(moves(&app), ["炮二平五 h2e2"]);
    let _ = std::fs::remove_dir_all(dir);

    // Straight into the game (`sente --game renju --board human`): the renju game
    // on screen stays; the engine's connection keeps the note about the kept game.
    let (dir, store) = kept_xiangqi("decline-other-play");
    let mut app = renju_named(App::with_game(gomoku(Rule::Renju, Opponent::Host)), store);
    key(&mut app, KeyCode::Char('n'));
    let mut app = opened(app);
    let play = app.play().unwrap();
    assert_eq!(play.view.kind(), GameKind::Gomoku(Rule::Renju));
    let note = play.note.as_ref().unwrap().text.clone();
    assert!(
        note.starts_with("Connected: host. The kept xiangqi game is set aside"),
        "{note}"
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(moves(&app), ["h8"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_kept_game_forgotten_or_played_on() {
    use super::config::Store;
    // d: forgotten, renju starts, no file written.
    let (dir, store) = kept_xiangqi("forget-other");
    let mut app = renju_named(
        App::with_menu(Menu::new(gomoku(Rule::Renju, Opponent::Human), Vec::new())),
        store,
    );
    key(&mut app, KeyCode::Char('d'));
    assert_eq!(
        app.play().unwrap().view.kind(),
        GameKind::Gomoku(Rule::Renju)
    );
    assert!(Store::at(&dir).read_unfinished().is_none());
    assert!(
        !dir.join("files").exists()
            || std::fs::read_dir(dir.join("files"))
                .unwrap()
                .next()
                .is_none()
    );
    let _ = std::fs::remove_dir_all(dir);
    // Enter: the kept xiangqi game goes on, whatever the command line named.
    let (dir, store) = kept_xiangqi("resume-other");
    let mut app = renju_named(
        App::with_menu(Menu::new(gomoku(Rule::Renju, Opponent::Human), Vec::new())),
        store,
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.play().unwrap().view.kind(), GameKind::Xiangqi);
    assert_eq!(moves(&app), ["炮二平五 h2e2"]);
    let _ = std::fs::remove_dir_all(dir);
    // The same game named: no alternative, Esc is "not now" and the game stays kept.
    let (dir, store) = kept_xiangqi("same-game");
    let mut app =
        App::with_menu(Menu::new(settings(Opponent::Human), Vec::new())).with_store(store);
    app.named_game = Some(GameKind::Xiangqi);
    app.offer_unfinished();
    assert!(matches!(
        &app.popup,
        Some(Popup::Resume { instead: None, .. })
    ));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.popup, None);
    assert!(matches!(app.screen, Screen::Menu(_)));
    assert!(Store::at(&dir).read_unfinished().is_some());
    let _ = std::fs::remove_dir_all(dir);
}

// ---- the smaller faults of issue 17 ----

/// The rows of a rendered screen as the terminal shows them, one string per row
/// (wide characters once, their hidden second cell left out).
fn rows_of(t: &Terminal<TestBackend>) -> Vec<String> {
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            let mut row = String::new();
            let mut skip = 0;
            for x in 0..buf.area.width {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let s = buf[(x, y)].symbol();
                skip = unicode_width::UnicodeWidthStr::width(s).saturating_sub(1);
                row.push_str(s);
            }
            row
        })
        .collect()
}

#[test]
fn the_help_keeps_its_left_border_beside_chinese_pieces() {
    for (w, h) in [(80, 24), (96, 30), (120, 40), (200, 60)] {
        for moves in [&[][..], &["h2e2", "b9c7", "b0c2"][..]] {
            let mut app = xiangqi_game(moves);
            key(&mut app, KeyCode::Char('?'));
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| render::draw(f, &app)).unwrap();
            let buf = t.backend().buffer().clone();
            // The popup's left border: the column of its top-left corner.
            let (left, top) = (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .find(|&(x, y)| buf[(x, y)].symbol() == "┌" && buf[(x + 2, y)].symbol() == "K")
                .expect("the help is drawn");
            let bottom = (top..h).find(|&y| buf[(left, y)].symbol() == "└").unwrap();
            for y in top + 1..bottom {
                assert_eq!(buf[(left, y)].symbol(), "│", "{w}×{h} row {y}");
                // Nothing wide just left of it: its second half would cover the border.
                let before = buf[(left - 1, y)].symbol();
                assert!(
                    unicode_width::UnicodeWidthStr::width(before) <= 1,
                    "{w}×{h} row {y}: {before:?} beside the border"
                );
            }
            // As the terminal shows it: every row of the popup starts with its border
            // at the same column.
            let rows = rows_of(&t);
            for y in top + 1..bottom {
                let row = &rows[usize::from(y)];
                let col: usize = row
                    .split("│  ")
                    .next()
                    .map(unicode_width::UnicodeWidthStr::width)
                    .unwrap();
                assert!(col <= usize::from(left), "{w}×{h} row {y}: {row}");
            }
        }
    }
}

#[test]
fn tic_tac_toe_and_checkers_at_60x20_stay_inside_their_frames() {
    let small = Rect::new(0, 0, 60, 20);
    for game in [
        GameKind::TicTacToe,
        GameKind::Checkers {
            players: 2,
            pieces: 10,
        },
        GameKind::Checkers {
            players: 6,
            pieces: 10,
        },
    ] {
        let app = opened(App::with_game(Settings {
            game,
            ..settings(Opponent::Host)
        }));
        let layout = render::play_layout(small, app.play().unwrap().view.as_ref());
        // The panels keep their width beside the board.
        assert!(layout.engine.width >= render::MIN_PANEL, "{game:?}");
        assert!(layout.board_frame.right() <= layout.engine.x, "{game:?}");
        let mut t = Terminal::new(TestBackend::new(60, 20)).unwrap();
        t.draw(|f| render::draw(f, &app)).unwrap();
        let buf = t.backend().buffer();
        // The frames' borders are whole: nothing is drawn over them.
        let f = layout.board_frame;
        for y in f.y + 1..f.bottom() - 1 {
            assert_eq!(buf[(f.x, y)].symbol(), "│", "{game:?} row {y}");
            assert_eq!(buf[(f.right() - 1, y)].symbol(), "│", "{game:?} row {y}");
            assert_eq!(
                buf[(layout.engine.x, y.min(layout.engine.bottom() - 2))].symbol(),
                "│"
            );
        }
        for x in f.x + 1..f.right() - 1 {
            assert_eq!(
                buf[(x, f.bottom() - 1)].symbol(),
                "─",
                "{game:?} column {x}"
            );
        }
    }
    let app = App::with_game(settings(Opponent::Human));
    let mut t = Terminal::new(TestBackend::new(60, 20)).unwrap();
    t.draw(|f| render::draw(f, &app)).unwrap();
    insta::assert_snapshot!(t.backend());
}

#[test]
fn the_menu_keeps_start_on_a_40x12_terminal_on_every_row() {
    let mut menu = Menu::new(checkers(6, "peeeee"), Vec::new());
    menu.row = Row::Game;
    let mut app = App::with_menu(menu);
    let mut seen = 0;
    for _ in 0..20 {
        let mut t = Terminal::new(TestBackend::new(40, 12)).unwrap();
        t.draw(|f| render::draw(f, &app)).unwrap();
        let rows = rows_of(&t);
        assert!(rows.iter().any(|r| r.contains("[ Start ]")), "{rows:#?}");
        assert!(
            rows.iter().any(|r| r.contains("│ › ")),
            "the selected row: {rows:#?}"
        );
        seen += 1;
        key(&mut app, KeyCode::Down);
    }
    assert_eq!(seen, 20);
}

#[test]
fn engine_first_turns_the_xiangqi_board_to_the_player() {
    let mut app = opened(App::with_game(Settings {
        game: GameKind::Xiangqi,
        engine_first: true,
        ..settings(Opponent::Host)
    }));
    for _ in 0..2 {
        let t = tall_screen(&app);
        let rows = rows_of(&t);
        let rank = |r: &str| {
            rows.iter()
                .position(|row| row.starts_with(&format!("│ {r}  ")))
                .unwrap()
        };
        assert!(
            rank("9") > rank("0"),
            "black, the player, at the bottom: {rows:#?}"
        );
        assert!(
            rows[2].contains("i   h   g"),
            "files from black's side: {}",
            rows[2]
        );
        // A new game keeps the player's side.
        app.start(app.settings());
        app = opened(app);
    }
}

#[test]
fn every_seat_of_six_shows_at_80x24() {
    let app = opened(App::with_game(checkers(6, "peeeee")));
    let rows = rows_of(&screen(&app));
    for name in ["red", "yellow", "green", "cyan", "blue", "magenta"] {
        assert!(
            rows.iter().any(|r| r.contains(&format!(" {name} "))),
            "{name}: {rows:#?}"
        );
    }
    assert!(rows.iter().any(|r| r.contains("┌ Engine")));
    assert!(rows.iter().any(|r| r.contains("┌ Moves")), "{rows:#?}");
}
