//! Text forms: holes, moves and positions.
//!
//! - Hole: a row letter `a`–`q` (top to bottom) and the 1-based place in that
//!   row from the left (`a1` top tip, `e1`–`e13` the long row 4, `i5` the centre,
//!   `q1` bottom tip), or the hole number `0`–`120`. Written as letter + number.
//! - Move: `from-to`, e.g. `n1-m1`; `pass` when the side to move is blocked.
//! - Position: `players=<n> pieces=<10|15> turn=<k> ply=<p> <holes>` where
//!   `<holes>` lists each player's pieces as two lowercase hex digits per hole
//!   number, players separated by `/` (`ply=` may be left out: 0). Or
//!   `start <n>` / `start <n> pieces=15` for a start position.

use core::fmt;

use super::board::{HOLE_ROW, HOLE_X, HOLES, ROW_START, ROW_X0};
use super::rules::{Checkers, Move};
use crate::game::{Game, Notation};
use crate::text::ParseError;

/// Parses a hole name (`a1`–`q1` style, or `0`–`120`).
pub fn parse_hole(text: &str) -> Result<u8, ParseError> {
    let bytes = text.as_bytes();
    let bad = ParseError("hole must be a row letter a-q and a place (e.g. i5), or 0-120");
    match bytes.first() {
        Some(b'0'..=b'9') => {
            let n = parse_number(text).ok_or(bad)?;
            if n < HOLES as u32 {
                Ok(n as u8)
            } else {
                Err(ParseError("hole number must be 0-120"))
            }
        }
        Some(&c @ (b'a'..=b'q' | b'A'..=b'Q')) => {
            let row = usize::from(c.to_ascii_lowercase() - b'a');
            let place = parse_number(text.get(1..).unwrap_or("")).ok_or(bad)?;
            let len = u32::from(ROW_START[row + 1] - ROW_START[row]);
            if place == 0 || place > len {
                return Err(ParseError("no such place in that row"));
            }
            Ok(ROW_START[row] + (place - 1) as u8)
        }
        _ => Err(bad),
    }
}

/// Digits only, at most three.
fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Writes a hole as row letter + place (`i5`).
pub fn write_hole(hole: u8, out: &mut dyn fmt::Write) -> fmt::Result {
    let h = usize::from(hole);
    if h >= HOLES {
        return out.write_str("?");
    }
    let row = usize::from(HOLE_ROW[h]);
    let place = (HOLE_X[h] - ROW_X0[row]) / 2 + 1;
    out.write_char((b'a' + row as u8) as char)?;
    write!(out, "{place}")
}

/// Writes a move as `from-to` (or `pass`).
pub fn write_move(mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
    if mv == Move::PASS {
        return out.write_str("pass");
    }
    write_hole(mv.from, out)?;
    out.write_char('-')?;
    write_hole(mv.to, out)
}

/// Reads `key=value` with a small decimal value.
fn key_value<'a>(token: &'a str, key: &str) -> Option<&'a str> {
    token.strip_prefix(key)?.strip_prefix('=')
}

fn number_field(value: &str, what: &'static str) -> Result<u16, ParseError> {
    if value.is_empty() || value.len() > 4 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError(what));
    }
    value.parse().map_err(|_| ParseError(what))
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

impl Checkers {
    /// Reads a position into `self` in place (the board's engine parses this way,
    /// so no second position sits on its stack).
    pub fn parse_into(&mut self, text: &str) -> Result<(), ParseError> {
        let text = text.trim();
        match text.strip_prefix("start") {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => self.parse_start(rest),
            _ => self.parse_fields(text),
        }
    }

    fn parse_start(&mut self, rest: &str) -> Result<(), ParseError> {
        let mut words = rest.split_whitespace();
        let players = match words.next() {
            Some(w) => number_field(w, "start needs a player count: 2, 3, 4 or 6")?,
            None => return Err(ParseError("start needs a player count: 2, 3, 4 or 6")),
        };
        let per = match words.next() {
            None => 10,
            Some(w) => {
                let v = key_value(w, "pieces")
                    .ok_or(ParseError("after start <n> only pieces=10|15"))?;
                number_field(v, "pieces must be 10 or 15")?
            }
        };
        if words.next().is_some() {
            return Err(ParseError("unexpected text after start <n> pieces=<10|15>"));
        }
        let (Ok(players), Ok(per)) = (u8::try_from(players), u8::try_from(per)) else {
            return Err(ParseError(
                "players must be 2, 3, 4 or 6; pieces 10 or 15 (15 for up to 3 players)",
            ));
        };
        if self.reset_to_start(players, per) {
            Ok(())
        } else {
            Err(ParseError(
                "players must be 2, 3, 4 or 6; pieces 10 or 15 (15 for up to 3 players)",
            ))
        }
    }

