//! Misère play of impartial games, as the front ends show it: the misère
//! quotient of a heap game (`partizan grundy CODE --misere`, the site's
//! Grundy page, Python's `misere_quotient`), the misère canonical form
//! of a graph position (`partizan grundy node-kayles GRAPH --misere`) and
//! of a board of an impartial ruleset (`partizan value cram BOARD
//! --misere`).

use std::fmt::Write as _;
use std::time::Instant;

use partizan_games::{with_rules, BoardError, Rules};
use partizan_impartial::{parse_heaps, Graph, GraphGame, HeapGame};
use partizan_misere::board::{BoardForms, PartizanBoardForms};
use partizan_misere::graph::GraphForms;
use partizan_misere::partizan::{FormId, PartizanArena, Universe};
pub use partizan_misere::quotient::Stability;
use partizan_misere::quotient::{MisereQuotient, QuotientOptions};
use partizan_misere::MisereArena;
pub use partizan_misere::MisereError;
use serde::Serialize;

/// What a quotient is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereAsk {
    /// The heap game, as `partizan grundy` reads it (`0.77`, `kayles`,
    /// `sub:1,3,4`, `nim`).
    pub game: String,
    /// The largest heap to include (the computation stops earlier once the
    /// quotient is proved periodic).
    pub up_to: usize,
    /// The work budget (elements and states extended by the checks).
    pub max_work: u64,
    /// A sum of heaps whose outcome to read, such as `3,5,7`.
    pub heaps: Option<String>,
}

/// The default work budget of a front end's quotient: some seconds to a
/// minute on one core.
pub const DEFAULT_MISERE_WORK: u64 = 300_000_000;

impl MisereAsk {
    /// A request for `game` with the front ends' defaults.
    #[must_use]
    pub fn new(game: &str) -> Self {
        Self {
            game: game.to_string(),
            up_to: 300,
            max_work: DEFAULT_MISERE_WORK,
            heaps: None,
        }
    }
}

/// A generator of the quotient: its name and the heap it is the image of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Generator {
    /// `a`, `b`, ...
    pub name: String,
    /// The heap whose element it is.
    pub heap: usize,
}

/// A sum of heaps and its misère outcome read from the quotient.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MisereSum {
    /// The heaps.
    pub heaps: Vec<usize>,
    /// The sum's element, in normal form.
    pub element: String,
    /// `P` (the player to move loses) or `N`.
    pub outcome: &'static str,
}

/// The misère quotient of a heap game through some heap.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MisereQuotientReport {
    /// The game as written canonically (`0.77`, `sub:{1,3,4}`, `nim`).
    pub game: String,
    /// `octal`, `hexadecimal`, `subtraction`, `nim` or `all-but`.
    pub kind: &'static str,
    /// `|Q|`.
    pub order: usize,
    /// How many elements are P-positions.
    pub p_portion_size: usize,
    /// The largest heap included.
    pub computed_to: usize,
    /// Whether this is the whole game's quotient (`periodic`), a partial one
    /// (`partial`), or the budget stopped it (`out-of-budget`).
    pub stability: Stability,
    /// The stability in words.
    pub status: String,
    /// Generators `a, b, ...` with their heaps.
    pub generators: Vec<Generator>,
    /// Relations, `a^2 = 1` (each left side a minimal word not in normal
    /// form: together a complete rewriting system).
    pub relations: Vec<String>,
    /// The P-portion's elements in normal form.
    pub p_portion: Vec<String>,
    /// Every element in normal form (element number = position).
    pub elements: Vec<String>,
    /// The element of each heap `0..=computed_to`, in normal form.
    pub heaps: Vec<String>,
    /// The heaps where the quotient grew.
    pub expansions: Vec<usize>,
    /// The sum asked about, when one was.
    pub sum: Option<MisereSum>,
    /// The checks' work counter.
    pub work: u64,
    /// Exact checks run.
    pub checks: usize,
    /// States the N-checks walked.
    pub states: u64,
    /// Wall time of the computation, milliseconds.
    pub elapsed_ms: f64,
}

