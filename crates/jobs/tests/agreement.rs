//! `Trust::Agreement`: a decided job believed when two workers agree on
//! it, without a certificate. Against the plain search, and against
//! workers that lie, alone or beside honest ones; through a saved tree.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use partizan_games::{Board, Domineering, Player, Ruleset};
use partizan_jobs::persist::{decode, encode};
use partizan_jobs::{
    search, Answer, Job, JobReport, JobsConfig, LieKind, LocalWorker, MasterControl, Reply, Trust,
    Worker,
};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig};

use crate::common;

/// Budgets big enough that jobs are decided (so there is something to
/// agree on), and the first two plies expanded by the master.
fn cfg() -> JobsConfig {
    JobsConfig {
        job_nodes: 20_000,
        local_nodes: 20_000,
        table_bytes: 1 << 20,
        timeout: Duration::from_secs(60),
        deterministic: true,
        expand_plies: 2,
        trust: Trust::Agreement,
        ..JobsConfig::default()
    }
}

fn honest(n: usize) -> Vec<Arc<dyn Worker>> {
    (0..n)
        .map(|i| Arc::new(LocalWorker::new(Domineering, format!("local-{i}"))) as Arc<dyn Worker>)
        .collect()
}

/// How a rogue answers a job sent without `certify`.
#[derive(Copy, Clone, Debug)]
enum Rogue {
    /// Searches, then claims the opposite of a decided answer.
    Flip,
    /// Claims the mover wins, whatever the job.
    AlwaysWins,
    /// Says every job is unresolved.
    Lazy,
    /// Answers another job's number.
    WrongJob,
}

struct Liar {
    how: Rogue,
    inner: LocalWorker<Domineering>,
}

fn liar(how: Rogue) -> Arc<dyn Worker> {
    Arc::new(Liar {
        how,
        inner: LocalWorker::new(Domineering, "inner"),
    })
}

impl Worker for Liar {
    fn name(&self) -> String {
        format!("liar-{:?}", self.how)
    }

    fn run(&self, job: &Job, stop: &AtomicBool) -> Reply {
        assert!(!job.certify, "an agreement job wants no certificate");
        let mut r = self.inner.run(job, stop);
        match self.how {
            Rogue::Flip => {
                if let Answer::Decided { mover_wins, .. } = &mut r.answer {
                    *mover_wins = !*mover_wins;
                }
            }
            Rogue::AlwaysWins => {
                r.answer = Answer::Decided {
                    mover_wins: true,
                    certificate: String::new(),
                }
            }
            Rogue::Lazy => r.answer = Answer::Unresolved,
            Rogue::WrongJob => r.job += 1,
        }
        r
    }
}

fn empty(rows: usize, cols: usize) -> Board {
    Domineering
        .parse(&vec![".".repeat(cols); rows].join("|"))
        .unwrap()
}

/// Every board both ways through `workers()` under `cfg` gives the plain
/// search's answer; the reports.
fn against(workers: impl Fn() -> Vec<Arc<dyn Worker>>, cfg: &JobsConfig) -> Vec<JobReport> {
    let mut reps = Vec::new();
    for (rows, cols) in [(4, 4), (3, 5), (5, 4), (5, 5)] {
        let b = empty(rows, cols);
        let plain = solve(
            &Domineering,
            &b,
            &SearchConfig::for_ruleset(&Domineering, Convention::Normal),
            &Control::default(),
        )
        .unwrap();
        for (first, want) in [
            (Player::Left, plain.left.wins),
            (Player::Right, plain.right.wins),
        ] {
            let rep = search(
                &Domineering,
                &b,
                first,
                workers(),
                cfg,
                &MasterControl::default(),
            )
            .unwrap();
            assert_eq!(rep.first_wins, Some(want), "{rows} x {cols} {first:?}");
            assert_eq!(rep.trust, cfg.trust);
            reps.push(rep);
        }
    }
    reps
}

fn total(reps: &[JobReport], f: impl Fn(&JobReport) -> u64) -> u64 {
    reps.iter().map(f).sum()
}

#[test]
fn two_honest_workers_agree_and_nothing_is_checked() {
    let reps = against(|| honest(2), &cfg());
    assert!(total(&reps, |r| r.counts.agreed) > 0);
    for r in &reps {
        let c = &r.counts;
        assert_eq!(c.accepted, 0, "no certificate is made or checked");
        assert_eq!(c.disagreed + c.lies_total() + c.searched_here, 0);
        // An agreed job took two claims (the rest were still waiting for
        // their second worker when their line was decided).
        assert!(c.claims >= 2 * c.agreed);
        // A decided answer rests on agreed leaves.
        let agreed = r.agreed_in_proof.unwrap();
        assert!(agreed <= c.agreed);
        assert!(r.tree.nodes.iter().filter(|n| n.agreed).count() as u64 == c.agreed);
    }
    assert!(reps.iter().any(|r| r.agreed_in_proof.unwrap() > 0));
}

