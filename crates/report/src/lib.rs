//! partizan-report: the answers partizan gives, as serialisable types with
//! their text forms, shared by every front end.
//!
//! The command line prints a report's text (or its JSON with `--json`), the
//! site renders it as HTML and serves its JSON from `/api/`, and the Python
//! package hands it over as objects: all three call the same function here
//! and none of them builds an answer of its own, so a field has one name
//! and one type everywhere.
//!
//! ```
//! use partizan_games::Rules;
//! use partizan_report::{board_value, Options};
//!
//! let report = board_value(Rules::Domineering, "...|...", &Options::default()).unwrap();
//! assert_eq!(report.value.value, "{2|-1/2}");
//! assert_eq!(report.value.outcome, "N");
//! assert_eq!(report.ruleset, "domineering");
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod check;
pub mod loopy;
pub mod misere;
pub mod moves;
pub mod outcome;
pub mod parts;
pub mod picture;
pub mod process;
pub mod rectangles;
pub mod value;

pub use analysis::{calculate, Calculation, PairComparison, ValueAnalysis};
pub use check::{
    check_certificate, check_certificate_from, write_certificate_file, write_certificate_stdout,
    write_certificate_with, CheckError, CheckReport,
};
pub use loopy::{loopy_board, loopy_value, BoardLimits, LoopyReport};
pub use misere::{
    misere_board, misere_game, misere_graph, misere_quotient, MisereAsk, MisereBoardReport,
    MisereForm, MisereGameReport, MisereGraphReport, MisereQuotientReport, MisereReportError,
    PartizanMisereForm,
};
pub use moves::{cells_text, judge_first_moves, move_text, FirstMoves, JudgedMove, MirrorOf};
pub use outcome::{
    board_outcome, default_table_mb, nimber_refusal, nimber_text, outcome_through_store,
    save_outcome, stored_outcome, OutcomeReport, OutcomeStore, StoredAnswer, Undecided,
};
pub use parts::{parts_table, PartsAsk, PartsTable};
pub use rectangles::{rectangle_boards, RectangleCell, RectangleSpec, RectangleTable};
pub use value::{
    board_options, board_options_in, board_value, board_value_in, game_value, player_options,
    term_value, BoardOption, BoardValue, GameValue, Options, OptionsReport, ReportError, Size,
    StoreUse, ValueSummary, MAX_VALUE_TEXT, PRINT_LIMIT,
};
