//! Games written in the formats other tools read: xiangqi as PGN (with `[FEN]` and
//! ICCS moves, as XQStudio, ElephantEye's tools and cutechess's xiangqi mode read
//! them), gomoku and renju as Piskvork `.psq` files, the other games as Sente's game
//! lines (`sente match --out`) or Sente's record form ([`SenteRecord`], what the TUI
//! saves); and read back: [`read_xiangqi_pgn`], [`read_psq`], [`SenteRecord::parse`].
//!
//! # Sente's record form
//!
//! Any game, as text a person can read and edit (docs/records.md):
//!
//! ```text
//! [Sente "1"]
//! [Game "einstein"]
//! [Dice "seeded"]
//! [Seed "42"]
//! [Result "*"]
//!
//! setup 615243
//! setup 123456
//! roll 4
//! 4:b4
//! ```
//!
//! PGN-like tags, one `[Name "value"]` a line (`\` and `\"` escape), the first of
//! them `[Sente "1"]`; then a blank line and one move a line in the game's own
//! notation (what `go` replies and `sente raw` prints). Lines starting with `#` are
//! comments. `[Position "…"]` gives a start other than the game's own, in the
//! game's position form (the `pos` of a request).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use sente_firmware::game::Outcome;
use sente_firmware::games::gomoku::parse_point;

use crate::gomocup::point_to_xy;
use crate::matches::{GameRecord, MatchOptions};

/// The FEN of the xiangqi start position.
pub const XIANGQI_START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A PGN `Result` for an outcome (player 0 = red).
fn pgn_result(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(0) => "1-0",
        Outcome::Win(_) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// A xiangqi game for [`xiangqi_pgn`].
#[derive(Clone, Copy, Debug)]
pub struct PgnGame<'a> {
    /// The event (`sente match`, `Sente TUI`).
    pub event: &'a str,
    /// The round (the game's number in a match).
    pub round: u32,
    /// Red's name.
    pub red: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The start position.
    pub fen: &'a str,
    /// ICCS moves from `fen`.
    pub moves: &'a [String],
    /// One comment a move (the Chinese move text), if given.
    pub comments: Option<&'a [String]>,
    /// The result, `None` for a game in progress.
    pub outcome: Option<Outcome>,
    /// How it ended, in words (empty: by the rules or not yet).
    pub termination: &'a str,
}

/// One xiangqi game as PGN.
pub fn xiangqi_pgn(g: &PgnGame<'_>) -> String {
    let PgnGame {
        event,
        round,
        red,
        black,
        fen,
        moves,
        comments,
        outcome,
        termination,
    } = *g;
    let result = outcome.map_or("*", pgn_result);
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let _ = writeln!(
            s,
            "[{k} \"{}\"]",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        );
    };
    tag(&mut s, "Game", "Chinese Chess");
    tag(&mut s, "Event", event);
    tag(&mut s, "Round", &round.to_string());
    tag(&mut s, "Red", red);
    tag(&mut s, "Black", black);
    tag(&mut s, "Result", result);
    tag(&mut s, "FEN", fen);
    tag(&mut s, "Format", "ICCS");
    if !termination.is_empty() {
        tag(&mut s, "Termination", termination);
    }
    s.push('\n');
    let black_first = fen.split_whitespace().nth(1) == Some("b");
    let mut line = String::new();
    for (i, mv) in moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 || i == 0 {
            let number = ply / 2 + 1;
            let dots = if ply % 2 == 1 { "..." } else { "." };
            let _ = write!(line, "{number}{dots} ");
        }
        // ICCS in PGN: upper-case files, a dash between the squares (H2-E2).
        let up = mv.to_ascii_uppercase();
        if up.len() == 4 {
            let _ = write!(line, "{}-{} ", &up[..2], &up[2..]);
        } else {
            let _ = write!(line, "{up} ");
        }
        if let Some(text) = comments.and_then(|c| c.get(i)) {
            let _ = write!(line, "{{{text}}} ");
        }
        if line.len() > 70 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
    }
    line.push_str(result);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// One gomoku game as a Piskvork `.psq` file: the board size, one `x,y,time` line a
/// move (1-based, from the top-left corner), then the players.
pub fn psq(moves: &[String], first: &str, second: &str) -> Result<String, String> {
    let mut s = String::from("Piskvorky 15x15, 11:11, 0\n");
    for mv in moves {
        let p = parse_point(mv).map_err(|e| format!("move {mv}: {e}"))?;
        let (x, y) = point_to_xy(p);
        let _ = writeln!(s, "{},{},0", x + 1, y + 1);
    }
    let _ = writeln!(s, "-1\n{first}\n{second}\n-1");
    Ok(s)
}

