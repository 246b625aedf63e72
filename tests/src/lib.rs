//! Shared helpers of Sente's integration and HIL tests.

use std::path::PathBuf;

/// The directory holding the HIL scenario suites (`tests/scenarios/<suite>.txt`).
pub fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

/// Reads a suite file.
pub fn read_suite(name: &str) -> String {
    let path = scenarios_dir().join(format!("{name}.txt"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}
