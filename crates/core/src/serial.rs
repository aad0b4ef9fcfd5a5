//! Stable, versioned binary encoding of a canonical form as a DAG.
//!
//! Layout (version 1):
//!
//! ```text
//! magic   "PZG"              3 bytes
//! version 0x01               1 byte
//! count   N                  LEB128 varint, N >= 1
//! N nodes, children before parents; the last node is the root:
//!   0x00 number      zigzag-varint numerator, varint exponent    (num / 2^exp)
//!   0x01 up-star     zigzag numerator, varint exponent, zigzag ups, varint nimber
//!                    (x + k.^ + *m, not a number)
//!   0x02 compound    varint #left, varint #right, then that many varint
//!                    indices of earlier nodes (left options, then right)
//! ```
//!
//! Each distinct subform appears once; nodes are numbered by a depth-first
//! walk that visits options in [`Arena::structural_cmp`] order, so the bytes
//! depend only on the game, never on the arena's history. Decoding rejects
//! truncated, trailing, out-of-range, non-canonical or newer-version input
//! with a [`DecodeError`] and never panics. The encoding of a value is unique:
//! the decoder accepts only the exact bytes [`encode`] produces, so byte
//! equality is value equality.

use rustc_hash::FxHashMap;

use crate::dyadic::Dyadic;
use crate::error::{DecodeError, ValueError};
use crate::game::{Arena, GameId, MAX_DEPTH, MAX_NIMBER, MAX_UP};

/// Magic bytes opening every encoding.
pub const MAGIC: &[u8; 3] = b"PZG";
/// The format version this build writes and reads.
pub const VERSION: u8 = 1;

const TAG_NUMBER: u8 = 0;
const TAG_NUS: u8 = 1;
const TAG_COMPOUND: u8 = 2;

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Encodes the canonical form `g` of `arena`.
pub fn encode(arena: &mut Arena, g: GameId) -> Vec<u8> {
    let mut out = Vec::from(&MAGIC[..]);
    out.push(VERSION);
    let mut index: FxHashMap<GameId, u64> = FxHashMap::default();
    let mut body = Vec::new();
    visit(arena, g, &mut index, &mut body);
    put_varint(&mut out, index.len() as u64);
    out.extend_from_slice(&body);
    out
}

fn visit(a: &mut Arena, g: GameId, index: &mut FxHashMap<GameId, u64>, out: &mut Vec<u8>) {
    if index.contains_key(&g) {
        return;
    }
    if let Some(n) = a.as_nus(g) {
        if n.ups == 0 && n.nimber == 0 {
            out.push(TAG_NUMBER);
        } else {
            out.push(TAG_NUS);
        }
        put_varint(out, zigzag(n.number.num()));
        put_varint(out, u64::from(n.number.exp()));
        if n.ups != 0 || n.nimber != 0 {
            put_varint(out, zigzag(i64::from(n.ups)));
            put_varint(out, u64::from(n.nimber));
        }
    } else {
        let l = a.sorted_left(g);
        let r = a.sorted_right(g);
        for &o in l.iter().chain(&r) {
            visit(a, o, index, out);
        }
        out.push(TAG_COMPOUND);
        put_varint(out, l.len() as u64);
        put_varint(out, r.len() as u64);
        for o in l.iter().chain(&r) {
            put_varint(out, index[o]);
        }
    }
    let k = index.len() as u64;
    index.insert(g, k);
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let v = *self
            .b
            .get(self.pos)
            .ok_or(DecodeError::Truncated(self.pos))?;
        self.pos += 1;
        Ok(v)
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let start = self.pos;
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(self.corrupt(start, "varint overflows 64 bits"));
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.corrupt(start, "varint too long"))
    }

    fn corrupt(&self, offset: usize, message: &str) -> DecodeError {
        DecodeError::Corrupt {
            offset,
            message: message.into(),
        }
    }
}