#[test]
fn certificates_stay_the_default_and_rest_on_no_agreement() {
    let c = JobsConfig {
        trust: Trust::Certificates,
        ..cfg()
    };
    let reps = against(|| honest(2), &c);
    assert!(total(&reps, |r| r.counts.accepted) > 0);
    for r in &reps {
        assert_eq!(r.counts.claims + r.counts.agreed, 0);
        assert_eq!(r.agreed_in_proof, Some(0));
    }
    assert_eq!(JobsConfig::default().trust, Trust::Certificates);
}

#[test]
fn one_worker_is_confirmed_by_the_master() {
    let reps = against(|| honest(1), &cfg());
    for r in &reps {
        let c = &r.counts;
        // Each claim is settled by the master's own search (a claim with
        // no second worker), which agrees with it.
        assert_eq!(c.agreed + c.lies_total() + c.disagreed, 0);
        assert_eq!(c.searched_here, c.claims);
        assert_eq!(
            r.agreed_in_proof,
            Some(0),
            "the master's search is its own proof"
        );
    }
    assert!(total(&reps, |r| r.counts.claims) > 0);
}

#[test]
fn a_lying_worker_cannot_change_the_answer() {
    for how in [Rogue::Flip, Rogue::AlwaysWins] {
        // Alone: each claim is settled by the master, the liar outvoted
        // and retired.
        let reps = against(|| vec![liar(how)], &cfg());
        let outvoted = total(&reps, |r| {
            r.counts.lies.get(&LieKind::Outvoted).copied().unwrap_or(0)
        });
        assert!(outvoted > 0, "{how:?} never caught");
        for r in &reps {
            if r.counts.lies_total() > 0 {
                assert!(r.workers[0]
                    .retired
                    .as_deref()
                    .unwrap()
                    .contains("outvoted"));
            }
        }
        // Beside honest workers, first or second, asked again and again.
        let patient = JobsConfig {
            strikes: 1000,
            ..cfg()
        };
        for liar_first in [true, false] {
            let reps = against(
                || {
                    let mut w = honest(1);
                    w.insert(usize::from(!liar_first), liar(how));
                    w
                },
                &patient,
            );
            assert!(total(&reps, |r| r.counts.disagreed) > 0, "{how:?}");
            for r in &reps {
                // Only the liar is ever blamed.
                assert!(r
                    .lies
                    .iter()
                    .all(|l| l.worker.starts_with("liar") && l.kind == LieKind::Outvoted));
                let honest = r.workers.iter().find(|w| w.name == "local-0").unwrap();
                assert_eq!(honest.strikes, 0);
            }
        }
    }
}

#[test]
fn lazy_and_misnumbering_workers_cost_work_not_the_answer() {
    let patient = JobsConfig {
        strikes: 1000,
        ..cfg()
    };
    let reps = against(
        || {
            let mut w = honest(1);
            w.insert(0, liar(Rogue::Lazy));
            w
        },
        &patient,
    );
    // A second worker that finds a claimed job unresolved: settled by the
    // master, nobody blamed.
    assert!(total(&reps, |r| r.counts.disagreed) > 0);
    assert_eq!(total(&reps, |r| r.counts.lies_total()), 0);
    let reps = against(|| vec![liar(Rogue::WrongJob)], &cfg());
    assert!(
        total(&reps, |r| r
            .counts
            .lies
            .get(&LieKind::WrongJob)
            .copied()
            .unwrap_or(0))
            > 0
    );
}

#[test]
fn a_whole_certificate_cannot_rest_on_agreement() {
    let keep = |_: &Board, _: Player, _: &str| Ok(());
    let ctl = MasterControl {
        keep: Some(&keep),
        ..MasterControl::default()
    };
    let e = search(
        &Domineering,
        &empty(3, 3),
        Player::Left,
        honest(2),
        &cfg(),
        &ctl,
    )
    .unwrap_err();
    assert!(e.to_string().contains("certificate"), "{e}");
    assert_eq!("agreement".parse::<Trust>(), Ok(Trust::Agreement));
    assert!("trust me".parse::<Trust>().is_err());
}

#[test]
fn agreed_leaves_stay_marked_in_a_saved_tree() {
    let key = common::key();
    let b = empty(5, 5);
    let rep = search(
        &Domineering,
        &b,
        Player::Left,
        honest(2),
        &cfg(),
        &MasterControl::default(),
    )
    .unwrap();
    let text = encode(&Domineering, &rep.tree, &key);
    let back = decode(&Domineering, &text, &key, &b, Player::Left).unwrap();
    let marks = |t: &partizan_jobs::Tree| t.nodes.iter().map(|n| n.agreed).collect::<Vec<_>>();
    assert_eq!(marks(&back), marks(&rep.tree));
    assert!(marks(&back).iter().any(|&a| a));
    assert_eq!(back.agreed_in_proof(), rep.agreed_in_proof);
    // The mark is under the seal: turning an agreed leaf into a certified
    // one breaks the MAC.
    let forged = text
        .replacen("\tw\t", "\tW\t", 1)
        .replacen("\tx\t", "\tX\t", 1);
    assert_ne!(forged, text);
    assert!(decode(&Domineering, &forged, &key, &b, Player::Left).is_err());
}
