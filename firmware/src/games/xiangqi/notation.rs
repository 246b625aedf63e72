//! Move notations: ICCS coordinates on the wire (`h2e2`: files a–i from red's
//! left, ranks 0–9 from red's back rank, as UCCI engines use) and the
//! traditional Chinese / WXF form for display (`炮二平五`, `马８进７`).

use core::fmt;

use super::board::{FILE_OF, Kind, Move, Position, RANK_OF, RED, Square, slot_color, slot_kind};
use crate::text::ParseError;

/// Parses ICCS coordinates (`h2e2`, either case) into `(from, to)` squares.
pub fn parse_iccs(text: &str) -> Result<(Square, Square), ParseError> {
    let sq = |f: u8, r: u8| -> Option<Square> {
        let f = f.to_ascii_lowercase();
        ((b'a'..=b'i').contains(&f) && r.is_ascii_digit()).then(|| (r - b'0') * 9 + (f - b'a'))
    };
    match text.as_bytes() {
        [f1, r1, f2, r2] => match (sq(*f1, *r1), sq(*f2, *r2)) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(ParseError("move squares must be a0..i9, e.g. h2e2")),
        },
        _ => Err(ParseError(
            "a move is four characters in ICCS form, e.g. h2e2",
        )),
    }
}

/// Writes a square in ICCS form (`e0`).
pub fn write_square(sq: Square, out: &mut dyn fmt::Write) -> fmt::Result {
    let s = usize::from(sq);
    out.write_char(char::from(b'a' + FILE_OF[s]))?;
    out.write_char(char::from(b'0' + RANK_OF[s]))
}

/// Writes a move in ICCS form (`h2e2`; `0000` for the null move).
pub fn write_iccs(mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
    if mv.is_null() {
        return out.write_str("0000");
    }
    write_square(mv.from, out)?;
    write_square(mv.to, out)
}

const RED_NUM: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const BLACK_NUM: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RED_NAME: [&str; 7] = ["帅", "仕", "相", "马", "车", "炮", "兵"];
const BLACK_NAME: [&str; 7] = ["将", "士", "象", "马", "车", "炮", "卒"];

/// Writes `mv` (legal in `pos`) in Chinese notation, e.g. `炮二平五` for red's
/// central cannon and `马８进７` for black. Files are numbered from each player's
/// own right (red in Chinese numerals, black in full-width digits). Two or three
/// like pieces on one file are told apart by 前/中/后 (front/middle/rear, seen
/// from the mover's side) and four or five pawns by 一…五 counted from the front;
/// advisors and elephants never need it (advance and retreat tell them apart).
pub fn write_chinese(pos: &Position, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
    if mv.is_null() || pos.at(mv.from) != mv.piece {
        return out.write_str("--");
    }
    let color = slot_color(mv.piece);
    let kind = slot_kind(mv.piece);
    let red = color == RED;
    let (nums, names) = if red {
        (&RED_NUM, &RED_NAME)
    } else {
        (&BLACK_NUM, &BLACK_NAME)
    };
    let num = |n: u8| nums[usize::from(n.clamp(1, 9) - 1)];
    let file_num = |sq: Square| {
        let f = FILE_OF[usize::from(sq)];
        if red { 9 - f } else { f + 1 }
    };
    let (fr, tr) = (RANK_OF[usize::from(mv.from)], RANK_OF[usize::from(mv.to)]);
    let ahead = |r: u8| if red { r > fr } else { r < fr };
    // Like pieces on the same file, and how many of them stand in front of this one.
    let (mut same, mut in_front) = (0, 0);
    if !matches!(kind, Kind::Advisor | Kind::Elephant) {
        let file = FILE_OF[usize::from(mv.from)];
        for r in 0..10u8 {
            let p = pos.at(r * 9 + file);
            if p != 0 && slot_color(p) == color && slot_kind(p) == kind {
                same += 1;
                if ahead(r) {
                    in_front += 1;
                }
            }
        }
    }
    let name = names[kind as usize];
    match same {
        2 => {
            out.write_str(["前", "后"][in_front])?;
            out.write_str(name)?;
        }
        3 => {
            out.write_str(["前", "中", "后"][in_front])?;
            out.write_str(name)?;
        }
        4 | 5 => {
            out.write_str(RED_NUM[in_front])?;
            out.write_str(name)?;
        }
        _ => {
            out.write_str(name)?;
            out.write_str(num(file_num(mv.from)))?;
        }
    }
    if fr == tr {
        out.write_str("平")?;
        return out.write_str(num(file_num(mv.to)));
    }
    out.write_str(if ahead(tr) { "进" } else { "退" })?;
    if matches!(kind, Kind::Horse | Kind::Advisor | Kind::Elephant) {
        out.write_str(num(file_num(mv.to)))
    } else {
        out.write_str(num(fr.abs_diff(tr)))
    }
}