    fn parse_fields(&mut self, text: &str) -> Result<(), ParseError> {
        let (mut players, mut per, mut turn, mut ply) = (None, None, None, 0u16);
        let mut lists = None;
        for token in text.split_whitespace() {
            if let Some(v) = key_value(token, "players") {
                players = Some(number_field(v, "players must be 2, 3, 4 or 6")?);
            } else if let Some(v) = key_value(token, "pieces") {
                per = Some(number_field(v, "pieces must be 10 or 15")?);
            } else if let Some(v) = key_value(token, "turn") {
                turn = Some(number_field(v, "turn must be a player number")?);
            } else if let Some(v) = key_value(token, "ply") {
                ply = number_field(v, "ply must be a number")?;
            } else if lists.replace(token).is_some() {
                return Err(ParseError("position has more than one list of holes"));
            }
        }
        let players = players.ok_or(ParseError("position needs players=<n> (or start <n>)"))?;
        let per = per.ok_or(ParseError("position needs pieces=<10|15>"))?;
        let turn = turn.ok_or(ParseError("position needs turn=<k>"))?;
        let lists = lists.ok_or(ParseError("position needs the holes of every player"))?;
        let (Ok(players), Ok(per), Ok(turn)) =
            (u8::try_from(players), u8::try_from(per), u8::try_from(turn))
        else {
            return Err(ParseError("players, pieces or turn out of range"));
        };
        if !super::rules::valid_setup(players, per) {
            return Err(ParseError(
                "players must be 2, 3, 4 or 6; pieces 10 or 15 (15 for up to 3 players)",
            ));
        }
        if turn >= players {
            return Err(ParseError("turn must be below the player count"));
        }
        // The setup and turn are valid here, so only the ply can be refused.
        if !self.reset(players, per, turn, ply) {
            return Err(ParseError("ply is beyond the move limit"));
        }
        let pos = self;
        let mut count = 0usize;
        for (p, list) in lists.split('/').enumerate() {
            if p >= usize::from(players) {
                return Err(ParseError("more hole lists than players"));
            }
            let bytes = list.as_bytes();
            if bytes.len() != 2 * usize::from(per) {
                return Err(ParseError(
                    "each player needs exactly `pieces` holes, two hex digits each",
                ));
            }
            for (i, pair) in bytes.chunks(2).enumerate() {
                let (Some(hi), Some(lo)) =
                    (hex_digit(pair[0]), pair.get(1).and_then(|&b| hex_digit(b)))
                else {
                    return Err(ParseError("holes are written as two hex digits"));
                };
                let h = hi * 16 + lo;
                if usize::from(h) >= HOLES {
                    return Err(ParseError("hole number above 120 (0x78)"));
                }
                if !pos.place(p as u8, i, h) {
                    return Err(ParseError("two pieces on the same hole"));
                }
            }
            count = p + 1;
        }
        if count != usize::from(players) {
            return Err(ParseError("need one hole list per player, separated by /"));
        }
        pos.seal();
        Ok(())
    }
}

