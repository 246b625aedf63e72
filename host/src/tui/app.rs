//! The TUI's state and what changes it, with no terminal involved: the runtime feeds
//! keys, clicks and engine events in and carries out the [`Effect`]s that come out.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::clock::{Clocks, TimeControl};
use super::config::{Config, Store, Theme};
use super::menu::{MAX_SEED, Menu};
use super::saved;
use super::view::{Chance, GameKind, GameView};
use super::worker::{EngineEvent, Failure, Job};
use crate::engine::GoRequest;
use crate::reply::BestMove;
use crate::timeman;

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
    /// Two-player games: the engine plays both sides (you watch).
    pub engines_only: bool,
    /// Time controls in turn order, the last one for the players it does not reach
    /// (`5+3` for everyone, `5+3/1+0` for odds); empty: no clocks.
    pub clocks: Vec<TimeControl>,
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
            engines_only: false,
            clocks: Vec::new(),
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
        if self.engines_only {
            return vec![Seat::Engine; n];
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

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move.
    Move,
    /// A hint for a person: shown, not played.
    Hint,
}

/// Where the engine stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineState {
    /// Opening the link (QEMU may be starting, or its firmware being built).
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
        /// A move or a hint.
        purpose: Purpose,
        /// The player the search is for (its scores are from that side's view).
        player: u8,
    },
    /// The link could not be opened or was lost.
    Lost(Failure),
}

/// A finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastSearch {
    /// The answer.
    pub best: BestMove,
    /// Wall time it took.
    pub wall: Duration,
    /// The player it searched for (whose view its score takes).
    pub player: u8,
    /// It was a hint.
    pub purpose: Purpose,
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
    /// The last finished search.
    pub last: Option<LastSearch>,
    /// Level sent with each request.
    pub level: u8,
    /// What the link reports while it opens (building the firmware: its progress).
    pub progress: Option<String>,
    /// When the link was asked to open.
    pub opening_since: Instant,
    next_id: u64,
}

impl EngineSide {
    fn new(spec: String, level: u8) -> Self {
        Self {
            spec,
            describe: String::new(),
            hz: 0,
            state: EngineState::Starting,
            last: None,
            level,
            progress: None,
            opening_since: Instant::now(),
            next_id: 0,
        }
    }

    /// Whether this engine is a board (reports ticks and stack) rather than the host.
    pub fn is_board(&self) -> bool {
        self.spec != "host"
    }

    /// The search running, if any: its purpose and player.
    pub fn thinking(&self) -> Option<(Purpose, u8)> {
        match self.state {
            EngineState::Thinking {
                purpose, player, ..
            } => Some((purpose, player)),
            _ => None,
        }
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

/// A hint on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The engine's answer: the move and its line.
    pub best: BestMove,
    /// The player it is for.
    pub player: u8,
}

/// The pace of engine moves when engines play each other: pause, step and speed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pace {
    /// Engines wait (their clocks too) until resumed or stepped.
    pub paused: bool,
    /// One engine move may be played while paused.
    pub step: bool,
    /// Index into [`Pace::DELAYS`]: the wait between two engine moves.
    pub speed: usize,
    /// No engine move is asked for before this.
    pub not_before: Option<Instant>,
}

impl Pace {
    /// Waits between engine moves, fastest first (ms).
    pub const DELAYS: [u64; 6] = [0, 100, 300, 700, 1500, 3000];
    /// The default wait: engine games can be followed.
    pub const DEFAULT_SPEED: usize = 2;

    /// The wait between two engine moves.
    pub fn delay(&self) -> Duration {
        Duration::from_millis(Self::DELAYS[self.speed.min(Self::DELAYS.len() - 1)])
    }
}

impl Default for Pace {
    fn default() -> Self {
        Self {
            paused: false,
            step: false,
            speed: Self::DEFAULT_SPEED,
            not_before: None,
        }
    }
}

