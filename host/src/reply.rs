//! Reading the board's reply lines (protocol v1, see docs/protocol.md).

use std::collections::BTreeMap;

/// One reply line, split into its kind, its `key=value` fields and its trailing moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyLine {
    /// First word: `bestmove`, `info`, `hello`, `pong`, `perft`, `error`, `help`.
    pub kind: String,
    /// Words that are not `key=value` and come before `pv` (e.g. the best move, an error code).
    pub words: Vec<String>,
    /// `key=value` fields.
    pub fields: BTreeMap<String, String>,
    /// Moves after `pv`.
    pub pv: Vec<String>,
    /// The line as received.
    pub raw: String,
}

impl ReplyLine {
    /// Splits a line. Every line parses; unknown kinds are the caller's concern.
    pub fn parse(line: &str) -> Self {
        let raw = line.trim().to_string();
        let mut parts = raw.split_whitespace();
        let kind = parts.next().unwrap_or("").to_string();
        let (mut words, mut fields, mut pv) = (Vec::new(), BTreeMap::new(), Vec::new());
        let mut in_pv = false;
        for part in parts {
            if in_pv {
                pv.push(part.to_string());
            } else if part == "pv" && kind != "error" {
                in_pv = true;
            } else if let Some((k, v)) = part.split_once('=').filter(|_| kind != "error") {
                fields.insert(k.to_string(), v.to_string());
            } else {
                words.push(part.to_string());
            }
        }
        Self {
            kind,
            words,
            fields,
            pv,
            raw,
        }
    }

    /// A numeric field.
    pub fn num<T: std::str::FromStr>(&self, key: &str) -> Option<T> {
        self.fields.get(key)?.parse().ok()
    }

    /// For `error` lines: the code and the message.
    pub fn error(&self) -> Option<(&str, String)> {
        (self.kind == "error").then(|| {
            let code = self.words.first().map_or("", String::as_str);
            let message = self.words.get(1..).map(|w| w.join(" ")).unwrap_or_default();
            (code, message)
        })
    }
}

/// The final answer to a `go` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move (`none` when the position has no legal move).
    pub best: String,
    /// Score from the side to move's point of view.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Clock ticks the board spent (host: nanoseconds-based ticks of the host clock).
    pub ticks: u64,
    /// Peak stack bytes (0 on the host).
    pub stack: u32,
    /// Principal variation.
    pub pv: Vec<String>,
}

impl BestMove {
    /// Reads a `bestmove` or `info` line.
    pub fn from_line(line: &ReplyLine) -> Option<Self> {
        if line.kind != "bestmove" && line.kind != "info" {
            return None;
        }
        Some(Self {
            // Every word before the fields: EinStein's moves have two (`setup 615243`, `roll 4`).
            best: Some(line.words.join(" "))
                .filter(|w| !w.is_empty())
                .or_else(|| line.pv.first().cloned())
                .unwrap_or_default(),
            score: line.num("score")?,
            depth: line.num("depth")?,
            nodes: line.num("nodes")?,
            ticks: line.num("ticks").unwrap_or(0),
            stack: line.num("stack").unwrap_or(0),
            pv: line.pv.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_bestmove_and_error_lines() {
        let l = ReplyLine::parse(
            "bestmove b2 score=0 depth=9 nodes=22724 ticks=10 stack=2608 pv b2 a3",
        );
        let b = BestMove::from_line(&l).unwrap();
        assert_eq!(
            (b.best.as_str(), b.score, b.depth, b.nodes, b.stack),
            ("b2", 0, 9, 22724, 2608)
        );
        assert_eq!(b.pv, ["b2", "a3"]);
        let setup =
            ReplyLine::parse("bestmove setup 615243 score=0 depth=0 nodes=0 pv setup 615243");
        assert_eq!(BestMove::from_line(&setup).unwrap().best, "setup 615243");
        let e = ReplyLine::parse("error bad-position cell must be a1..c3 or 1..9");
        assert_eq!(
            e.error(),
            Some(("bad-position", "cell must be a1..c3 or 1..9".to_string()))
        );
    }
}
