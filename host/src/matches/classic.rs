//! The referee adapters of the two-player games without chance: tic-tac-toe,
//! gomoku (free rule) and xiangqi. Their rules end every game (a full board, the
//! natural-move limit), so they have no ply cap unless `--max-plies` sets one.

use sente_firmware::games::gomoku::Gomoku;
use sente_firmware::games::tictactoe::TicTacToe;
use sente_firmware::games::xiangqi::Xiangqi;

use super::referee::Referee;

impl Referee for TicTacToe {
    const PLAYERS: [&'static str; 2] = ["X", "O"];
    const MAX_LEVEL: Option<u8> = None;
    const LEVELS: &'static str = "every level plays perfectly";

    fn new_game() -> Self {
        Self::default()
    }
}

impl Referee for Gomoku {
    const PLAYERS: [&'static str; 2] = ["black", "white"];
    const MAX_LEVEL: Option<u8> = Some(2);
    const LEVELS: &'static str = "0 strong, 1 pattern, 2 strong without node cap";

    /// Free-rule gomoku (the library's default position).
    fn new_game() -> Self {
        Self::default()
    }
}

impl Referee for Xiangqi {
    const PLAYERS: [&'static str; 2] = ["red", "black"];
    const MAX_LEVEL: Option<u8> = Some(2);
    const LEVELS: &'static str = "0 book + search, 1 book + depth 3, 2 search only";

    fn new_game() -> Self {
        Self::default()
    }

    /// Every move from the start, so the engine's repetition rules see the game;
    /// long games go as the FEN reached plus the recent moves that fit a request line.
    fn request_position(&self, moves: &[String]) -> String {
        let game = crate::uci::GamePosition {
            root: "startpos".into(),
            moves: moves.to_vec(),
        };
        game.wire("go xiangqi depth=255 nodes=4294967295 level=2 seed=18446744073709551615")
            .unwrap_or_else(|_| {
                let mut text = String::new();
                let _ = sente_firmware::game::Notation::write_position(self, &mut text);
                text
            })
    }
}
