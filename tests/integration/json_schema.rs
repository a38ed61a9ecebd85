//! `docs/json.md` documents every field of every command's JSON output;
//! this checks the documentation against real outputs, both ways.

use crate::repo_path;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

/// The field paths listed in the table of section `## {title}`.
fn documented(title: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(repo_path("docs/json.md")).unwrap();
    let start = doc.find(&format!("\n## {title}\n")).unwrap_or_else(|| panic!("docs/json.md has no section `{title}`"));
    let section = &doc[start + 4..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let fields: Vec<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    assert!(!fields.is_empty(), "section `{title}` lists no fields");
    fields
}

/// The value at `path` (`a`, `a[].b`), looking into the first array element.
fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for (k, part) in path.split("[].").enumerate() {
        if k > 0 {
            match cur.as_array() {
                Some(a) if !a.is_empty() => cur = &a[0],
                // An empty array: nothing to check inside.
                Some(_) => return Some(&Value::Null),
                None => return None,
            }
        }
        cur = cur.get(part)?;
    }
    Some(cur)
}

/// Every documented field is present, and every field present (at the top
/// level and in the first element of documented arrays) is documented.
fn check(title: &str, v: &Value) {
    let fields = documented(title);
    for f in &fields {
        assert!(lookup(v, f).is_some(), "docs/json.md `{title}` lists `{f}`, missing from the output: {v}");
    }
    let listed: BTreeSet<&str> = fields.iter().map(String::as_str).collect();
    let mut actual = Vec::new();
    for (key, value) in v.as_object().unwrap() {
        actual.push(key.clone());
        let nested = fields.iter().any(|f| f.starts_with(&format!("{key}[].")));
        if let (true, Some(first)) = (nested, value.as_array().and_then(|a| a.first())) {
            if let Some(obj) = first.as_object() {
                actual.extend(obj.keys().map(|k| format!("{key}[].{k}")));
            }
        }
    }
    for a in &actual {
        assert!(listed.contains(a.as_str()), "`{a}` of the `{title}` output is not in docs/json.md");
    }
}

