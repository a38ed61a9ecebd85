//! The documentation cannot drift: every `emx ...` command of the README
//! and docs/usage.md runs (tests/scripts/doc_commands.py extracts them) with
//! the exit code and the figure the text promises next to it.

use crate::repo_path;
use std::process::Command;

#[test]
fn every_command_of_the_readme_and_the_usage_guide_runs_as_documented() {
    if Command::new("python3").arg("--version").output().is_err() {
        println!("SKIP every_command_of_the_readme_and_the_usage_guide_runs_as_documented: python3 is not installed");
        return;
    }
    for doc in ["README.md", "usage.md"] {
        let out = Command::new("python3")
            .arg(repo_path("tests/scripts/doc_commands.py"))
            .args(["--emx", env!("CARGO_BIN_EXE_emx"), "--only", doc])
            .current_dir(repo_path(""))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{doc}: documented commands failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
