//! The workspace's test layout: every crate with more than one integration
//! test file links them into one binary, `tests/all.rs`, and turns Cargo's
//! discovery off (`autotests = false`). A file added beside them but not
//! named in `all.rs` would then never run, so this checks that each one is.

use std::path::Path;

#[test]
fn every_integration_test_file_is_a_module_of_its_crates_test_binary() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for entry in std::fs::read_dir(&crates).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let tests = dir.join("tests");
        let Ok(all) = std::fs::read_to_string(tests.join("all.rs")) else {
            assert!(
                !manifest.contains("autotests = false"),
                "{}: autotests is off but there is no tests/all.rs",
                dir.display()
            );
            continue;
        };
        assert!(
            manifest.contains("autotests = false") && manifest.contains("path = \"tests/all.rs\""),
            "{}: tests/all.rs is not the only test target",
            dir.display()
        );
        for file in std::fs::read_dir(&tests).unwrap() {
            let path = file.unwrap().path();
            let (Some(stem), Some("rs")) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            if stem == "all" {
                continue;
            }
            assert!(
                all.lines().any(|l| l.trim() == format!("mod {stem};")),
                "{} is not named in {} (`mod {stem};`), so it never runs",
                path.display(),
                tests.join("all.rs").display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 90, "only {checked} test files found");
}