/// [`psq`] for a game under a rule other than free-style: the rule's name follows
/// the file as a last line (`rule renju`), which Piskvork and other readers skip.
pub fn psq_with_rule(
    moves: &[String],
    first: &str,
    second: &str,
    rule: &str,
) -> Result<String, String> {
    let mut s = psq(moves, first, second)?;
    if rule != "free" {
        let _ = writeln!(s, "rule {rule}");
    }
    Ok(s)
}

/// The rule named by the last line [`psq_with_rule`] writes, if the file has one.
pub fn psq_rule(text: &str) -> Option<&str> {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())?
        .strip_prefix("rule ")
        .map(str::trim)
}

/// Reads the moves of a `.psq` file back (Sente's point names).
pub fn read_psq(text: &str) -> Result<Vec<String>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(head) if head.trim_start().starts_with("Piskvorky") => {}
        _ => return Err("a .psq file starts with a line \"Piskvorky 15x15, …\"".into()),
    }
    if let Some(size) = text.split_whitespace().nth(1)
        && !size.starts_with("15x15")
    {
        return Err(format!(
            "the board is {}: Sente plays on 15x15",
            size.trim_end_matches(',')
        ));
    }
    let mut moves = Vec::new();
    for line in lines {
        let line = line.trim();
        if line == "-1" || line.is_empty() {
            break;
        }
        let mut parts = line.split(',');
        let (Some(x), Some(y)) = (parts.next(), parts.next()) else {
            return Err(format!("expected x,y,time, got {line:?}"));
        };
        let (x, y): (u8, u8) = match (x.trim().parse(), y.trim().parse()) {
            (Ok(x), Ok(y)) if (1..=15).contains(&x) && (1..=15).contains(&y) => (x, y),
            _ => return Err(format!("{line:?} is off the 15x15 board")),
        };
        let p = crate::gomocup::xy_to_point(x - 1, y - 1).ok_or("off the board")?;
        let mut name = String::new();
        let _ = sente_firmware::games::gomoku::write_point(p, &mut name);
        moves.push(name);
    }
    Ok(moves)
}

/// Writes a match's games to `path`: one PGN file for xiangqi, a folder of `.psq`
/// files (`game-001.psq`, …) for gomoku, a text file of game lines for the rest.
pub fn write_games(
    path: &Path,
    game: &str,
    options: &MatchOptions,
    records: &[GameRecord],
) -> anyhow::Result<()> {
    let names = |r: &GameRecord| {
        if r.white_first {
            (options.white.as_str(), options.black.as_str())
        } else {
            (options.black.as_str(), options.white.as_str())
        }
    };
    match game {
        "xiangqi" => {
            let mut all = String::new();
            for r in records {
                let (red, black) = names(r);
                all.push_str(&xiangqi_pgn(&PgnGame {
                    event: "sente match",
                    round: r.number,
                    red,
                    black,
                    fen: XIANGQI_START,
                    moves: &r.moves,
                    comments: None,
                    outcome: Some(r.outcome),
                    termination: &r.result,
                }));
            }
            fs::write(path, all)?;
        }
        "gomoku" | "free" | "standard" | "renju" | "caro" => {
            fs::create_dir_all(path)?;
            for r in records {
                let (first, second) = names(r);
                let text = psq(&r.moves, first, second).map_err(anyhow::Error::msg)?;
                fs::write(path.join(format!("game-{:03}.psq", r.number)), text)?;
            }
        }
        _ => {
            let lines: String = records.iter().map(|r| r.line() + "\n").collect();
            fs::write(path, lines)?;
        }
    }
    Ok(())
}

/// A game in Sente's record form (see the module documentation): tags, then moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SenteRecord {
    /// The tags in order (`Game`, `Position`, …), without the leading `Sente`.
    pub tags: Vec<(String, String)>,
    /// The moves in the game's notation.
    pub moves: Vec<String>,
}

impl SenteRecord {
    /// The version `[Sente "…"]` names.
    pub const VERSION: &'static str = "1";

