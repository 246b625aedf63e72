//! Text forms of positions and moves (see the module documentation for the grammar).

use core::fmt;

use super::board::{
    Arrangement, BLUE, Einstein, Move, OFF, RED, TRIANGLE, code, parse_square, steps, write_square,
};
use crate::game::Notation;
use crate::text::ParseError;

/// What one side's token (`r:…` / `b:…`) says.
enum SideText {
    NotSetUp,
    Cubes([u8; 6]),
}

fn parse_side(list: &str) -> Result<SideText, ParseError> {
    if list == "?" {
        return Ok(SideText::NotSetUp);
    }
    let mut at = [OFF; 6];
    if list == "-" || list.is_empty() {
        return Ok(SideText::Cubes(at));
    }
    for item in list.split(',') {
        let (sq, cube) = item
            .split_once('=')
            .ok_or(ParseError("cube entries look like a5=1"))?;
        let sq = parse_square(sq)?;
        let cube = match cube.as_bytes() {
            [d @ b'1'..=b'6'] => d - b'0',
            _ => return Err(ParseError("cube numbers are 1..6")),
        };
        let slot = &mut at[usize::from(cube - 1)];
        if *slot != OFF {
            return Err(ParseError("a cube number appears twice for one side"));
        }
        *slot = sq;
    }
    Ok(SideText::Cubes(at))
}

fn side_letter(text: &str) -> Result<u8, ParseError> {
    match text {
        "r" | "R" | "red" => Ok(RED),
        "b" | "B" | "blue" => Ok(BLUE),
        _ => Err(ParseError("turn must be r or b")),
    }
}

fn parse_arrangement(digits: &str) -> Result<Arrangement, ParseError> {
    let mut arr = [0u8; 6];
    let bytes = digits.as_bytes();
    if bytes.len() != 6 {
        return Err(ParseError(
            "a setup lists six cube numbers, e.g. setup 615243",
        ));
    }
    for (slot, &b) in arr.iter_mut().zip(bytes) {
        *slot = b.wrapping_sub(b'0');
    }
    let arr = Arrangement(arr);
    if !arr.is_valid() {
        return Err(ParseError("a setup uses each cube number 1..6 once"));
    }
    Ok(arr)
}

impl Einstein {
    fn check_setup_phase(&self) -> Result<(), ParseError> {
        for side in [RED, BLUE] {
            let s = usize::from(side);
            if self.placed[s] && !self.placed[1 - s] {
                if self.side == side {
                    return Err(ParseError("the side that has not set up must move"));
                }
                let on_triangle = (0..6).all(|c| TRIANGLE[s].contains(&self.at[s][c]));
                if !on_triangle {
                    return Err(ParseError(
                        "during setup the other side's six cubes must be on its start triangle",
                    ));
                }
            }
        }
        if self.roll != 0 {
            return Err(ParseError("no die is rolled during setup"));
        }
        Ok(())
    }
}

