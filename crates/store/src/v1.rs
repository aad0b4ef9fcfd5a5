//! Store format v1, kept to read old files: its own value encoding (a DAG
//! in a structural order of its own, superseded in v2 by core's
//! [`partizan_core::serial`]) and its record layout. Nothing writes v1 any
//! more; `db` migrates a v1 file forward on open.
//!
//! Value encoding v1:
//!
//! ```text
//! byte 0      value-encoding version (1)
//! varint      node count m ≥ 1
//! m nodes, children before parents, the root last; node j is one of
//!   0x00 zz(num) exp            the number num/2^exp (exp = 0, or num odd)
//!   0x01 n                      the nimber *n, n ≥ 1 (*0 is the number 0)
//!   0x02 a l_1..l_a b r_1..r_b  the form {l_1, …, l_a | r_1, …, r_b}; each
//!                               l_i, r_i is the index of an earlier node
//! varint = unsigned LEB128; zz(x) = (x << 1) ^ (x >> 63) (zig-zag)
//! ```
//!
//! The encoding is *canonical*: the bytes depend only on the game, never on
//! the history of the arena that held it. Subgames are ordered by a
//! structural order (numbers by value, then nimbers by size, then forms by
//! their option count and, recursively, their ordered options); nodes are
//! numbered in post-order of that ordered walk and each option list is
//! written in that order. So two stored values are equal exactly when their
//! bytes are.
//!
//! Examples: `0` is `01 01 00 00 00`, `*` is `01 01 01 01`, `↑ = {0|*}` is
//! `01 03 00 00 00 01 01 02 01 00 01 01`, `-3/4` is `01 01 00 05 02`.

#![cfg_attr(not(test), allow(dead_code))]

use std::cmp::Ordering;

use partizan_core::{Arena, Dyadic, GameId};
use rustc_hash::FxHashMap;

use crate::error::{Result, StoreError};

/// The version byte of the v1 value encoding.
pub const VALUE_ENCODING_VERSION_V1: u8 = 1;

const TAG_NUMBER: u8 = 0;
const TAG_NIMBER: u8 = 1;
const TAG_FORM: u8 = 2;

/// Append `v` as unsigned LEB128.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A cursor over bytes that fails with [`StoreError::BadValue`].
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    fn fail<T>(&self, what: &str) -> Result<T> {
        Err(StoreError::BadValue(format!("{what} at byte {}", self.pos)))
    }

    pub(crate) fn byte(&mut self) -> Result<u8> {
        match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.fail("unexpected end"),
        }
    }

    pub(crate) fn varint(&mut self) -> Result<u64> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let part = (b & 0x7f) as u64;
            if shift == 63 && part > 1 {
                return self.fail("varint overflow");
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                if b == 0 && shift > 0 {
                    return self.fail("non-minimal varint");
                }
                return Ok(v);
            }
        }
        self.fail("varint too long")
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }
}

fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// The kind of a node: a number, a nimber, or a general form.
#[derive(Copy, Clone)]
enum Kind {
    Number(Dyadic),
    Nimber(u32),
    Form,
}

/// Orders the subgames of one value structurally and remembers each form's
/// ordered option lists.
struct Orderer<'a> {
    arena: &'a Arena,
    sorted: FxHashMap<GameId, (Vec<GameId>, Vec<GameId>)>,
}

impl<'a> Orderer<'a> {
    fn kind(&self, g: GameId) -> Kind {
        if let Some(x) = self.arena.as_number(g) {
            Kind::Number(x)
        } else if let Some(n) = self.arena.as_nimber(g) {
            Kind::Nimber(n)
        } else {
            Kind::Form
        }
    }

    /// The options of a form, each list in structural order.
    fn options(&mut self, g: GameId) -> (Vec<GameId>, Vec<GameId>) {
        if let Some(o) = self.sorted.get(&g) {
            return o.clone();
        }
        let mut l = self.arena.left_options(g).to_vec();
        let mut r = self.arena.right_options(g).to_vec();
        // Sort with the structural order; options are forms of smaller birthday
        // so the recursion terminates.
        l.sort_by(|&a, &b| self.cmp(a, b));
        r.sort_by(|&a, &b| self.cmp(a, b));
        self.sorted.insert(g, (l.clone(), r.clone()));
        (l, r)
    }

    /// A total order on canonical forms that depends only on the games.
    fn cmp(&mut self, a: GameId, b: GameId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        match (self.kind(a), self.kind(b)) {
            (Kind::Number(x), Kind::Number(y)) => x.cmp(&y),
            (Kind::Number(_), _) => Ordering::Less,
            (_, Kind::Number(_)) => Ordering::Greater,
            (Kind::Nimber(x), Kind::Nimber(y)) => x.cmp(&y),
            (Kind::Nimber(_), _) => Ordering::Less,
            (_, Kind::Nimber(_)) => Ordering::Greater,
            (Kind::Form, Kind::Form) => {
                let (al, ar) = self.options(a);
                let (bl, br) = self.options(b);
                al.len()
                    .cmp(&bl.len())
                    .then(ar.len().cmp(&br.len()))
                    .then_with(|| self.cmp_lists(&al, &bl))
                    .then_with(|| self.cmp_lists(&ar, &br))
            }
        }
    }

