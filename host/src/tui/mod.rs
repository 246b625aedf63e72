//! The terminal UI: start screen, board, engine panel, help.
//!
//! The pieces: [`app`] holds the state and changes it (no terminal), [`input`] maps
//! keys and clicks, [`render`] draws, [`view`] is what a game must provide and
//! [`ttt`], [`gomoku`], [`xiangqi`], [`einstein`] and [`checkers`] provide it,
//! [`worker`] runs the engine in a thread (one link, shared by every engine seat). This
//! module owns the terminal: raw mode, alternate screen and mouse capture, restored
//! on every way out, panics included.

pub mod app;
pub mod checkers;
pub mod einstein;
pub mod gomoku;
pub mod input;
pub mod menu;
pub mod render;
pub mod ttt;
pub mod view;
pub mod worker;
pub mod xiangqi;

use std::io::{self, Stdout};
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;

use app::{App, Effect, Settings};
use menu::Menu;
use worker::Worker;

/// Runs the TUI: the start screen with `defaults`, or straight into a game when
/// `skip_menu` (the command line named the opponent).
pub fn run(defaults: Settings, skip_menu: bool) -> anyhow::Result<()> {
    let app = if skip_menu {
        App::with_game(defaults)
    } else {
        App::with_menu(Menu::new(defaults, Menu::available_ports()))
    };
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
        execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
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
