//! Installing what the tasks need where possible, and saying clearly what is missing where not.

use std::process::Command;

use anyhow::{Result, bail};

const TARGET: &str = sente::sim::TARGET;

fn succeeds(cmd: &mut Command) -> bool {
    cmd.output().map(|o| o.status.success()).unwrap_or(false)
}

/// Makes sure the thumbv6m target is installed (rustup does not add it automatically here).
pub fn require_target() -> Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    match installed {
        Ok(out)
            if String::from_utf8_lossy(&out.stdout)
                .lines()
                .any(|l| l.trim() == TARGET) =>
        {
            Ok(())
        }
        Ok(_) => {
            println!("installing the {TARGET} target (rustup target add {TARGET}) …");
            if succeeds(Command::new("rustup").args(["target", "add", TARGET])) {
                Ok(())
            } else {
                bail!("could not install the {TARGET} target: run `rustup target add {TARGET}`")
            }
        }
        Err(_) => bail!("rustup not found: install the {TARGET} target for your toolchain by hand"),
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
    if sente::sim::have_flip_link() {
        return Ok(());
    }
    println!("installing flip-link (cargo install flip-link --locked) …");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if succeeds(Command::new(cargo).args(["install", "flip-link", "--locked"]))
        && sente::sim::have_flip_link()
    {
        Ok(())
    } else {
        bail!(
            "could not install flip-link: run `cargo install flip-link` (and put ~/.cargo/bin on PATH)"
        )
    }
}
