//! Games to files and back: each game in the format its players' other tools read
//! (xiangqi as PGN with `[FEN]` and ICCS moves, gomoku and renju as Piskvork `.psq`,
//! the others in Sente's record form), the unfinished game kept between runs (the
//! record form with the game's settings and clocks), and positions pasted in.
//! The formats themselves are [`crate::record`]'s.

use std::path::Path;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use sente_firmware::game::Outcome;
use sente_firmware::games::gomoku::Rule;

use super::app::{Opponent, Play, Seat, Settings};
use super::clock::TimeControl;
use super::config::Config;
use super::view::{Dice, GameKind, GameView};
use crate::record::{
    PgnGame, SenteRecord, XIANGQI_START, psq_rule, psq_with_rule, read_psq, read_xiangqi_pgn,
    xiangqi_pgn,
};

/// A game read from a file or pasted in, ready to start.
pub struct Loaded {
    /// The settings to play it with.
    pub settings: Settings,
    /// The board at the game's first position.
    pub view: Box<dyn GameView>,
    /// The moves played from there.
    pub moves: Vec<String>,
    /// The clocks as they stood (`ClockLeft`), if the record says.
    pub clocks_left: Option<String>,
    /// What was read, for the message (`a PGN game`, `a position`).
    pub what: String,
}

/// The name `--game` and the config file use for a game with its variant.
pub fn game_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Gomoku(rule) => rule.name(),
        other => other.info().name,
    }
}

/// The record tags that name the game and its variant.
fn kind_tags(kind: GameKind, seed: u64) -> Vec<(&'static str, String)> {
    let mut tags = vec![("Game", kind.info().name.to_string())];
    match kind {
        GameKind::Gomoku(rule) => tags.push(("Rule", rule.name().to_string())),
        GameKind::Einstein(dice) => {
            tags.push(("Dice", dice.name().to_string()));
            tags.push(("Seed", seed.to_string()));
        }
        GameKind::Checkers { players, pieces } => {
            tags.push(("Players", players.to_string()));
            tags.push(("Pieces", pieces.to_string()));
        }
        _ => {}
    }
    tags
}

/// The game a record's tags name (`Game`, with `Rule`, `Dice`, `Players`, `Pieces`).
fn kind_of(record: &SenteRecord) -> Result<GameKind, String> {
    let name = record
        .tag("Game")
        .ok_or("the record names no game ([Game \"…\"])")?;
    let kind = GameKind::from_name(name)
        .ok_or_else(|| format!("unknown game {name:?}; Sente plays {}", GameKind::names()))?;
    let number = |tag: &str| record.tag(tag).and_then(|v| v.trim().parse::<u8>().ok());
    Ok(match kind {
        GameKind::Gomoku(rule) => GameKind::Gomoku(
            record
                .tag("Rule")
                .and_then(|r| Rule::parse(&r.to_ascii_lowercase()).ok())
                .unwrap_or(rule),
        ),
        GameKind::Einstein(_) => GameKind::Einstein(match record.tag("Dice") {
            Some("typed") => Dice::Typed,
            _ => Dice::Seeded,
        }),
        GameKind::Checkers { players, pieces } => GameKind::Checkers {
            players: number("Players").unwrap_or(players),
            pieces: number("Pieces").unwrap_or(pieces),
        },
        other => other,
    })
}

/// Who plays each seat as letters: `p` a person, `e` the engine.
fn seat_letters(play: &Play) -> String {
    play.seats
        .iter()
        .map(|s| if *s == Seat::Person { 'p' } else { 'e' })
        .collect()
}

