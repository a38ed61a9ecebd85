//! Every input a fuzzer found to crash emx (`tests/data/fuzz/TARGET/*`),
//! replayed through the fuzz target's own entry point (`emx::fuzz::run`):
//! each must now be read without a panic, an overflow or an unbounded
//! allocation. See docs/reliability.md for the fuzzers.

use crate::repo_path;

#[test]
fn fuzz_crashes_stay_fixed() {
    let root = repo_path("tests/data/fuzz");
    let mut replayed = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for dir in dirs.into_iter().filter(|d| d.is_dir()) {
        let target = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(emx::fuzz::TARGETS.contains(&target.as_str()), "tests/data/fuzz/{target}: not a fuzz target");
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap();
            println!("{target}: {}", file.display());
            emx::fuzz::run(&target, &data);
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no regression input under {}", root.display());
}