/// A game in progress.
pub struct Play {
    /// The board and its rules.
    pub view: Box<dyn GameView>,
    /// The settings it was started with.
    pub settings: Settings,
    /// Who plays each seat ([`Settings::seat_plan`]).
    pub seats: Vec<Seat>,
    /// The engine link all engine seats share (and hints use), if one is open.
    pub engine: Option<EngineSide>,
    /// The last message for the status line.
    pub note: Option<Note>,
    /// A move being typed after `:` (in the game's notation).
    pub prompt: Option<String>,
    /// The players' clocks, if the game has a time control.
    pub clocks: Option<Clocks>,
    /// The player whose flag fell (the game is over on time).
    pub flag: Option<u8>,
    /// Moves taken back, for redo: each undo's moves in playing order, last undo last.
    pub redo: Vec<Vec<String>>,
    /// The position on screen while stepping through the game (plies from the start).
    pub browse: Option<usize>,
    /// The first row of the move list on screen, if scrolled (else it follows the game).
    pub list_top: Option<usize>,
    /// The hint on the board.
    pub hint: Option<Hint>,
    /// A hint asked for, sent once the engine is free.
    pub hint_wanted: bool,
    /// The pace of engine moves.
    pub pace: Pace,
    /// Where the game was last saved and after how many moves.
    pub saved: Option<(PathBuf, usize)>,
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

    /// Whether an engine plays a seat (not only gives hints).
    pub fn against_engine(&self) -> bool {
        self.engine.is_some() && self.seats.contains(&Seat::Engine)
    }

    /// How many seats people play.
    pub fn people(&self) -> usize {
        self.seats.iter().filter(|s| **s == Seat::Person).count()
    }

    /// Whether the game is over, by the rules or on time.
    pub fn over(&self) -> bool {
        self.view.outcome().is_some() || self.flag.is_some()
    }

    /// Whether the game has moves and is not over (leaving it loses something).
    pub fn in_progress(&self) -> bool {
        !self.view.moves().is_empty() && !self.over()
    }

    /// Whether the game changed since it was last saved.
    pub fn unsaved(&self) -> bool {
        self.in_progress()
            && self
                .saved
                .as_ref()
                .is_none_or(|(_, n)| *n != self.view.moves().len())
    }

    /// Whether a person must type a die roll now (for any seat).
    pub fn typed_chance(&self) -> bool {
        !self.over() && self.view.chance() == Some(Chance::Typed)
    }

    /// Whether a person moves now (their own move, or any side's typed die roll).
    pub fn human_to_move(&self) -> bool {
        !self.over() && (!self.engine_plays(self.view.to_move()) || self.typed_chance())
    }

    /// Whether engines play each other now (the pace keys apply): two engine seats
    /// or more, and an engine to move (or the engines paused).
    pub fn engines_playing(&self) -> bool {
        let engines = self.seats.iter().filter(|s| **s == Seat::Engine).count();
        !self.over()
            && self.against_engine()
            && engines >= 2
            && (!self.human_to_move() || self.pace.paused)
    }

    /// Name of the side a player is, with who plays it.
    pub fn player_label(&self, player: u8) -> String {
        let side = self.view.side_name(player);
        if !self.against_engine() {
            side.to_string()
        } else if self.engine_plays(player) {
            format!("{side} ({})", self.settings.opponent.label())
        } else if self.people() == 1 {
            format!("{side} (you)")
        } else {
            format!("{side} (person)")
        }
    }

    /// Who plays `player`, for records: `you`, `person`, or the engine.
    pub fn player_name(&self, player: u8) -> String {
        if self.engine_plays(player) || (self.engine.is_none() && self.seat(player) == Seat::Engine)
        {
            self.settings.opponent.label()
        } else if self.people() == 1 {
            "you".into()
        } else {
            "person".into()
        }
    }

    /// How the game ended, in words, if it did (the rules' result or a flag).
    pub fn result_words(&self) -> Option<String> {
        if let Some(p) = self.flag {
            let side = self.view.side_name(p);
            return Some(if self.view.player_count() == 2 {
                let other = self.view.side_name(1 - p);
                format!("{other} wins on time ({side}'s flag fell)")
            } else {
                format!("{side} lost on time")
            });
        }
        self.view.result_text()
    }

    /// Whose clock should run now: the side to move while it can move (an engine
    /// only while it searches for its move); none when the game is over or paused.
    fn clock_runner(&self) -> Option<u8> {
        if self.over() || self.pace.paused {
            return None;
        }
        let p = self.view.to_move();
        if !self.engine_plays(p) || self.typed_chance() {
            return Some(p);
        }
        let thinking = self.engine.as_ref().and_then(EngineSide::thinking);
        (thinking == Some((Purpose::Move, p))).then_some(p)
    }