/// The game as a Sente record, with what resuming it needs: the game, its start
/// (when not the game's own), the opponent, who sits where, the level, the clocks
/// as they stand and the moves.
pub fn session_record(play: &Play, now: Instant) -> SenteRecord {
    let mut r = SenteRecord::default();
    let kind = play.view.kind();
    for (k, v) in kind_tags(kind, play.settings.seed) {
        r.set(k, v);
    }
    let start = play.view.start_position();
    if start != kind.new_view(play.settings.seed).start_position() {
        r.set("Position", start);
    }
    for p in 0..play.view.player_count() {
        let side = play.view.side_name(p);
        r.set(&capitalised(side), play.player_name(p));
    }
    r.set(
        "Opponent",
        play.settings
            .opponent
            .spec()
            .unwrap_or_else(|| "human".into()),
    );
    r.set("Seats", seat_letters(play));
    r.set("Level", play.settings.level.to_string());
    if !play.settings.clocks.is_empty() {
        r.set("Clock", TimeControl::sides_label(&play.settings.clocks));
        if let Some(c) = &play.clocks {
            r.set("ClockLeft", c.left_text(now));
        }
    }
    r.set("Date", date_text(SystemTime::now()));
    r.set(
        "Result",
        play.result_words().unwrap_or_else(|| "*".to_string()),
    );
    r.moves = play.view.record_moves();
    r
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The game in the format `path`'s extension names: `.pgn` (xiangqi), `.psq`
/// (gomoku and renju from the empty board), anything else Sente's record form.
/// Returns the text and the format's name.
pub fn export(play: &Play, path: &Path, now: Instant) -> Result<(String, &'static str), String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let kind = play.view.kind();
    let standard_start =
        play.view.start_position() == kind.new_view(play.settings.seed).start_position();
    match (ext.as_str(), kind) {
        ("pgn", GameKind::Xiangqi) => {
            let start = play.view.start_position();
            let fen = if standard_start {
                XIANGQI_START.to_string()
            } else {
                start
            };
            let moves = play.view.record_moves();
            let comments = play.view.record_comments();
            let outcome = match (play.flag, play.view.outcome()) {
                (Some(p), _) => Some(Outcome::Win(1 - p.min(1))),
                (None, o) => o,
            };
            let termination = if play.flag.is_some() {
                "time forfeit"
            } else {
                ""
            };
            let text = xiangqi_pgn(&PgnGame {
                event: "Sente TUI",
                round: 1,
                red: &play.player_name(0),
                black: &play.player_name(1),
                fen: &fen,
                moves: &moves,
                comments: Some(&comments),
                outcome,
                termination,
            });
            Ok((text, "PGN"))
        }
        ("pgn", _) => Err("PGN is for xiangqi: save this game as .sente".into()),
        ("psq", GameKind::Gomoku(rule)) if standard_start => {
            let text = psq_with_rule(
                &play.view.record_moves(),
                &play.player_name(0),
                &play.player_name(1),
                rule.name(),
            )?;
            Ok((text, "Piskvork .psq"))
        }
        ("psq", GameKind::Gomoku(_)) => Err(
            "a .psq file starts from the empty board: save a game from a position as .sente".into(),
        ),
        ("psq", _) => Err("a .psq file is for gomoku: save this game as .sente".into()),
        _ => Ok((session_record(play, now).write(), "Sente record")),
    }
}

/// The extension a game is saved with by default.
pub fn default_extension(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Xiangqi => "pgn",
        GameKind::Gomoku(_) => "psq",
        _ => "sente",
    }
}

/// A file name for the game in the current folder: `sente-xiangqi-2025-01-31-1230.pgn`.
pub fn default_file_name(play: &Play, now: SystemTime) -> String {
    let kind = play.view.kind();
    let date = date_text(now).replace([' ', ':'], "-");
    let mut ext = default_extension(kind);
    if ext == "psq" && play.view.start_position() != kind.new_view(1).start_position() {
        ext = "sente";
    }
    format!("sente-{}-{date}.{ext}", game_name(kind))
}

/// `2025-01-31 12:30` (UTC).
pub fn date_text(now: SystemTime) -> String {
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let (h, m) = (secs % 86_400 / 3600, secs % 3600 / 60);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{d:02} {h:02}{m:02}")
}

/// A kept game in one line: `xiangqi against the host engine, 14 moves (2025-01-31 1230)`.
pub fn summary(record: &str) -> Result<String, String> {
    let r = SenteRecord::parse(record)?;
    let kind = kind_of(&r)?;
    let title = kind.words();
    let against = match r.tag("Opponent") {
        Some("human") | None => "two people".to_string(),
        Some(spec) => format!("against the {}", Opponent::from_spec(spec).label()),
    };
    let n = r.moves.len();
    let date = r.tag("Date").map(|d| format!(" ({d})")).unwrap_or_default();
    Ok(format!(
        "{title}, {against}, {n} move{}{date}",
        if n == 1 { "" } else { "s" }
    ))
}

