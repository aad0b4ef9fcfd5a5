//! The answer of replaying a certificate ([`CheckReport`], `partizan check
//! FILE [--json]`): which board, which outcome it proves and what the
//! independent checker (`partizan_check`, whose trusted base its crate
//! documentation lists) did.

use std::fmt::Write as _;
use std::io::BufRead;
use std::ops::ControlFlow;
use std::time::Instant;

use partizan_games::{with_rules, Board, Rules};
use partizan_solve::outcome::Convention;
use partizan_solve::search::certificate::{self, CertError, CertReader, CheckProgress, Positions};
use partizan_solve::search::{Control, Knowledge, SearchConfig, SearchError, SearchReport};
use serde::Serialize;
use thiserror::Error;

/// Why a certificate was not accepted.
#[derive(Debug, Error)]
pub enum CheckError {
    /// The certificate does not parse, names a bad board, or its proof
    /// fails (the reason says which).
    #[error(transparent)]
    Certificate(#[from] CertError),
    /// The certificate names no known ruleset.
    #[error("certificate: {0}")]
    Ruleset(String),
}

/// A certificate that replayed: every line of play it claims holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// Always true: a proof that fails is a [`CheckError`], never a report.
    pub valid: bool,
    /// The ruleset's name.
    pub ruleset: String,
    /// The root board.
    pub board: String,
    /// Normal or misère play.
    pub convention: Convention,
    /// The outcome class the certificate proves: L, R, N or P; `None`
    /// (`null`) for a certificate of one first player, which proves no
    /// class.
    pub outcome: Option<&'static str>,
    /// Left wins moving first (`null`: not claimed).
    pub left_first_wins: Option<bool>,
    /// Right wins moving first (`null`: not claimed).
    pub right_first_wins: Option<bool>,
    /// What the checker replayed.
    pub check: certificate::CheckReport,
    /// Wall time of the check, milliseconds.
    pub time_ms: f64,
}

impl CheckReport {
    /// The text form: one line.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let what = match (self.outcome, self.left_first_wins, self.right_first_wins) {
            (Some(class), _, _) => format!("is {class}"),
            (None, l, r) => {
                let (who, wins) = match (l, r) {
                    (Some(w), _) => ("Left", w),
                    (_, w) => ("Right", w.unwrap_or(false)),
                };
                format!(
                    "{who} moving first {} (one first player: no outcome class)",
                    if wins { "wins" } else { "loses" }
                )
            }
        };
        let _ = writeln!(
            s,
            "valid: {} {} {what} ({} positions replayed, {} decided by values, {} by counting moves, {} searched by the checker itself, {} records{})",
            self.ruleset,
            self.board,
            self.check.positions,
            self.check.by_value,
            self.check.by_bounds,
            self.check.searched,
            self.check.records,
            if self.check.parts > 0 {
                format!(", {} parts", self.check.parts)
            } else {
                String::new()
            }
        );
        s
    }
}

/// Parse a certificate's `text` and replay it, visiting at most
/// `max_positions` positions.
pub fn check_certificate(text: &str, max_positions: u64) -> Result<CheckReport, CheckError> {
    check_certificate_from(text.as_bytes(), max_positions, &mut |_| {
        ControlFlow::Continue(())
    })
}

/// Read a certificate from `input` one line at a time and replay it,
/// visiting at most `max_positions` positions; `progress` hears where the
/// check is now and then, and a [`ControlFlow::Break`] from it stops the
/// check ([`CertError::Stopped`]).
///
/// A gzip stream (it starts with gzip's magic bytes, whatever the file's
/// name) is decompressed on the way in: a certificate written to a name
/// ending in `.gz` reads back as it was written, and a damaged or
/// truncated one is an error (its checksum and length are checked at the
/// end of the stream).
pub fn check_certificate_from(
    mut input: impl BufRead,
    max_positions: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
) -> Result<CheckReport, CheckError> {
    if input
        .fill_buf()
        .map_err(CertError::Io)?
        .starts_with(&GZIP_MAGIC)
    {
        let unzipped =
            std::io::BufReader::with_capacity(1 << 20, flate2::bufread::MultiGzDecoder::new(input));
        return check_plain(unzipped, max_positions, progress);
    }
    check_plain(input, max_positions, progress)
}

/// The first two bytes of every gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