/// Why a misère report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MisereReportError {
    /// Bad game text, heaps text or graph, or an engine limit.
    #[error(transparent)]
    Misere(#[from] MisereError),
    /// A board that does not parse for its ruleset.
    #[error("bad {ruleset} board: {source}")]
    Board {
        /// The ruleset's name.
        ruleset: &'static str,
        /// What is wrong with the text.
        source: BoardError,
    },
    /// A value in notation that does not parse.
    #[error("bad value {text:?}: {source}")]
    Notation {
        /// The text.
        text: String,
        /// What is wrong with it.
        source: partizan_core::ParseError,
    },
    /// A heap of the sum is past what the quotient knows.
    #[error("heap {heap} is past the quotient, which is known through heap {known} and not proved periodic ({status}); raise --up-to or the budget")]
    Unknown {
        /// The heap.
        heap: usize,
        /// The last heap known.
        known: usize,
        /// The quotient's status in words.
        status: String,
    },
}

fn status_words(q: &MisereQuotient) -> String {
    match q.stability() {
        Stability::Periodic {
            from,
            period,
            checked_to,
        } => format!(
            "the whole game's quotient: heap elements periodic from heap {from} with period {period}, proved from the heaps through {checked_to}"
        ),
        Stability::Partial => format!(
            "partial: exact for sums of heaps up to {}, not proved periodic",
            q.computed_to()
        ),
        Stability::OutOfBudget { heap, reason } => format!(
            "stopped at heap {heap} ({reason}): exact for sums of heaps up to {}",
            q.computed_to()
        ),
    }
}

/// The misère quotient of `ask.game`, with the outcome of `ask.heaps`.
pub fn misere_quotient(ask: &MisereAsk) -> Result<MisereQuotientReport, MisereReportError> {
    let game = HeapGame::parse(&ask.game).map_err(MisereError::from)?;
    let heaps = ask
        .heaps
        .as_deref()
        .map(parse_heaps)
        .transpose()
        .map_err(MisereError::from)?;
    let top = heaps.iter().flatten().copied().max().unwrap_or(0);
    let start = Instant::now();
    let q = MisereQuotient::compute(
        &game,
        QuotientOptions {
            up_to: ask.up_to.max(top),
            max_work: ask.max_work,
            ..QuotientOptions::default()
        },
    )?;
    let elapsed_ms = start.elapsed().as_secs_f64() * 1e3;
    let pres = q.presentation();
    let status = status_words(&q);
    let sum = match heaps {
        None => None,
        Some(h) => {
            let mut x = 0;
            for &heap in &h {
                let Some(e) = q.element_of_heap(heap) else {
                    return Err(MisereReportError::Unknown {
                        heap,
                        known: q.computed_to(),
                        status,
                    });
                };
                x = q.table().mul(x, e);
            }
            Some(MisereSum {
                heaps: h,
                element: pres.elements[x as usize].clone(),
                outcome: if q.is_p(x) { "P" } else { "N" },
            })
        }
    };
    let (work, checks, states) = q.work();
    Ok(MisereQuotientReport {
        game: game.to_string(),
        kind: game.kind(),
        order: q.order(),
        p_portion_size: q.p_portion_size(),
        computed_to: q.computed_to(),
        stability: q.stability().clone(),
        status,
        generators: pres
            .generators
            .iter()
            .map(|(name, heap)| Generator {
                name: name.clone(),
                heap: *heap,
            })
            .collect(),
        relations: pres
            .relations
            .iter()
            .map(|(l, r)| format!("{l} = {r}"))
            .collect(),
        p_portion: pres.p_portion,
        elements: pres.elements,
        heaps: pres.heaps,
        expansions: q.expansions().to_vec(),
        sum,
        work,
        checks,
        states,
        elapsed_ms,
    })
}

