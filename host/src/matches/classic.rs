//! The referee adapters of the two-player games without chance: tic-tac-toe,
//! gomoku (free rule) and xiangqi. Their rules end every game (a full board, the
//! natural-move limit), so they have no ply cap unless `--max-plies` sets one.

use sente_firmware::game::{Game, Notation};
use sente_firmware::games::gomoku::Gomoku;
use sente_firmware::games::tictactoe::TicTacToe;
use sente_firmware::games::xiangqi::Xiangqi;

use super::referee::Referee;

impl Referee for TicTacToe {
    const PLAYERS: [&'static str; 2] = ["X", "O"];

    fn new_game(_variant: &str) -> Self {
        Self::default()
    }
}

impl Referee for Gomoku {
    const PLAYERS: [&'static str; 2] = ["black", "white"];

    /// An empty board under the rule the match names (`renju`, `standard`, `caro`;
    /// `gomoku` itself is the free rule).
    fn new_game(variant: &str) -> Self {
        let rule = match variant {
            "gomoku" | "free" => "free",
            other => other,
        };
        <Self as Notation>::parse_position(rule).unwrap_or_default()
    }

    fn rule(&self) -> Option<String> {
        Some(Gomoku::rule(self).name().to_string())
    }

    /// Renju's black can be left with only forbidden points.
    fn out_of_moves(&self) -> bool {
        self.outcome().is_none() && !self.has_legal_move()
    }
}

/// Plies without a capture after which a draw claim stands: the AXF's 50 moves a
/// side (the rules of the library play on to the Chinese 60; engines such as
/// ElephantEye claim at 50).
const XIANGQI_CLAIM_PLIES: u16 = 100;

impl Referee for Xiangqi {
    const PLAYERS: [&'static str; 2] = ["red", "black"];

    /// A claim stands after 50 moves a side without a capture, or when the position
    /// (pieces and side to move) is on the board for the third time.
    fn draw_claim(&self, moves: &[String]) -> Option<String> {
        if self.quiet() >= XIANGQI_CLAIM_PLIES {
            return Some(format!("{} plies without a capture", self.quiet()));
        }
        // Positions compared by their key (pieces and side to move).
        let now = self.position().key();
        let mut game = Xiangqi::default();
        let mut seen = usize::from(game.position().key() == now);
        for text in moves {
            let mv = sente_firmware::game::Notation::parse_move(&game, text).ok()?;
            sente_firmware::game::Game::make(&mut game, mv);
            seen += usize::from(game.position().key() == now);
        }
        (seen >= 3).then(|| format!("the position has been on the board {seen} times"))
    }

    fn new_game(_variant: &str) -> Self {
        Self::default()
    }

    /// Every move from the start, so the engine's repetition rules see the game;
    /// long games go as the FEN reached plus the recent moves that fit a request line.
    fn request_position(&self, moves: &[String]) -> String {
        let game = crate::uci::GamePosition {
            root: "startpos".into(),
            moves: moves.to_vec(),
        };
        game.wire().unwrap_or_else(|_| {
            let mut text = String::new();
            let _ = sente_firmware::game::Notation::write_position(self, &mut text);
            text
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::game::{Game, Notation};

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn play(game: &mut Xiangqi, moves: &[String]) {
        for m in moves {
            let mv = game.parse_move(m).unwrap();
            game.make(mv);
        }
    }

    #[test]
    fn xiangqi_draw_claims_stand_at_50_moves_or_a_third_occurrence() {
        // 100 plies without a capture: the claim stands; 99: it does not.
        let fen = |quiet| format!("3k5/9/9/9/9/9/p8/9/4A4/3AK4 w - - {quiet} 80");
        let at = |quiet| Xiangqi::parse_position(&fen(quiet)).unwrap();
        assert!(at(100).draw_claim(&[]).unwrap().contains("100 plies"));
        assert_eq!(at(99).draw_claim(&[]), None);
        // The start position a third time (horses out and back twice).
        let shuffle = moves("h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9");
        let mut game = Xiangqi::default();
        play(&mut game, &shuffle[..4]);
        assert_eq!(game.draw_claim(&shuffle[..4]), None);
        play(&mut game, &shuffle[4..]);
        assert!(game.draw_claim(&shuffle).unwrap().contains("3 times"));
        // Elsewhere in the game: no claim.
        let mut game = Xiangqi::default();
        let opening = moves("h2e2 h9g7");
        play(&mut game, &opening);
        assert_eq!(game.draw_claim(&opening), None);
    }
}
