//! Test helpers: board diagrams in the shared test-data format and a silent poll.

use super::board::{BLACK, Board, Point, WHITE};
use super::position::Gomoku;
use super::rules::Rule;

/// Reads a diagram (rows `15` to `1`, columns A–O; `X` black, `O` white, marks
/// `3`, `4`, `6` for forbidden points): the board and the marked points.
pub(crate) fn diagram(text: &str) -> (Board, heapless::Vec<Point, 64>) {
    let mut board = Board::new();
    let mut marks = heapless::Vec::new();
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let (Some(row), Some(cells)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(row) = row.parse::<u8>() else { continue };
        for (col, c) in cells.bytes().enumerate() {
            let p = (row - 1) * 15 + col as u8;
            match c {
                b'X' => board.set(p, BLACK),
                b'O' => board.set(p, WHITE),
                b'3' | b'4' | b'6' => marks.push(p).unwrap(),
                _ => {}
            }
        }
    }
    (board, marks)
}

/// A position from a diagram, `to_move` to play.
pub(crate) fn setup(text: &str, rule: Rule, to_move: u8) -> Gomoku {
    Gomoku::from_board(diagram(text).0, rule, to_move)
}

pub(crate) use crate::engine::QuietPoll as NoPoll;