impl MisereQuotientReport {
    /// The text `partizan grundy CODE --misere` prints.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "game {} ({}), misère play", self.game, self.kind);
        let _ = writeln!(
            out,
            "misère quotient through heap {}: order {}, P-portion {} element{}",
            self.computed_to,
            self.order,
            self.p_portion_size,
            if self.p_portion_size == 1 { "" } else { "s" }
        );
        let _ = writeln!(out, "{}", self.status);
        let gens: Vec<String> = self
            .generators
            .iter()
            .map(|g| format!("{} (heap {})", g.name, g.heap))
            .collect();
        let _ = writeln!(
            out,
            "generators: {}",
            if gens.is_empty() {
                "none".into()
            } else {
                gens.join(", ")
            }
        );
        let _ = writeln!(
            out,
            "relations: {}",
            if self.relations.is_empty() {
                "none".into()
            } else {
                self.relations.join(", ")
            }
        );
        let _ = writeln!(out, "P-portion: {}", self.p_portion.join(", "));
        let shown: Vec<String> = self
            .heaps
            .iter()
            .enumerate()
            .take(100)
            .map(|(h, w)| format!("{h}:{w}"))
            .collect();
        let more = if self.heaps.len() > 100 { " ..." } else { "" };
        let _ = writeln!(out, "heaps: {}{more}", shown.join(" "));
        if !self.expansions.is_empty() {
            let e: Vec<String> = self.expansions.iter().map(ToString::to_string).collect();
            let _ = writeln!(out, "the quotient grew at heaps {}", e.join(", "));
        }
        let _ = writeln!(
            out,
            "computed in {:.1} ms ({} checks, {} states walked, work {})",
            self.elapsed_ms, self.checks, self.states, self.work
        );
        if let Some(s) = &self.sum {
            let parts: Vec<String> = s.heaps.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                out,
                "misère outcome of {}: {} (element {})",
                parts.join(" + "),
                s.outcome,
                s.element
            );
        }
        out
    }
}

/// A position's misère canonical form and what it says: the part of a
/// report shared by graphs and boards (flattened into their JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MisereForm {
    /// `P` or `N` under misère play.
    pub outcome: &'static str,
    /// `G-`, the misère nim value.
    pub misere_nim_value: u32,
    /// `G+`, the normal-play nim value.
    pub nim_value: u32,
    /// The genus symbol, `g^{g0 g1 ...}`.
    pub genus: String,
    /// The canonical form (at most 2,000 characters, then `...`).
    pub form: String,
    /// Its birthday.
    pub birthday: u32,
}

impl MisereForm {
    fn of(arena: &mut MisereArena, g: partizan_misere::GameId) -> Self {
        let genus = arena.genus(g);
        MisereForm {
            outcome: arena.outcome(g).letter(),
            misere_nim_value: arena.misere_nim_value(g),
            nim_value: arena.nim_value(g),
            genus: genus.to_string(),
            form: arena.display(g, 2000),
            birthday: arena.birthday(g),
        }
    }

    /// Its lines of a report's text.
    fn write_text(&self, out: &mut String, positions: usize, elapsed_ms: f64) {
        let _ = writeln!(
            out,
            "{}: the player to move {}",
            self.outcome,
            if self.outcome == "P" { "loses" } else { "wins" }
        );
        let _ = writeln!(
            out,
            "genus {} (G+ = {}, G- = {}), birthday {}",
            self.genus, self.nim_value, self.misere_nim_value, self.birthday
        );
        let _ = writeln!(out, "canonical form {}", self.form);
        let _ = writeln!(out, "positions valued {positions} ({elapsed_ms:.1} ms)");
    }
}

/// The misère canonical form of a Kayles or Node Kayles position on a graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MisereGraphReport {
    /// `kayles` or `node-kayles`.
    pub game: &'static str,
    /// The graph, as an edge list.
    pub graph: String,
    /// Its form, outcome and genus.
    #[serde(flatten)]
    pub misere: MisereForm,
    /// Connected positions valued.
    pub positions: usize,
    /// Wall time, milliseconds.
    pub elapsed_ms: f64,
}

