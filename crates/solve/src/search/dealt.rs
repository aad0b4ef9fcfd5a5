//! The general engine's root shared among threads (one first player on
//! more than one thread, [`Parallel::RootSplit`](super::Parallel)).
//!
//! A first move wins when every reply to it loses for the replier, so the
//! replies to one first move are work the threads can share without waste
//! once it is known that the first move must be searched to the end; and
//! a first move that loses is usually refuted by its first reply. So the
//! threads take, each time one is free, the lowest first move that still
//! has work:
//! - its first reply (the eldest brother), searched by one thread alone;
//! - once that reply is found to lose for the replier, the others, dealt
//!   out one at a time to whichever thread is free;
//! - a first move whose first reply is being searched is passed over for
//!   the next one's (so on a losing first player, the threads refute first
//!   moves side by side);
//! - with nothing left to take, the unfinished reply of the lowest first
//!   move that the fewest threads are searching, where the [`Busy`](super::Busy)
//!   marks keep the helper off the other threads' lines.
//!
//! A reply that wins for the replier refutes its first move (the threads
//! searching its other replies drop them); a first move all of whose replies
//! lose for the replier wins, and the search ends. A first move is settled
//! (its table entry, bounds, values) once, by the first thread to reach it;
//! its replies are listed once, so every thread deals from one list whatever
//! its own history counts. The tail's options (small regions' values, which
//! each thread holds in its own arena) are one reply, searched whole by one
//! thread.

use std::sync::atomic::{
    AtomicBool, AtomicUsize,
    Ordering::{AcqRel, Acquire, Relaxed, Release},
};
use std::sync::OnceLock;
use std::time::Duration;

use partizan_games::{Board, Player};

use super::busy::least_helped;
use super::knowledge::Knowledge;
use super::table::{Entry, Key};
use super::{Convention, Engine, MoveOrdering, Node, SearchError, Settled, LINE_PLIES};

/// What the threads of one shared root share.
pub(super) struct Deal {
    /// The root's moves in the order tried (listed by the first thread).
    slots: OnceLock<Box<[Slot]>>,
    /// The lowest first move found to win so far (`usize::MAX`: none).
    won: AtomicUsize,
    /// Raised when the search is over: a first move won or a thread failed.
    over: AtomicBool,
}

impl Default for Deal {
    fn default() -> Deal {
        Deal {
            slots: OnceLock::new(),
            won: AtomicUsize::new(usize::MAX),
            over: AtomicBool::new(false),
        }
    }
}

/// One first move.
struct Slot {
    first: Board,
    state: OnceLock<State>,
    /// The next reply to deal out.
    next: AtomicUsize,
    /// Replies found to lose for the replier.
    done: AtomicUsize,
    /// Raised when its replies are wanted no more: a reply refuted it, or
    /// the search is over.
    stop: AtomicBool,
}

/// A first move, settled.
enum State {
    /// Decided without a reply searched: whether it wins.
    Decided(bool),
    /// To be searched: the child's table key and handicap, the mirror its
    /// children try the mirror reply of, and its replies.
    Open {
        key: Key,
        handicap: i8,
        mirror: Option<usize>,
        replies: Box<[Reply]>,
    },
}

/// A reply to a first move: a board option, or (`None`) every option of
/// the tail.
struct Reply {
    board: Option<Board>,
    /// Found to lose for the replier (counted in [`Slot::done`] once).
    finished: AtomicBool,
    /// The threads searching it now.
    searching: AtomicUsize,
}

/// What a free thread does next.
enum Job {
    /// Search reply `.1` of first move `.0`.
    Reply(usize, usize),
    /// Nothing to take now; others are still searching.
    Wait,
    /// The search is over for this thread.
    Done,
}

impl Deal {
    /// The winning first move found, if any (after every thread is done:
    /// `None` means every first move was refuted).
    pub(super) fn winning_move(&self) -> Option<Board> {
        let w = self.won.load(Acquire);
        self.slots.get()?.get(w).map(|s| s.first)
    }

    fn end(&self) {
        self.over.store(true, Release);
        for s in self.slots.get().into_iter().flatten() {
            s.stop.store(true, Release);
        }
    }

    fn win(&self, i: usize) {
        self.won.fetch_min(i, AcqRel);
        self.end();
    }

    /// `e`, after telling the other threads to stop.
    fn fail(&self, e: SearchError) -> SearchError {
        self.end();
        e
    }
}