impl Notation for Einstein {
    const NAME: &'static str = "einstein";

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        if text == "start" {
            return Ok(Self::start());
        }
        let mut pos = Self::start();
        let mut sides: [Option<SideText>; 2] = [None, None];
        let mut turn = None;
        let mut roll = None;
        for token in text.split_ascii_whitespace() {
            if let Some((key, value)) = token.split_once(':') {
                let s = usize::from(side_letter(key).map_err(|_| ParseError("expected r: or b:"))?);
                if sides[s].is_some() {
                    return Err(ParseError("a side is listed twice"));
                }
                sides[s] = Some(parse_side(value)?);
            } else if let Some(v) = token.strip_prefix("turn=") {
                if turn.replace(side_letter(v)?).is_some() {
                    return Err(ParseError("turn= given twice"));
                }
            } else if let Some(v) = token.strip_prefix("roll=") {
                let r = match v.as_bytes() {
                    [d @ b'1'..=b'6'] => d - b'0',
                    b"?" | b"-" => 0,
                    _ => return Err(ParseError("roll must be 1..6 (or ? for not rolled)")),
                };
                if roll.replace(r).is_some() {
                    return Err(ParseError("roll= given twice"));
                }
            } else {
                return Err(ParseError(
                    "position tokens are r:..., b:..., turn=r|b and roll=1..6, or start",
                ));
            }
        }
        pos.side = turn.ok_or(ParseError("position needs turn=r or turn=b"))?;
        pos.roll = roll.unwrap_or(0);
        for (side, text) in [RED, BLUE].into_iter().zip(sides) {
            match text.ok_or(ParseError("position needs both r: and b: cube lists"))? {
                SideText::NotSetUp => {}
                SideText::Cubes(at) => {
                    let s = usize::from(side);
                    pos.placed[s] = true;
                    for (c, &sq) in at.iter().enumerate() {
                        if sq == OFF {
                            continue;
                        }
                        let cell = &mut pos.board[usize::from(sq)];
                        if *cell != 0 {
                            return Err(ParseError("two cubes on one square"));
                        }
                        *cell = code(side, c as u8 + 1);
                        pos.at[s][c] = sq;
                    }
                }
            }
        }
        if !(pos.placed[0] && pos.placed[1]) {
            pos.check_setup_phase()?;
        } else {
            if pos.cube_count(RED) == 0 && pos.cube_count(BLUE) == 0 {
                return Err(ParseError("both sides have no cubes"));
            }
            if pos.has_won(RED) && pos.has_won(BLUE) {
                return Err(ParseError("both sides cannot have won"));
            }
        }
        Ok(pos)
    }

    fn write_position(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        for side in [RED, BLUE] {
            if side == BLUE {
                out.write_char(' ')?;
            }
            out.write_str(if side == RED { "r:" } else { "b:" })?;
            if !self.has_set_up(side) {
                out.write_char('?')?;
                continue;
            }
            let mut first = true;
            for cube in 1..=6 {
                if let Some(sq) = self.square_of(side, cube) {
                    if !first {
                        out.write_char(',')?;
                    }
                    first = false;
                    write_square(sq, out)?;
                    out.write_char('=')?;
                    out.write_char((b'0' + cube) as char)?;
                }
            }
            if first {
                out.write_char('-')?;
            }
        }
        out.write_str(if self.side == RED {
            " turn=r"
        } else {
            " turn=b"
        })?;
        if self.roll != 0 {
            out.write_str(" roll=")?;
            out.write_char((b'0' + self.roll) as char)?;
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        if self.winner().is_some() {
            return Err(ParseError("the game is over"));
        }
        if let Some(rest) = text.strip_prefix("setup") {
            if !self.in_setup() {
                return Err(ParseError("the side to move has already set up"));
            }
            return parse_arrangement(rest.trim_start_matches([' ', ':'])).map(Move::Setup);
        }
        if self.in_setup() {
            return Err(ParseError(
                "the side to move must set up first: setup 615243",
            ));
        }
        if let Some(rest) = text.strip_prefix("roll") {
            if self.roll != 0 {
                return Err(ParseError("the die is already rolled"));
            }
            return match rest.trim_start_matches([' ', '=']).as_bytes() {
                [d @ b'1'..=b'6'] => Ok(Move::Roll(d - b'0')),
                _ => Err(ParseError("a roll is roll 1..6")),
            };
        }
        let (cube, to) = if let Some((cube, to)) = text.split_once(':') {
            let cube = match cube.as_bytes() {
                [d @ b'1'..=b'6'] => d - b'0',
                _ => return Err(ParseError("a step is cube:square, e.g. 3:d4")),
            };
            (cube, parse_square(to)?)
        } else if text.len() == 4 && text.is_ascii() {
            let from = parse_square(&text[..2])?;
            let to = parse_square(&text[2..])?;
            match self.cube_at(from) {
                Some((s, cube)) if s == self.side => (cube, to),
                _ => return Err(ParseError("no cube of the side to move on that square")),
            }
        } else {
            return Err(ParseError(
                "moves are 3:d4, c5d4, roll 1..6 or setup 615243",
            ));
        };
        if self.roll == 0 {
            return Err(ParseError("roll the die first: roll 1..6"));
        }
        if self.movable_mask(self.side, self.roll) & (1 << (cube - 1)) == 0 {
            return Err(ParseError("the roll does not let that cube move"));
        }
        let from = self.at[usize::from(self.side)][usize::from(cube - 1)];
        let (targets, n) = steps(self.side, from);
        if !targets[..n].contains(&to) {
            return Err(ParseError("a cube steps one square toward the far corner"));
        }
        Ok(Move::Step { cube, to })
    }

    fn write_move(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        match mv {
            Move::Step { cube, to } => {
                out.write_char((b'0' + cube) as char)?;
                out.write_char(':')?;
                write_square(to, out)
            }
            Move::Roll(r) => {
                out.write_str("roll ")?;
                out.write_char((b'0' + r) as char)
            }
            Move::Setup(arr) => {
                out.write_str("setup ")?;
                for c in arr.0 {
                    out.write_char((b'0' + c) as char)?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn text(p: &Einstein) -> std::string::String {
        let mut s = std::string::String::new();
        p.write_position(&mut s).unwrap();
        s
    }

    fn mv_text(p: &Einstein, m: Move) -> std::string::String {
        let mut s = std::string::String::new();
        p.write_move(m, &mut s).unwrap();
        s
    }

    #[test]
    fn positions_round_trip() {
        for t in [
            "r:? b:? turn=r",
            "r:? b:? turn=b",
            "r:b5=1,a4=2,a3=3,b4=4,c5=5,a5=6 b:? turn=b",
            "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=3",
            "r:c3=2,d2=5 b:- turn=b",
            "r:e1=4 b:b4=1,a4=2 turn=b",
            "r:c3=2 b:b2=6 turn=r",
        ] {
            let p = Einstein::parse_position(t).unwrap();
            assert_eq!(text(&p), t);
        }
        assert_eq!(Einstein::parse_position("start"), Ok(Einstein::start()));
        assert_eq!(
            Einstein::parse_position("  roll=?   turn=r b:b2=6 r:c3=2 ").map(|p| text(&p)),
            Ok("r:c3=2 b:b2=6 turn=r".into())
        );
        let full = Einstein::parse_position(
            "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=3",
        )
        .unwrap();
        assert!(text(&full).len() < 100);
    }

    #[test]
    fn bad_positions_are_rejected() {
        for t in [
            "",
            "r:a5=1",
            "r:a5=1 b:e1=1",
            "r:a5=1 b:e1=1 turn=x",
            "r:a5=1 b:a5=2 turn=r",
            "r:a5=1,b5=1 b:e1=1 turn=r",
            "r:a5=7 b:e1=1 turn=r",
            "r:a5=0 b:e1=1 turn=r",
            "r:f5=1 b:e1=1 turn=r",
            "r:a5 b:e1=1 turn=r",
            "r:a5=1 b:e1=1 turn=r roll=7",
            "r:a5=1 b:e1=1 turn=r roll=1 roll=2",
            "r:a5=1 r:b5=2 b:e1=1 turn=r",
            "r:a5=1 b:e1=1 turn=r extra",
            "r:- b:- turn=r",
            "r:e1=1 b:a5=1 turn=r",
            "r:? b:? turn=r roll=3",
            "r:? b:c3=1 turn=r",
            "r:a5=6,b5=1,c5=5,a4=2,b4=4,a3=3 b:? turn=r",
            "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=3 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "r:é5=1 b:e1=1 turn=r",
        ] {
            assert!(Einstein::parse_position(t).is_err(), "accepted {t:?}");
        }
    }

    #[test]
    fn moves_round_trip_and_check_legality() {
        let p = Einstein::parse_position("r:a5=1,c5=4,a3=6 b:e1=2,b2=5 turn=r roll=3").unwrap();
        let mut moves = heapless::Vec::new();
        p.generate(&mut moves);
        assert_eq!(moves.len(), 6);
        for &m in moves.iter() {
            let t = mv_text(&p, m);
            assert_eq!(p.parse_move(&t), Ok(m), "{t}");
        }
        let m = Move::Step { cube: 4, to: 8 };
        assert_eq!(mv_text(&p, m), "4:d4");
        assert_eq!(p.parse_move("c5d4"), Ok(m));
        assert_eq!(p.parse_move(" 4:d4 "), Ok(m));
        for bad in [
            "6:b2", // roll 3 does not let cube 6 move
            "4:c5",
            "4:b4",
            "4:e3", // not a forward step
            "a3b2", // cube 6
            "e1d1", // not red's cube
            "b3c3", // empty
            "7:d4",
            "4:z9",
            "4d4",
            "roll 3",
            "setup 123456",
            "",
            "c5d4x",
            "4:d4:",
        ] {
            assert!(p.parse_move(bad).is_err(), "accepted {bad:?}");
        }
        let unrolled = Einstein::parse_position("r:a5=1 b:e1=2 turn=b").unwrap();
        assert_eq!(unrolled.parse_move("roll 6"), Ok(Move::Roll(6)));
        assert_eq!(unrolled.parse_move("roll=2"), Ok(Move::Roll(2)));
        assert_eq!(mv_text(&unrolled, Move::Roll(6)), "roll 6");
        assert!(unrolled.parse_move("roll 7").is_err());
        assert!(unrolled.parse_move("2:d1").is_err());
        let start = Einstein::start();
        let s = Move::Setup(Arrangement([6, 1, 5, 2, 4, 3]));
        assert_eq!(start.parse_move("setup 615243"), Ok(s));
        assert_eq!(mv_text(&start, s), "setup 615243");
        for bad in [
            "setup 61524",
            "setup 615244",
            "setup 6152430",
            "setup abcdef",
            "roll 3",
            "1:b4",
        ] {
            assert!(start.parse_move(bad).is_err(), "accepted {bad:?}");
        }
        let over = Einstein::parse_position("r:e1=4 b:b4=1 turn=b roll=1").unwrap();
        assert!(over.parse_move("1:a4").is_err());
    }
}
