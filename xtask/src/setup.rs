//! Installing what the tasks need where possible, and saying clearly what is missing where not.

use std::process::Command;

use anyhow::{Result, bail};

fn succeeds(cmd: &mut Command) -> bool {
    cmd.output().map(|o| o.status.success()).unwrap_or(false)
}

/// Makes sure a board's Rust target is installed (rustup does not add the targets of
/// rust-toolchain.toml automatically here).
pub fn require_target(target: &str) -> Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    match installed {
        Ok(out)
            if String::from_utf8_lossy(&out.stdout)
                .lines()
                .any(|l| l.trim() == target) =>
        {
            Ok(())
        }
        Ok(_) => {
            println!("installing the {target} target (rustup target add {target}) …");
            if succeeds(Command::new("rustup").args(["target", "add", target])) {
                Ok(())
            } else {
                bail!("could not install the {target} target: run `rustup target add {target}`")
            }
        }
        Err(_) => {
            bail!("rustup not found: install the {target} target for your toolchain by hand")
        }
    }
}

fn have_qemu() -> bool {
    succeeds(Command::new("qemu-system-arm").arg("--version"))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Makes sure `board`'s simulator can run.
pub fn require_simulator(board: &sente::boards::BoardSpec) -> Result<()> {
    match board.sim {
        Some(sente::boards::Simulator::Qemu { .. }) => require_qemu(),
        None => bail!(
            "no simulator runs the {} firmware; simulated boards: {}",
            board.name,
            sente::boards::simulated()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Makes sure `qemu-system-arm` is available, installing it through apt when root.
pub fn require_qemu() -> Result<()> {
    if have_qemu() {
        return Ok(());
    }
    if !is_root() || !succeeds(Command::new("apt-get").arg("--version")) {
        bail!(
            "qemu-system-arm is missing and cannot be installed from here (needs root and apt): \
             install it, e.g. `sudo apt-get install --no-install-recommends qemu-system-arm`"
        );
    }
    println!("installing qemu-system-arm through apt …");
    // The image's apt hook deletes downloaded .debs after each dpkg batch, which can break
    // a large install ("cannot access archive"); a config file clearing the hook avoids it.
    let conf = std::env::temp_dir().join("sente-apt-keep-debs.conf");
    std::fs::write(&conf, "#clear DPkg::Post-Invoke;\n")?;
    let update = Command::new("apt-get").args(["update", "-qq"]).status()?;
    let install = Command::new("apt-get")
        .arg("-c")
        .arg(&conf)
        .args([
            "install",
            "-y",
            "-qq",
            "--no-install-recommends",
            "qemu-system-arm",
        ])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()?;
    if update.success() && install.success() && have_qemu() {
        Ok(())
    } else {
        bail!("installing qemu-system-arm through apt failed (see apt's output above)")
    }
}

/// Makes sure flip-link (stack-overflow protection for the firmware) is installed.
pub fn require_flip_link() -> Result<()> {
    if sente::firmware::have_flip_link() {
        return Ok(());
    }
    println!("installing flip-link (cargo install flip-link --locked) …");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if succeeds(Command::new(cargo).args(["install", "flip-link", "--locked"]))
        && sente::firmware::have_flip_link()
    {
        Ok(())
    } else {
        bail!(
            "could not install flip-link: run `cargo install flip-link` (and put ~/.cargo/bin on PATH)"
        )
    }
}
