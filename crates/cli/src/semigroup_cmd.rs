//! `partizan semigroups ...` and `partizan sylver ...`.

use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use partizan_semigroup::{census_with, count_by_genus, outcomes, play, trace, Order, Semigroup};
use serde_json::json;

/// `partizan semigroups` subcommands.
#[derive(Subcommand, Debug)]
pub enum SemigroupsCmd {
    /// Count every numerical semigroup by genus (walking the tree).
    Count {
        /// Largest genus (at most 64).
        #[arg(long)]
        max_genus: u32,
        /// Walk on one thread only.
        #[arg(long)]
        serial: bool,
    },
}

/// `partizan sylver` subcommands.
#[derive(Subcommand, Debug)]
pub enum SylverCmd {
    /// Every irreducible position with 2 to G gaps through the finishing
    /// search and the four proofs.
    Census {
        /// Largest number of gaps.
        #[arg(long)]
        max_gaps: u32,
        /// Move order for every search: increasing, decreasing, scored or
        /// reverse-scored.
        #[arg(long, default_value = "increasing")]
        order: String,
        /// Also price the remoteness proof (an exact solve of each position
        /// from an empty table) beside the four.
        #[arg(long)]
        remoteness: bool,
    },
    /// The told proof of one position, traced: every position it evaluated,
    /// at which depths, and the ones asked at more than one depth.
    Trace {
        /// The position's gaps, e.g. "1,2,3,4,7,8" (or generators with --generators).
        gaps: String,
        /// The position is given by generators instead ("5,7").
        #[arg(long)]
        generators: bool,
        /// The depth the proof is told (default: the deepening proofs' depth).
        #[arg(long)]
        depth: Option<u32>,
        /// Move order.
        #[arg(long, default_value = "increasing")]
        order: String,
    },
    /// Classify every position of genus up to G (P-positions per genus).
    Outcomes {
        /// Largest genus.
        #[arg(long)]
        max_genus: u32,
    },
    /// One position: outcome, a winning move, remoteness.
    Play(PlayArgs),
}

/// Arguments of `partizan sylver play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The numbers named so far (generators), e.g. "5,7".
    #[arg(allow_hyphen_values = true)]
    pub generators: Option<String>,
    /// The position given by its gaps instead, e.g. "1,2,3".
    #[arg(long, conflicts_with = "generators")]
    pub gaps: Option<String>,
}

/// Run `partizan semigroups ...`.
pub fn semigroups(cmd: SemigroupsCmd, long: &crate::Long, json_out: bool) -> Result<()> {
    match cmd {
        SemigroupsCmd::Count { max_genus, serial } => {
            // The walk takes no stop check: watched for time and memory.
            let watch = long.watch(format!("semigroups count to genus {max_genus}"), "", None);
            let counts = count_by_genus(max_genus, !serial);
            drop(watch);
            let counts = counts?;
            if json_out {
                println!("{}", json!({ "counts": counts }));
            } else {
                println!("genus  semigroups");
                for (g, n) in counts.iter().enumerate() {
                    println!("{g:>5}  {n:>10}");
                }
                println!("total  {:>10}", counts.iter().sum::<u64>());
            }
        }
    }
    Ok(())
}

/// Run `partizan sylver ...`.
pub fn sylver(cmd: SylverCmd, long: &crate::Long, json_out: bool) -> Result<()> {
    match cmd {
        SylverCmd::Census {
            max_gaps,
            order,
            remoteness,
        } => {
            let order: Order = order.parse()?;
            // The census takes no stop check: watched for time and memory.
            let watch = long.watch(format!("sylver census to {max_gaps} gaps"), "", None);
            let report = census_with(max_gaps, order, remoteness);
            drop(watch);
            let report = report?;
            if json_out {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.to_table());
            }
        }
        SylverCmd::Trace {
            gaps,
            generators,
            depth,
            order,
        } => {
            let s = if generators {
                Semigroup::parse_generators(&gaps)?
            } else {
                Semigroup::parse_gaps(&gaps)?
            };
            let report = trace(s, depth, order.parse()?)?;
            if json_out {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.to_table());
            }
        }
        SylverCmd::Outcomes { max_genus } => {
            let watch = long.watch(format!("sylver outcomes to genus {max_genus}"), "", None);
            let report = outcomes(max_genus);
            drop(watch);
            let report = report?;
            if json_out {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.to_table());
            }
        }
        SylverCmd::Play(args) => {
            let s = match (&args.generators, &args.gaps) {
                (Some(g), None) => Semigroup::parse_generators(g)?,
                (None, Some(g)) => Semigroup::parse_gaps(g)?,
                _ => bail!("give the position as generators (\"5,7\") or with --gaps \"1,2,3\""),
            };
            let report = play(&s)?;
            if json_out {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.to_table());
            }
        }
    }
    Ok(())
}
