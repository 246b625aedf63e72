//! Finding and building a board's firmware.
//!
//! The `sente` binary carries no source path: it finds the Sente source tree at run time
//! (`SENTE_ROOT`, else the current directory or the binary's own location and their
//! parents) and builds the firmware there with cargo when it is missing.
//! `SENTE_FIRMWARE` names a ready ELF instead.

use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::boards::BoardSpec;

/// Whether `dir` is the root of a Sente source tree.
fn is_root(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file() && dir.join("firmware/boards").is_dir()
}

/// The Sente source tree: `SENTE_ROOT`, else the first directory holding `Cargo.toml`
/// and `firmware/boards/` among the current directory, the `sente` binary's directory
/// and their parents.
pub fn workspace_root() -> io::Result<PathBuf> {
    if let Some(root) = std::env::var_os("SENTE_ROOT") {
        let root = PathBuf::from(root);
        return if is_root(&root) {
            Ok(root)
        } else {
            Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("SENTE_ROOT={} is not a Sente source tree", root.display()),
            ))
        };
    }
    let starts = [
        std::env::current_dir().ok(),
        std::env::current_exe()
            .ok()
            .and_then(|e| e.canonicalize().ok()),
    ];
    starts
        .iter()
        .flatten()
        .flat_map(|start| start.ancestors())
        .find(|dir| is_root(dir))
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                "the board firmware is built from the Sente source tree, which was not found: \
                 run sente from inside it, set SENTE_ROOT to it, or set SENTE_FIRMWARE to a \
                 firmware ELF",
            )
        })
}

/// Where `cargo xtask fw` and [`build`] put the board's firmware ELF.
pub fn elf_path(root: &Path, board: &BoardSpec, ram_2k: bool) -> PathBuf {
    let base = if ram_2k {
        root.join("target/ram-2k")
    } else {
        root.join("target")
    };
    base.join(board.target).join("firmware").join(board.name)
}

/// Whether the flip-link linker wrapper is installed (`cargo install flip-link`).
pub fn have_flip_link() -> bool {
    Command::new("flip-link").arg("--version").output().is_ok()
}

/// One firmware build at a time in this process: a second caller waits for the first
/// (and then finds its ELF).
static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Builds the board's firmware with cargo (the `firmware` profile) and returns the ELF.
pub fn build(root: &Path, board: &BoardSpec, ram_2k: bool, quiet: bool) -> io::Result<PathBuf> {
    let _one = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    build_now(root, board, ram_2k, quiet, None)
}

/// The build itself (the caller holds [`BUILDING`]). With `progress`, cargo's lines
/// (`Compiling heapless v0.9.1`) go there instead of the terminal, and the last of them
/// into the error when the build fails.
fn build_now(
    root: &Path,
    board: &BoardSpec,
    ram_2k: bool,
    quiet: bool,
    progress: Option<&mut dyn FnMut(&str)>,
) -> io::Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).args([
        "build",
        "-p",
        "sente-firmware",
        "--bin",
        board.name,
        "--target",
        board.target,
        "--profile",
        "firmware",
    ]);
    if quiet && progress.is_none() {
        cmd.arg("--quiet");
    }
    let features = if ram_2k {
        // A target directory of its own keeps the two builds from overwriting each other.
        cmd.env("CARGO_TARGET_DIR", root.join("target/ram-2k"));
        format!("{} ram-2k", board.feature())
    } else {
        board.feature().to_string()
    };
    cmd.args(["--features", &features]);
    if have_flip_link() {
        // flip-link puts the stack below the statics: an overflow faults (and the board
        // reports `error hardfault`) instead of silently corrupting memory.
        let var = format!(
            "CARGO_TARGET_{}_LINKER",
            board.target.to_uppercase().replace('-', "_")
        );
        cmd.env(var, "flip-link");
    }
    let mut said = std::collections::VecDeque::new();
    let status = match progress {
        None => cmd.status()?,
        Some(progress) => {
            cmd.args(["--color", "never"]);
            let mut child = cmd
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()?;
            if let Some(stderr) = child.stderr.take() {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    progress(line.trim());
                    said.push_back(line);
                    if said.len() > 20 {
                        said.pop_front();
                    }
                }
            }
            child.wait()?
        }
    };
    if !status.success() {
        let said: Vec<String> = said.into_iter().collect();
        return Err(io::Error::other(format!(
            "building the {} firmware failed ({status}); is its target installed? \
             rustup target add {}\n{}",
            board.name,
            board.target,
            said.join("\n")
        )));
    }
    Ok(elf_path(root, board, ram_2k))
}

/// Whether [`find`] has to build `board`'s firmware first.
pub fn missing(board: &BoardSpec) -> bool {
    std::env::var_os("SENTE_FIRMWARE").is_none()
        && workspace_root().is_ok_and(|root| !elf_path(&root, board, false).exists())
}

/// The firmware ELF to run on `board`: `SENTE_FIRMWARE` if set, else the build in the
/// source tree (built now, with a message, if it is missing).
pub fn find(board: &BoardSpec) -> io::Result<PathBuf> {
    find_or_build(board, None)
}

/// [`find`], passing a build's progress lines to `progress` (nothing printed). Whoever
/// comes while a build runs waits for it and takes its ELF: one build at most.
pub fn find_reporting(board: &BoardSpec, progress: &mut dyn FnMut(&str)) -> io::Result<PathBuf> {
    find_or_build(board, Some(progress))
}

fn find_or_build(board: &BoardSpec, progress: Option<&mut dyn FnMut(&str)>) -> io::Result<PathBuf> {
    if let Some(path) = std::env::var_os("SENTE_FIRMWARE") {
        return Ok(PathBuf::from(path));
    }
    let root = workspace_root()?;
    let elf = elf_path(&root, board, false);
    if elf.exists() {
        return Ok(elf);
    }
    let _one = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    if elf.exists() {
        return Ok(elf);
    }
    if progress.is_none() {
        eprintln!(
            "building the {} firmware in {} (once; `cargo xtask fw --board {}` does the same) …",
            board.name,
            root.display(),
            board.name
        );
    }
    build_now(&root, board, false, true, progress)
}
