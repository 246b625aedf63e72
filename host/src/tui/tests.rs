//! App logic tests (keys → state, no terminal) and rendering snapshots (TestBackend).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use super::app::{App, Effect, EngineState, Opponent, Settings};
use super::menu::Menu;
use super::render;
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
    assert_eq!(
        job.request.line(),
        format!("go ttt seed={} info=1 pos .../.x./...", job.id)
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
    let board = render::play_layout(screen, app.play().unwrap().view.size()).board;
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
    key(&mut app, KeyCode::Char('n'));
    assert!(moves(&app).is_empty());
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

#[test]
fn the_menu_starts_the_chosen_game() {
    let mut app = App::with_menu(Menu::new(Settings::default(), vec![]));
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
    for app in [&mut menu, &mut game, &mut help] {
        for (w, h) in [(1, 1), (10, 3), (30, 10), (40, 20), (200, 60)] {
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
    keys(&mut app, "5m");
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
