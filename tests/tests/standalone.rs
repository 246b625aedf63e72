//! The repository stands alone: no file in it reads or names a path outside it
//! (a clone in an empty folder must build and test), and no machine path is written
//! into code, comments or docs.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository root (this crate lives in `tests/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Every text file of the repository, build output and git data left out.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == ".git" {
            // Git's data: a directory, or in a worktree a file naming the main repository's.
            continue;
        }
        if path.is_dir() {
            if name != "target" {
                files(&path, out);
            }
        } else if name != ".git" {
            // (A linked worktree's `.git` is a file naming where Git keeps it.)
            out.push(path);
        }
    }
}

/// Finds what escapes the repository in one file's text: a relative path that climbs
/// out of the repository from where the file sits, or an absolute machine path.
///
/// `crate_depth` is how deep the file's crate (its nearest `Cargo.toml`) sits: a path
/// glued to `CARGO_MANIFEST_DIR` (`"/../…"`) climbs from there, any other from the
/// file's own folder.
fn escapes(rel: &Path, crate_depth: usize, text: &str) -> Vec<String> {
    // How deep the file sits below the root: climbing more `..` than that leaves it.
    let depth = rel.components().count() - 1;
    // Machine paths, assembled so that this file does not name them itself.
    let machine = [
        ["/", "work", "/"].concat(),
        ["/", "home", "/"].concat(),
        ["/", "root", "/"].concat(),
        ["/", "Users", "/"].concat(),
    ];
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for m in &machine {
            if line.contains(m.as_str()) {
                found.push(format!("{}:{}: machine path {m}", rel.display(), n + 1));
            }
        }
        // The longest run of `../` in the line.
        let mut i = 0;
        let bytes = line.as_bytes();
        while i < bytes.len() {
            let mut ups = 0;
            let mut j = i;
            while line[j..].starts_with("../") {
                ups += 1;
                j += 3;
            }
            let from_crate = i > 0 && line[..i].ends_with('/');
            if ups > if from_crate { crate_depth } else { depth } {
                found.push(format!(
                    "{}:{}: `{}` climbs out of the repository",
                    rel.display(),
                    n + 1,
                    &line[i..j]
                ));
            }
            i = if ups > 0 { j } else { i + 1 };
            while i < bytes.len() && !line.is_char_boundary(i) {
                i += 1;
            }
        }
    }
    found
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let root = root();
    let mut all = Vec::new();
    files(&root, &mut all);
    assert!(all.len() > 50, "walked the repository: {} files", all.len());
    let mut found = Vec::new();
    for path in &all {
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        let rel = path.strip_prefix(&root).expect("below the root");
        let crate_depth = rel
            .ancestors()
            .skip(1)
            .find(|dir| root.join(dir).join("Cargo.toml").is_file())
            .map_or(0, |dir| dir.components().count());
        found.extend(escapes(rel, crate_depth, &text));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checker_sees_escapes() {
    // The fixtures are assembled so that this file does not hold them itself.
    let up = |n: usize| "../".repeat(n);
    let deep = Path::new("firmware/src/games/x.rs");
    assert!(escapes(deep, 1, &format!("include_str!(\"{}x\")", up(3))).is_empty());
    assert_eq!(
        escapes(deep, 1, &format!("include_str!(\"{}x\")", up(4))).len(),
        1
    );
    let glued = |n| format!("concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{}x\")", up(n));
    assert!(escapes(deep, 1, &glued(1)).is_empty());
    assert_eq!(escapes(deep, 1, &glued(2)).len(), 1);
    assert_eq!(
        escapes(Path::new("README.md"), 0, &format!("see {}notes", up(1))).len(),
        1
    );
    let machine = ["/", "work", "/main"].concat();
    assert_eq!(escapes(deep, 1, &machine).len(), 1);
    assert!(escapes(deep, 1, &format!("a/b/c → ünï {}", up(1))).is_empty());
}

#[test]
fn the_test_data_is_in_the_repository_with_its_sources() {
    let dir = root().join("testdata");
    let readme = fs::read_to_string(dir.join("README.md")).expect("testdata/README.md");
    for entry in fs::read_dir(&dir).expect("testdata/") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        if name != "README.md" {
            assert!(
                readme.contains(&format!("`{name}`")),
                "testdata/README.md gives no source for {name}"
            );
        }
    }
}
