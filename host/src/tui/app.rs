//! The TUI's state and what changes it, with no terminal involved: the runtime feeds
//! keys, clicks and engine events in and carries out the [`Effect`]s that come out.

use std::time::{Duration, Instant};

use super::menu::{MAX_SEED, Menu};
use super::view::{Chance, GameKind, GameView};
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

/// Who plays a seat (a player of the game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this keyboard.
    Person,
    /// The engine (every engine seat shares the one engine link).
    Engine,
}

/// What the start screen chooses (or the command line gives).
///
/// Who sits where comes from [`Settings::seat_plan`]: two-player games put the
/// engine on one side (`engine_first` says which) unless the opponent is a second
/// person; games for more players (Chinese checkers) take `seats` as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game.
    pub game: GameKind,
    /// The opponent: the engine link every engine seat uses, or a second person.
    pub opponent: Opponent,
    /// Two-player games: the engine moves first (you play the second side).
    pub engine_first: bool,
    /// Engine level (0 = the engine's default).
    pub level: u8,
    /// Games with a seat per player (Chinese checkers): who plays each seat, in turn
    /// order; seats beyond the list are engines (the first one a person).
    pub seats: Vec<Seat>,
    /// Seed of the TUI's own dice (EinStein) and of the engine's requests.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            game: GameKind::TicTacToe,
            opponent: Opponent::Host,
            engine_first: false,
            level: 0,
            seats: Self::DEFAULT_SEATS.to_vec(),
            seed: 1,
        }
    }
}

impl Settings {
    /// Per-seat games start as you against engines.
    pub const DEFAULT_SEATS: [Seat; 6] = [
        Seat::Person,
        Seat::Engine,
        Seat::Engine,
        Seat::Engine,
        Seat::Engine,
        Seat::Engine,
    ];

    /// Who plays each of the game's seats, in turn order.
    pub fn seat_plan(&self) -> Vec<Seat> {
        let n = usize::from(self.game.players());
        if self.opponent == Opponent::Human {
            return vec![Seat::Person; n];
        }
        if self.game.per_seat() {
            let default = |i: usize| Self::DEFAULT_SEATS[i.min(1)];
            return (0..n)
                .map(|i| self.seats.get(i).copied().unwrap_or(default(i)))
                .collect();
        }
        let engine = usize::from(!self.engine_first);
        (0..n)
            .map(|i| {
                if i == engine {
                    Seat::Engine
                } else {
                    Seat::Person
                }
            })
            .collect()
    }

    /// The seed of the engine request made at `ply` (plies played so far): the same
    /// game seed and position give the same request.
    pub fn request_seed(&self, ply: usize) -> u64 {
        self.seed
            .wrapping_mul(1_000_003)
            .wrapping_add(ply as u64 + 1)
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
    /// Who plays each seat ([`Settings::seat_plan`]).
    pub seats: Vec<Seat>,
    /// The engine link all engine seats share, unless only people play.
    pub engine: Option<EngineSide>,
    /// The last message for the status line.
    pub note: Option<Note>,
    /// A move being typed after `:` (in the game's notation).
    pub prompt: Option<String>,
    /// Who made each move of the view's history (the player to move before it).
    movers: Vec<u8>,
}

impl Play {
    /// Who plays seat `player` (a person for a seat the plan does not list).
    pub fn seat(&self, player: u8) -> Seat {
        self.seats
            .get(usize::from(player))
            .copied()
            .unwrap_or(Seat::Person)
    }

    /// Whether the engine plays `player`.
    pub fn engine_plays(&self, player: u8) -> bool {
        self.engine.is_some() && self.seat(player) == Seat::Engine
    }

    /// How many seats people play.
    pub fn people(&self) -> usize {
        self.seats.iter().filter(|s| **s == Seat::Person).count()
    }

    /// Whether a person must type a die roll now (for any seat).
    pub fn typed_chance(&self) -> bool {
        self.view.outcome().is_none() && self.view.chance() == Some(Chance::Typed)
    }

    /// Whether a person moves now (their own move, or any side's typed die roll).
    pub fn human_to_move(&self) -> bool {
        self.view.outcome().is_none()
            && (!self.engine_plays(self.view.to_move()) || self.typed_chance())
    }

    /// Name of the side a player is, with who plays it.
    pub fn player_label(&self, player: u8) -> String {
        let side = self.view.side_name(player);
        if self.engine.is_none() {
            side.to_string()
        } else if self.engine_plays(player) {
            format!("{side} ({})", self.settings.opponent.label())
        } else if self.people() == 1 {
            format!("{side} (you)")
        } else {
            format!("{side} (person)")
        }
    }

    /// Plays `text` for the side to move and remembers who moved.
    fn play_move(&mut self, text: &str) -> Result<(), String> {
        let mover = self.view.to_move();
        self.view.play(text)?;
        self.movers.push(mover);
        Ok(())
    }

