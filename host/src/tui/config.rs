//! What the TUI keeps between runs: the player's choices in a config file
//! (`config.toml` in the platform's config folder: `~/.config/sente` on Linux), the
//! unfinished game in the data folder (`~/.local/share/sente/unfinished.sente`), and
//! the colour themes.
//!
//! `SENTE_CONFIG_DIR` and `SENTE_DATA_DIR` put those folders elsewhere (tests, trials).

use std::io;
use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use serde::{Deserialize, Serialize};

/// The colours the screen is drawn in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Colours for a dark terminal (the default).
    #[default]
    Dark,
    /// Colours for a light terminal: no white or pale text on the background.
    Light,
    /// No colour at all: bold, reverse video and the pieces' letters and symbols.
    Mono,
}

/// The wood of the gomoku and xiangqi boards: a board, not a highlight.
const WOOD: Color = Color::Indexed(179);
/// EinStein's shaded setup squares.
const SHADE: Color = Color::Indexed(236);

impl Theme {
    /// Every theme, in the order `t` steps through them.
    pub const ALL: [Theme; 3] = [Theme::Dark, Theme::Light, Theme::Mono];

    /// The theme's name (`dark`, `light`, `mono`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Dark => "dark",
            Self::Light => "light",
            Self::Mono => "mono",
        }
    }

    /// Reads a theme's name.
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown theme {name:?}: dark, light or mono"))
    }

    /// The theme after this one.
    pub fn next(self) -> Self {
        let at = Self::ALL.iter().position(|t| *t == self).unwrap_or(0);
        Self::ALL[(at + 1) % Self::ALL.len()]
    }

    /// Redraws a screen drawn in the dark theme's colours in this theme: the views
    /// draw once, in one set of colours, and every theme follows from it.
    pub fn apply(self, buf: &mut Buffer) {
        if self == Self::Dark {
            return;
        }
        let area = buf.area;
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                let Some(cell) = buf.cell_mut((x, y)) else {
                    continue;
                };
                match self {
                    Self::Light if cell.bg == Color::Reset => {
                        cell.fg = match cell.fg {
                            Color::White | Color::Reset => Color::Reset,
                            Color::Gray => Color::DarkGray,
                            Color::DarkGray => Color::Indexed(244),
                            Color::Yellow | Color::LightYellow => Color::Indexed(130),
                            Color::LightGreen => Color::Green,
                            Color::Cyan | Color::LightCyan => Color::Indexed(30),
                            Color::LightRed => Color::Red,
                            other => other,
                        };
                    }
                    Self::Mono => {
                        let highlight = !matches!(cell.bg, Color::Reset | WOOD | SHADE);
                        cell.fg = Color::Reset;
                        cell.bg = Color::Reset;
                        if highlight {
                            cell.modifier.insert(Modifier::REVERSED);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The player's choices, kept in `config.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// `dark`, `light` or `mono`.
    pub theme: Theme,
    /// The last game started from the start screen (a `--game` name: `xiangqi`,
    /// `renju`, …).
    pub game: Option<String>,
    /// Its opponent (`host`, `sim`, `human` or a serial port).
    pub opponent: Option<String>,
    /// Its engine level.
    pub level: Option<u8>,
    /// Who moved first: `you`, `engine` or `engines` (the engine plays both sides).
    pub first: Option<String>,
    /// Its time control (`5+3`), if the game had clocks.
    pub clock: Option<String>,
}

/// Where the TUI keeps its files; a store without folders keeps nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Store {
    /// The config folder.
    pub config_dir: Option<PathBuf>,
    /// The data folder (the unfinished game).
    pub data_dir: Option<PathBuf>,
    /// The folder games are saved to and opened from when a name is not a full
    /// path (the working directory when the TUI runs; none: no game is written).
    pub files_dir: Option<PathBuf>,
}

impl Store {
    /// The name of the unfinished game's file in the data folder.
    pub const UNFINISHED: &'static str = "unfinished.sente";

    /// The platform's folders (or `SENTE_CONFIG_DIR` / `SENTE_DATA_DIR`).
    pub fn platform() -> Self {
        let dirs = directories::ProjectDirs::from("", "", "sente");
        let env = |name: &str| std::env::var_os(name).map(PathBuf::from);
        Self {
            config_dir: env("SENTE_CONFIG_DIR")
                .or_else(|| dirs.as_ref().map(|d| d.config_dir().to_path_buf())),
            data_dir: env("SENTE_DATA_DIR")
                .or_else(|| dirs.as_ref().map(|d| d.data_dir().to_path_buf())),
            files_dir: std::env::current_dir().ok(),
        }
    }

    /// Both folders in `dir` (tests).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        Self {
            config_dir: Some(dir.join("config")),
            data_dir: Some(dir.join("data")),
            files_dir: Some(dir.join("files")),
        }
    }

    /// Where a saved game named `name` goes: a full path as it is, a bare name in
    /// the files folder; a store without one writes nothing.
    pub fn game_file(&self, name: &std::path::Path) -> Result<PathBuf, String> {
        match &self.files_dir {
            Some(dir) => Ok(dir.join(name)),
            None => Err("this session keeps no files".into()),
        }
    }

    /// The config file's path.
    pub fn config_file(&self) -> Option<PathBuf> {
        Some(self.config_dir.as_ref()?.join("config.toml"))
    }

    /// The config, or why it could not be read (a missing file is the default config).
    pub fn load_config(&self) -> Result<Config, String> {
        let Some(path) = self.config_file() else {
            return Ok(Config::default());
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Writes the config file (creating the folder).
    pub fn save_config(&self, config: &Config) -> io::Result<()> {
        let Some(path) = self.config_file() else {
            return Ok(());
        };
        let text = toml::to_string(config).map_err(io::Error::other)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)
    }

    /// The unfinished game's path.
    pub fn unfinished_file(&self) -> Option<PathBuf> {
        Some(self.data_dir.as_ref()?.join(Self::UNFINISHED))
    }

    /// The unfinished game kept by the last run, if any.
    pub fn read_unfinished(&self) -> Option<String> {
        std::fs::read_to_string(self.unfinished_file()?).ok()
    }

    /// Keeps `record` as the unfinished game.
    pub fn write_unfinished(&self, record: &str) -> io::Result<PathBuf> {
        let path = self
            .unfinished_file()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no data folder"))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, record)?;
        Ok(path)
    }

    /// Forgets the unfinished game.
    pub fn remove_unfinished(&self) {
        if let Some(path) = self.unfinished_file() {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    /// A fresh folder under the system's temp folder.
    pub(crate) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sente-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn config_round_trips_and_bad_files_say_why() {
        let dir = temp_dir("config");
        let store = Store::at(&dir);
        assert_eq!(store.load_config(), Ok(Config::default()));
        let config = Config {
            theme: Theme::Mono,
            game: Some("renju".into()),
            level: Some(2),
            clock: Some("5+3".into()),
            ..Config::default()
        };
        store.save_config(&config).unwrap();
        assert_eq!(store.load_config(), Ok(config));
        let text = std::fs::read_to_string(store.config_file().unwrap()).unwrap();
        assert!(text.contains("theme = \"mono\""), "{text}");
        std::fs::write(store.config_file().unwrap(), "theme = \"purple\"").unwrap();
        assert!(store.load_config().unwrap_err().contains("config.toml"));
        // The unfinished game.
        assert_eq!(store.read_unfinished(), None);
        store.write_unfinished("[Sente \"1\"]\n").unwrap();
        assert_eq!(store.read_unfinished().as_deref(), Some("[Sente \"1\"]\n"));
        store.remove_unfinished();
        assert_eq!(store.read_unfinished(), None);
        assert_eq!(Store::default().load_config(), Ok(Config::default()));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn themes_map_colours_and_mono_keeps_highlights_as_reverse_video() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        buf.set_string(0, 0, "a", Style::new().fg(Color::White));
        buf.set_string(1, 0, "b", Style::new().fg(Color::Red).bg(Color::Yellow));
        buf.set_string(2, 0, "c", Style::new().fg(Color::Black).bg(WOOD));
        buf.set_string(3, 0, "d", Style::new().fg(Color::Gray));
        let mut light = buf.clone();
        Theme::Light.apply(&mut light);
        assert_eq!(light[(0, 0)].fg, Color::Reset);
        assert_eq!(
            light[(1, 0)].fg,
            Color::Red,
            "a highlight keeps its colours"
        );
        assert_eq!(light[(3, 0)].fg, Color::DarkGray);
        let mut mono = buf.clone();
        Theme::Mono.apply(&mut mono);
        for x in 0..4 {
            assert_eq!(
                (mono[(x, 0)].fg, mono[(x, 0)].bg),
                (Color::Reset, Color::Reset)
            );
        }
        assert!(mono[(1, 0)].modifier.contains(Modifier::REVERSED));
        assert!(!mono[(2, 0)].modifier.contains(Modifier::REVERSED), "wood");
        let mut dark = buf.clone();
        Theme::Dark.apply(&mut dark);
        assert_eq!(dark, buf);
        assert_eq!(Theme::parse("MONO"), Ok(Theme::Mono));
        assert!(Theme::parse("purple").is_err());
        assert_eq!(Theme::Mono.next(), Theme::Dark);
    }
}
