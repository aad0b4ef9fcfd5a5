//! Small edges of issue 10 through the binary: a bad input is quoted at
//! most ~200 characters, an OS error is said once, a taken port is named.

use assert_cmd::Command;

fn fails(args: &[&str]) -> String {
    let out = Command::cargo_bin("partizan")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    err
}

#[test]
fn a_bad_input_is_quoted_at_most_about_200_characters() {
    let braces = "{".repeat(3000);
    let ones = format!("{}x", "1".repeat(3000));
    let octal = format!("0.{}x", "7".repeat(3000));
    let board = format!("{}#x", ".".repeat(3000));
    for args in [
        vec!["game", braces.as_str()],
        vec!["compare", ones.as_str(), "0"],
        vec!["grundy", octal.as_str()],
        vec!["value", "domineering", board.as_str(), "--no-store"],
    ] {
        let err = fails(&args);
        let longest_run = err
            .as_bytes()
            .chunk_by(|a, b| a == b)
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0);
        assert!(
            longest_run <= 201,
            "{args:?}: {longest_run} in a row: {err}"
        );
        assert!(err.chars().count() <= 402, "{args:?}: {err}");
    }
}

#[test]
fn an_os_error_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/out.csv");
    let err = fails(&[
        "census",
        "domineering",
        "--max-cells",
        "3",
        "--csv",
        missing.to_str().unwrap(),
    ]);
    assert!(err.contains("does not exist"), "{err}");
    let f = dir.path().join("f");
    std::fs::write(&f, b"").unwrap();
    let under_file = f.join("x.sqlite");
    let err = fails(&[
        "store",
        "--store",
        under_file.to_str().unwrap(),
        "warm",
        "domineering",
        "--max-cells",
        "2",
    ]);
    assert!(err.matches("os error").count() <= 1, "{err}");
    assert!(err.matches("Not a directory").count() <= 1, "{err}");
}

#[test]
fn a_taken_port_is_named_with_the_way_out() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::cargo_bin("partizan")
        .unwrap()
        .args(["serve", "--port", &port, "--no-store"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("port {port}")), "{err}");
    assert!(err.contains("--port"), "{err}");
}
