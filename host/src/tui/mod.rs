//! The terminal UI: start screen, board, engine panel, help.
//!
//! The pieces: [`app`] holds the state and changes it (no terminal), [`input`] maps
//! keys and clicks, [`render`] draws, [`view`] is what a game must provide and
//! [`ttt`], [`gomoku`], [`xiangqi`], [`einstein`] and [`checkers`] provide it,
//! [`worker`] runs the engine in a thread (one link, shared by every engine seat),
//! [`clock`] keeps the players' time, [`saved`] writes and reads games, [`config`]
//! keeps the player's choices and the unfinished game. This module owns the
//! terminal: raw mode, alternate screen, mouse capture and bracketed paste,
//! restored on every way out, panics included.

pub mod app;
pub mod checkers;
pub mod clock;
pub mod config;
pub mod einstein;
pub mod gomoku;
pub mod input;
pub mod menu;
pub mod render;
pub mod saved;
pub mod ttt;
pub mod view;
pub mod worker;
pub mod xiangqi;

use std::io::{self, Stdout};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;

use app::{App, Effect, Settings};
use config::{Store, Theme};
use menu::Menu;
use worker::Worker;

/// How the TUI starts (from the command line).
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// The game's settings as the command line gave them.
    pub settings: Settings,
    /// Straight into the game (the command line named the opponent or a game to open).
    pub skip_menu: bool,
    /// The command line chose nothing: the config file's last choices apply.
    pub recall: bool,
    /// `--theme`, over the config file's.
    pub theme: Option<Theme>,
    /// A game or position to open (`--load`'s file, `--fen`, `--position`).
    pub open: Option<String>,
    /// The command line named the game (`--game`): an unfinished game of another
    /// game is offered with the named one as the alternative.
    pub game_named: bool,
}

/// Runs the TUI: the start screen, or straight into a game when the command line
/// named the opponent or a game to open. An unfinished game kept by the last run
/// is offered first.
pub fn run(launch: Launch) -> anyhow::Result<()> {
    let store = Store::platform();
    let (config, config_error) = match store.load_config() {
        Ok(c) => (c, None),
        Err(e) => (config::Config::default(), Some(e)),
    };
    let settings = if launch.recall {
        saved::recall(&config, &launch.settings)
    } else {
        launch.settings.clone()
    };
    let mut app = if launch.skip_menu && launch.open.is_none() {
        App::with_game(settings)
    } else {
        App::with_menu(Menu::new(settings, Menu::available_ports()))
    };
    app.store = store;
    app.named_game = launch.game_named.then_some(launch.settings.game);
    app.theme = launch.theme.unwrap_or(config.theme);
    app.config = config;
    if let Some(text) = &launch.open {
        let loaded = saved::read(text, &app.settings(), false).map_err(anyhow::Error::msg)?;
        app.start_loaded(loaded).map_err(anyhow::Error::msg)?;
    } else {
        app.offer_unfinished();
    }
    if let Some(e) = config_error {
        match &mut app.screen {
            app::Screen::Menu(m) => m.error = Some(format!("config not read: {e}")),
            app::Screen::Play(_) => app.note(format!("config not read: {e}"), true),
        }
    }
    install_panic_hook();
    let _guard = TerminalGuard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    event_loop(&mut terminal, app)
}

/// Puts the terminal back: mouse off, main screen, cooked mode, cursor shown.
pub fn restore_terminal() {
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}

/// Restores the terminal before a panic message is printed (main thread only: a
/// panic in the engine thread is reported by the UI as a lost engine instead).
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some("main") {
            restore_terminal();
        }
        previous(info);
    }));
}

/// Restores the terminal when dropped (normal exit and `?` errors).
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> io::Result<Self> {
        enable_raw_mode()?;
        let guard = Self;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste
        )?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    mut app: App,
) -> anyhow::Result<()> {
    let mut worker: Option<Worker> = None;
    loop {
        for effect in app.take_effects() {
            match effect {
                Effect::Spawn(spec) => worker = Some(Worker::spawn(&spec)),
                Effect::Stop => worker = None,
                Effect::Go(job) => {
                    // A dead worker shows up in `poll` as a failure of the pending job.
                    if let Some(w) = &worker {
                        w.ask(job);
                    }
                }
            }
        }
        app.tick(Instant::now());
        terminal.draw(|frame| render::draw(frame, &app))?;
        if app.quit {
            return Ok(());
        }
        if event::poll(Duration::from_millis(50))? {
            let size = terminal.size()?;
            match event::read()? {
                Event::Key(key) => app.on_key(key),
                Event::Mouse(mouse) => {
                    app.on_mouse(mouse, Rect::new(0, 0, size.width, size.height))
                }
                Event::Paste(text) => app.on_paste(&text),
                _ => {}
            }
        }
        if let Some(w) = &worker {
            for e in w.poll(app.pending()) {
                app.on_engine(e);
            }
        }
    }
}

#[cfg(test)]
mod tests;