impl Slot {
    /// A reply nobody has taken: the eldest, else (once the eldest is
    /// finished) the next.
    fn take(&self, replies: &[Reply]) -> Option<usize> {
        if self.next.load(Relaxed) == 0 {
            return self
                .next
                .compare_exchange(0, 1, Relaxed, Relaxed)
                .ok()
                .map(|_| 0);
        }
        if replies.first().is_some_and(|r| r.finished.load(Acquire)) {
            let k = self.next.fetch_add(1, Relaxed);
            return (k < replies.len()).then_some(k);
        }
        None
    }
}

impl<'s, R: Knowledge> Engine<'s, '_, R> {
    /// This thread's part (`share`: 0 counts the root and the first moves'
    /// positions) of the search of `board` with `first` to move, shared
    /// through `deal`; the answer is read from `deal` once every thread is
    /// done ([`Deal::winning_move`]).
    pub(super) fn root_dealt(
        &mut self,
        board: &Board,
        first: Player,
        deal: &'s Deal,
        share: usize,
    ) -> Result<(), SearchError> {
        self.first = first;
        self.depth = 0;
        let root = self.root(board);
        let root_mirror = match self.settle(&root, first, true) {
            Settled::Open(o) => o,
            Settled::Decided(_) => unreachable!("the root is always searched"),
        };
        if share == 0 {
            self.counts.nodes += 1;
            self.counts.expanded += 1;
            self.unflushed += 1;
        }
        let slots = deal.slots.get_or_init(|| {
            let mut opts = Vec::new();
            self.order(&root, first, None, root_mirror.kept, &mut opts);
            opts.into_iter()
                .map(|(first, _)| Slot {
                    first,
                    state: OnceLock::new(),
                    next: AtomicUsize::new(0),
                    done: AtomicUsize::new(0),
                    stop: AtomicBool::new(false),
                })
                .collect()
        });
        let mut child: Option<(usize, Node)> = None;
        let result = loop {
            let job = match self.job(&root, first, root_mirror.mirror, deal, slots) {
                Ok(j) => j,
                Err(e) => break Err(deal.fail(e)),
            };
            match job {
                Job::Done => break Ok(()),
                Job::Wait => std::thread::sleep(Duration::from_micros(100)),
                Job::Reply(i, k) => {
                    let c = match child {
                        Some((j, c)) if j == i => c,
                        _ => match self.child(&root, &slots[i].first) {
                            Ok(c) => {
                                child = Some((i, c));
                                c
                            }
                            Err(e) => break Err(deal.fail(e)),
                        },
                    };
                    if let Err(e) = self.search_reply(&c, first, deal, slots, i, k) {
                        break Err(deal.fail(e));
                    }
                }
            }
        };
        self.depth = 0;
        self.abandon = None;
        self.flush();
        result
    }

    /// The next job of a free thread: settles first moves on the way.
    fn job(
        &mut self,
        root: &Node,
        first: Player,
        root_mirror: Option<usize>,
        deal: &'s Deal,
        slots: &'s [Slot],
    ) -> Result<Job, SearchError> {
        let mut help = None;
        let mut open = false;
        for (i, slot) in slots.iter().enumerate() {
            if deal.over.load(Acquire) {
                return Ok(Job::Done);
            }
            if slot.stop.load(Acquire) {
                continue;
            }
            if slot.state.get().is_none() {
                let state = self.settle_first_move(root, first, root_mirror, &slot.first)?;
                if slot.state.set(state).is_ok() {
                    // Counted by the thread that settled it.
                    self.counts.nodes += 1;
                    self.unflushed += 1;
                }
            }
            let Some(state) = slot.state.get() else {
                continue;
            };
            let replies = match state {
                State::Decided(true) => {
                    deal.win(i);
                    return Ok(Job::Done);
                }
                State::Decided(false) => {
                    slot.stop.store(true, Release);
                    continue;
                }
                State::Open { replies, .. } => replies,
            };
            open = true;
            if let Some(k) = slot.take(replies) {
                return Ok(Job::Reply(i, k));
            }
            if help.is_none() {
                help = least_helped(replies.iter().map(|r| (&r.finished, &r.searching)))
                    .map(|k| (i, k));
            }
        }
        Ok(match help {
            Some((i, k)) => Job::Reply(i, k),
            None if open => Job::Wait,
            None => Job::Done,
        })
    }

    /// First move `m` settled: decided, or its replies listed.
    fn settle_first_move(
        &mut self,
        root: &Node,
        first: Player,
        root_mirror: Option<usize>,
        m: &Board,
    ) -> Result<State, SearchError> {
        let other = first.opponent();
        let c = self.child(root, m)?;
        self.depth = 1;
        let settled = self.settle(&c, other, false);
        self.depth = 0;
        let o = match settled {
            Settled::Decided(w) => return Ok(State::Decided(!w)),
            Settled::Open(o) => o,
        };
        let mut opts = Vec::new();
        self.order(&c, other, root_mirror, o.kept, &mut opts);
        let tail_moves = match other {
            Player::Left => !self.arena.left_options(c.tail).is_empty(),
            Player::Right => !self.arena.right_options(c.tail).is_empty(),
        };
        // Replies to the same position up to symmetry (the same table key
        // and handicap) are one reply: searched once, not by two threads
        // at once.
        let mut seen = Vec::with_capacity(opts.len());
        let mut boards = Vec::with_capacity(opts.len() + 1);
        for (b, _) in opts {
            let g = self.child(&c, &b)?;
            let (key, handicap) = self.key(&g, first);
            if !seen.contains(&(key, handicap)) {
                seen.push((key, handicap));
                boards.push(Some(b));
            }
        }
        let replies: Box<[Reply]> = boards
            .into_iter()
            .chain(tail_moves.then_some(None))
            .map(|board| Reply {
                board,
                finished: AtomicBool::new(false),
                searching: AtomicUsize::new(0),
            })
            .collect();
        if replies.is_empty() {
            // The replier has no move: it loses (wins under misère play).
            return Ok(State::Decided(
                self.sh.config.convention == Convention::Normal,
            ));
        }
        Ok(State::Open {
            key: o.key,
            handicap: o.handicap,
            mirror: o.mirror,
            replies,
        })
    }

    /// Search reply `k` to first move `i` (whose position is `c`) and
    /// record what it showed.
    fn search_reply(
        &mut self,
        c: &Node,
        first: Player,
        deal: &'s Deal,
        slots: &'s [Slot],
        i: usize,
        k: usize,
    ) -> Result<(), SearchError> {
        let slot = &slots[i];
        let Some(State::Open {
            key,
            handicap,
            mirror,
            replies,
        }) = slot.state.get()
        else {
            return Ok(());
        };
        let reply = &replies[k];
        self.line[0] = (
            (i + 1).min(u16::MAX as usize) as u16,
            slots.len().min(u16::MAX as usize) as u16,
        );
        if LINE_PLIES > 1 {
            self.line[1] = (
                (k + 1).min(u16::MAX as usize) as u16,
                replies.len().min(u16::MAX as usize) as u16,
            );
        }
        self.abandon = Some(&slot.stop);
        reply.searching.fetch_add(1, Relaxed);
        let before = self.counts.nodes;
        let loses = self.reply_loses(c, first, reply.board.as_ref(), *mirror);
        reply.searching.fetch_sub(1, Relaxed);
        self.abandon = None;
        self.depth = 0;
        let spent = self.counts.nodes - before;
        let work = (64 - spent.leading_zeros()) as u8;
        match loses {
            Ok(true) => {
                if !reply.finished.swap(true, AcqRel)
                    && slot.done.fetch_add(1, AcqRel) + 1 == replies.len()
                {
                    // Every reply loses for the replier: the first move wins.
                    self.sh
                        .table
                        .store(*key, Entry::at(false, *handicap, work), &mut self.tally);
                    deal.win(i);
                }
                Ok(())
            }
            Ok(false) => {
                if let (MoveOrdering::History, Some(b)) = (self.sh.config.ordering, &reply.board) {
                    // As the node search credits a refutation.
                    self.credit(&c.board, b, first.opponent());
                }
                // The replier wins: the first move is refuted (and so is
                // any first move to an image of its position).
                self.sh
                    .table
                    .store(*key, Entry::at(true, *handicap, work), &mut self.tally);
                slot.stop.store(true, Release);
                Ok(())
            }
            Err(SearchError::Sibling) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Does the replier lose after `reply` (a board option of `c`, or
    /// `None`: each of the tail's options, all of which must lose)?
    fn reply_loses(
        &mut self,
        c: &Node,
        first: Player,
        reply: Option<&Board>,
        mirror: Option<usize>,
    ) -> Result<bool, SearchError> {
        let other = first.opponent();
        match reply {
            Some(b) => {
                let g = self.child(c, b)?;
                self.depth = 2;
                self.parent_mirror = mirror;
                self.wins(&g, first)
            }
            None => {
                let tails = match other {
                    Player::Left => self.arena.left_options(c.tail).to_vec(),
                    Player::Right => self.arena.right_options(c.tail).to_vec(),
                };
                for t in tails {
                    let g = Node { tail: t, ..*c };
                    self.depth = 2;
                    if !self.wins(&g, first)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }
}
