//! The one list of games: names, aliases and engine levels, read by every part of
//! Sente (the board's service, the TUI's menu, `sente match`, the command line and,
//! through a test, `docs/protocol.md`).

/// One engine level of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The number `level=` takes.
    pub level: u8,
    /// What it plays, in one line.
    pub summary: &'static str,
}

/// A game as every part of Sente lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name on the wire (`go <name> …`).
    pub name: &'static str,
    /// The name shown to people.
    pub title: &'static str,
    /// Other names the command line accepts.
    pub aliases: &'static [&'static str],
    /// The engine levels, level 0 (the default) first, numbered without gaps.
    pub levels: &'static [Level],
    /// Whether its engine honours `exclude=` (root moves not to play).
    pub excludes: bool,
    /// Whether its engine honours `only=` (the root moves to choose from).
    pub restricts: bool,
}

impl GameInfo {
    /// The level numbered `level`, if the game has it.
    pub fn level(&self, level: u8) -> Option<&'static Level> {
        self.levels.get(usize::from(level))
    }

    /// The highest level.
    pub fn max_level(&self) -> u8 {
        (self.levels.len() as u8).saturating_sub(1)
    }

    /// Whether `name` names this game.
    pub fn is_named(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }
}

/// The games, in the order menus and lists show them.
pub static GAMES: [GameInfo; 5] = [
    GameInfo {
        name: "ttt",
        title: "tic-tac-toe",
        aliases: &["tictactoe", "tic-tac-toe"],
        excludes: false,
        restricts: false,
        levels: &[Level {
            level: 0,
            summary: "perfect play: negamax alpha-beta over the whole tree",
        }],
    },
    GameInfo {
        name: "gomoku",
        title: "gomoku / renju",
        aliases: &["free", "freestyle", "standard", "renju", "caro"],
        excludes: true,
        restricts: false,
        levels: &[
            Level {
                level: 0,
                summary: "strong, within the board's time",
            },
            Level {
                level: 1,
                summary: "pattern: seed 003's one-ply scorer",
            },
            Level {
                level: 2,
                summary: "strong, without the board's work budget",
            },
        ],
    },
    GameInfo {
        name: "xiangqi",
        title: "xiangqi",
        aliases: &["chinese-chess", "cchess"],
        excludes: true,
        restricts: true,
        levels: &[
            Level {
                level: 0,
                summary: "opening book, then the full search",
            },
            Level {
                level: 1,
                summary: "opening book, then a search to depth 3",
            },
            Level {
                level: 2,
                summary: "the full search, no book",
            },
        ],
    },
    GameInfo {
        name: "einstein",
        title: "EinStein würfelt nicht!",
        aliases: &["ewn"],
        excludes: false,
        restricts: false,
        levels: &[
            Level {
                level: 0,
                summary: "strong: expectiminimax over the die",
            },
            Level {
                level: 1,
                summary: "Monte Carlo: seed 001's player",
            },
            Level {
                level: 2,
                summary: "random legal moves",
            },
        ],
    },
    GameInfo {
        name: "checkers",
        title: "Chinese checkers",
        aliases: &["chinese-checkers", "halma"],
        excludes: false,
        restricts: false,
        levels: &[
            Level {
                level: 0,
                summary: "best-reply search",
            },
            Level {
                level: 1,
                summary: "greedy, one ply",
            },
        ],
    },
];

/// The wire names, comma-separated (as `hello` reports them).
pub const NAMES: &str = "ttt,gomoku,xiangqi,einstein,checkers";

/// The game named `name` (its wire name or an alias, any case).
pub fn find(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.is_named(name))
}

/// The game whose wire name is `name` (exactly; aliases are for people).
pub fn by_wire_name(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_games_in_order_and_levels_are_numbered() {
        let joined: std::vec::Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        assert_eq!(joined.join(","), NAMES);
        for g in &GAMES {
            assert!(!g.levels.is_empty(), "{}", g.name);
            for (i, l) in g.levels.iter().enumerate() {
                assert_eq!(usize::from(l.level), i, "{}", g.name);
            }
            assert!(g.level(g.max_level()).is_some());
            assert!(g.level(g.max_level() + 1).is_none());
        }
        assert_eq!(find("RENJU").unwrap().name, "gomoku");
        assert_eq!(find("xiangqi").unwrap().max_level(), 2);
        assert!(find("chess").is_none());
        assert!(by_wire_name("renju").is_none());
        // No name is two games'.
        for a in &GAMES {
            for b in &GAMES {
                if a.name != b.name {
                    assert!(
                        !a.aliases.iter().any(|n| b.is_named(n)),
                        "{} {}",
                        a.name,
                        b.name
                    );
                }
            }
        }
    }
}
