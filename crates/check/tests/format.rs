//! The format's bounds: what a header may ask for, how long a line may
//! be, and input that never ends.

use std::io::BufReader;

use partizan_check::{check_reader, CertError, CertReader, MAX_LINE, MAX_VALUE_CELLS};
use partizan_games::Domineering;

fn header(value_cells: u32) -> String {
    format!(
        "partizan-certificate 2\nruleset domineering\nconvention normal\nvalue-cells {value_cells}\n\
         positions whole\ncutoffs none\nboard ........|........|........|........|........|........|........|........\n\
         claim left wins\n"
    )
}

#[test]
fn value_cells_past_the_cap_are_refused() {
    // Issue 38: a one-record certificate with value-cells 64 had the
    // checker value the whole board, without end.
    let text = header(64);
    let e = CertReader::new(text.as_bytes()).err().expect("refused");
    assert!(matches!(e, CertError::Refused { line: 4, .. }), "{e}");
    assert!(e.to_string().contains("value-cells 64"), "{e}");
    let ok = header(MAX_VALUE_CELLS);
    assert!(CertReader::new(ok.as_bytes()).is_ok());
}

#[test]
fn a_line_that_never_ends_is_an_error_not_a_hang() {
    // `partizan check /dev/zero` read one line until it held 7.7 GB.
    let zeros = std::io::repeat(0);
    let e = CertReader::new(BufReader::new(zeros))
        .err()
        .expect("refused");
    assert!(e.to_string().contains("longer than"), "{e}");
    let mut text = header(12).into_bytes();
    text.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
    // (Read while looking for more claims, or as a record.)
    let e = CertReader::new(&text[..])
        .and_then(|reader| {
            check_reader(&Domineering, reader, 1000, &mut |_| {
                std::ops::ControlFlow::Continue(())
            })
        })
        .unwrap_err();
    assert!(e.to_string().contains("longer than"), "{e}");
    // Bytes that are not text.
    let bad = [b"partizan-certificate 2\n".as_slice(), &[0xff, 0xfe, b'\n']].concat();
    assert!(CertReader::new(&bad[..]).is_err());
}

#[test]
fn the_position_limit_bounds_the_work_of_a_tiny_certificate() {
    // One claim, no records, an 8 x 8 board: the checker would search the
    // whole game itself; the limit stops it.
    let text = header(12);
    let reader = CertReader::new(text.as_bytes()).unwrap();
    let t = std::time::Instant::now();
    let e = check_reader(&Domineering, reader, 10, &mut |_| {
        std::ops::ControlFlow::Continue(())
    })
    .unwrap_err();
    assert!(matches!(e, CertError::Limit(10)), "{e}");
    assert!(t.elapsed().as_secs() < 5);
}

#[test]
fn a_tail_born_too_late_is_refused() {
    let text = format!(
        "{}move\tL\t........|........|........|........|........|........|........|........\t300\tboard\t#.......|#.......|........|........|........|........|........|........\n",
        header(12)
    );
    let reader = CertReader::new(text.as_bytes()).unwrap();
    let e = check_reader(&Domineering, reader, 1000, &mut |_| {
        std::ops::ControlFlow::Continue(())
    })
    .unwrap_err();
    assert!(e.to_string().contains("born after day"), "{e}");
}