/// The game a Sente record is of (with its rule, dice or players).
pub fn record_kind(record: &str) -> Result<GameKind, String> {
    kind_of(&SenteRecord::parse(record)?)
}

/// The file name a kept game is set aside under (`sente-xiangqi-2025-01-31-12-30.sente`).
pub fn set_aside_name(kind: GameKind, now: SystemTime) -> String {
    let date = date_text(now).replace([' ', ':'], "-");
    format!("sente-{}-{date}.sente", game_name(kind))
}

/// Reads a saved game or a position: a Sente record, a xiangqi PGN, a Piskvork
/// `.psq`, or a position in any game's form (a xiangqi FEN, `fen …` or `startpos`
/// with `moves …`; `x../.o./...`; …), the current game's form tried first.
/// `current` gives what the text does not say; a `session` (the kept game) also
/// brings back its opponent.
pub fn read(text: &str, current: &Settings, session: bool) -> Result<Loaded, String> {
    let trimmed = text.trim();
    if SenteRecord::is_sente(trimmed) {
        return read_sente(trimmed, current, session);
    }
    if trimmed.starts_with("Piskvorky") {
        let moves = read_psq(trimmed)?;
        let rule = match (psq_rule(trimmed), current.game) {
            (Some(name), _) => Rule::parse(name).map_err(|e| e.to_string())?,
            (None, GameKind::Gomoku(rule)) => rule,
            (None, _) => Rule::Free,
        };
        let kind = GameKind::Gomoku(rule);
        return Ok(Loaded {
            settings: with_game(current, kind),
            view: kind.new_view(current.seed),
            moves,
            clocks_left: None,
            what: "a Piskvork game".into(),
        });
    }
    if trimmed.starts_with('[') {
        let pgn = read_xiangqi_pgn(trimmed)?;
        let mut view = GameKind::Xiangqi.new_view(current.seed);
        if let Some(fen) = pgn.tag("FEN") {
            view.set_start(fen).map_err(|e| format!("[FEN]: {e}"))?;
        }
        return Ok(Loaded {
            settings: with_game(current, GameKind::Xiangqi),
            view,
            moves: pgn.moves,
            clocks_left: None,
            what: "a PGN game".into(),
        });
    }
    read_position(trimmed, current)
}

/// `current` with another game (the level kept within the game's levels).
fn with_game(current: &Settings, kind: GameKind) -> Settings {
    Settings {
        game: kind,
        level: current.level.min(kind.max_level()),
        ..current.clone()
    }
}