    /// Takes back the last move; the player who made it, if there was one.
    fn undo_move(&mut self) -> Option<u8> {
        if !self.view.undo() {
            return None;
        }
        Some(self.movers.pop().unwrap_or_else(|| self.view.to_move()))
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

    /// Starts a game with `settings`: the engine link is opened only when a seat
    /// is the engine's.
    pub fn start(&mut self, settings: Settings) {
        let seats = settings.seat_plan();
        let engine = settings
            .opponent
            .spec()
            .filter(|_| seats.contains(&Seat::Engine))
            .map(|spec| {
                self.effects.push(Effect::Spawn(spec.clone()));
                EngineSide {
                    spec,
                    describe: String::new(),
                    hz: 0,
                    state: EngineState::Starting,
                    last: None,
                    level: settings.level,
                    next_id: 0,
                }
            });
        let view = settings.game.new_view(settings.seed);
        let play = Play {
            view,
            settings,
            seats,
            engine,
            note: None,
            prompt: None,
            movers: Vec::new(),
        };
        self.screen = Screen::Play(Box::new(play));
        self.ask_engine();
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
            && play.engine_plays(play.view.to_move())
            && !play.typed_chance()
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
        match play.play_move(text) {
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

    /// Moves the game on: plays the TUI's own chance moves (seeded dice), then
    /// sends a search if an engine seat is to move and the engine is idle.
    pub(super) fn ask_engine(&mut self) {
        let Some(play) = self.play_mut() else { return };
        while play.view.outcome().is_none()
            && let Some(Chance::Auto(roll)) = play.view.chance()
        {
            if let Err(why) = play.play_move(&roll) {
                play.note = Some(Note {
                    text: format!("Cannot play the die roll {roll}: {why}."),
                    error: true,
                });
                return;
            }
        }
        let to_move = play.view.to_move();
        let seed = play.settings.request_seed(play.view.moves().len());
        let ready = play.engine_plays(to_move) && !play.typed_chance();
        let Some(engine) = play.engine.as_mut() else {
            return;
        };
        if engine.state != EngineState::Ready || play.view.outcome().is_some() || !ready {
            return;
        }
        engine.next_id += 1;
        let id = engine.next_id;
        let request = GoRequest {
            game: play.view.wire_name().to_string(),
            position: play.view.position(),
            level: engine.level,
            movetime_ms: play.view.movetime_ms(),
            seed,
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

    /// Takes back moves: back to before the last move a person made (with the
    /// engines' replies since, and the seeded die roll before it).
    pub fn undo(&mut self) {
        let Some(play) = self.play_mut() else { return };
        let person_moved = play.movers.iter().any(|&m| play.seat(m) == Seat::Person);
        if !person_moved {
            play.note = Some(Note {
                text: "Nothing to take back.".into(),
                error: false,
            });
            return;
        }
        let mut engine_moves = 0;
        while let Some(mover) = play.undo_move() {
            let auto_roll = matches!(play.view.chance(), Some(Chance::Auto(_)));
            if play.seat(mover) == Seat::Person && !auto_roll {
                break;
            }
            if play.seat(mover) == Seat::Engine {
                engine_moves += 1;
            }
        }
        play.prompt = None;
        let engine = play.engine.as_mut();
        let text = match (engine, engine_moves) {
            (None, _) => "Took back one move.".to_string(),
            (Some(_), 0) => "Took back your move.".to_string(),
            (Some(_), 1) => "Took back your move and the engine's reply.".to_string(),
            (Some(_), n) => format!("Took back your move and {n} engine moves."),
        };
        if let Some(engine) = play.engine.as_mut()
            && matches!(engine.state, EngineState::Thinking { .. })
        {
            // The answer still on its way is for a position that is gone.
            engine.state = EngineState::Ready;
        }
        play.note = Some(Note { text, error: false });
        self.ask_engine();
    }

    /// Leaves the game for the start screen, which shows its settings.
    pub fn to_menu(&mut self) {
        let Some(play) = self.play() else { return };
        let settings = play.settings.clone();
        let ports = Menu::available_ports();
        self.screen = Screen::Menu(Menu::new(settings, ports));
        self.effects.push(Effect::Stop);
    }

    /// Starts a new game with the same settings and the next seed (new dice for
    /// EinStein, new engine request seeds), shown in the note so that a game can
    /// be replayed from the menu.
    pub fn new_game(&mut self) {
        let Some(play) = self.play_mut() else { return };
        play.settings.seed = play.settings.seed % MAX_SEED + 1;
        play.view.reset(play.settings.seed);
        play.movers.clear();
        play.prompt = None;
        play.note = Some(Note {
            text: format!("New game (seed {}).", play.settings.seed),
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
                        if let Err(why) = play.play_move(&mv) {
                            let failure = Failure::Refused(format!(
                                "the engine played {mv}, which is illegal: {why}"
                            ));
                            if let Some(engine) = play.engine.as_mut() {
                                engine.state = EngineState::Lost(failure);
                            }
                        }
                    }
                    Ok(_) => {}
                }
            }
        }
        self.ask_engine();
    }
}
