//! The stable byte encoding of a region key (a folded, cropped [`Board`]).
//!
//! Key encoding v1, for a board of `w × h` cells (`n = w·h ≤ 128`):
//!
//! ```text
//! byte 0          key-encoding version (1)
//! byte 1          width  w
//! byte 2          height h
//! bytes 3..       layer 0, then layer 1, then layer 2, each as ⌈n/8⌉ bytes:
//!                 cell i (= row·w + col) is bit (i mod 8) of byte ⌊i/8⌋
//! ```
//!
//! Bits at or beyond cell `n` in a layer's last byte are zero; a key with any
//! of them set, or of the wrong length, is rejected, so every board has
//! exactly one encoding. For example the 2×2 Domineering board `..|.#` is
//! `01 02 02 07 00 00`.

use partizan_games::{Bits, Board};

use crate::error::{Result, StoreError};

/// The version of the region key encoding written by this build.
pub const KEY_ENCODING_VERSION: u8 = 1;

/// The largest number of cells a board may have.
const MAX_CELLS: usize = 128;

/// Encode a board as a key from its parts (width, height, the three layers).
pub fn encode_key_parts(width: usize, height: usize, layers: [Bits; 3]) -> Vec<u8> {
    let n = width * height;
    let per = n.div_ceil(8);
    let mut out = Vec::with_capacity(3 + 3 * per);
    out.push(KEY_ENCODING_VERSION);
    out.push(width as u8);
    out.push(height as u8);
    let mask = cell_mask(n);
    for layer in layers {
        let bits = (layer & mask).to_le_bytes();
        out.extend_from_slice(&bits[..per]);
    }
    out
}

/// Decode a key into (width, height, layers), rejecting anything that is not
/// the one encoding of some board.
pub fn decode_key_parts(bytes: &[u8]) -> Result<(usize, usize, [Bits; 3])> {
    let bad = |m: String| StoreError::BadKey(m);
    if bytes.len() < 3 {
        return Err(bad(format!("{} bytes is too short", bytes.len())));
    }
    if bytes[0] != KEY_ENCODING_VERSION {
        return Err(bad(format!(
            "key encoding v{} is not v{KEY_ENCODING_VERSION}",
            bytes[0]
        )));
    }
    let (w, h) = (bytes[1] as usize, bytes[2] as usize);
    let n = w * h;
    if n > MAX_CELLS {
        return Err(bad(format!(
            "{w}x{h} board has more than {MAX_CELLS} cells"
        )));
    }
    let per = n.div_ceil(8);
    if bytes.len() != 3 + 3 * per {
        return Err(bad(format!(
            "{} bytes for a {w}x{h} board (expected {})",
            bytes.len(),
            3 + 3 * per
        )));
    }
    let mut layers = [0 as Bits; 3];
    for (i, layer) in layers.iter_mut().enumerate() {
        let mut buf = [0u8; 16];
        buf[..per].copy_from_slice(&bytes[3 + i * per..3 + (i + 1) * per]);
        let v = Bits::from_le_bytes(buf);
        if v & !cell_mask(n) != 0 {
            return Err(bad(format!("layer {i} has bits beyond cell {n}")));
        }
        *layer = v;
    }
    Ok((w, h, layers))
}

/// Encode a board as a region key.
pub fn encode_board(board: &Board) -> Vec<u8> {
    encode_key_parts(
        board.width(),
        board.height(),
        [board.layer(0), board.layer(1), board.layer(2)],
    )
}

/// Decode a region key into a board.
pub fn decode_board(bytes: &[u8]) -> Result<Board> {
    let (w, h, layers) = decode_key_parts(bytes)?;
    Board::new(w, h, layers).map_err(|e| StoreError::BadKey(e.to_string()))
}

fn cell_mask(n: usize) -> Bits {
    if n >= 128 {
        Bits::MAX
    } else {
        (1 << n) - 1
    }
}

/// Lower-case hex of some bytes (keys in exports and messages).
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Parse lower- or upper-case hex.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.as_bytes()
        .chunks(2)
        .map(|p| Some((digit(p[0])? << 4) | digit(p[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_2x2() {
        // ..|.#  : cells 0,1,2 empty (layer 0), cell 3 blocked
        assert_eq!(
            encode_key_parts(2, 2, [0b0111, 0, 0]),
            vec![1, 2, 2, 0x07, 0, 0]
        );
    }

    #[test]
    fn golden_3x4_and_wide() {
        // 3 wide, 4 high, 12 cells: two bytes per layer
        let k = encode_key_parts(3, 4, [0x0fff, 0x0001, 0x0800]);
        assert_eq!(k, vec![1, 3, 4, 0xff, 0x0f, 0x01, 0x00, 0x00, 0x08]);
        // 128 cells: 16 bytes per layer
        let k = encode_key_parts(16, 8, [Bits::MAX, 0, 1 << 127]);
        assert_eq!(k.len(), 3 + 48);
        assert_eq!(
            decode_key_parts(&k).unwrap(),
            (16, 8, [Bits::MAX, 0, 1 << 127])
        );
    }

    #[test]
    fn bits_outside_the_board_are_dropped_and_rejected() {
        let k = encode_key_parts(1, 3, [0xff, 0, 0]);
        assert_eq!(k, vec![1, 1, 3, 0x07, 0, 0]);
        assert!(decode_key_parts(&[1, 1, 3, 0x0f, 0, 0]).is_err());
        assert!(decode_key_parts(&[2, 1, 3, 0x07, 0, 0]).is_err());
        assert!(decode_key_parts(&[1, 1, 3, 0x07, 0]).is_err());
        assert!(decode_key_parts(&[1, 12, 12]).is_err());
        assert!(decode_key_parts(&[]).is_err());
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(to_hex(&[0, 0xab, 0x10]), "00ab10");
        assert_eq!(from_hex("00AB10").unwrap(), vec![0, 0xab, 0x10]);
        assert!(from_hex("0").is_none());
        assert!(from_hex("zz").is_none());
    }
}
