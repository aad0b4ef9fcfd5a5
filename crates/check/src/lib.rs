//! The independent certificate checker.
//!
//! A certificate (written by `partizan outcome --certificate`) claims who
//! wins a board with each player moving first and records, at positions
//! where the claimed winner moves, a winning move. This crate reads one
//! and replays it: every reply of the loser, the winner's recorded move,
//! until the line is decided. It accepts the claim only if every line is
//! decided for the claimed winner.
//!
//! # The trusted base
//!
//! A check is as good as the code it trusts. This crate trusts, and only
//! trusts:
//!
//! 1. **The rules**, from `partizan_games`: the ruleset's `parse`, its
//!    move generation (`options`), its `cells`, and its `footprints`
//!    (which cells a move can ever touch: they split a board into regions
//!    whose values add up).
//! 2. **Its own small value engine** ([`values`]): short games as sets of
//!    options, compared, added and made canonical by the definitions
//!    alone, used to value regions of at most `value-cells` cells (capped
//!    at [`MAX_VALUE_CELLS`]; a header asking for more is refused) by
//!    plain recursion over the rules' options ([`leaves::RegionValues`]).
//! 3. **Its own move count for Domineering** ([`leaves::domineering_counts`]):
//!    safe moves against the most moves the opponent can still make,
//!    counted on bitboards and held equal, on random boards of every
//!    shape, to its cell-by-cell twin ([`leaves::domineering_counts_plain`],
//!    the definition); the tests hold both against plain minimax.
//! 4. **Its own packing of vulnerable placements for Domineering**
//!    ([`leaves::domineering_packing`], [`leaves::packing_holds`]): the
//!    mover's safe placements, walled areas and vulnerable placements
//!    (those the opponent can spoil by covering one cell), which it plays
//!    out most valuable first, against the opponent's most moves, bounded
//!    by how many groups its moves can spoil before the mover reaches
//!    them and by the cells in its reach that the mover's groups and its
//!    own moves share out. Written from Bullock's idea (Obsequi), not
//!    from the search's finer bound; counted on bitboards and held equal,
//!    on random boards of every shape, to its cell-by-cell twin
//!    ([`leaves::domineering_packing_plain`]); the tests hold it against
//!    plain minimax on every position of every rectangle of up to 20
//!    cells (with integer tails, read exactly and as ranges) and against
//!    the search on random 6 x 6 to 8 x 8 positions. It is part of the
//!    move counts (`cutoffs bounds`; the header is unchanged): a checker
//!    from before it searches out, with its own rules, the positions a
//!    proof leaves where only the packing decides.
//! 5. **This replay** ([`checker`]) and the text format ([`format`]),
//!    whose every line is bounded.
//!
//! It shares no code with the search whose answers it checks: not the
//! value solver and arena of `partizan_core`, not the search's region
//! split, move bounds, finer bound, table, move order or symmetry.
//! (`partizan_core`'s notation parser reads the tails written in records,
//! but only to find which record belongs to a position: a record proposes
//! a move, which the replay plays only if it is a move of the position it
//! stands on, so a misread tail can make a true proof fail, never a false
//! one pass.) Where the certificate's header names rules the prover
//! leaned on (`cutoffs bounds fine`: Domineering's finer bound), they are
//! not believed: a position the prover left without a record, which the
//! checker's own rules do not decide, is searched by the checker itself,
//! with its own rules at the leaves, under the check's position limit.
//!
//! A certificate of version 3 (`partizan-certificate 3`, written by the
//! job-level search) is made of parts: after the header and the records
//! of the top part, each `part` line starts a proof of its own (its root,
//! who moves, its claim and its settings) with its records. Each part is
//! replayed alone, as if it were a certificate (its records are dropped
//! when it is done); then the top part is replayed as a certificate of
//! the header, a line ending where it reaches a part's root with the
//! part's claimed winner. Nothing is believed of a part that is not
//! replayed: a part that fails fails the whole certificate.
//!
//! Every position is keyed with the player claimed to win it, so a
//! position proved for one claim never stands in for the other (the
//! forgery of issue 38: a Right move transposing into a position proved
//! in Left's tree).

pub mod checker;
pub mod format;
pub mod leaves;
pub mod values;

pub use checker::{check, check_reader, CheckProgress, CheckReport, Leaves, PosMap, PosSet, Rule};
pub use format::{
    CertError, CertReader, Certificate, Claims, Convention, Header, Part, Play, Record, RecordRef,
    HEADER, HEADER_V1, HEADER_V3, MAX_LINE, MAX_VALUE_CELLS,
};