impl Notation for Checkers {
    const NAME: &'static str = "checkers";

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut pos = Checkers::EMPTY;
        pos.parse_into(text)?;
        Ok(pos)
    }

    fn write_position(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        write!(
            out,
            "players={} pieces={} turn={} ply={} ",
            self.players(),
            self.pieces_per_player(),
            self.turn(),
            self.ply()
        )?;
        for p in 0..self.players() {
            if p > 0 {
                out.write_char('/')?;
            }
            for &h in self.pieces_of(p) {
                write!(out, "{h:02x}")?;
            }
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        if self.outcome().is_some() {
            return Err(ParseError("the game is over"));
        }
        let mv = if text == "pass" {
            Move::PASS
        } else {
            let (a, b) = text
                .split_once('-')
                .ok_or(ParseError("move must be from-to, e.g. n1-m1"))?;
            Move {
                from: parse_hole(a)?,
                to: parse_hole(b)?,
            }
        };
        if mv == Move::PASS {
            return if self.has_move(self.turn()) {
                Err(ParseError("pass is only allowed when no piece can move"))
            } else {
                Ok(mv)
            };
        }
        if !self.pieces_of(self.turn()).contains(&mv.from) {
            return Err(ParseError("no piece of the side to move on that hole"));
        }
        if !self.reachable(mv.from).has(mv.to) {
            return Err(ParseError("that piece cannot reach that hole"));
        }
        Ok(mv)
    }

    fn write_move(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        write_move(mv, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<F: Fn(&mut dyn fmt::Write) -> fmt::Result>(f: F) -> String {
        let mut s = String::new();
        f(&mut s).unwrap();
        s
    }

    #[test]
    fn hole_names_round_trip() {
        for h in 0..HOLES as u8 {
            let name = text(|o| write_hole(h, o));
            assert_eq!(parse_hole(&name), Ok(h), "{name}");
            assert_eq!(parse_hole(&h.to_string()), Ok(h));
        }
        assert_eq!(parse_hole("a1"), Ok(0));
        assert_eq!(parse_hole("i5"), Ok(60));
        assert_eq!(parse_hole("Q1"), Ok(120));
        assert_eq!(text(|o| write_hole(10, o)), "e1");
        assert_eq!(text(|o| write_hole(22, o)), "e13");
        for bad in [
            "", "a0", "a2", "e14", "r1", "121", "1234", "i", "i5x", "-1", "x3",
        ] {
            assert!(parse_hole(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_round_trip() {
        for (n, per) in [(2, 10), (3, 10), (4, 10), (6, 10), (2, 15), (3, 15)] {
            let pos = Checkers::start(n, per).unwrap();
            let s = text(|o| pos.write_position(o));
            assert!(s.len() <= 160, "{} bytes", s.len());
            assert_eq!(Checkers::parse_position(&s), Ok(pos.clone()));
            let start = if per == 15 {
                format!("start {n} pieces=15")
            } else {
                format!("start {n}")
            };
            assert_eq!(Checkers::parse_position(&start), Ok(pos));
        }
        let s = text(|o| Checkers::start(2, 10).unwrap().write_position(o));
        assert_eq!(
            s,
            "players=2 pieces=10 turn=0 ply=0 6f707172737475767778/00010203040506070809"
        );
        // Holes in any order, upper-case hex, no ply.
        let p = Checkers::parse_position(
            "players=2 pieces=10 turn=1 78776F707172737475760/00010203040506070809",
        );
        assert!(p.is_err(), "odd digit count");
        let p = Checkers::parse_position(
            "turn=1 players=2 pieces=10 787776756F7071727374/09080706050403020100",
        )
        .unwrap();
        assert_eq!(p.turn(), 1);
        assert_eq!(p.pieces_of(0)[0], 0x6f);
    }

    #[test]
    fn bad_positions_are_rejected() {
        let ok = "players=2 pieces=10 turn=0 ply=0 6f707172737475767778/00010203040506070809";
        assert!(Checkers::parse_position(ok).is_ok());
        for bad in [
            "",
            "start",
            "start 5",
            "start 4 pieces=15",
            "start 2 pieces=12",
            "start 2 x",
            "start 2 pieces=10 more",
            "players=2 pieces=10 turn=2 6f707172737475767778/00010203040506070809",
            "players=5 pieces=10 turn=0 6f707172737475767778/00010203040506070809",
            "players=2 pieces=15 turn=0 6f707172737475767778/00010203040506070809",
            "players=2 pieces=10 turn=0 6f707172737475767778",
            "players=2 pieces=10 turn=0 6f707172737475767778/00010203040506070809/",
            "players=2 pieces=10 turn=0 6f707172737475767778/0001020304050607086f",
            "players=2 pieces=10 turn=0 6f707172737475767779/00010203040506070809",
            "players=2 pieces=10 turn=0 6f70717273747576777g/00010203040506070809",
            "players=2 pieces=10 turn=0 ply=301 6f707172737475767778/00010203040506070809",
            "players=2 pieces=10 turn=0 ply=x 6f707172737475767778/00010203040506070809",
            "players=2 pieces=10 6f707172737475767778/00010203040506070809",
            "pieces=10 turn=0 6f707172737475767778/00010203040506070809",
            "players=2 pieces=10 turn=0 6f707172737475767778/00010203040506070809 extra",
            "players=99999 pieces=10 turn=0 6f707172737475767778/00010203040506070809",
            "players=2 pieces=10 turn=0 é",
        ] {
            assert!(Checkers::parse_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_parse_and_write() {
        let pos = Checkers::start(2, 10).unwrap();
        let mv = pos.parse_move("n1-m6").unwrap();
        assert_eq!(mv, Move { from: 111, to: 103 });
        assert_eq!(pos.parse_move("111-103"), Ok(mv));
        assert_eq!(text(|o| pos.write_move(mv, o)), "n1-m6");
        // A jump: o1 over n1 to m5.
        let jump = pos.parse_move("o1-m5").unwrap();
        assert_eq!(text(|o| pos.write_move(jump, o)), "o1-m5");
        for bad in [
            "", "n1", "n1-", "n1-m9", "a1-b1", "n1-n2", "q1-m1", "pass", "n1-m6-l3", "z1-m3",
        ] {
            assert!(pos.parse_move(bad).is_err(), "{bad}");
        }
        assert_eq!(text(|o| write_move(Move::PASS, o)), "pass");
    }
}
