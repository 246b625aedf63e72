//! The documentation says what the code does: the levels table of `docs/protocol.md`
//! is the game list's (`sente_firmware::games::registry`).

use sente_firmware::games::registry::GAMES;

#[test]
fn the_protocol_docs_list_every_level_of_the_game_list() {
    let doc = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md"));
    let documented: Vec<String> = doc
        .lines()
        .filter(|l| {
            l.starts_with("| `")
                && l.split('|')
                    .nth(2)
                    .is_some_and(|c| c.trim().parse::<u8>().is_ok())
        })
        .map(str::to_string)
        .collect();
    let listed: Vec<String> = GAMES
        .iter()
        .flat_map(|g| {
            g.levels
                .iter()
                .map(move |l| format!("| `{}` | {} | {} |", g.name, l.level, l.summary))
        })
        .collect();
    assert_eq!(
        documented, listed,
        "docs/protocol.md's levels table differs from the game list"
    );
}