fn read_position(text: &str, current: &Settings) -> Result<Loaded, String> {
    let text = text.strip_prefix("fen ").unwrap_or(text).trim();
    if text.is_empty() {
        return Err("nothing to read".into());
    }
    let mut kinds = vec![current.game];
    kinds.extend(GameKind::ALL.iter().filter(|k| !k.same_game(current.game)));
    let mut first_error = None;
    for kind in kinds {
        let mut view = kind.new_view(current.seed);
        match view.set_start(text) {
            Ok(()) => {
                // A xiangqi position with `moves …` played them: keep them as moves.
                let moves = view.record_moves();
                let start = view.start_position();
                let mut fresh = view.kind().new_view(current.seed);
                fresh.set_start(&start)?;
                return Ok(Loaded {
                    settings: with_game(current, view.kind()),
                    view: fresh,
                    moves,
                    clocks_left: None,
                    what: format!("a {} position", view.kind().title()),
                });
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(format!(
        "not a file, a saved game or a position: {} (as a {} position: {})",
        shorten(text),
        current.game.title(),
        first_error.unwrap_or_default()
    ))
}

fn shorten(text: &str) -> String {
    let first: String = text.chars().take(40).collect();
    if first.len() < text.len() {
        format!("{first:?}…")
    } else {
        format!("{first:?}")
    }
}

fn read_sente(text: &str, current: &Settings, session: bool) -> Result<Loaded, String> {
    let r = SenteRecord::parse(text)?;
    let kind = kind_of(&r)?;
    let mut settings = with_game(current, kind);
    if let Some(seed) = r.tag("Seed").and_then(|s| s.trim().parse().ok()) {
        settings.seed = seed;
    }
    if let Some(level) = r.tag("Level").and_then(|s| s.trim().parse::<u8>().ok()) {
        settings.level = level.min(kind.max_level());
    }
    if session && let Some(spec) = r.tag("Opponent") {
        settings.opponent = match spec {
            "human" => Opponent::Human,
            spec => Opponent::from_spec(spec),
        };
    }
    if let Some(letters) = r.tag("Seats") {
        let seats: Vec<Seat> = letters
            .chars()
            .map(|c| if c == 'e' { Seat::Engine } else { Seat::Person })
            .collect();
        if kind.per_seat() {
            settings.seats = seats;
        } else if let [a, b] = seats[..] {
            settings.engines_only = a == Seat::Engine && b == Seat::Engine;
            settings.engine_first = a == Seat::Engine;
        }
    }
    if let Some(clock) = r.tag("Clock") {
        settings.clocks = TimeControl::parse_sides(clock)?;
    }
    let mut view = kind.new_view(settings.seed);
    if let Some(position) = r.tag("Position") {
        view.set_start(position)
            .map_err(|e| format!("[Position]: {e}"))?;
        settings.game = view.kind();
    }
    Ok(Loaded {
        settings,
        view,
        moves: r.moves.clone(),
        clocks_left: r.tag("ClockLeft").map(str::to_string),
        what: if session {
            "the unfinished game".into()
        } else {
            "a Sente record".into()
        },
    })
}

/// Keeps the start screen's choices in the config.
pub fn remember(config: &mut Config, settings: &Settings) {
    config.game = Some(game_name(settings.game).to_string());
    config.opponent = Some(
        settings
            .opponent
            .spec()
            .unwrap_or_else(|| "human".to_string()),
    );
    config.level = Some(settings.level);
    config.first = Some(
        if settings.engines_only {
            "engines"
        } else if settings.engine_first {
            "engine"
        } else {
            "you"
        }
        .to_string(),
    );
    config.clock =
        (!settings.clocks.is_empty()).then(|| TimeControl::sides_label(&settings.clocks));
}

/// The start screen's choices from the config, over `defaults`.
pub fn recall(config: &Config, defaults: &Settings) -> Settings {
    let mut s = defaults.clone();
    if let Some(kind) = config.game.as_deref().and_then(GameKind::from_name) {
        s.game = kind;
    }
    if let Some(spec) = config.opponent.as_deref() {
        s.opponent = match spec {
            "human" => Opponent::Human,
            spec => Opponent::from_spec(spec),
        };
    }
    if let Some(level) = config.level {
        s.level = level.min(s.game.max_level());
    }
    match config.first.as_deref() {
        Some("engine") => s.engine_first = true,
        Some("engines") => s.engines_only = true,
        _ => {}
    }
    if let Some(clock) = config.clock.as_deref()
        && let Ok(clocks) = TimeControl::parse_sides(clock)
    {
        s.clocks = clocks;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_738_326_600);
        assert_eq!(date_text(t), "2025-01-31 1230");
        assert_eq!(date_text(UNIX_EPOCH), "1970-01-01 0000");
        let leap = UNIX_EPOCH + std::time::Duration::from_secs(951_782_400);
        assert_eq!(date_text(leap), "2000-02-29 0000");
    }

    #[test]
    fn positions_of_every_game_are_recognised() {
        let current = Settings::default();
        for (text, kind) in [
            ("x../.o./...", GameKind::TicTacToe),
            ("renju h8i9", GameKind::Gomoku(Rule::Renju)),
            (
                "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                GameKind::Xiangqi,
            ),
        ] {
            let loaded = read(text, &current, false).unwrap();
            assert_eq!(loaded.settings.game, kind, "{text}");
        }
        let xq = read("startpos moves h2e2 h9g7", &current, false).unwrap();
        assert_eq!(xq.moves, ["h2e2", "h9g7"]);
        assert_eq!(xq.settings.game, GameKind::Xiangqi);
        let err = read("not a position", &current, false).err().unwrap();
        assert!(err.contains("not a file"), "{err}");
    }

    #[test]
    fn config_choices_come_back() {
        let settings = Settings {
            game: GameKind::Gomoku(Rule::Renju),
            opponent: Opponent::Sim,
            level: 2,
            engines_only: true,
            clocks: vec![TimeControl::new(300, 3)],
            ..Settings::default()
        };
        let mut config = Config::default();
        remember(&mut config, &settings);
        assert_eq!(config.game.as_deref(), Some("renju"));
        assert_eq!(recall(&config, &Settings::default()), settings);
    }
}