/// The misère canonical form of `game` on the graph `text`.
pub fn misere_graph(
    game: GraphGame,
    text: &str,
    max_positions: usize,
) -> Result<MisereGraphReport, MisereReportError> {
    let graph = Graph::parse(text).map_err(MisereError::from)?;
    let start = Instant::now();
    let mut arena = MisereArena::new();
    let mut forms = GraphForms::new(game, &graph, max_positions);
    let g = forms.whole(&mut arena)?;
    Ok(MisereGraphReport {
        game: game.name(),
        graph: graph.to_string(),
        misere: MisereForm::of(&mut arena, g),
        positions: forms.positions(),
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

impl MisereGraphReport {
    /// The text `partizan grundy node-kayles GRAPH --misere` prints.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} on {}, misère play", self.game, self.graph);
        self.misere
            .write_text(&mut out, self.positions, self.elapsed_ms);
        out
    }
}

/// The universe an impartial board's misère form is taken in.
pub const IMPARTIAL_UNIVERSE: &str =
    "impartial games (Conway's misère canonical form: every impartial game, no restriction)";

/// The misère canonical form of a board: for an impartial ruleset its
/// impartial form (genus and all); for a partizan one its forms in the
/// general universe and, when the board is a dicot, among dicots.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MisereBoardReport {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// The board, as the ruleset writes it.
    pub board: String,
    /// The universe of games the form is canonical in (for a partizan
    /// ruleset, the first of `forms`).
    pub universe: &'static str,
    /// An impartial ruleset's form, outcome and genus.
    #[serde(flatten)]
    pub misere: Option<MisereForm>,
    /// A partizan ruleset's forms, one per universe.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forms: Vec<PartizanMisereForm>,
    /// Boards valued.
    pub positions: usize,
    /// Wall time, milliseconds.
    pub elapsed_ms: f64,
}

/// The misère canonical form of the board `text` of `rules`: impartial
/// rulesets in the universe of impartial games, partizan ones in the
/// general universe and (dicot boards) among dicots; at most
/// `max_positions` boards are valued.
pub fn misere_board(
    rules: Rules,
    text: &str,
    max_positions: usize,
) -> Result<MisereBoardReport, MisereReportError> {
    with_rules!(rules, |r| {
        let board = r.parse(text).map_err(|source| MisereReportError::Board {
            ruleset: r.name(),
            source,
        })?;
        let start = Instant::now();
        if !r.impartial() {
            // The board is the disjunctive sum of its regions under any
            // convention, so its form is the sum of theirs.
            let mut arena = PartizanArena::new(Universe::General);
            let mut forms = PartizanBoardForms::new(r, max_positions);
            let mut g = FormId::ZERO;
            for mask in partizan_solve::regions::regions(r, &board) {
                let part = partizan_solve::regions::region_board(&board, mask);
                let f = forms.form(&mut arena, &part)?;
                g = arena.sum(g, f)?;
            }
            let (forms_by_universe, _) = partizan_forms(&mut arena, g)?;
            return Ok(MisereBoardReport {
                ruleset: r.name(),
                board: r.format(&board),
                universe: Universe::General.describe(),
                misere: None,
                forms: forms_by_universe,
                positions: forms.positions(),
                elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
            });
        }
        let mut arena = MisereArena::new();
        let mut forms = BoardForms::new(r, max_positions)?;
        let g = forms.form(&mut arena, &board)?;
        Ok(MisereBoardReport {
            ruleset: r.name(),
            board: r.format(&board),
            universe: IMPARTIAL_UNIVERSE,
            misere: Some(MisereForm::of(&mut arena, g)),
            forms: Vec::new(),
            positions: forms.positions(),
            elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
        })
    })
}

/// Longest form text printed; past it the report gives the length.
pub const FORM_TEXT_LIMIT: usize = 2000;

/// A partizan game's misère canonical form in one universe.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartizanMisereForm {
    /// `general` or `dicot`.
    pub universe: &'static str,
    /// What the universe is, in words.
    pub universe_text: &'static str,
    /// `L`, `R`, `N` or `P` under misère play.
    pub outcome: &'static str,
    /// The canonical form, or empty when longer than [`FORM_TEXT_LIMIT`].
    pub form: String,
    /// The length of the form's text.
    pub form_chars: usize,
    /// Its birthday.
    pub birthday: u32,
}