    /// The value of tag `name`, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing an earlier value).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Whether `text` looks like this form (its first tag is `[Sente "…"]`).
    pub fn is_sente(text: &str) -> bool {
        text.lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with("[Sente "))
    }

    /// The record as text.
    pub fn write(&self) -> String {
        let mut s = String::new();
        write_tag(&mut s, "Sente", Self::VERSION);
        for (k, v) in &self.tags {
            write_tag(&mut s, k, v);
        }
        s.push('\n');
        for mv in &self.moves {
            // A move is one line: nothing in any game's notation needs more.
            s.push_str(&mv.replace(['\n', '\r'], " "));
            s.push('\n');
        }
        s
    }

    /// Reads a record; the error names the line that is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        if !Self::is_sente(text) {
            return Err("a Sente record starts with [Sente \"1\"]".into());
        }
        let mut record = Self::default();
        let mut in_moves = false;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                in_moves |= !record.tags.is_empty();
                continue;
            }
            if line.starts_with('#') {
                continue;
            }
            if !in_moves && line.starts_with('[') {
                let (k, v) = read_tag(line).ok_or_else(|| {
                    format!("line {}: a tag is [Name \"value\"], not {line:?}", n + 1)
                })?;
                if k == "Sente" {
                    if v != Self::VERSION {
                        return Err(format!("Sente record version {v} (this Sente reads 1)"));
                    }
                } else {
                    record.tags.push((k, v));
                }
                continue;
            }
            in_moves = true;
            record.moves.push(line.to_string());
        }
        Ok(record)
    }
}

fn write_tag(s: &mut String, k: &str, v: &str) {
    let v = v.replace('\\', "\\\\").replace('"', "\\\"");
    let v = v.replace(['\n', '\r'], " ");
    let _ = writeln!(s, "[{k} \"{v}\"]");
}

/// Reads one `[Name "value"]` line (PGN's escapes).
fn read_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            c => value.push(c),
        }
    }
    (!name.is_empty()).then(|| (name.to_string(), value))
}

/// A xiangqi game read from PGN: its tags and its moves as written (ICCS with or
/// without the dash, or Chinese/WXF text: the caller checks them against the rules).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// The tags in order.
    pub tags: Vec<(String, String)>,
    /// The moves, ICCS ones in lower case without the dash (`h2e2`).
    pub moves: Vec<String>,
}

