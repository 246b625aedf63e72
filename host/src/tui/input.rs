//! Keys and mouse clicks → [`App`] changes.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use super::app::{App, EngineState, Screen};
use super::menu::MenuAction;
use super::render;
use super::view::ViewKey;

impl App {
    /// Handles a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.help {
            // Any key closes the help; q still quits.
            self.help = false;
            if key.code == KeyCode::Char('q') {
                self.quit = true;
            }
            return;
        }
        match &mut self.screen {
            Screen::Menu(menu) => match menu.on_key(key.code) {
                MenuAction::None => {}
                MenuAction::Quit => self.quit = true,
                MenuAction::Start(settings) => self.start(settings),
            },
            Screen::Play(_) => self.on_play_key(key.code),
        }
    }

    fn on_play_key(&mut self, code: KeyCode) {
        let Some(play) = self.play_mut() else { return };
        if let Some(text) = play.prompt.as_mut() {
            match code {
                KeyCode::Esc => play.prompt = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Enter => {
                    let mv = text.trim().to_string();
                    play.prompt = None;
                    if !mv.is_empty() {
                        self.try_human_move(&mv);
                    }
                }
                KeyCode::Char(c) if (c.is_ascii_graphic() || c == ' ') && text.len() < 64 => {
                    text.push(c);
                }
                _ => {}
            }
            return;
        }
        let lost = matches!(
            play.engine.as_ref().map(|e| &e.state),
            Some(EngineState::Lost(_))
        );
        match code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('h') if lost => self.reconnect(Some("host")),
            KeyCode::Char('h') => self.help = true,
            KeyCode::Char('r') if lost => self.reconnect(None),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('n') => self.new_game(),
            KeyCode::Char('m') => self.to_menu(),
            KeyCode::Char(':') => play.prompt = Some(String::new()),
            code => match play.view.on_key(code) {
                ViewKey::Play(mv) => self.try_human_move(&mv),
                ViewKey::Handled => {}
                ViewKey::Refused(why) => self.note(why, true),
                ViewKey::Unhandled => {
                    let hint = play.view.move_hint();
                    self.note(
                        format!("Unknown key. Move with {hint}; ? shows the keys."),
                        true,
                    );
                }
            },
        }
    }

    /// Handles a mouse event in a terminal of size `screen`.
    pub fn on_mouse(&mut self, event: MouseEvent, screen: Rect) {
        if event.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        let Some(play) = self.play_mut() else { return };
        let board = render::play_layout(screen, play.view.size()).board;
        if let Some(mv) = play.view.on_click(board, event.column, event.row) {
            self.try_human_move(&mv);
        }
    }
}