fn run_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 3), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with('\n') && text.trim().lines().count() == 1, "one JSON object per line: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_command_matches_its_documentation() {
    let soma = "instances/polycube/somacube_def.txt";
    let e3 = "instances/edgematch/brendan_set2/pieces_03x03.txt";
    for file in [soma, e3] {
        check("emx solve", &run_json(&["solve", file, "--format", "json", "--first", "1"]));
    }
    check("emx solve", &run_json(&["solve", soma, "--format", "json", "--unique=mirror"]));
    check("emx info (polycube)", &run_json(&["info", soma, "--format", "json"]));
    check("emx info (edge matching)", &run_json(&["info", e3, "--format", "json"]));
    let bench = run_json(&["bench", e3, soma, "--backends", "dlx,emx=/no/such/emx", "--format", "json"]);
    check("emx bench", &bench);
    let board = "tests/data/render/board_3x3_mismatched.txt";
    check("emx render (edge matching)", &run_json(&["render", e3, "--solution", board, "--format", "json"]));

    let cover = "tests/data/encoders/knuth_colors.dlx";
    check("emx info (exact cover)", &run_json(&["info", cover, "--format", "json"]));
    check("emx solve", &run_json(&["solve", cover, "--format", "json", "--all"]));
    check("emx solve --estimate", &run_json(&["solve", soma, "--estimate", "50", "--format", "json"]));
    for backend in ["cp", "scan"] {
        let v = run_json(&["solve", e3, "--backend", backend, "--estimate", "50", "--format", "json"]);
        check("emx solve --estimate (edge matching)", &v);
    }
    check("emx solve --sample", &run_json(&["solve", soma, "--sample", "20,3,7", "--format", "json"]));
    let split_scratch = crate::Scratch::new("json-split");
    let split_dir = split_scratch.join("parts");
    let split_dir = split_dir.to_str().unwrap();
    check("emx split", &run_json(&["split", soma, "--depth", "1", "--out", split_dir, "--format", "json"]));
    std::fs::remove_dir_all(split_dir).ok();
    let edge_split = run_json(&["split", e3, "--depth", "2", "--out", split_dir, "--format", "json"]);
    check("emx split (edge matching)", &edge_split);
    for part in std::fs::read_dir(split_dir).unwrap().flatten() {
        let path = part.path();
        if path.extension().is_some_and(|e| e == "txt") {
            let r = run_json(&["solve", path.to_str().unwrap(), "--format", "json", "--all"]);
            std::fs::write(path.with_extension("json"), format!("{r}\n")).unwrap();
        }
    }
    let manifest = format!("{split_dir}/manifest.json");
    check("emx merge (edge matching)", &run_json(&["merge", &manifest, "--format", "json"]));
    std::fs::remove_dir_all(split_dir).ok();
    check(
        "emx split",
        &run_json(&["split", soma, "--depth", "1", "--tasks", "2", "--out", split_dir, "--format", "json"]),
    );
    check("emx task", &run_json(&["task", &format!("{split_dir}/task-1.json"), "--format", "json"]));
    std::fs::remove_dir_all(split_dir).ok();
    let p5 = "instances/edgematch/brendan_set2/pieces_05x05.txt";
    check("emx optimize", &run_json(&["optimize", p5, "--time", "0.2", "--format", "json"]));

    let dir = crate::Scratch::new("json-schema");
    // A SAT model for `emx decode`: the variables of the options of a solution,
    // a complete model of the CNF with pairwise at-most-one and colour
    // conflicts (no auxiliary variables), which decode checks clause by clause.
    let inst = emx::input::load(&repo_path(e3), None, 1).unwrap();
    let mut chosen = Vec::new();
    emx::dlx::Dlx::new(inst.problem()).search(&emx::search::Limits::none(), |s| {
        chosen = s.to_vec();
        emx::search::Flow::Stop
    });
    let lits: Vec<String> = (0..inst.problem().n_options() as u32)
        .map(|o| if chosen.contains(&o) { format!("{}", o + 1) } else { format!("-{}", o + 1) })
        .collect();
    let model = dir.join("model.txt");
    std::fs::write(&model, format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))).unwrap();
    let flags = ["--amo", "pairwise", "--colors", "conflicts"];
    let decode = [&["decode", e3, "--model", model.to_str().unwrap(), "--format", "json"][..], &flags[..]].concat();
    check("emx decode", &run_json(&decode));
    for to in ["cnf", "clique", "dlx", "lp"] {
        let out = dir.join(format!("e3.{to}"));
        let v = run_json(&["encode", e3, "--to", to, "-o", out.to_str().unwrap(), "--format", "json"]);
        assert!(out.exists());
        check("emx encode", &v);
    }
    let v = run_json(&[
        "score",
        "instances/edgematch/eternity2/blackwood470.board.txt",
        "--puzzle",
        "instances/edgematch/eternity2/e2_centre.txt",
        "--format",
        "json",
    ]);
    assert_eq!(v["boards"][0]["matched"], 470);
    check("emx score", &v);
    let puzzle = dir.join("gen.txt");
    let v = run_json(&[
        "generate",
        "edgematch",
        "--size",
        "4",
        "--colors",
        "3",
        "--output",
        puzzle.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(puzzle.exists() && v["solution"].is_string());
    check("emx generate", &v);

    std::fs::create_dir_all(&dir).unwrap();
    let sol = dir.join("soma.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_emx"))
        .args(["solve", soma, "--first", "1", "--format", "json", "-o", sol.to_str().unwrap()])
        .current_dir(repo_path(""))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = run_json(&["render", soma, "--solution", sol.to_str().unwrap(), "--format", "json"]);
    assert_eq!(v["solution"], true, "{v}");
    check("emx render (polycube)", &v);
}