    /// Starts and stops the clocks to match the game.
    fn sync_clock(&mut self, now: Instant) {
        let runner = self.clock_runner();
        if let Some(c) = self.clocks.as_mut() {
            c.run(runner, now);
        }
    }

    /// Plays `text` for the side to move and remembers who moved; the mover's clock
    /// gains its increment (not for a die roll, which is no move of a player).
    pub(super) fn play_move(&mut self, text: &str) -> Result<(), String> {
        let mover = self.view.to_move();
        let roll = self.view.chance().is_some();
        self.view.play(text)?;
        self.movers.push(mover);
        if !roll && let Some(c) = self.clocks.as_mut() {
            c.moved(mover, Instant::now());
        }
        self.hint = None;
        self.view.show(self.browse);
        Ok(())
    }

    /// Takes back the last move; the player who made it, if there was one.
    fn undo_move(&mut self) -> Option<u8> {
        if !self.view.undo() {
            return None;
        }
        Some(self.movers.pop().unwrap_or_else(|| self.view.to_move()))
    }

    /// Shows the position after `ply` moves (`None`: the current one).
    pub(super) fn browse_to(&mut self, ply: Option<usize>) {
        let n = self.view.moves().len();
        self.browse = ply.filter(|&p| p < n);
        self.view.show(self.browse);
        if self.browse.is_some() {
            self.view.set_hint(None);
            self.list_top = None;
        } else if let Some(h) = &self.hint {
            let mv = h.best.best.clone();
            self.view.set_hint(Some(&mv));
        }
    }
}

/// What to do once the player has agreed to leave a game in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// Back to the start screen.
    Menu,
    /// A new game with the same settings.
    NewGame,
    /// Open a game from a file or pasted text.
    Open,
}

/// A question that needs an answer before going on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Quit Sente with a game in progress?
    Quit,
    /// Leave a game that is not saved?
    Leave(Then),
}

/// What a line of text is typed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A file to save the game to.
    Save,
    /// A file to open, or a position or game pasted in.
    Open,
}

/// A small window over the screen that takes the keys until it is closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// A yes/no question.
    Confirm(Ask),
    /// A line of text (a path, or a pasted position).
    Input {
        /// What it is for.
        kind: InputKind,
        /// The text so far.
        text: String,
        /// Why the last try failed.
        error: Option<String>,
    },
    /// The game the last run kept, offered again.
    Resume {
        /// What the game is, in a line.
        summary: String,
        /// The record.
        record: String,
        /// The kept game's game.
        kind: GameKind,
        /// The game the command line named, when it is another: declining starts it
        /// (and sets the kept game aside as a file, so nothing is lost).
        instead: Option<GameKind>,
    },
}

/// How the note about a kept game the player declined begins (it stays when the
/// engine's connection is reported).
const KEPT_NOTE: &str = "The kept ";

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
    /// A question, a line of text to type, or the kept game on offer.
    pub popup: Option<Popup>,
    /// Set when the user asked to quit.
    pub quit: bool,
    /// The colours.
    pub theme: Theme,
    /// The player's choices, kept in the config file.
    pub config: Config,
    /// Where files are kept.
    pub store: Store,
    /// The game the command line named (`--game`), if it did.
    pub named_game: Option<GameKind>,
    /// Work for the runtime, drained by [`App::take_effects`].
    effects: Vec<Effect>,
}

impl App {
    /// Starts on the start screen with these defaults.
    pub fn with_menu(menu: Menu) -> Self {
        Self {
            screen: Screen::Menu(menu),
            help: false,
            popup: None,
            quit: false,
            theme: Theme::Dark,
            config: Config::default(),
            store: Store::default(),
            named_game: None,
            effects: Vec::new(),
        }
    }

    /// Starts a game right away (the command line gave the opponent).
    pub fn with_game(settings: Settings) -> Self {
        let mut app = Self::with_menu(Menu::new(settings.clone(), Vec::new()));
        app.start(settings);
        app
    }

    /// Keeps files in `store` (the config and the unfinished game).
    pub fn with_store(mut self, store: Store) -> Self {
        self.store = store;
        self
    }

