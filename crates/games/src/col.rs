//! Col: a player colours an empty cell that is not orthogonally next to a cell
//! of their own colour (Left colours blue, Right red).
//!
//! Text format (a tinted grid: coloured cells are gone and each live cell remembers
//! who may still colour it):
//! `.` an empty cell either player may colour, `l` only Left (it is next to Right's colour), `r` only
//! Right, `#` a hole or a dead cell; rows separated by `|` or newlines.
//! Coloured cells may be written `L` (Left's) and `R` (Right's): they are
//! read as holes that tint their neighbours, and print as `#`.
//!
//! ```text
//! L..R      reads as #rl# : the two live cells left after two moves.
//! ```

use crate::ruleset::RulesetInfo;
use crate::tinted::{self, Forbids};

/// Col on a grid. The eight geometric symmetries keep the value; the same
/// eight with the tints `l` and `r` exchanged negate it.
#[derive(Copy, Clone, Debug, Default)]
pub struct Col;

static INFO: RulesetInfo = RulesetInfo {
    name: "col",
    aliases: &[],
    title: "Col",
    summary: "A player colours an empty cell that is not next to a cell of their own colour.",
    glyphs: tinted::GLYPHS,
    edit_cycle: ".lr#",
    fillings: &['.', 'l', 'r'],
    example: "....|....|....",
    site_cells: 20,
};

crate::tinted::tinted_ruleset!(Col, Forbids::Own, INFO);
