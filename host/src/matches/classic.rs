//! The referee adapters of the two-player games without chance: tic-tac-toe,
//! gomoku (free rule) and xiangqi. Their rules end every game (a full board, the
//! natural-move limit), so they have no ply cap unless `--max-plies` sets one.

use sente_firmware::game::Notation;
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
}

impl Referee for Xiangqi {
    const PLAYERS: [&'static str; 2] = ["red", "black"];

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
