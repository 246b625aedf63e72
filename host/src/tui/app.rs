//! The TUI's state and what changes it, with no terminal involved: the runtime feeds
//! keys, clicks and engine events in and carries out the [`Effect`]s that come out.

use std::time::{Duration, Instant};

use super::menu::Menu;
use super::view::{GameKind, GameView};
use super::worker::{EngineEvent, Failure, Job};
use crate::engine::GoRequest;
use crate::reply::BestMove;

/// Who plays against you.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The firmware's engine in this process.
    Host,
    /// A board on this serial port.
    Serial(String),
    /// The firmware in QEMU, started for this game.
    Sim,
    /// Another person at the same keyboard.
    Human,
}

impl Opponent {
    /// Reads a `--board` value: `host`, `sim` or a serial port path.
    pub fn from_spec(spec: &str) -> Self {
        match spec {
            "host" => Self::Host,
            "sim" => Self::Sim,
            path => Self::Serial(path.to_string()),
        }
    }

    /// What [`crate::engine::EngineLink::open`] takes; `None` for a person.
    pub fn spec(&self) -> Option<String> {
        match self {
            Self::Host => Some("host".into()),
            Self::Sim => Some("sim".into()),
            Self::Serial(path) => Some(path.clone()),
            Self::Human => None,
        }
    }

    /// Name shown to people.
    pub fn label(&self) -> String {
        match self {
            Self::Host => "host engine".into(),
            Self::Sim => "simulated board".into(),
            Self::Serial(path) => format!("board on {path}"),
            Self::Human => "second person".into(),
        }
    }

    /// Whether this is a board (serial or simulated) rather than the host engine.
    pub fn is_board(&self) -> bool {
        matches!(self, Self::Serial(_) | Self::Sim)
    }
}

/// What the start screen chooses (or the command line gives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game.
    pub game: GameKind,
    /// The opponent.
    pub opponent: Opponent,
    /// The engine moves first (you play the second side).
    pub engine_first: bool,
    /// Engine level (0 = the engine's default).
    pub level: u8,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            game: GameKind::TicTacToe,
            opponent: Opponent::Host,
            engine_first: false,
            level: 0,
        }
    }
}

/// Something the runtime must do for the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Start (or restart) the engine worker on this spec, dropping any old one.
    Spawn(String),
    /// Send a search to the worker.
    Go(Job),
    /// End the engine worker (back to the start screen).
    Stop,
}

/// Where the engine stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineState {
    /// Opening the link (QEMU may be starting).
    Starting,
    /// Connected and idle.
    Ready,
    /// Searching for request `id` since `since`; `live` is the last `info`.
    Thinking {
        /// Request id.
        id: u64,
        /// When it was asked.
        since: Instant,
        /// Latest completed iteration.
        live: Option<BestMove>,
    },
    /// The link could not be opened or was lost.
    Lost(Failure),
}

/// The engine side of a game against an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSide {
    /// What was opened (`host`, `sim`, a port path).
    pub spec: String,
    /// `describe()` once open.
    pub describe: String,
    /// Board clock rate from `hello` (0 = unknown).
    pub hz: u32,
    /// The state.
    pub state: EngineState,
    /// The last finished search and its wall time.
    pub last: Option<(BestMove, Duration)>,
    /// The side the engine plays.
    pub side: u8,
    /// Level sent with each request.
    pub level: u8,
    next_id: u64,
}

impl EngineSide {
    /// Whether this engine is a board (reports ticks and stack) rather than the host.
    pub fn is_board(&self) -> bool {
        self.spec != "host"
    }
}

/// A status-line note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The text.
    pub text: String,
    /// Shown as an error.
    pub error: bool,
}

/// A game in progress.
pub struct Play {
    /// The board and its rules.
    pub view: Box<dyn GameView>,
    /// The settings it was started with.
    pub settings: Settings,
    /// The engine, unless two people play.
    pub engine: Option<EngineSide>,
    /// The last message for the status line.
    pub note: Option<Note>,
}

impl Play {
    /// Whether a person moves now.
    pub fn human_to_move(&self) -> bool {
        self.view.outcome().is_none()
            && self
                .engine
                .as_ref()
                .is_none_or(|e| self.view.to_move() != e.side)
    }

    /// Name of the side a player is, with who plays it.
    pub fn player_label(&self, player: u8) -> String {
        let side = self.view.side_name(player);
        match &self.engine {
            Some(e) if e.side == player => format!("{side} ({})", self.settings.opponent.label()),
            Some(_) => format!("{side} (you)"),
            None => side.to_string(),
        }
    }
}

