//! Games written in the formats other tools read: xiangqi as PGN (with `[FEN]` and
//! ICCS moves, as XQStudio, ElephantEye's tools and cutechess's xiangqi mode read
//! them), gomoku and renju as Piskvork `.psq` files, the other games as Sente's game
//! lines.

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

/// Reads the moves of a `.psq` file back (Sente's point names).
pub fn read_psq(text: &str) -> Result<Vec<String>, String> {
    let mut moves = Vec::new();
    for line in text.lines().skip(1) {
        let line = line.trim();
        if line == "-1" {
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
        assert!(read_psq("Piskvorky\n16,1,0\n").is_err());
    }
}