    fn cmp_lists(&mut self, a: &[GameId], b: &[GameId]) -> Ordering {
        for (&x, &y) in a.iter().zip(b) {
            match self.cmp(x, y) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        a.len().cmp(&b.len())
    }
}

/// Encode a value in the v1 encoding (only tests write v1 bytes now).
#[cfg(test)]
pub(crate) fn encode_value_v1(arena: &Arena, root: GameId) -> Vec<u8> {
    let mut ord = Orderer {
        arena,
        sorted: FxHashMap::default(),
    };
    let mut index: FxHashMap<GameId, u64> = FxHashMap::default();
    let mut nodes: Vec<u8> = Vec::new();
    let mut count: u64 = 0;
    // Iterative post-order walk: (game, children pushed?).
    let mut stack: Vec<(GameId, bool)> = vec![(root, false)];
    while let Some((g, expanded)) = stack.pop() {
        if index.contains_key(&g) {
            continue;
        }
        match ord.kind(g) {
            Kind::Number(x) => {
                nodes.push(TAG_NUMBER);
                put_varint(&mut nodes, zigzag(x.num()));
                put_varint(&mut nodes, x.exp() as u64);
            }
            Kind::Nimber(n) => {
                nodes.push(TAG_NIMBER);
                put_varint(&mut nodes, n as u64);
            }
            Kind::Form => {
                let (l, r) = ord.options(g);
                if !expanded {
                    stack.push((g, true));
                    // Push in reverse so the walk visits options in order.
                    for &c in r.iter().rev().chain(l.iter().rev()) {
                        if !index.contains_key(&c) {
                            stack.push((c, false));
                        }
                    }
                    continue;
                }
                nodes.push(TAG_FORM);
                for side in [&l, &r] {
                    put_varint(&mut nodes, side.len() as u64);
                    for c in side.iter() {
                        put_varint(&mut nodes, index[c]);
                    }
                }
            }
        }
        index.insert(g, count);
        count += 1;
    }
    let mut out = Vec::with_capacity(nodes.len() + 4);
    out.push(VALUE_ENCODING_VERSION_V1);
    put_varint(&mut out, count);
    out.extend_from_slice(&nodes);
    out
}

/// Decode a v1 value into `arena`, rejecting malformed bytes.
pub fn decode_value_v1(arena: &mut Arena, bytes: &[u8]) -> Result<GameId> {
    let mut rd = Reader::new(bytes);
    decode_from(arena, &mut rd)
}

fn decode_from(arena: &mut Arena, rd: &mut Reader<'_>) -> Result<GameId> {
    let bad = |m: String| StoreError::BadValue(m);
    let version = rd.byte()?;
    if version != VALUE_ENCODING_VERSION_V1 {
        return Err(bad(format!(
            "value encoding v{version} is not v{VALUE_ENCODING_VERSION_V1}"
        )));
    }
    let m = rd.varint()?;
    if m == 0 || m > rd.bytes.len() as u64 {
        return Err(bad(format!("implausible node count {m}")));
    }
    let mut ids: Vec<GameId> = Vec::with_capacity(m as usize);
    let mut l: Vec<GameId> = Vec::new();
    let mut r: Vec<GameId> = Vec::new();
    for j in 0..m as usize {
        let id = match rd.byte()? {
            TAG_NUMBER => {
                let num = unzigzag(rd.varint()?);
                let exp = rd.varint()?;
                if exp > 0 && num % 2 == 0 {
                    return Err(bad(format!(
                        "node {j}: number {num}/2^{exp} not normalised"
                    )));
                }
                let exp = u32::try_from(exp).map_err(|_| bad(format!("node {j}: exponent")))?;
                let x = Dyadic::new(num, exp)
                    .map_err(|e| bad(format!("node {j}: number out of range: {e}")))?;
                arena.number(x).map_err(|e| bad(format!("node {j}: {e}")))?
            }
            TAG_NIMBER => {
                let n = rd.varint()?;
                if n == 0 || n > crate::encoding::MAX_NIMBER as u64 {
                    return Err(bad(format!("node {j}: nimber *{n}")));
                }
                arena.nimber(n as u32)
            }
            TAG_FORM => {
                l.clear();
                r.clear();
                for side in [&mut l, &mut r] {
                    let k = rd.varint()?;
                    if k > j as u64 {
                        return Err(bad(format!("node {j}: {k} options")));
                    }
                    for _ in 0..k {
                        let c = rd.varint()?;
                        if c >= j as u64 {
                            return Err(bad(format!(
                                "node {j}: option {c} is not an earlier node"
                            )));
                        }
                        side.push(ids[c as usize]);
                    }
                }
                arena
                    .construct(&l, &r)
                    .map_err(|e| bad(format!("node {j}: {e}")))?
            }
            t => return Err(bad(format!("node {j}: unknown tag {t}"))),
        };
        ids.push(id);
    }
    if !rd.at_end() {
        return Err(bad(format!("{} trailing bytes", rd.bytes.len() - rd.pos)));
    }
    Ok(ids[ids.len() - 1])
}

/// A decoded v1 record: (computed at, partizan version, v1 value bytes).
///
/// Record v1: version byte 1, unix seconds (u64 LE), a length byte and the
/// partizan version string, then the v1 value encoding.
pub fn decode_record_v1(bytes: &[u8]) -> Result<(u64, &str, &[u8])> {
    let bad = |m: &str| StoreError::BadValue(format!("v1 record: {m}"));
    if bytes.first() != Some(&1) {
        return Err(bad("not a v1 record"));
    }
    if bytes.len() < 10 {
        return Err(bad("too short"));
    }
    let mut at = [0u8; 8];
    at.copy_from_slice(&bytes[1..9]);
    let k = bytes[9] as usize;
    if bytes.len() < 10 + k {
        return Err(bad("version string cut short"));
    }
    let version =
        std::str::from_utf8(&bytes[10..10 + k]).map_err(|_| bad("version string is not UTF-8"))?;
    Ok((u64::from_le_bytes(at), version, &bytes[10 + k..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        crate::keys::to_hex(b)
    }

    #[test]
    fn golden_leaves() {
        let mut a = Arena::new();
        let zero = a.zero();
        assert_eq!(hex(&encode_value_v1(&a, zero)), "0101000000");
        let star = a.star();
        assert_eq!(hex(&encode_value_v1(&a, star)), "01010101");
        let x = a.number(Dyadic::new(-3, 2).unwrap()).unwrap();
        assert_eq!(hex(&encode_value_v1(&a, x)), "0101000502");
        let n = a.integer(300).unwrap();
        assert_eq!(hex(&encode_value_v1(&a, n)), "010100d80400");
        let s5 = a.nimber(5);
        assert_eq!(hex(&encode_value_v1(&a, s5)), "01010105");
    }

    #[test]
    fn golden_forms() {
        let mut a = Arena::new();
        let up = a.up();
        assert_eq!(hex(&encode_value_v1(&a, up)), "010300000001010201000101");
        let pm1 = a.parse("{1|-1}").unwrap();
        assert_eq!(hex(&encode_value_v1(&a, pm1)), "01030002000001000201000101");
        // {2|0||-1}: nodes 2, 0, {2|0}, -1, then the root {node 2 | node 3}
        let g = a.parse("{2|0||-1}").unwrap();
        assert_eq!(
            hex(&encode_value_v1(&a, g)),
            "010500040000000002010001010001000201020103"
        );
    }

    #[test]
    fn encoding_ignores_arena_history() {
        // Build the same value in two arenas in different orders.
        let mut a = Arena::new();
        let g1 = a.parse("{0,*|0,*2||-1}").unwrap();
        let mut b = Arena::new();
        for t in ["*3", "{1|*}", "^*", "-1", "*2", "*"] {
            b.parse(t).unwrap();
        }
        let g2 = b.parse("{0,*|0,*2||-1}").unwrap();
        assert_eq!(encode_value_v1(&a, g1), encode_value_v1(&b, g2));
    }

    #[test]
    fn round_trip_into_another_arena() {
        let mut a = Arena::new();
        let mut b = Arena::new();
        for t in [
            "0",
            "*",
            "^",
            "v*",
            "{1|-1}",
            "{2|0||-1}",
            "3/8",
            "-5",
            "*7",
            "{0,*|0,*2||-1}",
        ] {
            let g = a.parse(t).unwrap();
            let bytes = encode_value_v1(&a, g);
            let h = decode_value_v1(&mut b, &bytes).unwrap();
            assert_eq!(b.display(h), a.display(g), "{t}");
            assert_eq!(encode_value_v1(&b, h), bytes, "{t}");
        }
    }

    #[test]
    fn malformed_values_are_errors() {
        let mut a = Arena::new();
        for bad in [
            &[][..],
            &[2, 1, 0, 0, 0],          // unknown version
            &[1, 0],                   // no nodes
            &[1, 1, 0, 0],             // cut short
            &[1, 1, 0, 4, 1],          // 2/2 not normalised
            &[1, 1, 1, 0],             // *0
            &[1, 1, 2, 1, 0, 0],       // option refers to itself
            &[1, 1, 9],                // unknown tag
            &[1, 1, 0, 0, 0, 7],       // trailing byte
            &[1, 0x80, 0x00, 0, 0, 0], // non-minimal varint
            &[1, 200, 1, 0, 0, 0],     // implausible count
        ] {
            assert!(decode_value_v1(&mut a, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn varints() {
        for v in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert_eq!(Reader::new(&out).varint().unwrap(), v);
        }
        for x in [0i64, 1, -1, 63, -64, i64::MAX, i64::MIN] {
            assert_eq!(unzigzag(zigzag(x)), x);
        }
    }
}