fn check_plain(
    input: impl BufRead,
    max_positions: u64,
    progress: &mut dyn FnMut(CheckProgress) -> ControlFlow<()>,
) -> Result<CheckReport, CheckError> {
    let reader = CertReader::new(input)?;
    let h = reader.header().clone();
    let rules = Rules::from_name(&h.ruleset).map_err(|e| CheckError::Ruleset(e.to_string()))?;
    let start = Instant::now();
    let check = with_rules!(rules, |r| certificate::check_reader(
        r,
        reader,
        max_positions,
        progress
    ))?;
    Ok(CheckReport {
        valid: true,
        outcome: h.claims.class(),
        left_first_wins: h.claims.left_first,
        right_first_wins: h.claims.right_first,
        convention: h.convention,
        ruleset: h.ruleset,
        board: h.board,
        check,
        time_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

/// Search `board` and write its certificate to `path` as the search finds
/// its records, through a temporary file renamed into place when complete
/// (a failed or stopped run leaves no half certificate); `positions` as
/// [`certificate::write_certificate_as`]. A name ending in `.gz` is
/// written gzip-compressed ([`check_certificate_from`] reads it back): the
/// 8 x 8 Domineering proof takes 17 MB instead of 285 MB of text, for
/// about 7% more time (level 1: 41 MB).
pub fn write_certificate_file<R: Knowledge>(
    r: &R,
    board: &Board,
    cfg: &SearchConfig,
    control: &Control<'_>,
    path: &std::path::Path,
    positions: Positions,
) -> Result<SearchReport, SearchError> {
    let fail = |e: std::io::Error| SearchError::Write(format!("{}: {e}", path.display()));
    write_certificate_with(path, fail, |out| {
        write_certificate_into(r, board, cfg, control, out, positions)
    })
}

/// Write a certificate to `path` by `body`, as [`write_certificate_file`]
/// does: through a temporary file renamed into place when `body`
/// succeeds, gzip-compressed where the name ends in `.gz`; `fail` turns
/// the file's errors into the caller's.
pub fn write_certificate_with<T, E>(
    path: &std::path::Path,
    fail: impl Fn(std::io::Error) -> E,
    body: impl FnOnce(&mut dyn std::io::Write) -> Result<T, E>,
) -> Result<T, E> {
    let gzip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    partizan_solve::files::write_through_temp(path, &fail, |out| {
        if !gzip {
            return body(out);
        }
        let mut z = flate2::write::GzEncoder::new(out, flate2::Compression::new(GZIP_LEVEL));
        let rep = body(&mut z)?;
        z.try_finish().map_err(&fail)?;
        Ok(rep)
    })
}

/// Refuse now, before any search, a certificate path that could not be
/// written at the end: a folder, or a folder that does not exist or cannot
/// be written (the message names the path).
pub fn certificate_writable(path: &std::path::Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{}: is a directory", path.display()));
    }
    let probe = partizan_solve::files::temp_sibling(path);
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(format!("{}: cannot write there: {e}", path.display())),
    }
}

/// The compression level of `.gz` certificates (1 fastest, 9 smallest).
const GZIP_LEVEL: u32 = 6;

/// [`write_certificate_file`] to standard output (the CLI's `-`), flushed
/// before the report is returned.
pub fn write_certificate_stdout<R: Knowledge>(
    r: &R,
    board: &Board,
    cfg: &SearchConfig,
    control: &Control<'_>,
    positions: Positions,
) -> Result<SearchReport, SearchError> {
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let rep = write_certificate_into(r, board, cfg, control, &mut out, positions)?;
    std::io::Write::flush(&mut out)
        .map_err(|e| SearchError::Write(format!("standard output: {e}")))?;
    Ok(rep)
}

fn write_certificate_into<R: Knowledge>(
    r: &R,
    board: &Board,
    cfg: &SearchConfig,
    control: &Control<'_>,
    out: &mut dyn std::io::Write,
    positions: Positions,
) -> Result<SearchReport, SearchError> {
    certificate::write_certificate_as(r, board, cfg, control, out, positions).map(|(rep, _)| rep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Domineering, Ruleset};
    use partizan_solve::search::{certificate::solve_with_certificate, Control, SearchConfig};

    fn certificate_of(board: &str) -> String {
        let b = Domineering.parse(board).unwrap();
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        let (_, cert) =
            solve_with_certificate(&Domineering, &b, &cfg, &Control::default()).unwrap();
        cert.to_text()
    }

    #[test]
    fn the_json_has_the_command_lines_shape() {
        // Oracle: 4 rows x 5 columns of Domineering is a Left win (Lachmann,
        // Moore and Rapaport's table; the CLI test pins it too).
        let rep = check_certificate(&certificate_of(".....|.....|.....|....."), 1_000_000).unwrap();
        let v = serde_json::to_value(&rep).unwrap();
        let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "board",
                "check",
                "convention",
                "left_first_wins",
                "outcome",
                "right_first_wins",
                "ruleset",
                "time_ms",
                "valid"
            ]
        );
        let mut counts: Vec<&str> = v["check"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        counts.sort_unstable();
        assert_eq!(
            counts,
            [
                "by_bounds",
                "by_value",
                "parts",
                "positions",
                "records",
                "searched",
                "terminal",
                "valued"
            ]
        );
        assert_eq!(v["valid"], true);
        assert_eq!(v["ruleset"], "domineering");
        assert_eq!(v["convention"], "normal");
        assert_eq!(v["outcome"], "L");
        assert_eq!(v["left_first_wins"], true);
        assert_eq!(v["right_first_wins"], false);
        assert!(v["check"]["positions"].as_u64().unwrap() > 10);
        assert!(rep
            .render_text()
            .starts_with("valid: domineering .....|.....|.....|..... is L ("));
    }

    #[test]
    fn a_false_claim_or_an_unknown_ruleset_is_an_error() {
        let text = certificate_of("...|...");
        // {2|-1/2}: both first players win; claim Right loses instead.
        let bad = text.replace("claim right wins", "claim right loses");
        assert_ne!(bad, text);
        let e = check_certificate(&bad, 1_000_000).unwrap_err();
        assert!(e.to_string().contains("proof fails"), "{e}");
        let other = text.replace("ruleset domineering", "ruleset chess");
        let e = check_certificate(&other, 1_000_000).unwrap_err();
        assert!(matches!(e, CheckError::Ruleset(_)), "{e}");
    }

    #[test]
    fn a_certificate_of_one_first_player_proves_no_class() {
        // 4 x 5 Domineering is L: Left wins moving first.
        let b = Domineering.parse(".....|.....|.....|.....").unwrap();
        let mut cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        cfg.first = partizan_solve::search::First::Left;
        let (_, cert) =
            solve_with_certificate(&Domineering, &b, &cfg, &Control::default()).unwrap();
        let text = cert.to_text();
        assert!(text.contains("claim left wins") && !text.contains("claim right"));
        let rep = check_certificate(&text, 1_000_000).unwrap();
        assert_eq!(rep.outcome, None);
        assert_eq!(rep.left_first_wins, Some(true));
        assert_eq!(rep.right_first_wins, None);
        let v = serde_json::to_value(&rep).unwrap();
        assert!(v["outcome"].is_null() && v["right_first_wins"].is_null());
        assert!(rep
            .render_text()
            .contains("Left moving first wins (one first player"));
        // Its claim flipped, it fails; with no claim at all it does not parse.
        let bad = text.replace("claim left wins", "claim left loses");
        assert!(check_certificate(&bad, 1_000_000).is_err());
        let none = text.replace("claim left wins\n", "");
        let e = check_certificate(&none, 1_000_000).unwrap_err();
        assert!(e.to_string().contains("claim"), "{e}");
        // A Right claim added by hand must hold too: Right loses 4 x 5.
        let both = text.replace("claim left wins\n", "claim left wins\nclaim right wins\n");
        assert!(check_certificate(&both, 1_000_000).is_err());
    }

    #[test]
    fn a_gz_certificate_is_compressed_and_reads_back_checked() {
        let dir = tempfile::tempdir().unwrap();
        let b = Domineering.parse("......|......|......|......").unwrap();
        let cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
        let control = Control::default();
        let plain = dir.path().join("proof.txt");
        let zipped = dir.path().join("proof.txt.GZ");
        let write = |path: &std::path::Path| {
            write_certificate_file(&Domineering, &b, &cfg, &control, path, Positions::Best).unwrap()
        };
        let (rep_plain, rep_zipped) = (write(&plain), write(&zipped));
        assert_eq!(rep_plain.class(), rep_zipped.class());
        let text = std::fs::read(&plain).unwrap();
        let gz = std::fs::read(&zipped).unwrap();
        assert!(text.starts_with(b"partizan-certificate"));
        assert!(gz.starts_with(&GZIP_MAGIC), "not gzip");
        assert!(
            gz.len() * 3 < text.len(),
            "{} vs {} bytes",
            gz.len(),
            text.len()
        );
        // Both replay to the same answer, the name of neither consulted.
        let check = |bytes: &[u8]| {
            check_certificate_from(bytes, 1_000_000, &mut |_| ControlFlow::Continue(()))
        };
        let (a, z) = (check(&text).unwrap(), check(&gz).unwrap());
        assert_eq!((a.outcome, a.check.records), (z.outcome, z.check.records));
        assert!(a.check.records > 10);
        // Cut short or with one byte changed, the stream is an error, never
        // a shorter proof believed.
        for cut in [gz.len() - 4, gz.len() / 2, 10] {
            assert!(check(&gz[..cut]).is_err(), "cut at {cut}");
        }
        let mut flipped = gz.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x10;
        assert!(check(&flipped).is_err());
        // The gzip of a text that is not a certificate is refused as the
        // text would be.
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, b"hello\n").unwrap();
        let junk = e.finish().unwrap();
        let err = check(&junk).unwrap_err().to_string();
        assert!(err.contains("line 1"), "{err}");
    }
}
