//! Keys, mouse clicks and pasted text → [`App`] changes.
//!
//! `Esc` never quits: it closes a popup or the help, cancels a typed move, drops
//! a selection, leaves the history view or takes a hint away. `q` quits (asking
//! first when a game is in progress, which is kept for the next run either way).

use std::path::Path;

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use super::app::{App, Ask, EngineState, InputKind, Popup, Screen, Then};
use super::menu::MenuAction;
use super::render;
use super::view::ViewKey;

/// Longest text the input popup takes (a pasted PGN fits).
const MAX_INPUT: usize = 100_000;

impl App {
    /// Handles a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            // The interrupt quits at once; a game in progress is kept all the same.
            self.quit_now();
            return;
        }
        if self.popup.is_some() {
            self.on_popup_key(key.code, ctrl);
            return;
        }
        if self.help {
            // Any key closes the help.
            self.help = false;
            return;
        }
        match &mut self.screen {
            Screen::Menu(menu) => match menu.on_key(key.code) {
                MenuAction::None => {}
                MenuAction::Quit => self.request_quit(),
                MenuAction::Open => self.carry_out(Then::Open),
                MenuAction::Theme => self.next_theme(),
                MenuAction::Start(settings) => {
                    self.remember(&settings);
                    self.start(settings);
                }
            },
            Screen::Play(_) => self.on_play_key(key.code, ctrl),
        }
    }

    /// Text pasted into the terminal: into the popup being typed in, or the start of
    /// an open (a position or a game pasted in).
    pub fn on_paste(&mut self, text: &str) {
        match &mut self.popup {
            Some(Popup::Input { text: typed, .. }) => {
                if typed.len() + text.len() <= MAX_INPUT {
                    typed.push_str(text);
                }
            }
            Some(_) => {}
            None => {
                if let Some(play) = self.play_mut()
                    && let Some(typed) = play.prompt.as_mut()
                {
                    typed.push_str(text.lines().next().unwrap_or_default());
                    return;
                }
                self.help = false;
                self.popup = Some(Popup::Input {
                    kind: InputKind::Open,
                    text: text.chars().take(MAX_INPUT).collect(),
                    error: None,
                });
            }
        }
    }

    fn on_popup_key(&mut self, code: KeyCode, ctrl: bool) {
        let Some(popup) = self.popup.as_mut() else {
            return;
        };
        match popup {
            Popup::Confirm(ask) => {
                let ask = *ask;
                match (ask, code) {
                    (_, KeyCode::Esc | KeyCode::Char('n')) => self.popup = None,
                    (Ask::Quit, KeyCode::Char('y' | 'q') | KeyCode::Enter) => {
                        self.popup = None;
                        self.quit_now();
                    }
                    (Ask::Leave(then), KeyCode::Char('y') | KeyCode::Enter) => self.carry_out(then),
                    (Ask::Leave(then), KeyCode::Char('s')) => {
                        let name = match self.play() {
                            Some(play) => {
                                super::saved::default_file_name(play, std::time::SystemTime::now())
                            }
                            None => return,
                        };
                        match self.save_to(Path::new(&name)) {
                            Ok(_) => self.carry_out(then),
                            Err(e) => {
                                self.popup = None;
                                self.note(format!("Not saved: {e}"), true);
                            }
                        }
                    }
                    _ => {}
                }
            }
            Popup::Input { kind, text, error } => match code {
                KeyCode::Esc => self.popup = None,
                KeyCode::Backspace => {
                    text.pop();
                    *error = None;
                }
                KeyCode::Char('u') if ctrl => text.clear(),
                KeyCode::Char(c) if !ctrl && text.len() < MAX_INPUT => {
                    text.push(c);
                    *error = None;
                }
                KeyCode::Enter => {
                    let (kind, typed) = (*kind, text.clone());
                    let result = match kind {
                        InputKind::Save if typed.trim().is_empty() => {
                            Err("type a file name".to_string())
                        }
                        InputKind::Save => self.save_to(Path::new(typed.trim())).map(|_| ()),
                        InputKind::Open => self.open(&typed),
                    };
                    match result {
                        Ok(()) => self.popup = None,
                        Err(e) => {
                            if let Some(Popup::Input { error, .. }) = self.popup.as_mut() {
                                *error = Some(e);
                            }
                        }
                    }
                }
                _ => {}
            },
            Popup::Resume {
                record,
                kind,
                instead,
                ..
            } => match (code, *instead) {
                (KeyCode::Enter | KeyCode::Char('y' | 'r'), _) => {
                    let record = record.clone();
                    self.popup = None;
                    if let Err(e) = self.resume(&record) {
                        self.store.remove_unfinished();
                        self.note(format!("The kept game could not be read: {e}"), true);
                    }
                }
                (KeyCode::Char('d'), Some(named)) => {
                    let (record, kind) = (record.clone(), *kind);
                    self.decline_for(&record, kind, named, true);
                }
                (KeyCode::Char('d'), None) => {
                    self.store.remove_unfinished();
                    self.popup = None;
                }
                (KeyCode::Esc | KeyCode::Char('n'), Some(named)) => {
                    let (record, kind) = (record.clone(), *kind);
                    self.decline_for(&record, kind, named, false);
                }
                (KeyCode::Esc | KeyCode::Char('n'), None) => self.popup = None,
                _ => {}
            },
        }
    }

    fn on_play_key(&mut self, code: KeyCode, ctrl: bool) {
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
                KeyCode::Char(c) if !c.is_control() && text.chars().count() < 64 => {
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
        let engines = play.engines_playing();
        let paused = play.pace.paused;
        let n = play.view.moves().len();
        let shown = play.browse.unwrap_or(n);
        match code {
            KeyCode::Char('r') if ctrl => self.redo(),
            KeyCode::Char('q') => self.request_quit(),
            KeyCode::Esc => self.escape(),
            KeyCode::Char('?') | KeyCode::F(1) => self.help = true,
            KeyCode::Char('h') if lost => self.reconnect(Some("host")),
            KeyCode::Char('h') => self.hint(),
            KeyCode::Char('r') if lost => self.reconnect(None),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('U') => self.redo(),
            KeyCode::Char('n') => self.leave(Then::NewGame),
            KeyCode::Char('m') => self.leave(Then::Menu),
            KeyCode::Char('s') => self.ask_save(),
            KeyCode::Char('o') => self.leave(Then::Open),
            KeyCode::Char('t') => self.next_theme(),
            KeyCode::Char(':') => {
                if play.browse.is_some() {
                    self.note("End goes back to the game first.", true);
                } else {
                    play.prompt = Some(String::new());
                }
            }
            KeyCode::Char('[') => self.browse(Some(shown.saturating_sub(1))),
            KeyCode::Char(']') => self.browse(Some(shown + 1)),
            KeyCode::Home | KeyCode::Char('{') => self.browse(Some(0)),
            KeyCode::End | KeyCode::Char('}') => self.browse(None),
            KeyCode::PageUp => self.scroll_moves(-1),
            KeyCode::PageDown => self.scroll_moves(1),
            KeyCode::Char('p') if engines => self.toggle_pause(),
            KeyCode::Char('.') if engines && paused => self.step_engine(),
            KeyCode::Char('+' | '=') if engines => self.change_speed(true),
            KeyCode::Char('-') if engines => self.change_speed(false),
            _ if play.browse.is_some() => {
                let text = format!(
                    "You are looking at move {shown} of {n}: ] and [ step, End goes back to the game."
                );
                self.note(text, false);
            }
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

    /// Esc on the board: drops a selection, else leaves the history view, else takes
    /// the hint away. It never quits.
    fn escape(&mut self) {
        let Some(play) = self.play_mut() else { return };
        if play.view.deselect() {
            return;
        }
        if play.browse.is_some() {
            play.browse_to(None);
            return;
        }
        if play.hint.take().is_some() {
            play.view.set_hint(None);
            play.note = None;
            return;
        }
        self.note("Esc closes and cancels; q quits (the game is kept).", false);
    }

    /// Shows the position after `ply` moves (`None` or past the end: the game).
    pub fn browse(&mut self, ply: Option<usize>) {
        let Some(play) = self.play_mut() else { return };
        let n = play.view.moves().len();
        if n == 0 {
            play.note = Some(super::app::Note {
                text: "No moves yet.".into(),
                error: false,
            });
            return;
        }
        play.browse_to(ply);
        play.note = Some(super::app::Note {
            text: match play.browse {
                Some(p) => {
                    format!("Move {p} of {n} (the game goes on): [ ] step, Home/End, Esc back.")
                }
                None => format!("The game, after move {n}."),
            },
            error: false,
        });
    }

    /// Scrolls the move list by a page (`-1` back, `1` on).
    pub fn scroll_moves(&mut self, pages: i32) {
        let Some(play) = self.play_mut() else { return };
        let rows = play.view.move_rows().len();
        let page = 8;
        let top = play.list_top.unwrap_or_else(|| rows.saturating_sub(page)) as i64;
        let next = (top + i64::from(pages) * page as i64).clamp(0, rows as i64);
        play.list_top = if next as usize + page >= rows {
            None
        } else {
            Some(next as usize)
        };
    }

    /// Handles a mouse event in a terminal of size `screen`.
    pub fn on_mouse(&mut self, event: MouseEvent, screen: Rect) {
        let wheel = match event.kind {
            MouseEventKind::ScrollUp => Some(-1),
            MouseEventKind::ScrollDown => Some(1),
            MouseEventKind::Down(MouseButton::Left) => None,
            _ => return,
        };
        if self.help {
            self.help = false;
            return;
        }
        if self.popup.is_some() {
            return;
        }
        let Some(play) = self.play_mut() else { return };
        let layout = render::play_layout(screen, play.view.as_ref());
        if let Some(pages) = wheel {
            if layout.moves.contains((event.column, event.row).into()) {
                self.scroll_moves(pages);
            }
            return;
        }
        if layout.moves.contains((event.column, event.row).into()) {
            if let Some(ply) = render::ply_at(play, layout.moves, event.row) {
                self.browse(Some(ply));
            }
            return;
        }
        if play.browse.is_some() {
            self.note(
                "End goes back to the game: the board shows an earlier move.",
                false,
            );
            return;
        }
        if let Some(mv) = play.view.on_click(layout.board, event.column, event.row) {
            self.try_human_move(&mv);
        }
    }
}