/// Decodes an encoding made by [`encode`] into `arena`.
pub fn decode(arena: &mut Arena, bytes: &[u8]) -> Result<GameId, DecodeError> {
    if bytes.len() < 4 {
        return if MAGIC.starts_with(bytes) {
            Err(DecodeError::Truncated(bytes.len()))
        } else {
            Err(DecodeError::BadMagic)
        };
    }
    if &bytes[..3] != MAGIC {
        return Err(DecodeError::BadMagic);
    }
    if bytes[3] != VERSION {
        return Err(DecodeError::UnsupportedVersion(bytes[3]));
    }
    let mut rd = Reader { b: bytes, pos: 4 };
    let n_at = rd.pos;
    let n = rd.varint()?;
    // every node takes at least 3 bytes
    if n == 0 || n > (bytes.len() as u64) {
        return Err(rd.corrupt(n_at, "implausible node count"));
    }
    let mut ids: Vec<GameId> = Vec::with_capacity(n as usize);
    // nesting depth of compound nodes (number-up-stars count 0)
    let mut depth: Vec<usize> = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let at = rd.pos;
        let tag = rd.byte()?;
        let g = match tag {
            TAG_NUMBER | TAG_NUS => {
                let num = unzigzag(rd.varint()?);
                let exp_at = rd.pos;
                let exp = u32::try_from(rd.varint()?)
                    .map_err(|_| rd.corrupt(exp_at, "exponent out of range"))?;
                let x = Dyadic::new(num, exp).map_err(DecodeError::Value)?;
                if x.num() != num || x.exp() != exp {
                    return Err(rd.corrupt(at, "number not normalised"));
                }
                let (k, m) = if tag == TAG_NUS {
                    let k_at = rd.pos;
                    let k = unzigzag(rd.varint()?);
                    if k.abs() > MAX_UP {
                        return Err(rd.corrupt(k_at, "up multiple out of range"));
                    }
                    let m_at = rd.pos;
                    let m = rd.varint()?;
                    if m > u64::from(MAX_NIMBER) {
                        return Err(rd.corrupt(m_at, "nimber out of range"));
                    }
                    if k == 0 && m == 0 {
                        return Err(rd.corrupt(at, "number encoded as an up-star"));
                    }
                    (k as i32, m as u32)
                } else {
                    (0, 0)
                };
                depth.push(0);
                arena.nus(x, k, m).map_err(DecodeError::Value)?
            }
            TAG_COMPOUND => {
                let nl = rd.varint()?;
                let nr = rd.varint()?;
                let have = ids.len() as u64;
                if nl.saturating_add(nr) > (bytes.len() - rd.pos) as u64 {
                    return Err(DecodeError::Truncated(bytes.len()));
                }
                let mut l = Vec::with_capacity(nl as usize);
                let mut r = Vec::with_capacity(nr as usize);
                let mut d = 0;
                for i in 0..nl + nr {
                    let ref_at = rd.pos;
                    let k = rd.varint()?;
                    if k >= have {
                        return Err(rd.corrupt(ref_at, "reference to a later node"));
                    }
                    d = d.max(depth[k as usize] + 1);
                    let o = ids[k as usize];
                    if i < nl {
                        l.push(o)
                    } else {
                        r.push(o)
                    }
                }
                if d > MAX_DEPTH {
                    return Err(rd.corrupt(at, "nested too deeply"));
                }
                let g = arena.construct(&l, &r).map_err(DecodeError::Value)?;
                l.sort_unstable();
                r.sort_unstable();
                if arena.as_nus(g).is_some()
                    || l.windows(2).any(|w| w[0] == w[1])
                    || r.windows(2).any(|w| w[0] == w[1])
                    || arena.left_options(g) != l.as_slice()
                    || arena.right_options(g) != r.as_slice()
                {
                    return Err(rd.corrupt(at, "options do not form a canonical compound game"));
                }
                depth.push(d);
                g
            }
            t => return Err(rd.corrupt(at, &format!("unknown node tag {t}"))),
        };
        ids.push(g);
    }
    if rd.pos != bytes.len() {
        return Err(rd.corrupt(rd.pos, "trailing bytes"));
    }
    let root = ids
        .last()
        .copied()
        .ok_or(DecodeError::Value(ValueError::Overflow))?;
    // the encoding of a value is unique: reject other orders, unused nodes
    // and repeated subforms, so equal values always have equal bytes
    if encode(arena, root) != bytes {
        return Err(rd.corrupt(4, "valid game but not in canonical encoding order"));
    }
    Ok(root)
}

impl Arena {
    /// Binary encoding of `g` (see [`crate::serial`]).
    pub fn encode(&mut self, g: GameId) -> Vec<u8> {
        encode(self, g)
    }