    /// Offers the game the last run kept, if there is one.
    pub fn offer_unfinished(&mut self) {
        let Some(record) = self.store.read_unfinished() else {
            return;
        };
        match (saved::summary(&record), saved::record_kind(&record)) {
            (Ok(summary), Ok(kind)) => {
                // Another game, or gomoku under another rule (renju is not free gomoku).
                let instead = self.named_game.filter(|&g| {
                    g != kind && (!g.same_game(kind) || matches!(g, GameKind::Gomoku(_)))
                });
                self.popup = Some(Popup::Resume {
                    summary,
                    record,
                    kind,
                    instead,
                })
            }
            // A file this Sente cannot read is no game to offer.
            _ => self.store.remove_unfinished(),
        }
    }

    /// Declines the kept game for the game the command line named: the kept game is
    /// set aside as a file in the files folder (`o` opens it; nothing is lost), or
    /// forgotten (`forget`), and the named game starts.
    pub fn decline_for(&mut self, record: &str, kind: GameKind, named: GameKind, forget: bool) {
        self.popup = None;
        let aside = if forget {
            None
        } else {
            let name = saved::set_aside_name(kind, std::time::SystemTime::now());
            let written = self
                .store
                .game_file(std::path::Path::new(&name))
                .and_then(|path| {
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        std::fs::create_dir_all(dir)
                            .map_err(|e| format!("{}: {e}", dir.display()))?;
                    }
                    std::fs::write(&path, record)
                        .map(|()| path)
                        .map_err(|e| e.to_string())
                });
            match written {
                Ok(path) => Some(Ok(path)),
                Err(e) => Some(Err(e)),
            }
        };
        if matches!(aside, Some(Err(_))) {
            // Not written: the kept game stays where it was, offered again next time.
        } else {
            self.store.remove_unfinished();
        }
        let on = matches!(&self.screen, Screen::Play(p) if p.view.kind() == named);
        if !on {
            let settings = Settings {
                game: named,
                ..self.settings()
            };
            self.start(settings);
        }
        let words = kind.words();
        match aside {
            None => self.note(format!("{KEPT_NOTE}{words} game is forgotten."), false),
            Some(Ok(path)) => self.note(
                format!(
                    "{KEPT_NOTE}{words} game is set aside in {} (o opens it).",
                    path.display()
                ),
                false,
            ),
            Some(Err(e)) => self.note(
                format!("{KEPT_NOTE}{words} game stays kept (not set aside: {e})."),
                true,
            ),
        }
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

