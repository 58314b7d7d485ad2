//! The README is a test: every `treeval` command in its ```sh blocks runs, from a scratch
//! directory that sees the repository's `examples/` and `testdata/`, and exits 0.
//! Commands with placeholder file names belong in ```text blocks.

use std::path::Path;
use std::process::Command;

mod common;
use common::root;

/// The shell commands of the README's ```sh blocks, continuation lines joined.
fn sh_commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        let cmd = std::mem::take(&mut pending);
        if !cmd.trim().is_empty() {
            out.push(cmd.trim().to_owned());
        }
    }
    out
}

#[test]
fn every_readme_command_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let commands = sh_commands(&readme);
    let treeval_commands: Vec<&String> = commands
        .iter()
        .filter(|c| c.starts_with("treeval "))
        .collect();
    assert!(
        treeval_commands.len() >= 15,
        "the README's quick start has fewer commands than expected: {commands:?}"
    );
    // set-up commands are the only other kind
    for c in &commands {
        assert!(
            c.starts_with("treeval ")
                || c.starts_with("cargo install --locked")
                || c == "pip install ."
                || c == "bash .ci/run",
            "unexpected command in a ```sh block of README.md: {c}"
        );
    }
    let dir = std::env::temp_dir().join(format!("treeval-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for sub in ["examples", "testdata"] {
        std::os::unix::fs::symlink(root().join(sub).canonicalize().unwrap(), dir.join(sub))
            .unwrap();
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_treeval"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for c in treeval_commands {
        let o = Command::new("sh")
            .args(["-c", c])
            .env("PATH", &path)
            .current_dir(&dir)
            .output()
            .unwrap();
        if !o.status.success() {
            failures.push(format!(
                "`{c}` exited with {:?}:\n{}",
                o.status.code(),
                String::from_utf8_lossy(&o.stderr)
            ));
        } else if o.stdout.is_empty() && !c.contains(" > ") {
            failures.push(format!("`{c}` printed nothing"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