/// Which screen is showing.
pub enum Screen {
    /// The start screen.
    Menu(Menu),
    /// A game.
    Play(Box<Play>),
}

/// The whole TUI state.
pub struct App {
    /// The current screen.
    pub screen: Screen,
    /// The help overlay is open.
    pub help: bool,
    /// Set when the user asked to quit.
    pub quit: bool,
    /// Work for the runtime, drained by [`App::take_effects`].
    effects: Vec<Effect>,
}

impl App {
    /// Starts on the start screen with these defaults.
    pub fn with_menu(menu: Menu) -> Self {
        Self {
            screen: Screen::Menu(menu),
            help: false,
            quit: false,
            effects: Vec::new(),
        }
    }

    /// Starts a game right away (the command line gave the opponent).
    pub fn with_game(settings: Settings) -> Self {
        let mut app = Self::with_menu(Menu::new(settings.clone(), Vec::new()));
        app.start(settings);
        app
    }

    /// What the runtime has to do now.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// The game, if one is showing.
    pub fn play(&self) -> Option<&Play> {
        match &self.screen {
            Screen::Play(p) => Some(p),
            Screen::Menu(_) => None,
        }
    }

    /// The search request id the worker owes an answer to, if any.
    pub fn pending(&self) -> Option<u64> {
        match self.play()?.engine.as_ref()?.state {
            EngineState::Thinking { id, .. } => Some(id),
            _ => None,
        }
    }

    /// Starts a game with `settings`.
    pub fn start(&mut self, settings: Settings) {
        let engine = settings.opponent.spec().map(|spec| {
            self.effects.push(Effect::Spawn(spec.clone()));
            EngineSide {
                spec,
                describe: String::new(),
                hz: 0,
                state: EngineState::Starting,
                last: None,
                side: if settings.engine_first { 0 } else { 1 },
                level: settings.level,
                next_id: 0,
            }
        });
        let view = settings.game.new_view();
        let play = Play {
            view,
            settings,
            engine,
            note: None,
        };
        self.screen = Screen::Play(Box::new(play));
    }

    pub(super) fn play_mut(&mut self) -> Option<&mut Play> {
        match &mut self.screen {
            Screen::Play(p) => Some(p),
            Screen::Menu(_) => None,
        }
    }

    /// Sets the status-line note.
    pub(super) fn note(&mut self, text: impl Into<String>, error: bool) {
        if let Some(p) = self.play_mut() {
            p.note = Some(Note {
                text: text.into(),
                error,
            });
        }
    }

    /// A person's move (key or click): checked by the game's rules, never fatal.
    pub fn try_human_move(&mut self, text: &str) {
        let Some(play) = self.play_mut() else { return };
        if play.view.outcome().is_some() {
            play.note = Some(Note {
                text: "The game is over: n starts a new one, u takes back.".into(),
                error: true,
            });
            return;
        }
        if let Some(e) = &play.engine
            && play.view.to_move() == e.side
        {
            let text = match e.state {
                EngineState::Lost(_) => {
                    "The engine is not connected: r reconnects, h switches to the host engine."
                }
                EngineState::Starting => "Wait: the engine is starting.",
                _ => "Wait: the engine is thinking (u takes your move back).",
            };
            play.note = Some(Note {
                text: text.into(),
                error: true,
            });
            return;
        }
        match play.view.play(text) {
            Ok(()) => play.note = None,
            Err(why) => {
                play.note = Some(Note {
                    text: format!("Illegal move {text}: {why}."),
                    error: true,
                });
                return;
            }
        }
        self.ask_engine();
    }

    /// Sends a search if it is the engine's turn and the engine is idle.
    pub(super) fn ask_engine(&mut self) {
        let Some(play) = self.play_mut() else { return };
        let Some(engine) = play.engine.as_mut() else {
            return;
        };
        if engine.state != EngineState::Ready
            || play.view.outcome().is_some()
            || play.view.to_move() != engine.side
        {
            return;
        }
        engine.next_id += 1;
        let id = engine.next_id;
        let request = GoRequest {
            game: play.view.wire_name().to_string(),
            position: play.view.position(),
            level: engine.level,
            movetime_ms: play.view.movetime_ms(),
            seed: id,
            info: true,
            ..GoRequest::default()
        };
        engine.state = EngineState::Thinking {
            id,
            since: Instant::now(),
            live: None,
        };
        self.effects.push(Effect::Go(Job { id, request }));
    }