impl PartizanMisereForm {
    fn of(arena: &mut PartizanArena, g: FormId) -> Self {
        let universe = arena.universe();
        Self {
            universe: universe.name(),
            universe_text: universe.describe(),
            outcome: arena.outcome(g).letter(),
            form: arena.display_within(g, FORM_TEXT_LIMIT).unwrap_or_default(),
            form_chars: arena.display_len(g),
            birthday: arena.birthday(g),
        }
    }

    /// The outcome in words: "Left wins, whoever starts", ...
    #[must_use]
    pub fn outcome_words(&self) -> &'static str {
        match self.outcome {
            "L" => "Left wins, whoever starts",
            "R" => "Right wins, whoever starts",
            "N" => "the player to move wins",
            _ => "the player to move loses",
        }
    }

    fn write_text(&self, out: &mut String) {
        let _ = writeln!(out, "universe {}: {}", self.universe, self.universe_text);
        if self.form.is_empty() && self.form_chars > 0 {
            let _ = writeln!(
                out,
                "  canonical form: {} characters, too long to print",
                self.form_chars
            );
        } else {
            let _ = writeln!(out, "  canonical form {}", self.form);
        }
        let who = self.outcome_words();
        let _ = writeln!(
            out,
            "  outcome {}: {who}; birthday {}",
            self.outcome, self.birthday
        );
    }
}

/// The forms of the general universe's form `g` in every universe it is
/// in: the general universe, the dicots when it is a dicot, and the
/// impartial form when it is impartial.
fn partizan_forms(
    general: &mut PartizanArena,
    g: FormId,
) -> Result<(Vec<PartizanMisereForm>, Option<MisereForm>), MisereError> {
    let mut forms = vec![PartizanMisereForm::of(general, g)];
    if general.is_dicot(g) {
        let mut dicots = PartizanArena::new(Universe::Dicot);
        let d = dicots.import(general, g)?;
        forms.push(PartizanMisereForm::of(&mut dicots, d));
    }
    let mut impartial = MisereArena::new();
    let imp = match general.impartial_form(g, &mut impartial) {
        Some(x) => Some(MisereForm::of(&mut impartial, x?)),
        None => None,
    };
    Ok((forms, imp))
}

/// A value written in notation, under misère play: `partizan game VALUE
/// --misere` and `partizan analyse VALUE --misere`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MisereGameReport {
    /// The values as given, added (`+`).
    pub value: String,
    /// Its forms, one per universe it belongs to (the general universe
    /// first).
    pub forms: Vec<PartizanMisereForm>,
    /// The impartial misère form (genus and all) when the game is
    /// impartial.
    pub impartial: Option<MisereForm>,
    /// Forms interned in the general universe.
    pub forms_built: usize,
    /// Wall time, milliseconds.
    pub elapsed_ms: f64,
}

