//! The command line's own documentation: every subcommand's `-h` gives
//! one line per flag, `--help` describes the command's own values, and the
//! shell completions and manual pages come from the same definitions.

use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn text(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The subcommands `emx --help` lists.
fn subcommands() -> Vec<String> {
    let help = text(&emx(&["--help"]));
    let start = help.find("Commands:").expect("a command list");
    help[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_flag_has_a_one_line_summary() {
    let commands = subcommands();
    assert!(commands.len() >= 13, "{commands:?}");
    for c in &commands {
        for line in text(&emx(&[c, "-h"])).lines() {
            assert!(line.chars().count() <= 160, "emx {c} -h: a summary longer than a line:\n{line}");
        }
    }
}

#[test]
fn each_command_describes_its_own_format_values() {
    // Commands that only report take text and json; their help names no
    // picture, and svg is refused when the line is parsed.
    for c in ["split", "merge", "generate edgematch"] {
        let mut args: Vec<&str> = c.split(' ').collect();
        args.push("--help");
        let help = text(&emx(&args));
        assert!(help.contains("--format"), "emx {c}");
        assert!(!help.contains("svg"), "emx {c} --help offers svg:\n{help}");
    }
    let out = emx(&["merge", "x.json", "--format", "svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'svg'"));
    // Commands that draw say what they draw.
    for (c, picture) in [
        ("solve", "the solutions found"),
        ("info", "the pieces"),
        ("score", "mismatched joins marked"),
        ("optimize", "the best board"),
    ] {
        let help = text(&emx(&[c, "--help"]));
        let svg =
            help.lines().find(|l| l.trim_start().starts_with("- svg:")).unwrap_or_else(|| panic!("emx {c}: {help}"));
        assert!(svg.contains(picture), "emx {c}: {svg}");
    }
    // The input files say which formats they take.
    for c in ["solve", "info"] {
        let help = text(&emx(&[c, "--help"]));
        assert!(help.contains("polycube definition file") && help.contains("edge-matching"), "emx {c}");
    }
}

#[test]
fn optimize_help_lists_every_tuning_parameter() {
    let help = text(&emx(&["optimize", "--help"]));
    for name in emx::edgematch::local::Params::NAMES {
        assert!(help.contains(name), "emx optimize --help does not name --param {name}");
    }
}

#[test]
fn completions_and_man_pages_come_from_the_parser() {
    let bash = text(&emx(&["completions", "bash"]));
    assert!(bash.contains("--unique") && bash.contains("solve"), "bash completion without solve's flags");
    let fish = text(&emx(&["completions", "fish"]));
    assert!(fish.contains("complete -c emx"));
    let man = text(&emx(&["man"]));
    assert!(man.starts_with(".ie") || man.contains(".TH emx"), "{}", &man[..man.len().min(200)]);
    let dir = std::env::temp_dir().join(format!("emx-man-{}", std::process::id()));
    text(&emx(&["man", "--dir", dir.to_str().unwrap()]));
    for page in ["emx.1", "emx-solve.1", "emx-optimize.1"] {
        let p = dir.join(page);
        assert!(std::fs::read_to_string(&p).is_ok_and(|t| t.contains(".TH")), "{}", p.display());
    }
    std::fs::remove_dir_all(dir).unwrap();
}