    /// Takes back moves: against an engine, back to before your last move.
    pub fn undo(&mut self) {
        let Some(play) = self.play_mut() else { return };
        let Some(engine) = play.engine.as_mut() else {
            let text = if play.view.undo() {
                "Took back one move."
            } else {
                "Nothing to take back."
            };
            play.note = Some(Note {
                text: text.into(),
                error: false,
            });
            return;
        };
        let human = 1 - engine.side;
        let played = play.view.moves().len();
        let human_moves = (0..played)
            .filter(|&ply| ply % 2 == usize::from(human))
            .count();
        if human_moves == 0 {
            play.note = Some(Note {
                text: "Nothing to take back.".into(),
                error: false,
            });
            return;
        }
        let mut taken = 0;
        while play.view.undo() {
            taken += 1;
            if play.view.to_move() == human {
                break;
            }
        }
        if matches!(engine.state, EngineState::Thinking { .. }) {
            // The answer still on its way is for a position that is gone.
            engine.state = EngineState::Ready;
        }
        let text = if taken == 1 {
            "Took back your move."
        } else {
            "Took back your move and the engine's reply."
        };
        play.note = Some(Note {
            text: text.into(),
            error: false,
        });
    }

    /// Leaves the game for the start screen, which shows its settings.
    pub fn to_menu(&mut self) {
        let Some(play) = self.play() else { return };
        let settings = play.settings.clone();
        let ports = Menu::available_ports();
        self.screen = Screen::Menu(Menu::new(settings, ports));
        self.effects.push(Effect::Stop);
    }

    /// Starts the same game again.
    pub fn new_game(&mut self) {
        let Some(play) = self.play_mut() else { return };
        play.view.reset();
        play.note = Some(Note {
            text: "New game.".into(),
            error: false,
        });
        if let Some(e) = play.engine.as_mut()
            && matches!(e.state, EngineState::Thinking { .. })
        {
            e.state = EngineState::Ready;
        }
        self.ask_engine();
    }

    /// Reopens the engine: the same spec, or `spec` instead (`host` to switch).
    pub fn reconnect(&mut self, spec: Option<&str>) {
        let Some(play) = self.play_mut() else { return };
        let Some(engine) = play.engine.as_mut() else {
            return;
        };
        if let Some(spec) = spec {
            engine.spec = spec.to_string();
            play.settings.opponent = Opponent::from_spec(spec);
        }
        engine.state = EngineState::Starting;
        engine.describe.clear();
        engine.hz = 0;
        let spec = engine.spec.clone();
        play.note = Some(Note {
            text: format!("Connecting to {}…", play.settings.opponent.label()),
            error: false,
        });
        self.effects.push(Effect::Spawn(spec));
    }

    /// Takes in what the engine worker reported.
    pub fn on_engine(&mut self, event: EngineEvent) {
        let Some(play) = self.play_mut() else { return };
        let Some(engine) = play.engine.as_mut() else {
            return;
        };
        match event {
            EngineEvent::Opened { describe, hz } => {
                engine.describe = describe;
                engine.hz = hz;
                engine.state = EngineState::Ready;
                play.note = Some(Note {
                    text: format!("Connected: {}.", engine.describe),
                    error: false,
                });
            }
            EngineEvent::OpenFailed(why) => {
                engine.state = EngineState::Lost(Failure::Gone(why));
                play.note = None;
            }
            EngineEvent::Info { id, best } => {
                if let EngineState::Thinking { id: want, live, .. } = &mut engine.state
                    && *want == id
                {
                    *live = Some(best);
                }
            }
            EngineEvent::Done { id, result } => {
                let current =
                    matches!(engine.state, EngineState::Thinking { id: want, .. } if want == id);
                match result {
                    Err(failure) if current || failure.board_lost() => {
                        engine.state = EngineState::Lost(failure);
                        play.note = None;
                    }
                    Err(_) => {}
                    Ok(best) if current => {
                        let since = match engine.state {
                            EngineState::Thinking { since, .. } => since,
                            _ => Instant::now(),
                        };
                        engine.state = EngineState::Ready;
                        let mv = best.best.clone();
                        engine.last = Some((best, since.elapsed()));
                        if let Err(why) = play.view.play(&mv) {
                            let failure = Failure::Refused(format!(
                                "the engine played {mv}, which is illegal: {why}"
                            ));
                            engine.state = EngineState::Lost(failure);
                        }
                    }
                    Ok(_) => {}
                }
            }
        }
        self.ask_engine();
    }
}