/// The misère canonical forms of the sum of `values`, each a game tree in
/// CGSuite notation taken literally (braces are not simplified under
/// normal play; named values such as `1`, `*2`, `1/2` stand for their
/// normal-play canonical trees, `-x` is the conjugate); at most
/// `max_forms` forms are built.
pub fn misere_game<S: AsRef<str>>(
    values: &[S],
    max_forms: usize,
) -> Result<MisereGameReport, MisereReportError> {
    let start = Instant::now();
    let mut core = partizan_core::Arena::new();
    let mut arena = PartizanArena::with_limit(Universe::General, max_forms.max(1));
    let mut g = FormId::ZERO;
    for v in values {
        let text = v.as_ref();
        let lit = core
            .parse_literal(text)
            .map_err(|source| MisereReportError::Notation {
                text: text.to_string(),
                source,
            })?;
        let h = arena.from_literal(&core, &lit)?;
        g = arena.sum(g, h)?;
    }
    let (forms, impartial) = partizan_forms(&mut arena, g)?;
    Ok(MisereGameReport {
        value: values
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(" + "),
        forms,
        impartial,
        forms_built: arena.len(),
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

impl MisereGameReport {
    /// The text `partizan game VALUE --misere` prints.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}, misère play", self.value);
        for f in &self.forms {
            f.write_text(&mut out);
        }
        if let Some(m) = &self.impartial {
            let _ = writeln!(out, "impartial: {IMPARTIAL_UNIVERSE}");
            let _ = writeln!(
                out,
                "  genus {} (G+ = {}, G- = {}), canonical form {}",
                m.genus, m.nim_value, m.misere_nim_value, m.form
            );
        }
        let _ = writeln!(
            out,
            "{} forms built ({:.1} ms)",
            self.forms_built, self.elapsed_ms
        );
        out
    }
}

impl MisereBoardReport {
    /// The text `partizan value RULESET BOARD --misere` prints.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} {}, misère play", self.ruleset, self.board);
        if let Some(m) = &self.misere {
            let _ = writeln!(out, "universe: {}", self.universe);
            m.write_text(&mut out, self.positions, self.elapsed_ms);
        } else {
            for f in &self.forms {
                f.write_text(&mut out);
            }
            let _ = writeln!(
                out,
                "positions valued {} ({:.1} ms)",
                self.positions, self.elapsed_ms
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kayles_report() {
        let mut ask = MisereAsk::new("kayles");
        ask.heaps = Some("3,5,70".into());
        let r = misere_quotient(&ask).unwrap();
        assert_eq!((r.order, r.p_portion_size), (40, 9));
        assert!(r.status.starts_with("the whole game's quotient"));
        assert!(r.sum.is_some());
        let text = r.text();
        assert!(text.contains("order 40, P-portion 9 elements"), "{text}");
        assert!(text.contains("misère outcome of 3 + 5 + 70"), "{text}");
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(misere_quotient(&MisereAsk::new("0.0x7")).is_err());
        // A budget that stops before the heap asked about: said, not guessed.
        let mut ask = MisereAsk::new("kayles");
        ask.max_work = 2_000;
        ask.heaps = Some("1,60".into());
        assert!(matches!(
            misere_quotient(&ask),
            Err(MisereReportError::Unknown { heap: 60, .. })
        ));
    }

    #[test]
    fn partizan_boards_are_valued_region_by_region() {
        // Two regions: the sum of their forms is the whole board's form,
        // found from fewer boards.
        let text = "...#...|...#...";
        let r = misere_board(Rules::Domineering, text, 100_000).unwrap();
        let mut arena = PartizanArena::new(Universe::General);
        let mut whole = PartizanBoardForms::new(&partizan_games::Domineering, 100_000);
        let b = partizan_games::Ruleset::parse(&partizan_games::Domineering, text).unwrap();
        let g = whole.form(&mut arena, &b).unwrap();
        assert_eq!(r.forms[0].form, arena.display(g));
        assert_eq!(r.forms[0].outcome, arena.outcome(g).letter());
        assert!(
            r.positions < whole.positions(),
            "{} {}",
            r.positions,
            whole.positions()
        );
    }

    #[test]
    fn graph_report() {
        // Node Kayles on a path of 4 is Dawson's Chess (0.137) heap 4, whose
        // genus is 0^120: an N-position with misère nim value 1.
        let r = misere_graph(GraphGame::NodeKayles, "path:4", 10_000).unwrap();
        assert_eq!(
            (
                r.misere.outcome,
                r.misere.misere_nim_value,
                r.misere.genus.as_str()
            ),
            ("N", 1, "0^120")
        );
        assert!(
            r.text()
                .contains("node-kayles on 4: 0-1 1-2 2-3, misère play"),
            "{}",
            r.text()
        );
    }
}