impl PgnRecord {
    /// The value of tag `name`, if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the first game of a xiangqi PGN file: tags, then the moves (comments in
/// braces or after `;`, move numbers, `$` annotations, variations in parentheses
/// and the result are skipped).
pub fn read_xiangqi_pgn(text: &str) -> Result<PgnRecord, String> {
    let mut record = PgnRecord::default();
    let mut body = String::new();
    let mut in_body = false;
    for line in text.lines() {
        let t = line.trim();
        if !in_body && t.starts_with('[') {
            let tag =
                read_tag(t).ok_or_else(|| format!("a PGN tag is [Name \"value\"], not {t:?}"))?;
            record.tags.push(tag);
            continue;
        }
        if t.is_empty() {
            in_body |= !record.tags.is_empty() || !body.is_empty();
            continue;
        }
        if t.starts_with('[') {
            break; // the next game
        }
        in_body = true;
        body.push_str(t.split_once(';').map_or(t, |(before, _)| before));
        body.push(' ');
    }
    if let Some(game) = record.tag("Game")
        && !game.to_ascii_lowercase().contains("chinese")
        && !game.eq_ignore_ascii_case("xiangqi")
    {
        return Err(format!(
            "the PGN is a game of {game}, not xiangqi (Chinese Chess)"
        ));
    }
    let (mut depth, mut comment) = (0usize, false);
    let mut word = String::new();
    let mut words = Vec::new();
    for c in body.chars().chain([' ']) {
        match c {
            '{' if !comment => comment = true,
            '}' if comment => comment = false,
            _ if comment => {}
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    for w in words {
        if w.starts_with('$') || matches!(w.as_str(), "*" | "1-0" | "0-1" | "1/2-1/2") {
            continue;
        }
        // "1.", "12...", "1.H2-E2" (a number glued to its move).
        let w = w.trim_start_matches(|c: char| c.is_ascii_digit());
        let w = w.trim_start_matches('.');
        if w.is_empty() {
            continue;
        }
        let iccs: String = w.chars().filter(|c| *c != '-').collect();
        let b = iccs.as_bytes();
        let is_iccs = b.len() == 4
            && b[0].is_ascii_alphabetic()
            && b[1].is_ascii_digit()
            && b[2].is_ascii_alphabetic()
            && b[3].is_ascii_digit();
        record.moves.push(if is_iccs {
            iccs.to_ascii_lowercase()
        } else {
            w.to_string()
        });
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_pgn_has_fen_iccs_moves_and_result() {
        let moves: Vec<String> = ["h2e2", "h9g7", "h0g2"].map(String::from).to_vec();
        let comments: Vec<String> = ["炮二平五", "马８进７", "马二进三"]
            .map(String::from)
            .to_vec();
        let game = PgnGame {
            event: "test",
            round: 1,
            red: "Sente",
            black: "Other \"engine\"",
            fen: XIANGQI_START,
            moves: &moves,
            comments: Some(&comments),
            outcome: Some(Outcome::Win(0)),
            termination: "",
        };
        let pgn = xiangqi_pgn(&game);
        assert!(pgn.contains("[FEN \"rnbakabnr/9/1c5c1"), "{pgn}");
        assert!(pgn.contains("[Format \"ICCS\"]"), "{pgn}");
        assert!(pgn.contains("[Black \"Other \\\"engine\\\"\"]"), "{pgn}");
        assert!(
            pgn.contains("1. H2-E2 {炮二平五} H9-G7 {马８进７} 2. H0-G2 {马二进三} 1-0"),
            "{pgn}"
        );
        let from_black = xiangqi_pgn(&PgnGame {
            fen: "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
            moves: &moves[..1],
            comments: None,
            outcome: None,
            ..game
        });
        assert!(from_black.contains("1... H2-E2 *"), "{from_black}");
    }

    #[test]
    fn psq_round_trips() {
        let moves: Vec<String> = ["h8", "i9", "a1", "o15"].map(String::from).to_vec();
        let text = psq(&moves, "black", "white").unwrap();
        assert!(
            text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n1,15,0\n15,1,0\n-1\n"),
            "{text}"
        );
        assert_eq!(read_psq(&text).unwrap(), moves);
        assert_eq!(psq_rule(&text), None);
        assert!(read_psq("Piskvorky\n16,1,0\n").is_err());
        assert!(read_psq("Piskvorky 20x20, 11:11, 0\n1,1,0\n").is_err());
        assert!(read_psq("hello\n").is_err());
        let renju = psq_with_rule(&moves, "a", "b", "renju").unwrap();
        assert_eq!(read_psq(&renju).unwrap(), moves);
        assert_eq!(psq_rule(&renju), Some("renju"));
        assert_eq!(
            psq_with_rule(&moves, "black", "white", "free").unwrap(),
            text
        );
    }

    #[test]
    fn sente_records_round_trip() {
        let mut r = SenteRecord::default();
        r.set("Game", "einstein");
        r.set("Note", "a \"quoted\" back\\slash\nnewline");
        r.moves = ["setup 615243", "setup 123456", "roll 4", "4:b4"]
            .map(String::from)
            .to_vec();
        let text = r.write();
        assert!(
            text.starts_with("[Sente \"1\"]\n[Game \"einstein\"]\n"),
            "{text}"
        );
        assert!(
            text.ends_with("\nsetup 615243\nsetup 123456\nroll 4\n4:b4\n"),
            "{text}"
        );
        let back = SenteRecord::parse(&text).unwrap();
        assert_eq!(back.tag("game"), Some("einstein"));
        assert_eq!(back.tag("Note"), Some("a \"quoted\" back\\slash newline"));
        assert_eq!(back.moves, r.moves);
        // Comments and blank lines are skipped; a bad tag or version is refused.
        let edited = format!(
            "# saved by hand\n{}\n# the end\n\n",
            text.replace("roll 4", "roll 4\n")
        );
        assert_eq!(SenteRecord::parse(&edited).unwrap().moves, r.moves);
        assert!(SenteRecord::parse("[Game \"ttt\"]\n").is_err());
        assert!(SenteRecord::parse("[Sente \"2\"]\n").is_err());
        assert!(SenteRecord::parse("[Sente \"1\"]\n[Game ttt]\n").is_err());
        let empty = SenteRecord::parse("[Sente \"1\"]\n[Game \"ttt\"]\n").unwrap();
        assert!(empty.moves.is_empty());
    }

    #[test]
    fn xiangqi_pgn_reads_back_what_it_writes_and_other_tools_write() {
        let moves: Vec<String> = ["h2e2", "h9g7", "h0g2"].map(String::from).to_vec();
        let comments: Vec<String> = ["炮二平五", "马８进７", "马二进三"]
            .map(String::from)
            .to_vec();
        let fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let pgn = xiangqi_pgn(&PgnGame {
            event: "test",
            round: 1,
            red: "you",
            black: "host engine",
            fen,
            moves: &moves,
            comments: Some(&comments),
            outcome: None,
            termination: "",
        });
        let back = read_xiangqi_pgn(&pgn).unwrap();
        assert_eq!(back.moves, moves);
        assert_eq!(back.tag("FEN"), Some(fen));
        assert_eq!(back.tag("red"), Some("you"));
        // Another tool's file: numbers glued to moves, variations, NAGs, ; comments,
        // Chinese moves.
        let other = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1.H2-E2 $1 (1. C2-E2 {x}) H9-G7 ; a note\n2. 马二进三 1-0\n";
        let back = read_xiangqi_pgn(other).unwrap();
        assert_eq!(back.moves, ["h2e2", "h9g7", "马二进三"]);
        assert!(read_xiangqi_pgn("[Game \"Chess\"]\n\n1. e4 e5\n").is_err());
        assert!(read_xiangqi_pgn("[Broken\n").is_err());
    }
}