    /// The settings of the game or of the start screen.
    pub fn settings(&self) -> Settings {
        match &self.screen {
            Screen::Play(p) => p.settings.clone(),
            Screen::Menu(m) => m.settings().unwrap_or_default(),
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
        let view = settings.game.new_view(settings.seed);
        // No moves to play: nothing can fail.
        let _ = self.start_with(settings, view, &[]);
    }

    /// Starts a game on `view` (a fresh game, or a position loaded into it) and
    /// plays `moves` (the record of a game going on). Fails on an illegal move.
    pub fn start_with(
        &mut self,
        settings: Settings,
        view: Box<dyn GameView>,
        moves: &[String],
    ) -> Result<(), String> {
        let seats = settings.seat_plan();
        let engine = settings
            .opponent
            .spec()
            .filter(|_| seats.contains(&Seat::Engine))
            .map(|spec| {
                self.effects.push(Effect::Spawn(spec.clone()));
                EngineSide::new(spec, settings.level)
            });
        let clocks = Clocks::new(&settings.clocks, view.player_count());
        let mut play = Play {
            view,
            settings,
            seats,
            engine,
            note: None,
            prompt: None,
            clocks,
            flag: None,
            redo: Vec::new(),
            browse: None,
            list_top: None,
            hint: None,
            hint_wanted: false,
            pace: Pace::default(),
            saved: None,
            movers: Vec::new(),
        };
        // The board turned to the first person's side.
        if let Some(p) = (0..play.view.player_count()).find(|&p| play.seat(p) == Seat::Person) {
            play.view.face(p);
        }
        let mut result = Ok(());
        for (i, mv) in moves.iter().enumerate() {
            if let Err(why) = play.play_move(mv) {
                result = Err(format!("move {} ({mv}): {why}", i + 1));
                break;
            }
        }
        self.screen = Screen::Play(Box::new(play));
        self.ask_engine();
        result
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
        if let Some(ply) = play.browse {
            play.note = Some(Note {
                text: format!(
                    "You are looking at move {ply} of {}: End goes back to the game.",
                    play.view.moves().len()
                ),
                error: true,
            });
            return;
        }
        if play.over() {
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
                _ if play.pace.paused => "The engines are paused: p goes on, . plays one move.",
                _ => "Wait: the engine is thinking (u takes your move back).",
            };
            play.note = Some(Note {
                text: text.into(),
                error: true,
            });
            return;
        }
        match play.play_move(text) {
            Ok(()) => {
                play.note = None;
                play.redo.clear();
            }
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

    /// Moves the game on: plays the TUI's own chance moves (seeded dice), runs the
    /// clocks, then sends a search if an engine seat is to move (at the pace chosen)
    /// or a hint was asked for, and the engine is idle.
    pub(super) fn ask_engine(&mut self) {
        self.ask_engine_at(Instant::now());
    }

    /// [`App::ask_engine`] at time `now`.
    fn ask_engine_at(&mut self, now: Instant) {
        let Some(play) = self.play_mut() else { return };
        while !play.over()
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
        play.sync_clock(now);
        let ready = play
            .engine
            .as_ref()
            .is_some_and(|e| e.state == EngineState::Ready);
        if !ready || play.over() {
            return;
        }
        let to_move = play.view.to_move();
        let engine_turn = play.engine_plays(to_move) && !play.typed_chance();
        let purpose = if engine_turn {
            if play.pace.paused && !play.pace.step {
                return;
            }
            if play.pace.not_before.is_some_and(|t| now < t) {
                return;
            }
            play.pace.step = false;
            play.pace.not_before = None;
            Purpose::Move
        } else if play.hint_wanted && play.human_to_move() {
            play.hint_wanted = false;
            Purpose::Hint
        } else {
            return;
        };
        let movetime_ms = match (&play.clocks, purpose) {
            (Some(c), Purpose::Move) => {
                let control = c.control(to_move);
                let clock = timeman::Clock {
                    left: c.left(to_move, now),
                    increment: control.map(|c| c.increment).unwrap_or_default(),
                    ..timeman::Clock::default()
                };
                timeman::wire_ms(timeman::move_time(&clock, CLOCK_OVERHEAD))
            }
            _ => play.view.movetime_ms(),
        };
        let seed = play.settings.request_seed(play.view.moves().len());
        let position = play.view.position();
        let game = play.view.wire_name().to_string();
        let Some(engine) = play.engine.as_mut() else {
            return;
        };
        engine.next_id += 1;
        let id = engine.next_id;
        let request = GoRequest {
            game,
            position,
            // A hint is the engine's best, whatever level it plays at.
            level: if purpose == Purpose::Hint {
                0
            } else {
                engine.level
            },
            movetime_ms,
            seed,
            info: true,
            ..GoRequest::default()
        };
        engine.state = EngineState::Thinking {
            id,
            since: now,
            live: None,
            purpose,
            player: to_move,
        };
        self.effects.push(Effect::Go(Job { id, request }));
        if let Some(play) = self.play_mut() {
            play.sync_clock(now);
        }
    }

    /// Time moves on: clocks run down (a flag falls), and engine moves held back
    /// by the pace are asked for.
    pub fn tick(&mut self, now: Instant) {
        let Some(play) = self.play_mut() else { return };
        if play.flag.is_none()
            && let Some(p) = play.clocks.as_ref().and_then(|c| c.flag(now))
        {
            play.flag = Some(p);
            if let Some(c) = play.clocks.as_mut() {
                c.run(None, now);
            }
            if let Some(e) = play.engine.as_mut()
                && matches!(e.state, EngineState::Thinking { .. })
            {
                // Its answer, still on its way, comes too late.
                e.state = EngineState::Ready;
            }
            play.hint = None;
            play.hint_wanted = false;
            play.view.set_hint(None);
            play.prompt = None;
            let text = play.result_words().unwrap_or_default();
            play.note = Some(Note {
                text: format!("Time! {text}."),
                error: false,
            });
            return;
        }
        if play.pace.not_before.is_some_and(|t| now >= t) {
            self.ask_engine_at(now);
        }
    }

    /// Takes back moves: back to before the last move a person made (with the
    /// engines' replies since, and the seeded die roll before it). `U` plays them again.
    pub fn undo(&mut self) {
        let Some(play) = self.play_mut() else { return };
        let person_moved = play.movers.iter().any(|&m| play.seat(m) == Seat::Person);
        if !person_moved || play.flag.is_some() {
            play.note = Some(Note {
                text: if play.flag.is_some() {
                    "The game was lost on time: nothing to take back.".into()
                } else {
                    "Nothing to take back.".into()
                },
                error: false,
            });
            return;
        }
        let before = play.view.record_moves();
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
        let kept = play.view.moves().len();
        play.redo.push(before[kept.min(before.len())..].to_vec());
        play.prompt = None;
        play.hint = None;
        play.hint_wanted = false;
        play.browse = None;
        let text = match (play.against_engine(), engine_moves) {
            (false, _) => "Took back one move (U plays it again).".to_string(),
            (true, 0) => "Took back your move (U plays it again).".to_string(),
            (true, 1) => "Took back your move and the engine's reply (U: again).".to_string(),
            (true, n) => format!("Took back your move and {n} engine moves (U: again)."),
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

    /// Plays again the moves the last undo took back.
    pub fn redo(&mut self) {
        let Some(play) = self.play_mut() else { return };
        let thinking = play.engine.as_ref().is_some_and(|e| e.thinking().is_some());
        let Some(moves) = play.redo.last().cloned() else {
            play.note = Some(Note {
                text: "Nothing to play again (U replays what u took back).".into(),
                error: false,
            });
            return;
        };
        if thinking || !play.human_to_move() {
            play.note = Some(Note {
                text: "Wait: the engine is thinking.".into(),
                error: true,
            });
            return;
        }
        play.redo.pop();
        play.browse = None;
        let mut done = 0;
        for mv in &moves {
            if play.play_move(mv).is_err() {
                break;
            }
            done += 1;
        }
        play.note = Some(Note {
            text: format!(
                "Played again: {}.",
                play.view.moves()[play.view.moves().len() - done..].join(", ")
            ),
            error: false,
        });
        self.ask_engine();
    }

    /// Asks the engine for the best move of the person to move; shown, not played.
    /// Two people without an engine get the host engine for it.
    pub fn hint(&mut self) {
        let Some(play) = self.play_mut() else { return };
        let refuse = if play.over() {
            Some("The game is over: no hint.")
        } else if play.browse.is_some() {
            Some("Hints are for the game: End goes back to it.")
        } else if !play.human_to_move() {
            Some("A hint is for your move: wait for it.")
        } else if play.typed_chance() {
            Some("Roll the die first: a hint is for a move.")
        } else {
            None
        };
        if let Some(text) = refuse {
            play.note = Some(Note {
                text: text.into(),
                error: true,
            });
            return;
        }
        if let Some(h) = &play.hint {
            let text = hint_words(play, h);
            play.note = Some(Note { text, error: false });
            return;
        }
        if play.engine.is_none() {
            self.effects.push(Effect::Spawn("host".into()));
            let Some(play) = self.play_mut() else { return };
            play.engine = Some(EngineSide::new("host".into(), 0));
        }
        let Some(play) = self.play_mut() else { return };
        play.hint_wanted = true;
        play.note = Some(Note {
            text: "Asking the engine for a hint…".into(),
            error: false,
        });
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
        play.redo.clear();
        play.browse = None;
        play.list_top = None;
        play.hint = None;
        play.hint_wanted = false;
        play.flag = None;
        play.saved = None;
        play.pace.not_before = None;
        play.clocks = Clocks::new(&play.settings.clocks, play.view.player_count());
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
        engine.progress = None;
        engine.opening_since = Instant::now();
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
            EngineEvent::Progress(text) => {
                engine.progress = Some(text);
                return;
            }
            EngineEvent::Opened { describe, hz } => {
                engine.describe = describe;
                engine.hz = hz;
                engine.state = EngineState::Ready;
                engine.progress = None;
                // Where a kept game went (said before the engine came) stays.
                let before = play
                    .note
                    .take()
                    .filter(|n| n.text.starts_with(KEPT_NOTE))
                    .map(|n| format!(" {}", n.text))
                    .unwrap_or_default();
                play.note = Some(Note {
                    text: format!("Connected: {}.{before}", engine.describe),
                    error: false,
                });
            }
            EngineEvent::OpenFailed(why) => {
                engine.state = EngineState::Lost(Failure::Gone(why));
                engine.progress = None;
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
                        let EngineState::Thinking {
                            since,
                            purpose,
                            player,
                            ..
                        } = engine.state
                        else {
                            return;
                        };
                        engine.state = EngineState::Ready;
                        engine.last = Some(LastSearch {
                            best: best.clone(),
                            wall: since.elapsed(),
                            player,
                            purpose,
                        });
                        match purpose {
                            Purpose::Hint => {
                                let hint = Hint { best, player };
                                play.note = Some(Note {
                                    text: hint_words(play, &hint),
                                    error: false,
                                });
                                if play.browse.is_none() {
                                    play.view.set_hint(Some(&hint.best.best));
                                }
                                play.hint = Some(hint);
                            }
                            Purpose::Move => {
                                let mv = best.best;
                                play.redo.clear();
                                match play.play_move(&mv) {
                                    Ok(()) => {
                                        let delay = play.pace.delay();
                                        if !delay.is_zero()
                                            && play.engine_plays(play.view.to_move())
                                        {
                                            play.pace.not_before = Some(Instant::now() + delay);
                                        }
                                    }
                                    Err(why) => {
                                        let failure = Failure::Refused(format!(
                                            "the engine played {mv}, which is illegal: {why}"
                                        ));
                                        if let Some(engine) = play.engine.as_mut() {
                                            engine.state = EngineState::Lost(failure);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    Ok(_) => {}
                }
            }
        }
        self.ask_engine();
    }

    /// Stops or resumes engine moves (engines playing each other).
    pub fn toggle_pause(&mut self) {
        let Some(play) = self.play_mut() else { return };
        play.pace.paused = !play.pace.paused;
        play.pace.step = false;
        let text = if play.pace.paused {
            "Paused: p goes on, . plays one move, + and - change the speed."
        } else {
            "Going on."
        };
        play.note = Some(Note {
            text: text.into(),
            error: false,
        });
        self.ask_engine();
    }

    /// Lets one engine move through while paused.
    pub fn step_engine(&mut self) {
        let Some(play) = self.play_mut() else { return };
        play.pace.step = true;
        play.pace.not_before = None;
        self.ask_engine();
    }

    /// A shorter (`faster`) or longer wait between engine moves.
    pub fn change_speed(&mut self, faster: bool) {
        let Some(play) = self.play_mut() else { return };
        let n = Pace::DELAYS.len();
        play.pace.speed = if faster {
            play.pace.speed.saturating_sub(1)
        } else {
            (play.pace.speed + 1).min(n - 1)
        };
        let ms = Pace::DELAYS[play.pace.speed];
        play.note = Some(Note {
            text: if ms == 0 {
                "Engine moves: as fast as they come.".into()
            } else {
                format!("Engine moves: {:.1} s apart.", ms as f64 / 1000.0)
            },
            error: false,
        });
    }

    /// Quits, asking first when a game is in progress (it is kept either way).
    pub fn request_quit(&mut self) {
        if self.play().is_some_and(Play::in_progress) {
            self.popup = Some(Popup::Confirm(Ask::Quit));
        } else {
            self.quit_now();
        }
    }

    /// Quits at once, keeping a game in progress for the next run.
    pub fn quit_now(&mut self) {
        self.keep_unfinished();
        self.quit = true;
    }

    /// Writes the game in progress where the next run finds it (and says so).
    pub fn keep_unfinished(&mut self) -> Option<PathBuf> {
        let play = self.play().filter(|p| p.in_progress())?;
        let record = saved::session_record(play, Instant::now()).write();
        match self.store.write_unfinished(&record) {
            Ok(path) => Some(path),
            Err(e) => {
                self.note(format!("Could not keep the game: {e}."), true);
                None
            }
        }
    }

    /// Leaves the game (`then`), asking first when it is in progress and not saved.
    pub fn leave(&mut self, then: Then) {
        if self.play().is_some_and(Play::unsaved) {
            self.popup = Some(Popup::Confirm(Ask::Leave(then)));
        } else {
            self.carry_out(then);
        }
    }

    /// Does what the player agreed to.
    pub(super) fn carry_out(&mut self, then: Then) {
        self.popup = None;
        match then {
            Then::Menu => self.to_menu(),
            Then::NewGame => self.new_game(),
            Then::Open => {
                self.popup = Some(Popup::Input {
                    kind: InputKind::Open,
                    text: String::new(),
                    error: None,
                })
            }
        }
    }

    /// Asks where to save the game, offering a name in the current folder.
    pub fn ask_save(&mut self) {
        let Some(play) = self.play() else { return };
        let name = saved::default_file_name(play, std::time::SystemTime::now());
        self.popup = Some(Popup::Input {
            kind: InputKind::Save,
            text: name,
            error: None,
        });
    }

    /// Saves the game to `path` in the format its extension names (`.pgn`, `.psq`,
    /// else Sente's record form).
    pub fn save_to(&mut self, path: &Path) -> Result<String, String> {
        let Some(play) = self.play() else {
            return Err("no game to save".into());
        };
        let path = &self.store.game_file(path)?;
        let (text, format) = saved::export(play, path, Instant::now())?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let message = format!("Saved to {} ({format}).", path.display());
        if let Some(play) = self.play_mut() {
            play.saved = Some((path.to_path_buf(), play.view.moves().len()));
            play.note = Some(Note {
                text: message.clone(),
                error: false,
            });
        }
        Ok(message)
    }

    /// Opens a game: `input` is a file's path, or a record or position pasted in.
    pub fn open(&mut self, input: &str) -> Result<(), String> {
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Err("type a file's path, or paste a position or a game".into());
        }
        let path = &self.store.game_file(Path::new(trimmed)).unwrap_or_default();
        let from_file = !trimmed.contains('\n') && path.is_file();
        let text = if from_file {
            std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
        } else {
            input.to_string()
        };
        let loaded = saved::read(&text, &self.settings(), false)?;
        self.start_loaded(loaded)?;
        if from_file && let Some(play) = self.play_mut() {
            play.saved = Some((path.to_path_buf(), play.view.moves().len()));
        }
        Ok(())
    }

    /// Starts the game a record or position gave.
    pub fn start_loaded(&mut self, loaded: saved::Loaded) -> Result<(), String> {
        let saved::Loaded {
            settings,
            view,
            moves,
            clocks_left,
            what,
        } = loaded;
        // Check first on a copy, so a bad record leaves the game on screen alone.
        let mut check = settings.game.new_view(settings.seed);
        check.set_start(&view.start_position())?;
        for (i, mv) in moves.iter().enumerate() {
            check
                .play(mv)
                .map_err(|why| format!("move {} ({mv}): {why}", i + 1))?;
        }
        self.effects.push(Effect::Stop);
        self.start_with(settings, view, &moves)?;
        let Some(play) = self.play_mut() else {
            return Ok(());
        };
        if let (Some(c), Some(left)) = (play.clocks.as_mut(), clocks_left) {
            c.set_left_text(&left);
        }
        let n = play.view.moves().len();
        play.note = Some(Note {
            text: format!(
                "Opened {what}: {n} move{}. [ and ] step through it.",
                if n == 1 { "" } else { "s" }
            ),
            error: false,
        });
        Ok(())
    }

    /// Takes the kept game up again (and forgets the file: quitting keeps it anew).
    pub fn resume(&mut self, record: &str) -> Result<(), String> {
        let loaded = saved::read(record, &self.settings(), true)?;
        self.start_loaded(loaded)?;
        self.store.remove_unfinished();
        self.note("The unfinished game is back.", false);
        Ok(())
    }

    /// Switches to the next colour theme and keeps the choice.
    pub fn next_theme(&mut self) {
        self.theme = self.theme.next();
        self.config.theme = self.theme;
        let text = match self.store.save_config(&self.config) {
            Ok(()) => format!("Theme: {} (kept in the config file).", self.theme.name()),
            Err(e) => format!("Theme: {} (not kept: {e}).", self.theme.name()),
        };
        self.note(text, false);
    }

    /// Remembers the start screen's choices in the config file.
    pub(super) fn remember(&mut self, settings: &Settings) {
        saved::remember(&mut self.config, settings);
        let _ = self.store.save_config(&self.config);
    }
}

/// Time kept in reserve when the clock sets the engine's time: the link's latency.
const CLOCK_OVERHEAD: Duration = Duration::from_millis(150);

/// A hint in words: the move, its line and who stands better.
pub fn hint_words(play: &Play, hint: &Hint) -> String {
    let side = play.view.side_name(hint.player);
    let line = hint
        .best
        .pv
        .iter()
        .skip(1)
        .take(6)
        .cloned()
        .collect::<Vec<_>>();
    let then = if line.is_empty() {
        String::new()
    } else {
        format!(", then {}", line.join(" "))
    };
    let score = super::render::score_words(hint.best.score, hint.player, play.view.as_ref());
    format!("Hint for {side}: {}{then} ({score}).", hint.best.best)
}