    /// Decodes a binary encoding (see [`crate::serial`]).
    pub fn decode(&mut self, bytes: &[u8]) -> Result<GameId, DecodeError> {
        decode(self, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> Vec<u8> {
        let mut a = Arena::new();
        let g = a.parse(s).unwrap();
        encode(&mut a, g)
    }

    #[test]
    fn golden_bytes() {
        let h = |v: &[u8]| -> Vec<u8> { [b"PZG\x01".as_slice(), v].concat() };
        assert_eq!(enc("0"), h(&[1, 0, 0, 0]));
        assert_eq!(enc("*"), h(&[1, 1, 0, 0, 0, 1]));
        assert_eq!(enc("1/2"), h(&[1, 0, 2, 1]));
        assert_eq!(enc("-3/2"), h(&[1, 0, 5, 1]));
        assert_eq!(enc("v*3"), h(&[1, 1, 0, 0, 1, 3]));
        assert_eq!(enc("±1"), h(&[3, 0, 2, 0, 0, 1, 0, 2, 1, 1, 0, 1]));
        assert_eq!(
            enc("{2|0||-1}"),
            h(&[5, 0, 4, 0, 0, 0, 0, 2, 1, 1, 0, 1, 0, 1, 0, 2, 1, 1, 2, 3])
        );
        // shared subforms appear once: {1|-1} twice in ±{±1}... {±1,1|...}
        let b = enc("{±1,2|0,±1}");
        let count = b[4];
        assert_eq!(count, 6, "{b:?}"); // 1, -1, ±1, 2, 0, root
    }

    #[test]
    fn round_trip_and_history_independence() {
        let mut a = Arena::new();
        for s in [
            "0",
            "^^*",
            "{2|-1/2}",
            "±{3,{4|0,{1|0,*}},{4|{0,{1/2|0}|v},±1,±{1,{2|0}}}}",
            "Tiny(1)",
            "-17/64",
        ] {
            let g = a.parse(s).unwrap();
            let bytes = encode(&mut a, g);
            let mut fresh = Arena::new();
            let _ = fresh.parse("{5|*3,^}").unwrap(); // different history
            let h = decode(&mut fresh, &bytes).unwrap();
            assert_eq!(fresh.display(h), s);
            assert_eq!(encode(&mut fresh, h), bytes);
        }
    }

    #[test]
    fn rejects_bad_input() {
        let mut a = Arena::new();
        let good = enc("{2|0||-1}");
        for cut in 0..good.len() {
            let r = decode(&mut a, &good[..cut]);
            assert!(r.is_err(), "prefix {cut} decoded");
        }
        assert_eq!(
            decode(&mut a, b"XYZ\x01\x01\x00\x00\x00"),
            Err(DecodeError::BadMagic)
        );
        assert_eq!(
            decode(&mut a, b"PZG\x02\x01\x00\x00\x00"),
            Err(DecodeError::UnsupportedVersion(2))
        );
        let mut trailing = good.clone();
        trailing.push(0);
        assert!(matches!(
            decode(&mut a, &trailing),
            Err(DecodeError::Corrupt { .. })
        ));
        // forward reference
        let fwd = [b"PZG\x01".as_slice(), &[1, 2, 1, 0, 0]].concat();
        assert!(matches!(
            decode(&mut a, &fwd),
            Err(DecodeError::Corrupt { .. })
        ));
        // non-canonical compound: {0|0} spelled out is *, must be tagged up-star
        let star = [b"PZG\x01".as_slice(), &[2, 0, 0, 0, 2, 1, 1, 0, 0]].concat();
        assert!(matches!(
            decode(&mut a, &star),
            Err(DecodeError::Corrupt { .. })
        ));
        // dominated option {0,1|} is not canonical
        let dom = [b"PZG\x01".as_slice(), &[3, 0, 0, 0, 0, 2, 0, 2, 2, 0, 0, 1]].concat();
        assert!(matches!(
            decode(&mut a, &dom),
            Err(DecodeError::Corrupt { .. })
        ));
        // unnormalised number 2/2
        let un = [b"PZG\x01".as_slice(), &[1, 0, 4, 1]].concat();
        assert!(matches!(
            decode(&mut a, &un),
            Err(DecodeError::Corrupt { .. })
        ));
        // a valid game in a non-canonical node order: 1 listed after -1
        let swapped = [b"PZG\x01".as_slice(), &[3, 0, 1, 0, 0, 2, 0, 2, 1, 1, 1, 0]].concat();
        assert!(matches!(
            decode(&mut a, &swapped),
            Err(DecodeError::Corrupt { .. })
        ));
        // an unused extra node
        let extra = [b"PZG\x01".as_slice(), &[2, 0, 2, 0, 0, 0, 0]].concat();
        assert!(matches!(
            decode(&mut a, &extra),
            Err(DecodeError::Corrupt { .. })
        ));
        // huge varints and counts
        let huge = [b"PZG\x01".as_slice(), &[0xff; 12]].concat();
        assert!(decode(&mut a, &huge).is_err());
        let unknown = [b"PZG\x01".as_slice(), &[1, 9]].concat();
        assert!(matches!(
            decode(&mut a, &unknown),
            Err(DecodeError::Corrupt { .. })
        ));
        // random corruption never panics
        let long = enc("±{3,{4|0,{1|0,*}},{4|{0,{1/2|0}|v},±1,±{1,{2|0}}}}");
        for i in 4..long.len() {
            for v in [0u8, 1, 2, 3, 0x7f, 0x80, 0xff] {
                let mut m = long.clone();
                m[i] = v;
                let _ = decode(&mut a, &m);
            }
        }
    }
}
