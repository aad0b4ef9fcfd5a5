//! The master's judgement of a reply: nothing a worker says is believed
//! unchecked. A decided job is accepted only with a certificate for the
//! job's own board, ruleset, convention and first player, claiming what
//! the reply claims, that `partizan_check` (which shares no code with the
//! search) replays to the end within the check's position limit.
//! Anything else is a lie (counted against the worker, and the job
//! searched again by the master), a failure (the job handed out again),
//! or a proof too big to check (the master searches the job itself).

use std::ops::ControlFlow;

use partizan_check::{check_reader, CertError, CertReader, CheckReport, Convention};
use partizan_games::{Board, Player, Ruleset};
use serde::Serialize;

use crate::job::{Answer, Reply};

/// What a worker's lie was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LieKind {
    /// The reply names another job than the one sent.
    WrongJob,
    /// A decided answer whose certificate does not read as one.
    Garbage,
    /// A certificate for another board, ruleset, convention or first
    /// player, or one claiming other than the reply does.
    Mismatch,
    /// A certificate the checker's replay refutes (a wrong winner, a move
    /// that is no move, a line that does not end as claimed).
    Refuted,
    /// A claim without proof that another worker's claim contradicted, and
    /// the master's own search found false ([`crate::Trust::Agreement`]).
    Outvoted,
}

impl std::fmt::Display for LieKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LieKind::WrongJob => "wrong job",
            LieKind::Garbage => "garbage",
            LieKind::Mismatch => "mismatch",
            LieKind::Refuted => "refuted",
            LieKind::Outvoted => "outvoted",
        })
    }
}

/// The master's reading of one reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proved by a certificate the checker accepted: whether the mover
    /// wins, and what the check did.
    Proved(bool, CheckReport),
    /// The worker's budget ran out (believed: it can only cost work, since
    /// the master then expands the job into its children).
    Unresolved,
    /// The worker could not search the job.
    Failed(String),
    /// A lie, and what was wrong.
    Lie(LieKind, String),
    /// The certificate may be true but its check would pass the limit.
    TooBig(String),
    /// A decided answer sent without a proof (a job sent without
    /// `certify`): believed only when another worker's claim, or the
    /// master's own search, agrees ([`crate::Trust::Agreement`]).
    Claimed(bool),
}

/// Read `reply` to job `id` sent without `certify`: a decided answer is
/// only a [`Verdict::Claimed`] (its certificate, if any, is not read).
pub fn judge_claim(id: u64, reply: &Reply) -> Verdict {
    if reply.job != id {
        return Verdict::Lie(
            LieKind::WrongJob,
            format!("answered job {} for job {id}", reply.job),
        );
    }
    match &reply.answer {
        Answer::Unresolved => Verdict::Unresolved,
        Answer::Failed(why) => Verdict::Failed(why.chars().take(200).collect()),
        Answer::Decided { mover_wins, .. } => Verdict::Claimed(*mover_wins),
    }
}

/// Judge `reply` to job `id`, the position `board` with `mover` first,
/// replaying a certificate under `check_limit` positions.
pub fn judge<R: Ruleset>(
    rules: &R,
    id: u64,
    board: &Board,
    mover: Player,
    reply: &Reply,
    check_limit: u64,
) -> Verdict {
    if reply.job != id {
        return Verdict::Lie(
            LieKind::WrongJob,
            format!("answered job {} for job {id}", reply.job),
        );
    }
    let (mover_wins, text) = match &reply.answer {
        Answer::Unresolved => return Verdict::Unresolved,
        Answer::Failed(why) => return Verdict::Failed(why.chars().take(200).collect()),
        Answer::Decided {
            mover_wins,
            certificate,
        } => (*mover_wins, certificate),
    };
    // Read a record at a time as the replay goes (the records are not
    // kept as text: on 8 x 8 that took a quarter of the check's time).
    let reader = match CertReader::new(text.as_bytes()) {
        Ok(r) => r,
        Err(e) => return Verdict::Lie(LieKind::Garbage, e.to_string()),
    };
    let h = reader.header().clone();
    if reader.version() == 3 {
        return Verdict::Lie(
            LieKind::Mismatch,
            "a job's certificate is one proof, not one made of parts".into(),
        );
    }
    if h.ruleset != rules.name() {
        return Verdict::Lie(
            LieKind::Mismatch,
            format!("certificate for {}, not {}", h.ruleset, rules.name()),
        );
    }
    if h.convention != Convention::Normal {
        return Verdict::Lie(LieKind::Mismatch, "certificate for misère play".into());
    }
    match rules.parse(&h.board) {
        Ok(b) if b == *board => {}
        Ok(_) => {
            return Verdict::Lie(
                LieKind::Mismatch,
                format!("certificate for another board ({})", h.board),
            )
        }
        Err(e) => return Verdict::Lie(LieKind::Garbage, format!("certificate board: {e}")),
    }
    if h.claims.of(mover) != Some(mover_wins) || h.claims.of(mover.opponent()).is_some() {
        return Verdict::Lie(
            LieKind::Mismatch,
            "the certificate claims other than the reply".into(),
        );
    }
    match check_reader(rules, reader, check_limit, &mut |_| {
        ControlFlow::Continue(())
    }) {
        Ok(rep) => Verdict::Proved(mover_wins, rep),
        Err(e @ (CertError::Limit(_) | CertError::Stopped)) => Verdict::TooBig(e.to_string()),
        Err(e @ (CertError::Parse { .. } | CertError::Io(_))) => {
            Verdict::Lie(LieKind::Garbage, e.to_string())
        }
        Err(e) => Verdict::Lie(LieKind::Refuted, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use partizan_check::{Claims, Header};
    use partizan_games::Domineering;

    use super::*;

    /// The records are read as the replay goes: one that does not parse,
    /// after a good header, is still garbage (not a refuted proof, and
    /// never a proof).
    #[test]
    fn a_garbage_record_after_a_good_header_is_garbage() {
        let b = Domineering.parse("...|...").unwrap();
        let mut text = Vec::new();
        Header::whole_by_bounds(
            Domineering.name(),
            Domineering.format(&b),
            Claims {
                left_first: Some(true),
                right_first: None,
            },
        )
        .write(&mut text)
        .unwrap();
        text.extend_from_slice(b"this is not a record\n");
        let reply = Reply {
            job: 1,
            answer: Answer::Decided {
                mover_wins: true,
                certificate: String::from_utf8(text).unwrap(),
            },
            nodes: 1,
            elapsed: Duration::ZERO,
        };
        match judge(&Domineering, 1, &b, Player::Left, &reply, 1000) {
            Verdict::Lie(LieKind::Garbage, _) => {}
            v => panic!("{v:?}"),
        }
    }
}
